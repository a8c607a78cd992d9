"""Matches, finished or going on: the history list, a replay at any step, the record.

* ``GET /api/matches`` — matches, newest finish first.
* ``GET /api/matches/{id}/replay?step=K`` — a finished match after K actions, all hands shown.
* ``GET /api/matches/{id}/record`` — the text game record of a finished match (with its seed).
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query
from fastapi.responses import PlainTextResponse

from pyrummy.server.deps import StoreDep
from pyrummy.server.pile_takes import pile_takes
from pyrummy.server.schemas import MAX_OFFSET, MAX_SEQ
from pyrummy.server.storage import OVER, Store, StoredTable
from pyrummy.server.tables import TableError, build_match, resigned_seat
from pyrummy.server.views import replay_view, table_summary

#: How far past the requested page ``GET /api/matches`` counts its total.
COUNT_WINDOW = 1000

router = APIRouter(prefix="/api/matches", tags=["matches"])


@router.get("")
async def list_matches(
    store: StoreDep,
    status: Annotated[str, Query(pattern="^(over|live|all)$")] = "over",
    limit: Annotated[int, Query(ge=1, le=100)] = 20,
    offset: Annotated[int, Query(ge=0, le=MAX_OFFSET)] = 0,
) -> dict[str, Any]:
    """Matches, the newest finish first (games in progress before them):
    finished ones by default (``status=live|all``). A match given up has
    ``resigned``: the seat that resigned (else null).

    ``total`` counts at most 1000 matches past this page (``total_exact``
    says whether it is the whole count)."""
    # Counting every finished match at every request would cost more as
    # history grows: the total counts the rows up to a window past this page.
    count_up_to = offset + limit + COUNT_WINDOW
    total, rows = await store.list_tables(
        None if status == "all" else status, limit, offset, count_up_to
    )
    return {
        "total": total,
        "total_exact": total < count_up_to,
        "matches": [
            table_summary(spec, row_status)
            | {
                "finished_at": finished,
                "result": result,
                "actions": actions,
                "resigned": resigned_seat(result),
            }
            for spec, row_status, finished, result, actions in rows
        ],
    }


async def finished(store: Store, table_id: str) -> StoredTable:
    """The stored match ``table_id`` if it is over (404 unknown, 409 still going on)."""
    stored = await store.load_table(table_id) if len(table_id) <= 32 else None
    if stored is None:
        raise TableError(404, "table.not_found", table=table_id)
    if stored.status != OVER:
        raise TableError(409, "table.not_over", table=table_id)
    return stored


@router.get("/{table_id}/replay")
async def replay(
    table_id: str,
    store: StoreDep,
    step: Annotated[int | None, Query(ge=0, le=MAX_SEQ)] = None,
) -> dict[str, Any]:
    """A finished match after ``step`` actions (default: the end), all hands shown."""
    stored = await finished(store, table_id)
    last = len(stored.actions)
    chosen = last if step is None else step
    if chosen > last:
        raise TableError(400, "replay.bad_step", step=chosen, last=last)
    view = replay_view(stored, chosen)
    view["actions"] = [{"seq": a.seq, "seat": a.seat, "text": a.text} for a in stored.actions]
    view["resigned"] = resigned_seat(stored.result)
    return view


@router.get("/{table_id}/record", response_class=PlainTextResponse)
async def record(table_id: str, store: StoreDep) -> str:
    """The text game record of a finished match (with its seed); a match given
    up ends where it stopped, and says who resigned in a comment."""
    stored = await finished(store, table_id)
    match = build_match(stored.spec, stored.actions)
    # Each card taken from the discard pile is named: it lay face up.
    text = match.record(seed=True, taken=[pile_takes(deal) for deal in match.deals])
    seat = resigned_seat(stored.result)
    if seat is not None:
        text = text.rstrip("\n") + f"\n# resigned: seat {seat + 1}\n"
    return text
