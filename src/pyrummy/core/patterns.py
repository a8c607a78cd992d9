"""Rummy patterns as bits, written once: suits, ranks, run windows, bit iteration.

A hand is a mask of card numbers (:mod:`pyrummy.core.cards`): card
``13 * suit + rank``, jokers from 52. One suit of a hand is a 13-bit rank
pattern (``hand >> 13 * suit & SUIT_BITS``); a run is a window of
consecutive ranks in one suit, the ace rule deciding which windows exist
(low: A-2-3 to J-Q-K; high or low: also Q-K-A, never K-A-2; around the
corner: any start, wrapping). A set is three or four cards of one rank, or
fewer real cards with jokers (one real card at least). Every meld is
enumerated here once: :func:`set_masks`, :func:`joker_sets`,
:func:`run_windows` and :func:`window_ranks`, :func:`runs_in_suit`,
:func:`joker_runs_in_suit`, and :func:`plain_melds` in the order of the
action encoding. Melds (:mod:`pyrummy.core.melds`), the action encoding
(:mod:`pyrummy.core.actions`), the deal's move generation
(:mod:`pyrummy.core.deal`) and the solver's joker search read them; the
brute-force oracle stays independent on purpose (it checks the others).

>>> [format(p, "013b") for p in run_patterns("low")[:2]]
['0000000000111', '0000000001110']
>>> len(run_windows("low")), len(run_windows("high_or_low")), len(run_windows("around_the_corner"))
(66, 76, 131)
>>> card_numbers(0b1011 | 1 << 52)
[0, 1, 3, 52]
>>> window_ranks(11, 4)  # Q-K-A-2, around the corner
(11, 12, 0, 1)
>>> [card_numbers(mask) for mask in set_masks(RANK_ACROSS_SUITS[6])]  # the sevens
[[6, 19, 32], [6, 19, 45], [6, 32, 45], [19, 32, 45], [6, 19, 32, 45]]
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache, lru_cache
from itertools import combinations
from types import MappingProxyType
from typing import Final, get_args

from pyrummy.core.cards import RANKS_IN_SUIT, SUIT_BITS, card_number
from pyrummy.core.rules import AceRule, Rules, find_rules

__all__ = [
    "ACE_RULES",
    "CARD_BITS",
    "MAX_RUN",
    "MAX_SET",
    "MIN_MELD",
    "RANKS",
    "RANK_ACROSS_SUITS",
    "STANDARD_BITS",
    "SUITS",
    "SUIT_BITS",
    "SUIT_SHIFTS",
    "WITHOUT_CARD",
    "card_number",
    "card_numbers",
    "joker_runs_in_suit",
    "joker_sets",
    "plain_melds",
    "run_patterns",
    "run_windows",
    "runs_in_suit",
    "set_masks",
    "window_ranks",
    "window_starts",
]

RANKS: Final = RANKS_IN_SUIT
SUITS: Final = 4
#: The 52 ordinary cards of a hand mask (the jokers are the bits above).
STANDARD_BITS: Final = (1 << RANKS * SUITS) - 1
#: Where each suit's 13 bits start in a hand mask (its ace's card number).
SUIT_SHIFTS: Final = tuple(RANKS * suit for suit in range(SUITS))
#: ``1 << n`` for every card number ``n`` (jokers too): one shared int per
#: card, so the deal's hot paths allocate no new int to name a card's bit.
CARD_BITS: Final = tuple(1 << number for number in range(RANKS * SUITS + 3))
#: ``~(1 << n)``: ``mask & WITHOUT_CARD[n]`` is ``mask`` without card ``n``.
WITHOUT_CARD: Final = tuple(~bit for bit in CARD_BITS)
MIN_MELD: Final = 3
MAX_RUN: Final = RANKS
MAX_SET: Final = SUITS
#: For each rank, the mask of its four cards.
RANK_ACROSS_SUITS: Final = tuple(
    sum(1 << (RANKS * suit + rank) for suit in range(SUITS)) for rank in range(RANKS)
)

#: One :class:`~pyrummy.core.rules.Rules` per ace rule, for the meld checks
#: (:func:`~pyrummy.core.melds.check_meld` and its kin read only ``rules.ace``)
#: of code that knows the ace rule but not the game.
ACE_RULES: Final[Mapping[str, Rules]] = MappingProxyType(
    {ace: find_rules("basic", ace=ace, jokers=3) for ace in get_args(AceRule)}
)


def window_ranks(start: int, length: int) -> tuple[int, ...]:
    """The ranks of the run window ``(start, length)`` in position order
    (past the king it goes on at the ace: around the corner)."""
    return tuple((start + i) % RANKS for i in range(length))


def window_starts(length: int, ace: AceRule | str) -> range:
    """The lowest ranks (0 = ace) a run of ``length`` cards may start at.

    With the ace high or low, start 13 - length + 1 ends on the ace (Q-K-A);
    around the corner a run may start anywhere and wrap.
    """
    if length > MAX_RUN or length < 1:
        return range(0)
    if ace == "low":
        return range(0, 14 - length)
    if ace == "high_or_low":
        return range(0, 15 - length)
    return range(0, 13)


@lru_cache(maxsize=4)
def run_windows(ace: AceRule | str) -> tuple[tuple[int, int], ...]:
    """``(start, length)`` of every run, shortest first, distinct by rank pattern
    (around the corner a 13-card run is the same cards from any start)."""
    seen: set[int] = set()
    windows = []
    for length in range(MIN_MELD, MAX_RUN + 1):
        for start in window_starts(length, ace):
            pattern = sum(1 << rank for rank in window_ranks(start, length))
            if pattern not in seen:
                seen.add(pattern)
                windows.append((start, length))
    return tuple(windows)


@cache
def run_patterns(ace: AceRule | str) -> tuple[int, ...]:
    """Every run as a 13-bit rank pattern, in the order of :func:`run_windows`."""
    return tuple(
        sum(1 << rank for rank in window_ranks(start, length)) for start, length in run_windows(ace)
    )


@lru_cache(maxsize=3 * 8192)
def runs_in_suit(pattern: int, ace: AceRule | str) -> tuple[int, ...]:
    """The runs (13-bit patterns) made of cards of the 13-bit ``pattern``."""
    return tuple(window for window in run_patterns(ace) if window & pattern == window)


def _byte_indices(offset: int) -> tuple[tuple[int, ...], ...]:
    """The card numbers of each byte value at byte ``offset``, built by doubling
    (the entries for bit ``i`` are those without it plus ``i``): a fraction of a
    millisecond at import, several times faster than testing each bit."""
    table: list[tuple[int, ...]] = [()]
    for number in range(8 * offset, 8 * offset + 8):
        table += [(*entry, number) for entry in table]
    return tuple(table)


# Card numbers per byte of a mask, at each of the 7 byte offsets: iterating
# a hand byte by byte is several times faster than bit by bit.
_BYTE_INDICES: Final = tuple(_byte_indices(offset) for offset in range(7))


def card_numbers(mask: int) -> list[int]:
    """The card numbers in ``mask``, ascending."""
    found: list[int] = []
    k = 0
    while mask:
        chunk = mask & 0xFF
        if chunk:
            found.extend(_BYTE_INDICES[k][chunk])
        mask >>= 8
        k += 1
    return found


@lru_cache(maxsize=1 << 16)
def joker_runs_in_suit(
    pattern: int, jokers: int, ace: str
) -> tuple[tuple[int, tuple[int, ...], int], ...]:
    """Runs with 1..``jokers`` jokers and one real card or more in one suit
    holding ``pattern`` (13 bits): (rank pattern of the real cards used, ranks
    the jokers stand for in position order, number of jokers). A joker may
    also stand for a card the suit holds (that card then goes elsewhere).

    >>> joker_runs_in_suit(0b101, 2, "low")[:3]  # A-3 of a suit, two jokers
    ((5, (1,), 1), (4, (0, 1), 2), (1, (1, 2), 2))
    """
    found = []
    most = pattern.bit_count() + jokers
    for start, length in run_windows(ace):
        if length > most:
            continue
        ranks = window_ranks(start, length)
        held = [i for i, rank in enumerate(ranks) if pattern >> rank & 1]
        gaps = length - len(held)
        if gaps > jokers or not held:
            continue
        missing = [i for i in range(length) if not pattern >> ranks[i] & 1]
        # At least one real card stays in the run.
        for count in range(max(gaps, 1), min(jokers, length - 1) + 1):
            for extra in combinations(held, count - gaps):
                positions = sorted(missing + list(extra))
                reals = sum(1 << ranks[i] for i in held if i not in extra)
                found.append((reals, tuple(ranks[i] for i in positions), count))
    return tuple(found)


@cache
def set_masks(cards: int) -> tuple[int, ...]:
    """Every set without jokers among ``cards`` (a mask of one rank's cards):
    the triples in card order, then the four of a kind."""
    bits = [1 << number for number in card_numbers(cards)]
    found = [sum(trio) for trio in combinations(bits, MIN_MELD)]
    if len(bits) == MAX_SET:
        found.append(cards)
    return tuple(found)


@cache
def joker_sets(cards: int, jokers: int, fewest: int = 1) -> tuple[tuple[int, int], ...]:
    """Every set with jokers among ``cards`` (a mask of one rank's cards) and
    up to ``jokers`` jokers: (its real cards as a mask, how many jokers), by
    number of real cards (``fewest`` at least; one real card at least), then
    in card order, then by number of jokers.

    >>> joker_sets(0b1 | 1 << 13, 2)  # AS and AH, two jokers
    ((1, 2), (8192, 2), (8193, 1), (8193, 2))
    """
    bits = [1 << number for number in card_numbers(cards)]
    found = []
    for reals in range(max(fewest, 1), MAX_SET):
        for group in combinations(bits, reals):
            part = sum(group)
            for count in range(max(1, MIN_MELD - reals), min(jokers, MAX_SET - reals) + 1):
                found.append((part, count))
    return tuple(found)


@cache
def plain_melds(ace: AceRule | str) -> tuple[tuple[int, ...], ...]:
    """Every meld without jokers as card numbers in meld order, in the order of
    the action encoding: sets rank by rank (:func:`set_masks`), then runs
    suit by suit in the order of :func:`run_windows`.

    >>> melds = plain_melds("around_the_corner")
    >>> melds[0], melds[-1]  # AS AH AD, and the last run: all thirteen clubs
    ((0, 13, 26), (39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51))
    """
    found = [
        tuple(card_numbers(mask))
        for rank in range(RANKS)
        for mask in set_masks(RANK_ACROSS_SUITS[rank])
    ]
    for suit in range(SUITS):
        for start, length in run_windows(ace):
            found.append(tuple(card_number(rank, suit) for rank in window_ranks(start, length)))
    return tuple(found)
