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


class PatternActions(dict[int, tuple[Action, ...]]):
    """The actions of one suit's cards (or the jokers) per pattern held,
    built on first look-up; a hit costs one dict look-up."""

    __slots__ = ("_actions",)

    def __init__(self, actions: tuple[Action, ...]) -> None:
        super().__init__()
        self._actions = actions

    def __missing__(self, pattern: int) -> tuple[Action, ...]:
        actions = self._actions
        found = self[pattern] = tuple([actions[i] for i in range(len(actions)) if pattern >> i & 1])
        return found


ActionTables = tuple[PatternActions, PatternActions, PatternActions, PatternActions, PatternActions]


def _tables(actions: tuple[Action, ...]) -> ActionTables:
    return (
        PatternActions(actions[0:13]),
        PatternActions(actions[13:26]),
        PatternActions(actions[26:39]),
        PatternActions(actions[39:52]),
        PatternActions(actions[N_STANDARD:]),
    )


#: The discard actions of a hand, by suit pattern (see :func:`card_actions`).
DISCARD_TABLES: Final = _tables(DISCARDS)
#: The knock actions of a hand, by suit pattern.
KNOCK_TABLES: Final = _tables(KNOCKS)


def card_actions(tables: ActionTables, mask: int) -> tuple[Action, ...]:
    """The actions of ``tables`` for every card in ``mask``, in card order."""
    return (
        tables[0][mask & SUIT_BITS]
        + tables[1][mask >> 13 & SUIT_BITS]
        + tables[2][mask >> 26 & SUIT_BITS]
        + tables[3][mask >> 39 & SUIT_BITS]
        + tables[4][mask >> N_STANDARD]
    )


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
