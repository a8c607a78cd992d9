"""Interned actions and the per-suit tables that list a hand's actions fast.

A hand's discards (or knocks) are the actions of the cards it holds, in card
order: five look-ups (four suits' 13-bit patterns and the jokers) in tables
of tuples, concatenated. Each table entry is built when first asked for, not
all 8192 patterns at once: a fresh process would otherwise spend some
140 ms building patterns most runs never see (benchmarks/README.md).
"""

from __future__ import annotations

from functools import cache
from typing import Final

from pyrummy.core.actions import (
    DECLINE,
    DISCARDS,
    DRAW_DISCARD,
    DRAW_STOCK,
    KNOCKS,
    MAX_TABLE_MELDS,
    Action,
    ActionKind,
)
from pyrummy.core.cards import ALL_CARDS, N_STANDARD
from pyrummy.core.patterns import SUIT_BITS

__all__ = [
    "DECLINE_BOTH",
    "DECLINE_ONLY",
    "DISCARD_TABLES",
    "DRAW_BOTH",
    "DRAW_STOCK_ONLY",
    "KNOCK_TABLES",
    "NO_ACTIONS",
    "ActionTables",
    "PatternActions",
    "card_actions",
    "layoff_actions",
    "swap_actions",
]

# Legal actions of the draw phases (shared and immutable: callers get lists).
DRAW_BOTH: Final = (DRAW_STOCK, DRAW_DISCARD)
DRAW_STOCK_ONLY: Final = (DRAW_STOCK,)
DECLINE_BOTH: Final = (DRAW_DISCARD, DECLINE)
DECLINE_ONLY: Final = (DECLINE,)
NO_ACTIONS: Final[tuple[Action, ...]] = ()


PatternActions = list[tuple[Action, ...] | None]
"""The actions of one suit's cards (or the jokers) per pattern held, ``None``
until first asked for (:func:`card_actions` fills them). A plain list, not
a dict with ``__missing__`` nor a subclass: as compact as the full tables
were and indexed as fast (CPython specializes exact lists), which the warm
hot path needs."""

ActionTables = tuple[
    PatternActions,
    PatternActions,
    PatternActions,
    PatternActions,
    PatternActions,
    tuple[tuple[Action, ...], ...],
]
"""Five pattern tables (four suits, the jokers) and the actions of each's cards."""


def _tables(actions: tuple[Action, ...]) -> ActionTables:
    parts = (actions[0:13], actions[13:26], actions[26:39], actions[39:52], actions[N_STANDARD:])
    empty: list[PatternActions] = [[None] * (1 << len(part)) for part in parts]
    return (empty[0], empty[1], empty[2], empty[3], empty[4], parts)


#: The discard actions of a hand, by suit pattern (see :func:`card_actions`).
DISCARD_TABLES: Final = _tables(DISCARDS)
#: The knock actions of a hand, by suit pattern.
KNOCK_TABLES: Final = _tables(KNOCKS)


def card_actions(tables: ActionTables, mask: int) -> tuple[Action, ...]:
    """The actions of ``tables`` for every card in ``mask``, in card order."""
    spades, hearts, diamonds, clubs, jokers, parts = tables
    s = spades[mask & SUIT_BITS]
    h = hearts[mask >> 13 & SUIT_BITS]
    d = diamonds[mask >> 26 & SUIT_BITS]
    c = clubs[mask >> 39 & SUIT_BITS]
    j = jokers[mask >> N_STANDARD]
    # A pattern not built yet: build only that one (a cold process meets
    # thousands of them in its first deals, so this stays cheap too).
    if s is None:
        s = _fill(spades, parts[0], mask & SUIT_BITS)
    if h is None:
        h = _fill(hearts, parts[1], mask >> 13 & SUIT_BITS)
    if d is None:
        d = _fill(diamonds, parts[2], mask >> 26 & SUIT_BITS)
    if c is None:
        c = _fill(clubs, parts[3], mask >> 39 & SUIT_BITS)
    if j is None:
        j = _fill(jokers, parts[4], mask >> N_STANDARD)
    return s + h + d + c + j


def _fill(table: PatternActions, actions: tuple[Action, ...], pattern: int) -> tuple[Action, ...]:
    """Build and keep ``table``'s entry for ``pattern``: its set bits' actions."""
    found = []
    bits = pattern
    while bits:
        low = bits & -bits
        found.append(actions[low.bit_length() - 1])
        bits ^= low
    part = table[pattern] = tuple(found)
    return part


@cache
def layoff_actions(card: int) -> tuple[Action, ...]:
    """The lay-offs of card number ``card``, by table meld number (interned)."""
    return tuple(
        Action(ActionKind.LAYOFF, (ALL_CARDS[card],), target) for target in range(MAX_TABLE_MELDS)
    )


@cache
def swap_actions(card: int) -> tuple[Action, ...]:
    """The joker exchanges of real card number ``card``, by table meld number."""
    return tuple(
        Action(ActionKind.SWAP_JOKER, (ALL_CARDS[card],), target)
        for target in range(MAX_TABLE_MELDS)
    )
