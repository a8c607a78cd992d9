"""What each action does to a deal: the transitions, kind by kind.

Draws, discards and knocks; melds, lay-offs and joker exchanges (each saves
an undo snapshot); undo; declining at an empty stock; turns starting and
the deal ending (settled when first asked for). Where the game families
differ, the family's policy (:mod:`pyrummy.core.deal.families`) decides.
"""

from __future__ import annotations

import random

from pyrummy.core.actions import Action, ActionKind, parse_action
from pyrummy.core.cards import Card, CardSet
from pyrummy.core.deal.meld_search import meld_of
from pyrummy.core.deal.refusals import Refusals, illegal
from pyrummy.core.deal.state import TableMeld, UndoSnapshot
from pyrummy.core.deal.tables import (
    KIND_DISCARD,
    KIND_DRAW_DISCARD,
    KIND_DRAW_STOCK,
    KIND_KNOCK,
    KIND_LAYOFF,
    KIND_MELD,
    KIND_SWAP_JOKER,
    KIND_UNDO,
    PHASE_DECLINE,
    PHASE_DRAW,
    PHASE_MELD,
    PHASE_OVER,
)
from pyrummy.core.melds import Meld, extend_meld, swap_joker
from pyrummy.core.patterns import CARD_BITS, WITHOUT_CARD
from pyrummy.core.phases import EndReason
from pyrummy.core.settlement import (
    Settlement,
    settle,
    settle_draw,
    settle_going_out,
    settle_no_winner,
)

__all__ = ["Transitions"]


