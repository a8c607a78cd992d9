"""Interned actions and the byte tables that list a hand's actions fast.

A hand's discards (or knocks) are the actions of the cards it holds, in card
order: seven look-ups (one per byte of the hand's mask) in tables of tuples,
concatenated. The byte tables are small enough to build whole at import,
so a fresh process lists actions as fast as a warm one.
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
from pyrummy.core.cards import ALL_CARDS
from pyrummy.core.phases import Phase

__all__ = [
    "DECLINE_BOTH",
    "DECLINE_ONLY",
    "DISCARD_TABLES",
    "DRAW_BOTH",
    "DRAW_STOCK_ONLY",
    "KIND_DISCARD",
    "KIND_DRAW_DISCARD",
    "KIND_DRAW_STOCK",
    "KIND_KNOCK",
    "KIND_LAYOFF",
    "KIND_MELD",
    "KIND_SWAP_JOKER",
    "KIND_UNDO",
    "KNOCK_TABLES",
    "NO_ACTIONS",
    "PHASE_DECLINE",
    "PHASE_DISCARD",
    "PHASE_DRAW",
    "PHASE_MELD",
    "PHASE_OFFER",
    "PHASE_OVER",
    "ActionTables",
    "ByteActions",
    "card_actions",
    "layoff_actions",
    "swap_actions",
]

# Enum members are class-attribute look-ups costing ~150 ns each on CPython
# 3.11, several per step: the hot paths (legal actions, transitions) compare
# with these module constants instead.
PHASE_DRAW, PHASE_DECLINE, PHASE_DISCARD, PHASE_MELD, PHASE_OVER, PHASE_OFFER = (
    Phase.DRAW,
    Phase.DECLINE,
    Phase.DISCARD,
    Phase.MELD,
    Phase.OVER,
    Phase.OFFER,
)
KIND_DRAW_STOCK, KIND_DRAW_DISCARD, KIND_UNDO, KIND_DISCARD = (
    ActionKind.DRAW_STOCK,
    ActionKind.DRAW_DISCARD,
    ActionKind.UNDO,
    ActionKind.DISCARD,
)
KIND_KNOCK, KIND_MELD, KIND_LAYOFF, KIND_SWAP_JOKER = (
    ActionKind.KNOCK,
    ActionKind.MELD,
    ActionKind.LAYOFF,
    ActionKind.SWAP_JOKER,
)

# Legal actions of the draw phases (shared and immutable: callers get lists).
DRAW_BOTH: Final = (DRAW_STOCK, DRAW_DISCARD)
DRAW_STOCK_ONLY: Final = (DRAW_STOCK,)
DECLINE_BOTH: Final = (DRAW_DISCARD, DECLINE)
DECLINE_ONLY: Final = (DECLINE,)
NO_ACTIONS: Final[tuple[Action, ...]] = ()


ByteActions = tuple[tuple[Action, ...], ...]
"""The actions of one byte of a hand mask: per byte value, the actions of
its set bits in card order."""

ActionTables = tuple[
    ByteActions, ByteActions, ByteActions, ByteActions, ByteActions, ByteActions, ByteActions
]
"""Seven byte tables (bits 0-7, 8-15, ... 48-54 of a hand mask)."""


def _tables(actions: tuple[Action, ...]) -> ActionTables:
    """Every byte table of ``actions`` (one per card number), built whole.

    By doubling: the entries for a byte's bit ``i`` are those without it plus
    that bit's action. Some 3,600 tuples in all, well under a millisecond at
    import; tables filled lazily per suit pattern cost a fresh process
    thousands of fills in its first deals (benchmarks/README.md).
    """
    tables: list[ByteActions] = []
    for offset in range(0, 56, 8):
        table: list[tuple[Action, ...]] = [()]
        for number in range(offset, min(offset + 8, len(actions))):
            action = actions[number]
            table += [(*entry, action) for entry in table]
        tables.append(tuple(table))
    b0, b1, b2, b3, b4, b5, b6 = tables
    return b0, b1, b2, b3, b4, b5, b6


#: The discard actions of a hand, by byte of its mask (see :func:`card_actions`).
DISCARD_TABLES: Final = _tables(DISCARDS)
#: The knock actions of a hand, by byte of its mask.
KNOCK_TABLES: Final = _tables(KNOCKS)


def card_actions(tables: ActionTables, mask: int) -> tuple[Action, ...]:
    """The actions of ``tables`` for every card in ``mask``, in card order."""
    b0, b1, b2, b3, b4, b5, b6 = tables
    # The mask's seven bytes read at once: no shifted copies of the mask.
    raw = mask.to_bytes(7, "little")
    return (
        *b0[raw[0]],
        *b1[raw[1]],
        *b2[raw[2]],
        *b3[raw[3]],
        *b4[raw[4]],
        *b5[raw[5]],
        *b6[raw[6]],
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
