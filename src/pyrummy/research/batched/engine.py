"""Many deals of Knock Rummy or Gin stepped at once: state arrays and transitions.

:class:`BatchedDeals` holds ``batch`` deals of one preset and player count
as numpy arrays, one row per deal, and applies one action per row at once.
The rules are the core's (:mod:`pyrummy.core.deal`), written as array
operations for the two families whose turn is "draw, then discard or
knock" (``knock``, ``knock-target``, ``gin`` and their options without
jokers); the differential test (``tests/research/test_research_batched.py``) holds
every observation, mask, reward and end to the core's.

State, per row (cards are numbers ``13 * suit + rank``, hands are uint64
masks ``1 << card``):

- ``deck``: the deal's deck order (``deck[0]`` dealt first, as
  ``Deal.from_deck`` deals it);
  the stock is ``deck[stock_pos:]``, its top card at ``stock_pos``;
- ``pile`` / ``pile_len`` / ``pile_mask``: the discard pile, bottom first,
  and ``top``, its top card (-1: the pile is empty);
- ``hands``, ``public`` (cards everybody knows to be in the hand: taken
  discards) and ``taken_held`` per seat;
- ``seat`` (to play), ``phase`` (the index of
  ``PHASES``), ``turn``, ``drawn`` and
  ``taken`` (card numbers, -1 for none), ``dealer``.

Legal actions are kept as two uint64 words per row (``legal_low``: the
action numbers 0-63, ``legal_high``: 64-127), which is what both the
0/1 mask and the vectorised random choice read. Where the core's rules are
the source of a step, the step says which method it mirrors.
"""

from __future__ import annotations

from typing import Final

import numpy as np
import numpy.typing as npt

from pyrummy.core.actions import action_space
from pyrummy.core.cards import ALL_CARDS, N_STANDARD
from pyrummy.core.errors import RulesError
from pyrummy.core.families import family_of
from pyrummy.core.rules import Rules, find_rules
from pyrummy.core.values import value_table
from pyrummy.research.batched.deadwood import IntArray, MaskArray, deadwoods, suit_table
from pyrummy.research.batched.gin_showdown import gin_rewards

#: Phase codes: the index of each phase in the encoding's phase block.
DEAL, DRAW, DECLINE, MELD, DISCARD, OVER = range(6)
#: Action numbers of the knock and gin action space.
DRAW_STOCK, DRAW_DISCARD, DECLINE_ACTION = 0, 1, 2
DISCARD_BASE: Final = 4
KNOCK_BASE: Final = DISCARD_BASE + N_STANDARD
#: The legal words: actions 0-63 in the low word, 64-127 in the high one.
WORD: Final = 64

BITS: Final = np.left_shift(np.uint64(1), np.arange(64, dtype=np.uint64))
ZERO: Final = np.uint64(0)
#: Amounts of the knock settlement are counted in 60ths: shared among up
#: to 6 seats, every share is a whole number of them (floats would round).
_UNIT: Final = 60

Int8Array = npt.NDArray[np.int8]
FloatArray = npt.NDArray[np.float64]
BoolArray = npt.NDArray[np.bool_]


class UnsupportedRulesError(RulesError):
    """The batched environments do not play these rules."""


def check_supported(rules: Rules) -> None:
    """Refuse rules the batched engine does not play, saying which it does."""
    if family_of(rules).table_play or rules.jokers:
        raise UnsupportedRulesError(
            f"the batched environments play the knock and gin families without jokers "
            f"(knock, knock-target, gin), not {rules.name}"
            + (f" with {rules.jokers} jokers" if rules.jokers else "")
        )
    standard = [name for name in _STANDARD_GIN_OPTIONS if getattr(rules, name) != _PLAIN_GIN[name]]
    if standard:
        raise UnsupportedRulesError(
            f"the batched environments do not play the standard gin option(s) "
            f"{', '.join(standard)} ({rules.name}); use the PettingZoo, Gymnasium or "
            f"OpenSpiel-style environments"
        )


#: Standard gin's options the batched engine does not play, and their plain values.
_STANDARD_GIN_OPTIONS: Final = (
    "up_card_offer",
    "oklahoma",
    "big_gin_bonus",
    "tie_undercuts",
    "discard_taken",
    "pile_draw_limit",
    "wall_knock",
)
_PLAIN_GIN: Final = {name: getattr(find_rules("gin"), name) for name in _STANDARD_GIN_OPTIONS}


