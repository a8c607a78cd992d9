"""Endpoints for the person at the table, beside the table API: the hint.

A module-level :class:`~fastapi.APIRouter`; the table and the caller's seat
come from the typed dependencies of :mod:`pyrummy.server.deps`.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from pyrummy.bots import make_bot
from pyrummy.core.actions import Action, ActionKind
from pyrummy.core.solver import best_arrangement
from pyrummy.server.deps import SeatToken, TablesDep
from pyrummy.server.tables import DEFAULT_BOT, LiveTable, TableError

HINT_BOT = DEFAULT_BOT


def hint_for(table: LiveTable, seat: int) -> dict[str, Any]:
    """The ``medium`` bot's move for ``seat`` now, with why in a message key.

    The bot sees only the seat's observation (what the person sees), so a
    hint never leaks hidden cards. The reason is a key and values; the page
    words it in the person's language.
    """
    match = table.match
    if match.is_over or match.current_seat != seat:
        raise TableError(409, "seat.not_your_turn", seat=(match.current_seat or 0) + 1)
    observation = match.observe(seat)
    legal = match.legal_actions()
    # Seeded by the table's progress: the same position gives the same hint.
    action = make_bot(HINT_BOT, seed=table.seq).choose(observation, legal)
    return {"action": str(action), "kind": action.kind.word, **_reason(action, table, seat)}


def _reason(action: Action, table: LiveTable, seat: int) -> dict[str, Any]:
    rules = table.match.rules
    hand = table.match.observe(seat).hand
    now = best_arrangement(hand, rules).deadwood
    if action.kind is ActionKind.DRAW_DISCARD:
        top = table.match.observe(seat).discard_pile[-1]
        after = min(
            best_arrangement((hand | [top]) - [card], rules).deadwood for card in hand | [top]
        )
        return {"reason": "hint.take", "values": {"card": str(top), "n": now, "m": after}}
    if action.kind is ActionKind.DRAW_STOCK:
        return {"reason": "hint.stock", "values": {"n": now}}
    if action.kind in (ActionKind.DISCARD, ActionKind.KNOCK) and action.cards:
        card = action.cards[0]
        left = best_arrangement(hand - [card], rules).deadwood
        key = "hint.knock" if action.kind is ActionKind.KNOCK else "hint.discard"
        return {"reason": key, "values": {"card": str(card), "n": left}}
    if action.kind is ActionKind.MELD:
        return {"reason": "hint.meld", "values": {"cards": [str(c) for c in action.cards]}}
    if action.kind is ActionKind.LAYOFF and action.cards:
        return {"reason": "hint.layoff", "values": {"card": str(action.cards[0])}}
    return {"reason": "hint.other", "values": {}}


router = APIRouter(tags=["player"])


@router.get("/api/tables/{table_id}/hint")
async def hint(table_id: str, tables: TablesDep, token: SeatToken) -> dict[str, Any]:
    """A suggested legal move for the caller's seat (the ``medium`` bot) and why."""
    table = await tables.get(table_id)
    seat = table.seat_of_token(token)
    if seat is None:
        raise TableError(401, "seat.token_missing")
    return hint_for(table, seat)
