"""Per-suit tables of the solver: card values, run patterns, run-only deadwood.

Runs live inside one suit, so every 13-bit suit pattern has a best run
split that can be looked up: :func:`suit_deadwood_table` holds, per ace
option, the least deadwood each pattern leaves when only runs are formed
(the ace-low table is shipped built), and :func:`suit_splits` the run
splits reaching it. :mod:`pyrummy.core.solver` reads these tables and
re-exports them.
"""

from __future__ import annotations

import binascii
import zlib
from dataclasses import replace
from functools import cache
from typing import Final, cast

from pyrummy.core import patterns
from pyrummy.core.errors import RulesError
from pyrummy.core.patterns import SUIT_BITS
from pyrummy.core.rules import AceRule, find_rules
from pyrummy.core.values import value_table

__all__ = [
    "ACE_OPTIONS",
    "SUIT_BITS",
    "build_suit_deadwood_table",
    "card_values",
    "deadwood_floor",
    "pattern_values",
    "rank_values",
    "run_patterns",
    "suit_deadwood_table",
    "suit_splits",
]

ACE_OPTIONS: Final = ("low", "high_or_low", "around_the_corner")


def _check_ace(ace: str) -> None:
    if ace not in ACE_OPTIONS:
        raise RulesError(f"ace option {ace!r} is not one of {', '.join(ACE_OPTIONS)}")


@cache
def card_values(ace: str) -> tuple[int, ...]:
    """Deadwood value of each card number 0-54 under an ace option (ace 1 or 15, joker 15)."""
    _check_ace(ace)
    # The ace option checked above: replace() skips with_options' checks.
    return value_table(replace(find_rules("basic"), ace=cast(AceRule, ace)))


@cache
def rank_values(ace: str) -> tuple[int, ...]:
    """Deadwood value of each rank A..K under an ace option."""
    return card_values(ace)[:13]


@cache
def pattern_values(ace: str) -> tuple[int, ...]:
    """The value of the cards of each 13-bit suit pattern.

    Built by doubling, as bytes (the values stay under 100): the patterns
    with a rank's bit are those without it, each plus the rank's value, one
    ``bytes.translate`` per rank, so a fresh process's first floor does not
    wait for 8,192 additions in Python.

    >>> pattern_values("low")[0b1000000000101]  # A, 3 and K
    14
    """
    table = b"\0"
    for value in rank_values(ace):
        # The translation adding ``value`` to a byte (sums stay under 256).
        plus = bytes(range(value, 256)) + bytes(value)
        table += table.translate(plus)
    return tuple(table)


def deadwood_floor(s: int, h: int, d: int, c: int, ranks: int, ace: str = "low") -> int:
    """A lower bound of the least deadwood of a hand without jokers, cheap to read.

    ``s h d c`` are the hand's four suit patterns and ``ranks`` the ranks
    held in three suits or more (the ranks a set can use; 0: the bound is
    exact). A suit's cards outside sets form only runs, and taking a card out
    of a pattern lowers its run-only deadwood by the card's value at most:
    so each suit leaves at least its run-only deadwood less the value of its
    cards at those ranks (and at least nothing).

    >>> from pyrummy.core.cards import CardSet
    >>> mask = CardSet("7S 7H 7D 8S 9S KC").mask
    >>> s, h, d, c = (mask >> 13 * suit & SUIT_BITS for suit in range(4))
    >>> deadwood_floor(s, h, d, c, s & h & d), deadwood_floor(s, h, d, c, 0)
    (10, 24)
    """
    table = _SUIT_TABLES.get(ace) or suit_deadwood_table(ace)
    values = _PATTERN_VALUES.get(ace) or _PATTERN_VALUES.setdefault(ace, pattern_values(ace))
    floor = 0
    for pattern in (s, h, d, c):
        left = table[pattern] - values[pattern & ranks]
        if left > 0:
            floor += left
    return floor


@cache
def run_patterns(ace: str) -> tuple[int, ...]:
    """Every 13-bit rank pattern one run may cover under an ace option, in
    ascending order (the runs of :func:`pyrummy.core.patterns.run_patterns`).

    >>> len(run_patterns("low")), len(run_patterns("high_or_low"))
    (66, 76)
    """
    _check_ace(ace)
    return tuple(sorted(patterns.run_patterns(ace)))


@cache
def _runs_through(ace: str) -> tuple[tuple[int, ...], ...]:
    """For each rank, the run patterns containing it."""
    return tuple(tuple(run for run in run_patterns(ace) if run >> rank & 1) for rank in range(13))


