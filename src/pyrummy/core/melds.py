"""Melds: checking them, explaining why not, laying off, and finding them all.

A *set* is 3 or 4 cards of one rank; a *run* is 3 or more cards of one suit
in consecutive ranks. Where the ace goes is ``rules.ace``:

- ``low``: A-2-3 is a run; Q-K-A and K-A-2 are not;
- ``high_or_low``: Q-K-A is a run too, but not K-A-2 (one run cannot use the
  ace both low and high);
- ``around_the_corner``: runs wrap, K-A-2 included; at most 13 cards.

>>> check_meld("7H 9H 8H", "rummy")
Meld(RUN, '7H 8H 9H')
>>> check_meld("QH KH AH", "basic")
Traceback (most recent call last):
...
pyrummy.core.melds.InvalidMeldError: Q-K-A is not a run: the ace is low
>>> explain_meld("5H 7H", "rummy"), explain_meld("5H 7H 9H", "rummy", lang="ru")
('a run needs at least 3 cards', '5♥ 7♥ 9♥: не хватает 6♥ 8♥')
>>> extend_meld(check_meld("7H 8H 9H", "rummy"), Card("TH"), "rummy")
Meld(RUN, '7H 8H 9H TH')

Rulings on jokers (Rotham, docs/rules/rotham.md §2; the source only says a joker stands
for any card of a set or run):

- A joker stands for exactly one card, any card a set or a run needs (seed
  004: «Джокер может быть использован в качестве замены любой карты,
  необходимой для слияния набора или бега»). So a meld needs one real card
  at least, and one real card with two or three jokers is a meld. Jokers
  alone are not (nothing would say what they stand for).
- What one real card with jokers represents: a *set* of the real card's
  rank (``5H X1 X2``: three fives, the jokers standing for missing suits),
  unless the player names a *run* (``check_meld(..., run=True)``; in an
  action, ``meld run 5H X1 X2``). A named run reads the card order as
  positions (``X1 5H X2`` is 4-5-6), or, when that order does not fit the
  ace rule, puts the jokers above the real card first, then below. With
  two or more real cards the cards say which it is and naming is not
  needed (a named run must still be one). A set with jokers has at most 4
  cards.
- Where a joker sits in a run is read from the order the cards are given
  (``7H X1 9H``: X1 is 8H; ``7H 8H X1``: X1 is 9H) when that order is a
  valid run. Otherwise (or when order says nothing) the jokers fill the gaps
  between the real cards first, and any left over extend the run upward,
  then downward where upward is impossible. Without jokers the order never
  matters and the run is put in rank order.
- Laid off (:func:`extend_meld`), a joker goes on the high end of a run, or
  the low end if the high end is closed; on a set it stands for a missing
  suit. A real card never replaces a joker by lay-off; that is
  :func:`swap_joker`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Final

from pyrummy.core.cards import Card, CardSet, Rank, Suit, parse_card
from pyrummy.core.errors import RummyError
from pyrummy.core.messages import Message, render, show_cards
from pyrummy.core.patterns import (
    MAX_RUN,
    MAX_SET,
    MIN_MELD,
    RANK_ACROSS_SUITS,
    RANKS,
    SUIT_BITS,
    SUIT_SHIFTS,
    runs_in_suit,
    set_masks,
    window_ranks,
    window_starts,
)
from pyrummy.core.rules import AceRule, Rules, find_rules

# Ace rules from strictest to most permissive: used to say *which* rule a
# run breaks ("the ace is low" rather than "cards are missing").
_ACE_ORDER: Final[tuple[AceRule, ...]] = ("low", "high_or_low", "around_the_corner")
_TOKEN_SPLIT: Final = re.compile(r"[\s,;]+")


class MeldKind(Enum):
    SET = "set"
    RUN = "run"


class InvalidMeldError(RummyError):
    """Cards that are not a meld; ``.reason`` is the catalogue message saying why."""

    def __init__(self, reason: Message) -> None:
        self.reason = reason
        super().__init__(render(reason, "en"))


@dataclass(frozen=True)
class Meld:
    """A valid set or run, as :func:`check_meld` made it.

    ``cards`` are in rank order for a run (a joker where it stands) and in
    suit order for a set (jokers last); ``represents`` gives, per position,
    the real card there or the one a joker stands for (``None`` for a joker
    in a set: any missing suit of the rank).

    >>> meld = check_meld("7H X1 9H", "rotham")
    >>> meld.represents, meld.suit, str(meld), meld.pretty()
    ((Card('7H'), Card('8H'), Card('9H')), <Suit.HEARTS: 1>, '7H X1 9H', '7♥ 🃏1 9♥')
    >>> check_meld("7D X2 7S", "rotham")
    Meld(SET, '7S 7D X2')
    """

    kind: MeldKind
    cards: tuple[Card, ...]
    represents: tuple[Card | None, ...]

    @property
    def real_cards(self) -> tuple[Card, ...]:
        return tuple(card for card in self.cards if not card.is_joker)

    @property
    def jokers(self) -> tuple[Card, ...]:
        return tuple(card for card in self.cards if card.is_joker)

    @property
    def rank(self) -> Rank | None:
        """The rank of a set (None for a run)."""
        if self.kind is not MeldKind.SET:
            return None
        return self.real_cards[0].rank

    @property
    def suit(self) -> Suit | None:
        """The suit of a run (None for a set)."""
        if self.kind is not MeldKind.RUN:
            return None
        return self.real_cards[0].suit

    @property
    def cardset(self) -> CardSet:
        return CardSet(self.cards)

    def __len__(self) -> int:
        return len(self.cards)

    def __str__(self) -> str:
        return " ".join(str(card) for card in self.cards)

    def pretty(self) -> str:
        """Display form: ``7♥ 8♥ 9♥``."""
        return show_cards(self.cards)

    def __repr__(self) -> str:
        return f"Meld({self.kind.name}, {str(self)!r})"


def _as_rules(rules: Rules | str) -> Rules:
    return rules if isinstance(rules, Rules) else find_rules(rules)


def _as_card_list(cards: Iterable[Card] | str) -> list[Card]:
    if isinstance(cards, str):
        return [parse_card(token) for token in _TOKEN_SPLIT.split(cards.strip()) if token]
    return list(cards)


# -- runs ---------------------------------------------------------------------
# A run of n cards is a window of n consecutive *positions*; position p holds
# rank p % 13 (:func:`pyrummy.core.patterns.window_ranks`; the hot checks below
# inline it: a tuple per check costs melding games' move generation ~5%). The ace rule decides which windows exist
# (:func:`pyrummy.core.patterns.window_starts`).


def _offsets(ranks: Sequence[int], start: int, length: int) -> list[int] | None:
    """Position in the window of each rank, or None if one does not fit."""
    offsets = [(rank - start) % RANKS for rank in ranks]
    return offsets if all(offset < length for offset in offsets) else None


@dataclass(frozen=True)
class _Reading:
    start: int
    offsets: tuple[int, ...]


def _readings(ranks: Sequence[int], length: int, ace: AceRule) -> list[_Reading]:
    """Every window of ``length`` holding the (distinct) ranks."""
    found = []
    for start in window_starts(length, ace):
        offsets = _offsets(ranks, start, length)
        if offsets is not None:
            found.append(_Reading(start, tuple(offsets)))
    return found


def _preferred(readings: list[_Reading]) -> _Reading:
    # Jokers go high first: the fewest positions below the lowest real card.
    return min(readings, key=lambda r: (min(r.offsets), r.start))


def _build_run(cards: Sequence[Card], reading: _Reading, length: int, suit: Suit) -> Meld:
    reals = [card for card in cards if not card.is_joker]
    jokers = iter(card for card in cards if card.is_joker)
    by_offset = dict(zip(reading.offsets, reals, strict=True))
    placed = tuple(by_offset[i] if i in by_offset else next(jokers) for i in range(length))
    represents: tuple[Card | None, ...] = tuple(
        Card(Rank((reading.start + i) % RANKS), suit) for i in range(length)
    )
    return Meld(MeldKind.RUN, placed, represents)


def _run_in_given_order(cards: Sequence[Card], ace: AceRule) -> Meld | None:
    """The run with every card exactly where it is given, if that is valid."""
    length = len(cards)
    indexed = [(i, card) for i, card in enumerate(cards) if not card.is_joker]
    if not indexed or length > MAX_RUN:
        return None
    first_index, first = indexed[0]
    assert first.rank is not None and first.suit is not None
    start = (first.rank - first_index) % RANKS
    if start not in window_starts(length, ace):
        return None
    for i, card in indexed:
        if card.suit is not first.suit or card.rank != (start + i) % RANKS:
            return None
    offsets = tuple(i for i, _ in indexed)
    return _build_run(cards, _Reading(start, offsets), length, first.suit)


def _check_run(cards: list[Card], reals: list[Card], ace: AceRule) -> Meld | Message:
    length = len(cards)
    suit = reals[0].suit
    assert suit is not None
    if length > MAX_RUN:
        return Message.of("meld.run_too_long")
    has_jokers = length > len(reals)
    if has_jokers:
        in_order = _run_in_given_order(cards, ace)
        if in_order is not None:
            return in_order
    ranks = [int(card.rank) for card in reals if card.rank is not None]
    readings = _readings(ranks, length, ace)
    if readings:
        return _build_run(cards, _preferred(readings), length, suit)
    return _explain_run(cards, reals, ranks, ace)


def _shortest_cover(ranks: Sequence[int], ace: AceRule) -> _Reading:
    """The narrowest window holding all the ranks under this ace rule."""
    for length in range(len(ranks), MAX_RUN + 1):
        readings = _readings(ranks, length, ace)
        if readings:
            return _preferred(readings)
    raise AssertionError("a window of 13 holds any ranks under every ace rule")


def _explain_run(cards: list[Card], reals: list[Card], ranks: list[int], ace: AceRule) -> Message:
    length = len(cards)
    suit = reals[0].suit
    assert suit is not None
    for looser in _ACE_ORDER[_ACE_ORDER.index(ace) + 1 :]:
        readings = _readings(ranks, length, looser)
        if readings:
            reading = _preferred(readings)
            names = "-".join(Rank(rank).display for rank in window_ranks(reading.start, length))
            key = "meld.ace_low" if looser == "high_or_low" else "meld.no_corner"
            return Message.of(key, ranks=names)
    cover = _shortest_cover(ranks, ace)
    width = max(cover.offsets) + 1
    present = set(cover.offsets)
    missing = [
        Card(Rank(rank), suit)
        for i, rank in enumerate(window_ranks(cover.start, width))
        if i not in present
    ]
    in_order = [card for _, card in sorted(zip(cover.offsets, reals, strict=True))]
    shown = show_cards(in_order + [card for card in cards if card.is_joker])
    if length > len(reals):
        return Message.of("meld.gap_jokers", cards=shown, missing=show_cards(missing))
    key = "meld.gap" if len(missing) == 1 else "meld.gaps"
    return Message.of(key, cards=shown, missing=show_cards(missing))


# -- sets and the whole check ---------------------------------------------------


def _build_set(reals: Sequence[Card], jokers: Sequence[Card]) -> Meld:
    ordered = tuple(sorted(reals)) + tuple(sorted(jokers))
    represents: tuple[Card | None, ...] = (*sorted(reals), *(None,) * len(jokers))
    return Meld(MeldKind.SET, ordered, represents)


def _explain_mixed(cards: list[Card], reals: list[Card]) -> Message:
    ranks = [int(card.rank) for card in reals if card.rank is not None]
    distinct_ranks = len(set(ranks)) == len(reals)
    distinct_suits = len({card.suit for card in reals}) == len(reals)
    if distinct_ranks:
        # Name every real problem: 2♠ 6♠ A♣ is out of sequence as well as mixed in suit.
        ordered = sorted(ranks)
        ace_high = sorted(RANKS if r == 0 else r for r in ranks)  # the ace above the king
        span = min(ordered[-1] - ordered[0], ace_high[-1] - ace_high[0]) + 1
        if span <= len(cards):
            return Message.of("meld.suits_differ")
        return Message.of("meld.not_in_sequence", cards=show_cards(cards))
    if distinct_suits:
        return Message.of("meld.ranks_differ")
    return Message.of("meld.neither", cards=show_cards(cards))


def _check(cards: list[Card], ace: AceRule, run: bool = False) -> Meld | Message:
    seen = 0
    for card in cards:
        if seen & card.bit:
            return Message.of("meld.duplicate", card=card.pretty())
        seen |= card.bit
    reals = [card for card in cards if not card.is_joker]
    jokers = [card for card in cards if card.is_joker]
    if len(cards) < MIN_MELD:
        if len(reals) == 2 and reals[0].suit is reals[1].suit:
            return Message.of("meld.run_too_few")
        if len(reals) == 2 and reals[0].rank is reals[1].rank:
            return Message.of("meld.set_too_few")
        return Message.of("meld.too_few")
    if not reals:
        return Message.of("meld.jokers_only")
    if run:
        if len({card.suit for card in reals}) == 1:
            return _check_run(cards, reals, ace)
        return Message.of("meld.suits_differ")
    if len({card.rank for card in reals}) == 1:
        if len(cards) > MAX_SET:
            return Message.of("meld.set_too_many")
        return _build_set(reals, jokers)
    if len({card.suit for card in reals}) == 1:
        return _check_run(cards, reals, ace)
    return _explain_mixed(cards, reals)


def check_meld(
    cards: Iterable[Card] | str, rules: Rules | str = "knock", *, run: bool = False
) -> Meld:
    """The meld these cards make, or :class:`InvalidMeldError` saying why not.

    ``rules`` is a :class:`Rules` or a preset name; only ``rules.ace`` matters.
    ``run=True`` asks for a run: one real card and jokers are then a run, not
    a set (the module's ruling).

    >>> check_meld("5H X1 X2", "rotham"), check_meld("5H X1 X2", "rotham", run=True)
    (Meld(SET, '5H X1 X2'), Meld(RUN, '5H X1 X2'))
    >>> check_meld("X1 5H X2", "rotham", run=True).represents
    (Card('4H'), Card('5H'), Card('6H'))

    >>> check_meld("AS 2S 3S"), check_meld("KH AH 2H", find_rules("basic", ace="around_the_corner"))
    (Meld(RUN, 'AS 2S 3S'), Meld(RUN, 'KH AH 2H'))
    >>> check_meld("7H 7S 8H")
    Traceback (most recent call last):
    ...
    pyrummy.core.melds.InvalidMeldError: 7♥ 7♠ 8♥: neither a set (ranks differ) nor a run (suits differ)
    """
    result = _check(_as_card_list(cards), _as_rules(rules).ace, run)
    if isinstance(result, Message):
        raise InvalidMeldError(result)
    return result


def explain_meld(
    cards: Iterable[Card] | str,
    rules: Rules | str = "knock",
    lang: str = "en",
    *,
    run: bool = False,
) -> str | None:
    """Why the cards are not a meld, in ``lang``; ``None`` when they are one.

    >>> explain_meld("7H 8H 9H"), explain_meld("7H 8S 9H")
    (None, 'suits differ: a run is one suit')
    >>> explain_meld("KH AH 2H", "rummy", lang="ru")
    'K-A-2 — не стрит: через туза стрит не продолжается'
    """
    result = _check(_as_card_list(cards), _as_rules(rules).ace, run)
    return render(result, lang) if isinstance(result, Message) else None


# -- lay-offs and joker exchange ------------------------------------------------


def extend_meld(meld: Meld, card: Card, rules: Rules | str = "knock") -> Meld | None:
    """The meld with ``card`` laid off on it, or None if it does not fit.

    A set grows to 4 cards; a run grows at either end within the ace rule.

    >>> run = check_meld("AH 2H 3H", "rummy")
    >>> extend_meld(run, Card("4H"), "rummy"), extend_meld(run, Card("KH"), "rummy")
    (Meld(RUN, 'AH 2H 3H 4H'), None)
    >>> extend_meld(check_meld("7S 7H 7D"), Card("7C"))
    Meld(SET, '7S 7H 7D 7C')
    """
    if card in meld.cards or len(meld.cards) >= (MAX_SET if meld.kind is MeldKind.SET else MAX_RUN):
        return None
    if meld.kind is MeldKind.SET:
        reals, jokers = list(meld.real_cards), list(meld.jokers)
        if card.is_joker:
            return _build_set(reals, [*jokers, card])
        if card.rank is not meld.rank:
            return None
        return _build_set([*reals, card], jokers)
    if not card.is_joker and card.suit is not meld.suit:
        return None
    ace = _as_rules(rules).ace
    for cards in ((*meld.cards, card), (card, *meld.cards)):
        extended = _run_in_given_order(cards, ace)
        if extended is not None:
            return extended
    return None


def layoff_targets(
    card: Card, table_melds: Sequence[Meld], rules: Rules | str = "knock"
) -> list[int]:
    """Numbers (from 0) of the table melds ``card`` can be laid off on.

    >>> table = [check_meld("7S 7H 7D"), check_meld("5C 6C 7C"), check_meld("8C 9C TC")]
    >>> layoff_targets(Card("7C"), table), layoff_targets(Card("JC"), table)
    ([0, 2], [2])
    """
    resolved = _as_rules(rules)
    return [i for i, meld in enumerate(table_melds) if extend_meld(meld, card, resolved)]


def swap_joker(meld: Meld, card: Card) -> tuple[Meld, Card] | None:
    """Rotham exchange: ``card`` takes the place of the joker standing for it.

    Returns the new meld and the freed joker, or None if no joker in the meld
    stands for ``card`` (for a set, a joker stands for any missing suit).

    >>> swap_joker(check_meld("7H X1 9H", "rotham"), Card("8H"))
    (Meld(RUN, '7H 8H 9H'), Card('X1'))
    >>> swap_joker(check_meld("7H X1 9H", "rotham"), Card("8S")) is None
    True
    """
    if card.is_joker or card in meld.cards:
        return None
    if meld.kind is MeldKind.RUN:
        for i, (placed, stands_for) in enumerate(zip(meld.cards, meld.represents, strict=True)):
            if placed.is_joker and stands_for is card:
                cards = (*meld.cards[:i], card, *meld.cards[i + 1 :])
                return Meld(MeldKind.RUN, cards, meld.represents), placed
        return None
    jokers = sorted(meld.jokers)
    if not jokers or card.rank is not meld.rank:
        return None
    return _build_set([*meld.real_cards, card], jokers[1:]), jokers[0]


# -- every meld in a hand -------------------------------------------------------


def all_melds_in(cards: CardSet, rules: Rules | str = "knock") -> list[CardSet]:
    """Every set and run (without jokers) made of some of the cards.

    Sets come first, by rank; then runs, by suit, shortest first. Jokers in
    ``cards`` are ignored.

    >>> [str(m) for m in all_melds_in(CardSet("7S 7H 7D 8S 9S"))]
    ['7S 7H 7D', '7S 8S 9S']
    >>> len(all_melds_in(CardSet("7S 7H 7D 7C")))
    5
    """
    mask = cards.mask
    ace = _as_rules(rules).ace
    found: list[CardSet] = []
    for across in RANK_ACROSS_SUITS:
        same_rank = mask & across
        if same_rank.bit_count() >= MIN_MELD:
            found.extend(CardSet(meld) for meld in set_masks(same_rank))
    for shift in SUIT_SHIFTS:
        pattern = mask >> shift & SUIT_BITS
        if pattern.bit_count() >= MIN_MELD:
            found.extend(CardSet(window << shift) for window in runs_in_suit(pattern, ace))
    return found
