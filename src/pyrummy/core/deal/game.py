"""One deal of any preset as an explicit state machine (docs/rules/).

A :class:`~pyrummy.core.deal.Deal` is in one :class:`~pyrummy.core.phases.Phase`
at a time; :meth:`Deal.legal_actions <pyrummy.core.deal.Deal.legal_actions>`
lists what the seat to play may do (sorted by the integer encoding of
:mod:`pyrummy.core.actions`, no repeats) and
:meth:`Deal.apply <pyrummy.core.deal.Deal.apply>` does one of them, or raises
:class:`~pyrummy.core.errors.IllegalActionError` with the reason and changes
nothing.

:class:`Deal` holds the state (:class:`~pyrummy.core.deal.state.DealState`)
and hands each step to the phase it belongs to, whose module keeps its
legal actions, its refusal reasons and its transitions side by side:
:mod:`~pyrummy.core.deal.draw` (draw and decline),
:mod:`~pyrummy.core.deal.discard` (discard and knock; the discard that ends
every turn), :mod:`~pyrummy.core.deal.table_play` (melds, lay-offs, joker
exchanges), :mod:`~pyrummy.core.deal.undo`, and
:mod:`~pyrummy.core.deal.turns` (turns starting, the stock running out, the
deal ending and its settlement). Where the game families differ, those ask
the family's policy (:mod:`pyrummy.core.families`). The draw and discard
phases' legal actions, and the discard, are inlined here and in
:func:`~pyrummy.core.deal.discard.discard` for speed: the phase modules'
readable lists are the reference the tests hold them to.

>>> from pyrummy.core.deal import new_deal
>>> deal = new_deal("knock", players=4, seed=1)
>>> [len(deal.hands(s)) for s in range(4)], deal.observe(None).stock_count
([7, 7, 7, 7], 23)
>>> deal.phase, deal.current_seat, [str(a) for a in deal.legal_actions()]
(<Phase.DRAW: 'draw'>, 1, ['draw stock', 'draw discard'])
>>> deal.apply("draw stock")
>>> card = deal.hands(1).sorted_by_rank()[0]
>>> deal.apply(f"knock {card}")
>>> deal.is_over, deal.settlement is not None, deal.current_seat
(True, True, None)

Rulings where the sources are silent (docs/rules/common.md §6-§8, ``docs/actions.md``):

- *Taken discard* (every melding preset): you may not meld or lay off so
  that the card you took from the discard pile this turn is the only card
  left in your hand (you could not discard it), and you may not discard it.
- *Undo*: melding games take back melds, lay-offs and joker exchanges of the
  current turn one by one, latest first, and a draw from the discard pile
  while nothing else of the turn is left to undo. Knock and gin may undo a
  draw from the discard pile before the discard. A stock draw is final.
- *Declining at an empty stock* (``stock_refill="on_decline"``): the pile is
  turned over (or shuffled) into the new stock and the same player draws its
  top card at once, as part of ``decline``.
- *All-seven deals* (Rotham deals in ``rules.all_seven_deals``): a meld or
  lay-off is legal only if the cards left in the hand can still all be
  melded among themselves with at most one card over (to discard); a player
  who started going down this turn may discard only their last card (so
  they go out this turn, or undo). The one-meld-per-turn limit does not
  apply to that turn: going down all at once needs several melds.
- *Going rummy* counts a joker exchange as having put cards down.
- *Undo has no limit* (seed 001: «До сброса любой шаг можно отменить»): a
  person may undo as often as they like before the discard. A deal therefore
  ends only if the players stop undoing at some point (draw the discard,
  undo, draw it again... is a loop the turn cap cannot end, as it counts
  turns, not actions). Bots and the research environments never undo;
  random or scripted play that offers undo must bound it itself (see
  ``tests/core/test_deal_termination.py``). ``Observation.undos_this_turn``
  still counts the undos of the turn, for display.
- *Turn cap*: the turn numbered ``rules.turn_cap + 1`` is never played: the
  deal ends with nobody out (knock: showdown without a knocker; melding:
  :func:`~pyrummy.core.settlement.settle_no_winner`; gin: a draw).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final, cast

from pyrummy.core.actions import BIG_GIN, UNDO, Action, ActionKind, ActionSpace, parse_action
from pyrummy.core.cards import ALL_CARDS, Card, CardSet, parse_card_list
from pyrummy.core.deal import discard as discard_phase
from pyrummy.core.deal import draw as draw_phase
from pyrummy.core.deal import table_play, undo
from pyrummy.core.deal.discard import big_gin, discard, knock
from pyrummy.core.deal.draw import decline, draw_discard, draw_stock
from pyrummy.core.deal.state import DealState, make_copier
from pyrummy.core.deal.tables import (
    DECLINE_BOTH,
    DECLINE_ONLY,
    DISCARD_TABLES,
    DRAW_BOTH,
    DRAW_STOCK_ONLY,
    KIND_DISCARD,
    KIND_DRAW_DISCARD,
    KIND_DRAW_STOCK,
    KIND_KNOCK,
    KIND_LAYOFF,
    KIND_MELD,
    KIND_SWAP_JOKER,
    KIND_UNDO,
    KNOCK_TABLES,
    NO_ACTIONS,
    PHASE_DECLINE,
    PHASE_DISCARD,
    PHASE_DRAW,
    PHASE_MELD,
    PHASE_OFFER,
    PHASE_OVER,
    card_actions,
)
from pyrummy.core.deal.turns import settlement, start_turn
from pyrummy.core.deal.views import observe
from pyrummy.core.errors import IllegalActionError, RulesError, RummyError
from pyrummy.core.messages import Message, render, show_cards
from pyrummy.core.observation import Observation
from pyrummy.core.patterns import CARD_BITS, WITHOUT_CARD
from pyrummy.core.phases import EndReason, Phase
from pyrummy.core.record_writer import deal_record
from pyrummy.core.rules import Rules, find_rules
from pyrummy.core.settlement import Settlement
from pyrummy.core.shuffle import LEGACY_SHUFFLE, check_shuffle
from pyrummy.core.solver import deadwood_of_mask
from pyrummy.core.table import TableMeld

# Deal is public in pyrummy.core.deal (documented there).
__all__ = ["as_rules", "illegal"]


def as_rules(rules: Rules | str, options: dict[str, object] | None = None) -> Rules:
    """``rules`` as :class:`Rules` (a preset's name looked up), with ``options``."""
    if isinstance(rules, Rules):
        return rules.with_options(**options) if options else rules
    return find_rules(rules, **(options or {}))


def illegal(key: str, **params: str) -> IllegalActionError:
    """The error for catalogue message ``key``."""
    message = Message.of(key, **params)
    return IllegalActionError(render(message), reason=message)


class Deal(DealState):
    """One deal: the full state, legal actions and their effects.

    A deal is its :class:`~pyrummy.core.deal.state.DealState` plus the
    dispatch: each step goes to the module of its phase
    (:mod:`~pyrummy.core.deal.draw`, :mod:`~pyrummy.core.deal.discard`,
    :mod:`~pyrummy.core.deal.table_play`, :mod:`~pyrummy.core.deal.undo`),
    which lists it, refuses it or applies it.

    Full state is open here (:meth:`hands`, :attr:`deck`) for tests, replay
    and the table manager; a seat sees only :meth:`observe`. The fields are
    declared once in the state; copies (:meth:`clone`) and pickles follow
    that declaration.
    """

    __slots__ = ()

    # -- construction -------------------------------------------------------
    @classmethod
    def from_deck(
        cls,
        rules_or_deck: Rules | str | Sequence[Card],
        players: int | None = None,
        dealer: int = 0,
        deck: Sequence[Card] | str | None = None,
        deal_number: int = 1,
        *,
        rules: Rules | str | None = None,
        shuffle: str = LEGACY_SHUFFLE,
    ) -> Deal:
        """A deal dealt from an explicit deck order (``deck[0]`` dealt first).

        Called as ``Deal.from_deck(rules, players, dealer, deck)`` or
        ``Deal.from_deck(deck, rules=..., players=..., dealer=...)``.
        ``shuffle`` names the shuffle the deck was dealt by: a stock rebuilt
        by shuffling (``stock_end=shuffle``) is shuffled the same way
        (:func:`~pyrummy.core.shuffle.refill_seed`).

        >>> from pyrummy.core.deal import new_deal
        >>> deal = Deal.from_deck("gin", 2, 0, new_deal("gin", 2, seed=5).deck)
        >>> deal.deck == new_deal("gin", 2, seed=5).deck
        True
        """
        if rules is None:
            if not isinstance(rules_or_deck, (Rules, str)):
                raise RulesError("from_deck needs the rules")
            rules = rules_or_deck
        elif deck is None:
            if isinstance(rules_or_deck, Rules):
                raise RulesError("from_deck needs the deck")
            deck = rules_or_deck
        if deck is None:
            raise RulesError("from_deck needs the deck")
        if players is None:
            raise RulesError("from_deck needs the number of players")
        the_rules = as_rules(rules)
        cards = parse_card_list(deck) if isinstance(deck, str) else list(deck)
        size = the_rules.deck_size
        if not all(isinstance(card, Card) for card in cards):
            bad = next(card for card in cards if not isinstance(card, Card))
            raise RulesError(f"{bad!r} is not a card")
        order = [card.index for card in cards]
        distinct = set(order)
        if len(order) != size or len(distinct) != size or max(distinct) >= size:
            raise RulesError(
                f"the deck must hold each of the {size} cards of {the_rules.name} once "
                f"(got {len(cards)} cards, {len(distinct)} distinct)"
            )
        try:
            check_shuffle(shuffle)
        except ValueError as exc:
            raise RulesError(str(exc)) from None
        deal = cls._blank(the_rules, players, dealer, deal_number)
        deal.deck = tuple(cards)
        deal.shuffle = shuffle
        deal._deal_out(order)
        return deal

    @classmethod
    def _blank(cls, rules: Rules, players: int, dealer: int, deal_number: int) -> Deal:
        if isinstance(players, bool) or not isinstance(players, int):
            raise RulesError(f"players: expected a whole number, got {players!r}")
        rules.check_players(players)
        if isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer < players:
            raise RulesError(f"dealer must be a seat 0-{players - 1}, not {dealer!r}")
        if isinstance(deal_number, bool) or not isinstance(deal_number, int) or deal_number < 1:
            raise RulesError(f"deal_number must be 1 or more, not {deal_number!r}")
        deal = object.__new__(cls)
        deal.rules = rules
        deal.players = players
        deal.dealer = dealer
        deal.deal_number = deal_number
        deal._start_blank()
        deal._seat = (dealer + 1) % players
        deal._derive()
        return deal

    def _deal_out(self, order: list[int]) -> None:
        rules, players = self.rules, self.players
        size = rules.hand_size(players)
        starter = (self.dealer + 1) % players
        hands = self._hands
        for offset in range(players):
            # Round-robin from the starter: seat starter+offset gets every
            # players-th card from position offset.
            mask = 0
            for index in order[offset : size * players : players]:
                mask |= CARD_BITS[index]
            hands[(starter + offset) % players] = mask
        position = size * players
        if rules.starter_extra_card:
            self._hands[starter] |= CARD_BITS[order[position]]
            position += 1
        self._pile = [order[position]]
        self._up_card = order[position]
        self._knock_rules = rules.in_force(order[position])
        self._stock = order[position + 1 :][::-1]
        self.turn = 0
        start_turn(self, starter, first=True)

    # -- public state -------------------------------------------------------
    @property
    def current_seat(self) -> int | None:
        """The seat to play, None once the deal is over."""
        return None if self.is_over else self._seat

    @property
    def settlement(self) -> Settlement | None:
        """The deal's result, None until it is over."""
        return settlement(self)

    @property
    def end_reason(self) -> EndReason:
        """How the deal ended (:class:`~pyrummy.core.phases.EndReason`:
        ``knock``, ``out``, ``decline``, ``exhausted``, ``wall``, ``cap``;
        ``EndReason.ONGOING``, the empty text, while it goes on)."""
        return self._end

    def hands(self, seat: int) -> CardSet:
        """The cards in ``seat``'s hand (full state: for tests and replay)."""
        return CardSet(self._hands[seat])

    @property
    def stock(self) -> tuple[Card, ...]:
        """The stock, top card first (full state)."""
        return tuple(ALL_CARDS[i] for i in reversed(self._stock))

    @property
    def discard_pile(self) -> tuple[Card, ...]:
        """The discard pile, bottom to top (public)."""
        return tuple(ALL_CARDS[i] for i in self._pile)

    @property
    def table(self) -> tuple[TableMeld, ...]:
        return tuple(self._table)

    @property
    def knock_card(self) -> Card | None:
        return None if self._knock_card is None else ALL_CARDS[self._knock_card]

    @property
    def up_card(self) -> Card | None:
        """The deal's first up-card (public; Oklahoma reads the knock limit from it)."""
        return None if self._up_card is None else ALL_CARDS[self._up_card]

    @property
    def action_space(self) -> ActionSpace:
        return self._space

    def __repr__(self) -> str:
        state = (
            "over" if self.is_over else f"turn {self.turn}, seat {self._seat} {self.phase.value}"
        )
        return f"<Deal {self.rules.name} {self.players} players, deal {self.deal_number}, {state}>"

    # -- legal actions ------------------------------------------------------
    def legal_actions(self) -> list[Action]:
        """Every action the seat to play may take, sorted by number, no repeats."""
        legal = self._legal
        if legal is None:
            # The draw and discard phases (knock, gin) inlined: nearly every
            # step of those games, so a call less on the engine's hot loop.
            # The references: draw.legal_actions and discard.legal_actions.
            phase = self.phase
            if phase is PHASE_DRAW:
                legal = DRAW_BOTH if self._pile and not self._stock_only else DRAW_STOCK_ONLY
            elif phase is PHASE_DISCARD and not self._at_wall:
                hand = self._hands[self._seat]
                taken = self._taken
                options = hand if taken is None or self._taken_free else hand & WITHOUT_CARD[taken]
                # The discards: card_actions(DISCARD_TABLES, options) inlined,
                # into one list (no intermediate tuples), the mask's bytes
                # read at once (no shifted copies of the mask).
                b0, b1, b2, b3, b4, b5, b6 = DISCARD_TABLES
                raw = options.to_bytes(7, "little")
                listed = [
                    *b0[raw[0]],
                    *b1[raw[1]],
                    *b2[raw[2]],
                    *b3[raw[3]],
                    *b4[raw[4]],
                    *b5[raw[5]],
                    *b6[raw[6]],
                ]
                if self._undo:
                    listed.insert(0, UNDO)
                knocks = self._policy.knock_cards(hand, options, self._knock_rules)
                if knocks:
                    listed += card_actions(KNOCK_TABLES, knocks)
                    if self._space.big_gin_number >= 0 and not deadwood_of_mask(hand):
                        listed.append(BIG_GIN)
                legal = listed
            elif phase is PHASE_MELD:
                legal = table_play.legal_actions(self)
            elif phase is PHASE_DISCARD:  # at the wall: knocks only
                legal = discard_phase.legal_actions(self)
            elif phase is PHASE_DECLINE:
                if self._at_wall:
                    legal = draw_phase.legal_actions(self)
                else:
                    legal = DECLINE_BOTH if self._pile else DECLINE_ONLY
            elif phase is PHASE_OFFER:
                legal = DECLINE_BOTH
            else:
                legal = NO_ACTIONS
            self._legal = legal
        return list(legal)

    def legal_action_ids(self) -> list[int]:
        """The numbers (:class:`~pyrummy.core.actions.ActionSpace`) of the legal actions."""
        encode = self._space.encode
        return [encode(action) for action in self.legal_actions()]

    def _legal_cached(self) -> Sequence[Action]:
        """The legal actions as cached (listed first if need be)."""
        legal = self._legal
        if legal is None:
            self.legal_actions()
            legal = self._legal
            assert legal is not None
        return legal

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
        # The three commonest kinds first, the rest by their phase's module.
        if kind is KIND_DISCARD:
            discard(self, seat, action.cards[0].index)
        elif kind is KIND_DRAW_STOCK:
            draw_stock(self, seat)
        elif kind is KIND_DRAW_DISCARD:
            draw_discard(self, seat)
        elif kind is KIND_KNOCK:
            knock(self, seat, action.cards[0].index)
        elif kind is KIND_MELD:
            table_play.meld(self, seat, action)
        elif kind is KIND_LAYOFF:
            table_play.layoff(self, seat, action)
        elif kind is KIND_SWAP_JOKER:
            table_play.swap(self, seat, action)
        elif kind is KIND_UNDO:
            undo.undo_last(self, seat)
        elif kind is ActionKind.BIG_GIN:
            big_gin(self, seat)
        else:
            decline(self, seat)

    # -- refusals -----------------------------------------------------------
    def _why_illegal(self, action: Action) -> IllegalActionError:
        problem = self._problem(action)
        if problem is None:
            problem = Message.of("action.not_legal", action=str(action))
        return IllegalActionError(render(problem), reason=problem)

    def _problem(self, action: Action) -> Message | None:
        """Why ``action`` is refused (only refused actions are explained, so the
        explanations cost nothing on the hot path): asked of its phase's module."""
        kind = action.kind
        if kind is ActionKind.UNDO:
            return undo.problem(self)
        if kind in (ActionKind.DRAW_STOCK, ActionKind.DRAW_DISCARD, ActionKind.DECLINE):
            return draw_phase.problem(self, action)
        if self.phase in (Phase.DRAW, Phase.DECLINE, Phase.OFFER):
            return Message.of("action.draw_first")
        if kind is ActionKind.BIG_GIN:
            return discard_phase.big_gin_problem(self)
        policy = self._policy
        if kind is ActionKind.KNOCK and not policy.knocks:
            return Message.of("action.no_knock")
        if not policy.table_play and kind not in (ActionKind.DISCARD, ActionKind.KNOCK):
            return Message.of("action.layoff_not_allowed")
        if kind is ActionKind.MELD:
            return table_play.meld_problem(self, action)
        card = action.cards[0] if action.cards else None
        if card is None or not self._hands[self._seat] >> card.index & 1:
            return Message.of("action.not_in_hand", card=show_cards(action.cards))
        if kind is ActionKind.DISCARD or kind is ActionKind.KNOCK:
            return discard_phase.problem(self, kind, card)
        return table_play.problem(self, kind, card, action.target)

    # -- copies and views ---------------------------------------------------
    def clone(self) -> Deal:
        """An independent copy (fast: bots clone a lot)."""
        return cast("Deal", _copy_deal(self))

    def observe(self, seat: int | None = None) -> Observation:
        """What ``seat`` may know (``None``: a spectator, public facts only)."""
        return observe(self, seat, self.legal_actions)

    def record(self) -> str:
        """This deal as a game record (:func:`pyrummy.core.record.emit_record`):
        headers, ``Deal N``, ``Dealer: S``, ``Deck: ...``, one ``seat: action``
        line per action, then the outcome once over. ``parse_record`` replays it.

        >>> from pyrummy.core.deal import new_deal
        >>> deal = new_deal("gin", 2, seed=3)
        >>> deal.apply("draw stock")
        >>> deal.record().splitlines()[7]
        '1: draw stock'
        """
        if not self.deck:
            raise RummyError("a sampled deal has no record: its deck is not known")
        return deal_record(self)


_copy_deal: Final = make_copier(Deal)