class Transitions(Refusals):
    """Applying actions (a part of :class:`~pyrummy.core.deal.Deal`)."""

    __slots__ = ()

    # -- applying -----------------------------------------------------------
    def apply(self, action: Action | str, seat: int | None = None) -> None:
        """Do ``action`` for the seat to play (``seat``, if given, must be that seat).

        Raises :class:`~pyrummy.core.errors.IllegalActionError` (the reason in ``.reason`` when it
        has a catalogue message); the deal is then exactly as before.
        """
        if seat is not None and seat != self._seat and self.phase is not PHASE_OVER:
            raise illegal("action.not_your_turn", seat=str(self._seat))
        legal = self._legal
        if legal is None:
            legal = self._legal_cached()
        # Fast path: an action taken from legal_actions() (interned) is found
        # by identity, without the dataclass's slow equality.
        for candidate in legal:
            if candidate is action:
                break
        else:
            if self.phase is PHASE_OVER:
                raise illegal("action.deal_over")
            if not isinstance(action, Action):
                action = parse_action(action)
            if action.kind is KIND_MELD and self.phase is PHASE_MELD:
                action = self._space.normalize(action)
            if action not in legal:
                raise self._why_illegal(action)
            action = legal[legal.index(action)]
        seat = self._seat
        self.history.append((seat, action))
        self._legal = None
        kind = action.kind
        # The three commonest kinds first, the rest by the dispatcher.
        if kind is KIND_DISCARD:
            self._discard(seat, action.cards[0].index)
        elif kind is KIND_DRAW_STOCK:
            self._draw_stock(seat)
        elif kind is KIND_DRAW_DISCARD:
            self._draw_discard(seat)
        else:
            self._do(seat, kind, action)

    def _do(self, seat: int, kind: ActionKind, action: Action) -> None:
        if kind is KIND_DRAW_DISCARD:
            self._draw_discard(seat)
        elif kind is KIND_KNOCK:
            self._knock(seat, action.cards[0].index)
        elif kind is KIND_MELD:
            self._meld(seat, action)
        elif kind is KIND_LAYOFF:
            self._layoff(seat, action)
        elif kind is KIND_SWAP_JOKER:
            self._swap(seat, action)
        elif kind is KIND_UNDO:
            self._undo_last(seat)
        else:
            self._decline(seat)

    def _draw_stock(self, seat: int) -> None:
        card = self._stock.pop()
        self._hands[seat] |= CARD_BITS[card]
        if self._stock_public:
            self._public[seat] |= CARD_BITS[card]
        self._drawn = card
        self._undo.clear()
        self.phase = self._play_phase

    def _draw_discard(self, seat: int) -> None:
        card = self._pile.pop()
        bit = CARD_BITS[card]
        self._hands[seat] |= bit
        self._public[seat] |= bit
        self._taken_held[seat] |= bit
        self._drawn = self._taken = card
        self._undo.append(("draw", card))
        self.phase = self._play_phase

    def _discard(self, seat: int, card: int) -> None:
        without = WITHOUT_CARD[card]
        hands = self._hands
        hand = hands[seat] = hands[seat] & without
        public = self._public
        if public[seat] >> card & 1:  # taken discards are a part of the public cards
            public[seat] &= without
            self._taken_held[seat] &= without
        self._pile.append(card)
        if not hand and self._policy.out_by_discard:
            self._go_out(seat)
            return
        if len(self._stock) <= self._wall_stock:
            self._finish(EndReason.WALL, "draw")
            return
        if self._played_turn:
            self._played[seat] = True
        seat += 1
        if seat == self.players:
            seat = 0
        turn = self.turn + 1
        if turn > self.rules.turn_cap or not self._stock:
            self._start_turn(seat)
            return
        # _start_turn's usual case inlined (after every discard but the last).
        self._seat = seat
        self.turn = turn
        self._drawn = self._taken = None
        if self._undo:
            self._undo.clear()
        self._melds_turn = self._undos_turn = 0
        self._played_turn = False
        self.phase = PHASE_DRAW

    def _knock(self, seat: int, card: int) -> None:
        self._hands[seat] &= ~(1 << card)
        self._knock_card = card
        self._finish(EndReason.KNOCK, "showdown", seat)

    def _snapshot(self, seat: int) -> UndoSnapshot:
        return UndoSnapshot(
            self._hands[seat],
            tuple(self._table),
            self._own_meld[seat],
            self._melds_turn,
            self._played_turn,
            self._public[seat],
            self._taken_held[seat],
        )

    def _remove_to_table(self, seat: int, mask: int) -> None:
        self._hands[seat] &= ~mask
        self._public[seat] &= ~mask
        self._taken_held[seat] &= ~mask
        self._played_turn = True

    def _meld(self, seat: int, action: Action) -> None:
        self._undo.append(("table", self._snapshot(seat)))
        meld = meld_of(action, self.rules)
        mask = 0
        for card in action.cards:
            mask |= card.bit
        self._table.append(TableMeld(seat, meld, (seat,) * len(meld.cards)))
        self._table_fits = None
        self._own_meld[seat] = True
        self._melds_turn += 1
        self._remove_to_table(seat, mask)
        self._after_table_play(seat)

    def _layoff(self, seat: int, action: Action) -> None:
        card = action.cards[0]
        target = action.target
        assert target is not None
        self._undo.append(("table", self._snapshot(seat)))
        extended = extend_meld(self._table[target].meld, card, self.rules)
        assert extended is not None
        self._replace_table_meld(seat, target, card, extended)
        self._after_table_play(seat)

    def _swap(self, seat: int, action: Action) -> None:
        card = action.cards[0]
        target = action.target
        assert target is not None
        self._undo.append(("table", self._snapshot(seat)))
        swapped = swap_joker(self._table[target].meld, card)
        assert swapped is not None
        meld, joker = swapped
        self._replace_table_meld(seat, target, card, meld)
        self._hands[seat] |= joker.bit
        self._public[seat] |= joker.bit

    def _replace_table_meld(self, seat: int, target: int, card: Card, meld: Meld) -> None:
        """Table meld ``target`` becomes ``meld``, with ``card`` from ``seat``'s
        hand in it (each other card still credited to whoever laid it)."""
        old = self._table[target]
        who = dict(zip(old.meld.cards, old.laid_by, strict=True))
        who[card] = seat
        self._table[target] = TableMeld(old.owner, meld, tuple(who[c] for c in meld.cards))
        self._table_fits = None
        self._remove_to_table(seat, card.bit)

    def _after_table_play(self, seat: int) -> None:
        if not self._hands[seat]:
            self._go_out(seat)

    def _undo_last(self, seat: int) -> None:
        self._undos_turn += 1
        kind, saved = self._undo.pop()
        if kind == "draw":
            assert isinstance(saved, int)
            bit = 1 << saved
            self._hands[seat] &= ~bit
            self._public[seat] &= ~bit
            self._taken_held[seat] &= ~bit
            self._pile.append(saved)
            self._drawn = self._taken = None
            self.phase = PHASE_DRAW if self._stock else PHASE_DECLINE
            return
        assert isinstance(saved, tuple)
        hand, table, own_meld, melds_turn, played_turn, public, held = saved
        # Cards taken back from the table were seen by everyone: public now.
        returned = hand & ~self._hands[seat]
        self._hands[seat] = hand
        self._table = list(table)
        self._table_fits = None
        self._own_meld[seat] = own_meld
        self._melds_turn = melds_turn
        self._played_turn = played_turn
        self._public[seat] = public | returned
        self._taken_held[seat] = held

    def _decline(self, seat: int) -> None:
        self._policy.decline(self, seat)

    def _stock_ends_deal(self) -> bool:
        rules = self.rules
        if rules.stock_end == "block":
            return True
        return rules.stock_end == "reuse_limit" and self._exhaustions >= rules.reuse_limit

    def _refill(self) -> None:
        """Turn the discard pile over as the new stock (docs/rules/rummy.md §8, basic.md §1)."""
        pile = self._pile
        keep = pile[-1:] if self.rules.recycle_keeps_top else []
        recycled = pile[:-1] if keep else pile[:]
        # Turned face down, the pile's bottom card becomes the stock's top.
        stock = recycled[::-1]
        shuffled = self.rules.stock_end == "shuffle"
        if shuffled:
            if self._rng is None:
                # Seeded from the deck, so that a replay shuffles the same way.
                self._rng = random.Random("pyrummy-refill " + " ".join(map(str, self.deck)))
            self._rng.shuffle(stock)
        self._stock = stock
        self._pile = keep
        self._stock_recycled = True
        self._stock_public = not shuffled

    def _start_turn(self, seat: int, first: bool = False) -> None:
        self._seat = seat
        self.turn = turn = self.turn + 1
        self._drawn = self._taken = None
        if self._undo:
            self._undo.clear()
        self._melds_turn = 0
        self._undos_turn = 0
        self._played_turn = False
        rules = self.rules
        if turn > rules.turn_cap:
            self._end_by_cap()
        elif first and rules.starter_extra_card:
            self.phase = self._play_phase
        elif self._stock:
            self.phase = PHASE_DRAW
        elif self._policy.refills_at_turn_start(rules):
            self._exhaustions += 1
            if self._stock_ends_deal():
                self._finish(EndReason.EXHAUSTED, "no_winner")
                return
            self._refill()
            self.phase = PHASE_DRAW if self._stock else PHASE_DECLINE
        else:
            self.phase = PHASE_DECLINE

    def _end_by_cap(self) -> None:
        self._finish(EndReason.CAP, self._policy.nobody_out)

    def _go_out(self, seat: int) -> None:
        went_rummy = not self._played[seat]
        self._played[seat] = True
        self._finish(EndReason.OUT, "out", seat, went_rummy)

    def _finish(
        self, reason: EndReason, how: str, seat: int | None = None, went_rummy: bool = False
    ) -> None:
        # Settled when first asked for (random play and search often never ask).
        self._pending = (how, seat, went_rummy)
        self.phase = PHASE_OVER
        self.is_over = True
        self._end = reason
        self._undo.clear()

    @property
    def settlement(self) -> Settlement | None:
        """The deal's result, None until it is over."""
        result = self._settlement
        if result is None and self._pending is not None:
            result = self._settlement = self._settle_now(*self._pending)
        return result

    def _settle_now(self, how: str, seat: int | None, went_rummy: bool) -> Settlement:
        hands = self._hand_sets()
        rules = self.rules
        if how == "showdown":
            return settle(hands, seat, rules)
        if how == "draw":
            return settle_draw(hands, rules)
        if how == "no_winner":
            return settle_no_winner(hands, rules)
        assert seat is not None
        return settle_going_out(seat, hands, rules, went_rummy)

    def _hand_sets(self) -> list[CardSet]:
        return [CardSet(mask) for mask in self._hands]
