"""Rummy patterns as bits, written once: suits, ranks, run windows, bit iteration.

A hand is a mask of card numbers (:mod:`pyrummy.core.cards`): card
``13 * suit + rank``, jokers from 52. One suit of a hand is a 13-bit rank
pattern (``hand >> 13 * suit & SUIT_BITS``); a run is a window of
consecutive ranks in one suit, the ace rule deciding which windows exist
(low: A-2-3 to J-Q-K; high or low: also Q-K-A, never K-A-2; around the
corner: any start, wrapping). Melds (:mod:`pyrummy.core.melds`), the action
encoding (:mod:`pyrummy.core.actions`) and the deal's move generation
(:mod:`pyrummy.core.deal`) share these; the solver keeps its own tables and
the brute-force oracle stays independent on purpose (it checks the others).

>>> [format(p, "013b") for p in run_patterns("low")[:2]]
['0000000000111', '0000000001110']
>>> len(run_windows("low")), len(run_windows("high_or_low")), len(run_windows("around_the_corner"))
(66, 76, 131)
>>> card_numbers(0b1011 | 1 << 52)
[0, 1, 3, 52]
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache, lru_cache
from itertools import combinations
from types import MappingProxyType
from typing import Final, get_args

from pyrummy.core.rules import AceRule, Rules, find_rules

__all__ = [
    "ACE_RULES",
    "MAX_RUN",
    "MIN_MELD",
    "RANKS",
    "RANK_ACROSS_SUITS",
    "SUITS",
    "SUIT_BITS",
    "card_numbers",
    "joker_runs_in_suit",
    "run_patterns",
    "run_windows",
    "runs_in_suit",
    "window_starts",
]

RANKS: Final = 13
SUITS: Final = 4
#: The 13 bits of one suit of a hand.
SUIT_BITS: Final = (1 << RANKS) - 1
MIN_MELD: Final = 3
MAX_RUN: Final = RANKS
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
            pattern = sum(1 << ((start + i) % RANKS) for i in range(length))
            if pattern not in seen:
                seen.add(pattern)
                windows.append((start, length))
    return tuple(windows)


@cache
def run_patterns(ace: AceRule | str) -> tuple[int, ...]:
    """Every run as a 13-bit rank pattern, in the order of :func:`run_windows`."""
    return tuple(
        sum(1 << (start + i) % RANKS for i in range(length)) for start, length in run_windows(ace)
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
        ranks = [(start + i) % 13 for i in range(length)]
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