def _cards_of(masks: MaskArray) -> npt.NDArray[np.uint8]:
    """The bits of each mask: (rows, 64) of 0/1, bit 0 first."""
    bits: npt.NDArray[np.uint8] = np.unpackbits(
        masks.astype(np.uint64).view(np.uint8).reshape(-1, 8), axis=1, bitorder="little"
    )
    return bits


class BatchedDeals:
    """``batch`` deals of ``rules`` for ``players`` seats (see the module docstring).

    Rows are dealt with :meth:`deal` and stepped with :meth:`step`; a row
    whose deal ends has ``over`` set and its ``rewards`` (the deal's
    :func:`~pyrummy.nn.encoding.deal_rewards`) until it is dealt again.
    """

    def __init__(self, rules: Rules, players: int, batch: int) -> None:
        check_supported(rules)
        rules.check_players(players)
        if batch < 1:
            raise RulesError(f"batch must be at least 1, not {batch}")
        self.rules = rules
        self.players = players
        self.batch = batch
        # Gin's rules: the knock limit, the wall, the gin showdown with lay-offs.
        self.gin = family_of(rules).showdown == "gin"
        self.hand_size = rules.hand_size(players)
        self.deck_size = rules.deck_size
        self.turn_cap = rules.turn_cap
        self.wall_stock = rules.wall_cards if self.gin else -1
        self.space = action_space(rules)
        assert self.space.size == KNOCK_BASE + N_STANDARD
        self.table = suit_table(rules.ace)
        self.values = np.array(value_table(rules)[:N_STANDARD], np.int64)
        #: The cards worth at least ``v``, indexed by ``v`` (0 to the highest value + 1).
        self._worth_at_least = np.array(
            [
                np.bitwise_or.reduce(BITS[:N_STANDARD][self.values >= v], initial=ZERO)
                for v in range(int(self.values.max()) + 2)
            ],
            np.uint64,
        )
        b, p = batch, players
        self.deck = np.zeros((b, self.deck_size), np.int64)
        self.stock_pos = np.zeros(b, np.int64)
        self.pile = np.zeros((b, self.deck_size), np.int64)
        self.pile_len = np.zeros(b, np.int64)
        self.pile_mask = np.zeros(b, np.uint64)
        self.top = np.full(b, -1, np.int64)
        self.hands = np.zeros((b, p), np.uint64)
        self.public = np.zeros((b, p), np.uint64)
        self.taken_held = np.zeros((b, p), np.uint64)
        self.seat = np.zeros(b, np.int64)
        self.phase = np.full(b, OVER, np.int64)
        self.turn = np.zeros(b, np.int64)
        self.drawn = np.full(b, -1, np.int64)
        self.taken = np.full(b, -1, np.int64)
        self.dealer = np.zeros(b, np.int64)
        self.rewards = np.zeros((b, p), np.float64)
        self.legal_low = np.zeros(b, np.uint64)
        self.legal_high = np.zeros(b, np.uint64)
        self._rows = np.arange(b)
        # Flat views: one index per (row, seat) or (row, card position) is
        # several times faster in numpy than a pair of index arrays.
        self.hands_flat = self.hands.reshape(-1)
        self.public_flat = self.public.reshape(-1)
        self.taken_flat = self.taken_held.reshape(-1)
        self.deck_flat = self.deck.reshape(-1)
        self.pile_flat = self.pile.reshape(-1)

    # -- dealing ---------------------------------------------------------------
    def deal(self, rows: IntArray, decks: npt.ArrayLike, dealers: npt.ArrayLike) -> None:
        """Deal ``decks[i]`` (card numbers, dealt first to last) to row
        ``rows[i]`` with dealer ``dealers[i]`` (as the core's ``Deal.from_deck`` deals them)."""
        p, size = self.players, self.hand_size
        order = np.asarray(decks, np.int64)
        dealer = np.asarray(dealers, np.int64)
        starter = (dealer + 1) % p
        card_bits = BITS[order]
        for offset in range(p):
            mask = np.bitwise_or.reduce(card_bits[:, offset : size * p : p], axis=1)
            self.hands[rows, (starter + offset) % p] = mask
        at = size * p
        self.deck[rows] = order
        self.pile[rows, 0] = order[:, at]
        self.pile_len[rows] = 1
        self.pile_mask[rows] = card_bits[:, at]
        self.top[rows] = order[:, at]
        self.stock_pos[rows] = at + 1
        self.public[rows] = ZERO
        self.taken_held[rows] = ZERO
        self.seat[rows] = starter
        self.phase[rows] = DRAW
        self.turn[rows] = 1
        self.drawn[rows] = -1
        self.taken[rows] = -1
        self.dealer[rows] = dealer
        self.rewards[rows] = 0.0
        self._list_legal(rows)

    def shuffled_decks(self, rng: np.random.Generator, count: int) -> IntArray:
        """``count`` uniformly shuffled decks."""
        decks: IntArray = np.argsort(rng.random((count, self.deck_size)), axis=1)
        return decks

    # -- views -------------------------------------------------------------------
    @property
    def over(self) -> BoolArray:
        result: BoolArray = self.phase == OVER
        return result

    def stock_count(self) -> IntArray:
        result: IntArray = self.deck_size - self.stock_pos
        return result

    def legal_mask(self, rows: IntArray | None = None, out: Int8Array | None = None) -> Int8Array:
        """The 0/1 int8 mask of the legal actions of ``rows`` (all by default)."""
        low = self.legal_low if rows is None else self.legal_low[rows]
        high = self.legal_high if rows is None else self.legal_high[rows]
        words = np.empty((low.shape[0], 2), np.uint64)
        words[:, 0] = low
        words[:, 1] = high
        size = self.space.size
        bits = np.unpackbits(words.view(np.uint8), axis=1, count=size, bitorder="little")
        if out is None:
            return bits.view(np.int8)
        out.view(np.uint8)[:] = bits
        return out

    def is_legal(self, actions: IntArray, rows: IntArray | None = None) -> BoolArray:
        """Whether each action is legal in its row (``rows``, all by default;
        a row that is over has none)."""
        actions = np.asarray(actions, np.int64)
        low = self.legal_low if rows is None else self.legal_low[rows]
        high = self.legal_high if rows is None else self.legal_high[rows]
        # As uint64 a negative action is huge, so one comparison bounds both ends.
        action = actions.astype(np.uint64)
        word = np.where(action < np.uint64(WORD), low, high)
        bit = (word >> (action & np.uint64(WORD - 1))) & np.uint64(1)
        result: BoolArray = (action < np.uint64(self.space.size)) & bit.astype(bool)
        return result

    # -- stepping ------------------------------------------------------------------
    def step(self, actions: IntArray, rows: IntArray | None = None) -> IntArray:
        """Apply ``actions[i]`` to row ``rows[i]`` (every row by default).

        The actions must be legal (:meth:`is_legal`); the rows whose deal
        ended in this step are returned (their ``rewards`` set).
        """
        if rows is None:
            rows = self._rows
        actions = np.asarray(actions, np.int64)
        ended: list[IntArray] = []
        draw_stock = actions == DRAW_STOCK
        draw_pile = actions == DRAW_DISCARD
        discard = (actions >= DISCARD_BASE) & (actions < KNOCK_BASE)
        knock = actions >= KNOCK_BASE
        decline = actions == DECLINE_ACTION
        if draw_stock.any():
            self._draw_stock(rows[draw_stock])
        if draw_pile.any():
            self._draw_pile(rows[draw_pile])
        if discard.any():
            ended.append(self._discard(rows[discard], actions[discard] - DISCARD_BASE))
        if knock.any():
            where = rows[knock]
            ended.append(self._knock(where, actions[knock] - KNOCK_BASE))
        if decline.any():
            where = rows[decline]
            self._finish(where, knocker=np.full(where.shape[0], -1, np.int64))
            ended.append(where)
        self._list_legal(rows)
        return np.concatenate(ended) if ended else rows[:0]

    def _draw_stock(self, rows: IntArray) -> None:
        """:meth:`Transitions._draw_stock` (the stock's order is never public here)."""
        at = rows * self.players + self.seat[rows]
        card = self.deck_flat[rows * self.deck_size + self.stock_pos[rows]]
        self.stock_pos[rows] += 1
        self.hands_flat[at] |= BITS[card]
        self.drawn[rows] = card
        self.phase[rows] = DISCARD

    def _draw_pile(self, rows: IntArray) -> None:
        """:meth:`Transitions._draw_discard`."""
        at = rows * self.players + self.seat[rows]
        top = self.pile_len[rows] - 1
        card = self.pile_flat[rows * self.deck_size + top]
        bit = BITS[card]
        self.pile_len[rows] = top
        self.pile_mask[rows] &= ~bit
        below = self.pile_flat[rows * self.deck_size + np.maximum(top - 1, 0)]
        self.top[rows] = np.where(top > 0, below, -1)
        self.hands_flat[at] |= bit
        self.public_flat[at] |= bit
        self.taken_flat[at] |= bit
        self.drawn[rows] = card
        self.taken[rows] = card
        self.phase[rows] = DISCARD

    def _discard(self, rows: IntArray, cards: IntArray) -> IntArray:
        """:meth:`Transitions._discard` and the turn it starts; the rows that ended."""
        seats = self.seat[rows]
        at = rows * self.players + seats
        without = ~BITS[cards]
        self.hands_flat[at] &= without
        # Taken discards are a part of the public cards: both forget the card.
        self.public_flat[at] &= without
        self.taken_flat[at] &= without
        self.pile_flat[rows * self.deck_size + self.pile_len[rows]] = cards
        self.pile_len[rows] += 1
        self.pile_mask[rows] |= ~without
        self.top[rows] = cards
        stock = self.deck_size - self.stock_pos[rows]
        wall = stock <= self.wall_stock
        nxt = seats + 1
        nxt[nxt == self.players] = 0
        turn = self.turn[rows] + 1
        capped = ~wall & (turn > self.turn_cap)
        going = ~wall
        self.seat[rows[going]] = nxt[going]
        self.turn[rows[going]] = turn[going]
        self.drawn[rows] = -1
        self.taken[rows] = -1
        self.phase[rows[going]] = np.where(stock[going] > 0, DRAW, DECLINE)
        ended = rows[wall | capped]
        if ended.size:
            # The wall and the turn cap end the deal with nobody out:
            # knock a showdown without a knocker, gin a draw.
            self._finish(ended, knocker=np.full(ended.shape[0], -1, np.int64))
        return ended

    def _knock(self, rows: IntArray, cards: IntArray) -> IntArray:
        """:meth:`Transitions._knock`: the card leaves the hand (not the public cards)."""
        seats = self.seat[rows]
        self.hands_flat[rows * self.players + seats] &= ~BITS[cards]
        self._finish(rows, knocker=seats)
        return rows

    # -- the end --------------------------------------------------------------------
    def _finish(self, rows: IntArray, knocker: IntArray) -> None:
        """The deal of ``rows`` is over: settle it (``knocker`` -1: nobody knocked)."""
        self.phase[rows] = OVER
        if self.gin:
            self.rewards[rows] = 0.0
            for row, seat in zip(
                rows[knocker >= 0].tolist(), knocker[knocker >= 0].tolist(), strict=True
            ):
                self.rewards[row] = self._gin_rewards(row, seat)
        else:
            self.rewards[rows] = self._knock_rewards(self.hands[rows], knocker)

    def _gin_rewards(self, row: int, knocker: int) -> tuple[float, ...]:
        """A gin knock, settled on ints (:mod:`~pyrummy.research.batched.gin_showdown`)."""
        hands = self.hands[row].tolist()
        return gin_rewards(knocker, hands[knocker], hands[1 - knocker], self.rules)

    def _knock_rewards(self, hands: MaskArray, knocker: IntArray) -> FloatArray:
        """:func:`~pyrummy.core.settlement.knock_transfers`, row by row at once.

        Amounts are counted in 60ths, so every share of a shared amount is
        whole and the net of each seat is exact; ``net / 60`` is then the
        float of the core's fraction.
        """
        rules, p = self.rules, self.players
        count = hands.shape[0]
        dead = deadwoods(hands.reshape(-1), self.table).reshape(count, p)
        low = dead.min(axis=1, keepdims=True)
        lowest = dead == low
        n_low = lowest.sum(axis=1, keepdims=True)
        net = np.zeros((count, p), np.int64)
        has = knocker >= 0
        k = np.where(has, knocker, 0)
        own = dead[np.arange(count), k][:, None]
        rum = has[:, None] & (own == 0)
        knocker_seat = np.arange(p)[None, :] == k[:, None]
        tied = has[:, None] & ~rum & (n_low > 1) & (own == low)
        # Everyone else pays the lowest the difference, shared (no knocker,
        # the knocker lowest alone, the knocker beaten).
        pays_lowest = ~rum & ~tied
        diff = (dead - low) * _UNIT
        paid = np.where(lowest, 0, diff)
        received = np.where(lowest, paid.sum(axis=1, keepdims=True) // n_low, 0)
        net += np.where(pays_lowest, received - paid, 0)
        # Rum: every other seat pays the knocker its count and the rum bonus.
        rum_paid = np.where(knocker_seat, 0, (dead + rules.rum_bonus) * _UNIT)
        rum_net = np.where(knocker_seat, rum_paid.sum(axis=1, keepdims=True), -rum_paid)
        net += np.where(rum, rum_net, 0)
        # A tie with the knocker: the other lowest share what the higher pay.
        winners = lowest & ~knocker_seat
        n_win = np.maximum(winners.sum(axis=1, keepdims=True), 1)
        tie_paid = np.where(dead > low, diff, 0)
        tie_net = np.where(winners, tie_paid.sum(axis=1, keepdims=True) // n_win, -tie_paid)
        net += np.where(tied, tie_net, 0)
        # The knocker beaten: the knock penalty on top.
        beaten = has[:, None] & ~rum & (own > low)
        penalty = rules.knock_penalty * _UNIT
        if rules.knock_penalty_mode == "each_lower":
            lower = dead < own
            pen = np.where(lower, penalty, 0)
            pen_net = np.where(knocker_seat, -pen.sum(axis=1, keepdims=True), pen)
        else:
            pen_net = np.where(knocker_seat, -penalty, np.where(lowest, penalty // n_low, 0))
        net += np.where(beaten, pen_net, 0)
        result: FloatArray = net / _UNIT
        return result

    # -- legal actions -----------------------------------------------------------------
    def _list_legal(self, rows: IntArray) -> None:
        """The legal words of ``rows`` (:meth:`LegalActions.legal_actions`, undo left out)."""
        phase = self.phase[rows]
        has_pile = self.pile_len[rows] > 0
        pile_bit = np.where(has_pile, BITS[DRAW_DISCARD], ZERO)
        low = np.where(
            phase == DRAW,
            BITS[DRAW_STOCK] | pile_bit,
            np.where(phase == DECLINE, BITS[DECLINE_ACTION] | pile_bit, ZERO),
        )
        high = np.zeros(rows.shape[0], np.uint64)
        playing = np.flatnonzero(phase == DISCARD)
        if playing.size:
            where = rows[playing]
            hand = self.hands_flat[where * self.players + self.seat[where]]
            taken = self.taken[where]
            options = np.where(taken >= 0, hand & ~BITS[np.maximum(taken, 0)], hand)
            low[playing] = options << np.uint64(DISCARD_BASE)
            knocks = self._knocks(hand, options)
            # Knock c is action KNOCK_BASE + c = 56 + c: bits 56-63 of the
            # low word, the rest from bit 0 of the high word.
            low[playing] |= knocks << np.uint64(KNOCK_BASE)
            high[playing] = knocks >> np.uint64(WORD - KNOCK_BASE)
        self.legal_low[rows] = low
        self.legal_high[rows] = high

    def _knocks(self, hand: MaskArray, options: MaskArray) -> MaskArray:
        """The cards each hand may knock with (:meth:`FamilyPolicy.knock_actions`)."""
        if not self.gin:
            return options
        result = np.zeros(hand.shape[0], np.uint64)
        limit = self.rules.knock_limit
        # Giving back card c lowers the deadwood by its value at most, so
        # only the cards worth the deadwood above the limit can bring it down.
        need = np.clip(deadwoods(hand, self.table) - limit, 0, self._worth_at_least.shape[0] - 1)
        candidates = options & self._worth_at_least[need]
        near = np.flatnonzero(candidates)
        if near.size:
            bits = _cards_of(candidates[near]).astype(bool)[:, :N_STANDARD]
            which, card = np.nonzero(bits)
            left = deadwoods(hand[near][which] & ~BITS[card], self.table)
            ok = left <= limit
            np.bitwise_or.at(result, near[which[ok]], BITS[card[ok]])
        return result

    # -- the core's deal of a row (tests, bots) ------------------------------------------------
    def deck_cards(self, row: int) -> list[object]:
        """Row ``row``'s deck as cards (what ``Deal.from_deck`` takes)."""
        return [ALL_CARDS[i] for i in self.deck[row].tolist()]