# suit_deadwood_table("low"), shipped built: 8,192 values of one byte,
# zlib-compressed, base64 (tests/core/test_solver_lazy.py checks it against the
# table built from the run patterns and prints the text when they differ).
_LOW_SUIT_DEADWOOD: Final = (
    "eNrtWddu4zAQVC5FxbFVXVRd1NykJG65u9z/f9fNYo8AIcAwAj/4gvBpdzkcjZarJUFIu/txf//wqD08Pum6oWkw"
    "hmFaj6bVe9buNA2hCf8JYb8/eHqCGQxsp6eBRzhgC5jO47oOY9uO++y4nq8buo7Qgd9HGATDfl/7pyf4oPfANZhn"
    "GPJ8wzQMhC78AcLhcDQYwIxG44lPPMIBe8BsHrdtmPF4EgaTMIptx7a1Tn5dfcoT2ibrmqasZ1qmee75xCOc8gTm"
    "8LjjwEygPYR84riOgzCEP0KYptloJPQEn9dl5DLPdeX5rue6CCP4Y4RZNh2PYabT2TwhHuHahfpdyp/raluct2XJ"
    "+Vo9yzqXH/EI/+z7Cz3B57qOPeZ5njzf8z2P6gh/wnlPJjCz2XyREo9wWmdgIY+HIcx8vsizRV6UYRSG3fy6+uJ7"
    "Yl3fl/X8wPfPPZ94hHNdpxGPRxHMAtpTyFdRHEUIc/gzhHW9nM2EnuBrV/afqv/Xrj+vyyxmXhzL8+MkjhEW8OcI"
    "l8vVfA6zWq03FfEIv1S/S/nL+2WcBIGcbzAMgnP5EY/wz76/0BN8sZ8xL0nk+UmaJFRH+AvOe7GAWa8325p4hNM6"
    "A8t5PM9hNptts9w27Ute5Hk3v66+duPzT/W/6n/V/7frf/E9sW6aynpplqbnnk88wrmuq4LHiwJmC+0V5F+LsigQ"
    "NvDXCN/eduu10BP8a/tP1f9r15/XZV0yryzl+WVVlghb+BuEu91+s4HZ7w/HV+IRfql+//v5d+v7nzr/1fmvzn+1"
    "/6vzX9X/O57/8n5ZVlkm55tNs+xcfsQj/LPvL/QEX+xnzKsqeX5VVxXVEf6W895uYQ6H4+mNeITTOgNreLxpYI7H"
    "0/vu9P7zV9M2TTe/rv6tzz/V/6r/Vf/frv/F98S6dS3r1cu6Pvd84hHOdd23PN62MCdo7yH/u31pW4Tv8A8IPz7+"
    "HA5CT/Cv7T91/1P//665/6n7//e+//8FQdHsHw=="
)


# The run tables by ace option, filled when first built: the hot paths read
# this dict instead of calling the cached builder.
_SUIT_TABLES: dict[str, tuple[int, ...]] = {}
# pattern_values by ace option, read the same way.
_PATTERN_VALUES: dict[str, tuple[int, ...]] = {}


@cache
def suit_deadwood_table(ace: str) -> tuple[int, ...]:
    """Least deadwood of each 13-bit suit pattern when only runs are formed.

    The ace-low table (every preset's) is shipped built: a fresh process
    reads it in well under a millisecond instead of building it.

    >>> table = suit_deadwood_table("low")
    >>> table[0b111], table[0b1011], table[0b1111000000000]
    (0, 7, 0)
    """
    _check_ace(ace)
    if ace == "low":
        built = tuple(zlib.decompress(binascii.a2b_base64(_LOW_SUIT_DEADWOOD)))
    else:
        built = build_suit_deadwood_table(ace)
    _SUIT_TABLES[ace] = built
    return built


def build_suit_deadwood_table(ace: str) -> tuple[int, ...]:
    """:func:`suit_deadwood_table` computed from the run patterns.

    The lowest card of a pattern is either deadwood or in one run through it,
    and both leave a smaller pattern, so one pass in increasing order fills
    the table.

    >>> build_suit_deadwood_table("low") == suit_deadwood_table("low")
    True
    """
    values = rank_values(ace)
    # A run inside the pattern through its lowest card has no card below it.
    from_rank = tuple(
        tuple(run for run in through if not run & ((1 << rank) - 1))
        for rank, through in enumerate(_runs_through(ace))
    )
    table = [0] * (SUIT_BITS + 1)
    for pattern in range(1, SUIT_BITS + 1):
        low = pattern & -pattern
        rank = low.bit_length() - 1
        best = table[pattern ^ low] + values[rank]
        for run in from_rank[rank]:
            if run & pattern == run:
                value = table[pattern ^ run]
                if value < best:
                    best = value
        table[pattern] = best
    return tuple(table)


@cache
def suit_splits(ace: str, pattern: int) -> tuple[tuple[int, ...], ...]:
    """Every run split of a suit pattern that leaves the least deadwood."""
    if pattern == 0:
        return ((),)
    table = suit_deadwood_table(ace)
    low = pattern & -pattern
    rank = low.bit_length() - 1
    splits: list[tuple[int, ...]] = []
    if table[pattern ^ low] + rank_values(ace)[rank] == table[pattern]:
        splits.extend(suit_splits(ace, pattern ^ low))
    for run in _runs_through(ace)[rank]:
        if run & pattern == run and table[pattern ^ run] == table[pattern]:
            splits.extend((run, *rest) for rest in suit_splits(ace, pattern ^ run))
    return tuple(splits)
