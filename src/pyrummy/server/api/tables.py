"""A table: create one, read it as a seat sees it, play, move on, change its pace.

* ``POST /api/tables`` — a new table; the seat token(s) (also an HttpOnly cookie) and the first state.
* ``GET  /api/tables/{id}`` and ``/state`` — the table; the state for the caller's seat.
* ``POST /api/tables/{id}/actions`` — one action for the caller's seat.
* ``POST /api/tables/{id}/continue`` — the caller has seen the showdown.
* ``POST /api/tables/{id}/resign`` — the caller gives the match up.
* ``PUT  /api/tables/{id}/settings`` — the bots' pause between steps.
* ``POST /api/tables/{id}/explain-meld`` — why some cards are (not) a meld.
* ``GET  /api/tables/{id}/events?since=N`` — missed events and a fresh state.

The seat token travels as :data:`pyrummy.server.seats.TOKEN_WAYS` say; without
one the caller is a spectator: it sees what a spectator may see and cannot act.
"""

from __future__ import annotations

import dataclasses
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request, Response

from pyrummy.core.melds import explain_meld
from pyrummy.server.deps import (
    Client,
    Lang,
    ProfileOrNew,
    SeatToken,
    ServicesDep,
    TablesDep,
    request_language,
)
from pyrummy.server.play import continue_deal, play_action
from pyrummy.server.resign import resign as resign_seat
from pyrummy.server.schemas import MAX_SEQ, CreateTable, ExplainMeld, PostAction, TableSettings
from pyrummy.server.seats import TABLE_COOKIE, set_seat_cookie
from pyrummy.server.storage import SeatSpec
from pyrummy.server.tables import LiveTable, TableError, new_table_spec
from pyrummy.server.views import JSONBytes, seat_state, seat_state_json, table_summary

router = APIRouter(prefix="/api/tables", tags=["tables"])


def acting_seat(table: LiveTable, token: str | None) -> int:
    """The seat ``token`` plays at ``table``; 401 without a token, 403 for another's."""
    seat = table.seat_of_token(token)
    if seat is None:
        raise TableError(401, "seat.token_missing")
    return seat


@router.post("", status_code=201)
async def create_table(
    body: CreateTable,
    request: Request,
    response: Response,
    services: ServicesDep,
    client: Client,
    player: ProfileOrNew,
) -> dict[str, Any]:
    """Create a table. People sit first, then the bots; the response holds a
    secret token per person's seat (also set as an HttpOnly cookie for the
    first person). The first person's seat is the caller's profile's (made now
    on their first play, with its cookie); it carries the profile's name
    unless ``name`` is given."""
    settings = services.settings
    if body.humans == 0 and not settings.allow_bot_only:
        raise TableError(403, "table.bot_only_forbidden")
    services.check_table_caps(client)
    seats = [SeatSpec("human", None, body.name if i == 0 else None) for i in range(body.humans)]
    seats += [SeatSpec("bot", bot) for bot in body.bots]
    delay = settings.bot_delay if body.bot_delay is None else body.bot_delay
    if body.seed is not None and not settings.allow_seed:
        raise TableError(403, "table.seed_forbidden")
    spec = new_table_spec(body.preset, dict(body.options), seats, delay, body.seed)
    if body.humans:
        # Made only now that the table is known to be good: a refused table
        # makes no profile.
        profile = await player.get(body.name)
        seats[0] = SeatSpec("human", None, body.name or profile.name, profile.id)
        spec = dataclasses.replace(spec, seats=seats)
    table, tokens = await services.tables.create(spec)
    services.created_by.add(client, table.table_id)
    first = next((t for t in tokens if t), None)
    if first is not None:
        set_seat_cookie(
            response,
            TABLE_COOKIE + table.table_id,
            first,
            f"/api/tables/{table.table_id}",
            services.secure_cookie(request),
        )
    table.wake_bots()
    seat = 0 if first is not None else None
    return {
        "table": table_summary(table.spec, table.status),
        "seat": seat,
        "token": first,
        "tokens": [{"seat": i, "token": t} for i, t in enumerate(tokens) if t],
        "state": seat_state(table, seat),
    }


@router.get("/{table_id}")
async def get_table(table_id: str, tables: TablesDep) -> dict[str, Any]:
    """The table's game, seats and status."""
    table = await tables.get(table_id)
    return table_summary(table.spec, table.status)


@router.get("/{table_id}/state", response_class=JSONBytes)
async def get_state(table_id: str, tables: TablesDep, token: SeatToken) -> Response:
    """The table as the caller's seat sees it (a spectator without a token)."""
    table = await tables.get(table_id)
    return JSONBytes(seat_state_json(table, table.seat_of_token(token)))


@router.post("/{table_id}/actions", response_class=JSONBytes)
async def post_action(
    table_id: str, body: PostAction, request: Request, tables: TablesDep, token: SeatToken
) -> Response:
    """Play one action for the caller's seat; the answer is the new state.
    (The table's WebSocket takes the same move as ``{"type": "act", ...}``.)"""
    table = await play_action(
        tables, table_id, token, body.action, body.seq, lambda: request_language(request)
    )
    # No turn of the loop before this reply to let the action's WebSocket
    # events go out first: tried, WS and HTTP p99 became equal, but both p50s
    # rose (4 runs of 60 s under load).
    return JSONBytes(seat_state_json(table, table.seat_of_token(token)))


@router.post("/{table_id}/continue", response_class=JSONBytes)
async def continue_after_showdown(table_id: str, tables: TablesDep, token: SeatToken) -> Response:
    """The caller has seen the last showdown; bots may play the next deal."""
    table = await continue_deal(tables, table_id, token)
    # The cached JSON: FastAPI's own encoding of a whole state costs more
    # than building it.
    return JSONBytes(seat_state_json(table, table.seat_of_token(token)))


@router.post("/{table_id}/resign")
async def resign(table_id: str, services: ServicesDep, token: SeatToken) -> dict[str, Any]:
    """Give the match up (the seat's token, as for an action; 409 when the
    match is over, a second time included).

    Alone against bots, the match ends now, lost by the caller: the table is
    over and the history lists it with ``resigned``. With other people (a
    friends' table), a bot plays the seat to the end and the token no longer
    plays it. The answer is the state as after an action (the caller's seat;
    a spectator's when a bot took it), with ``resignation``: the ``seat``,
    whether the match ``ended``, and the ``bot`` now playing the seat."""
    tables = services.tables
    table = await tables.get(table_id)
    seat = acting_seat(table, token)
    level = await resign_seat(tables, table, seat)
    if level is not None:
        await services.rooms.seat_taken_by_bot(table_id, seat, level)
    # A quick match is rated: leaving it is the person's loss, and counted.
    await services.quick.left(table_id, seat)
    viewer = seat if level is None else None
    return seat_state(table, viewer) | {
        "resignation": {"seat": seat, "ended": level is None, "bot": level}
    }


@router.put("/{table_id}/settings")
async def table_settings(
    table_id: str, body: TableSettings, tables: TablesDep, token: SeatToken
) -> dict[str, Any]:
    """Change the pause between bot steps (seconds) at this table."""
    table = await tables.get(table_id)
    acting_seat(table, token)
    await table.set_bot_delay(body.bot_delay)
    return table_summary(table.spec, table.status) | {"bot_delay": table.bot_delay}


@router.post("/{table_id}/explain-meld")
async def explain(
    table_id: str, body: ExplainMeld, tables: TablesDep, lang: Lang
) -> dict[str, Any]:
    """Whether the cards form a meld under this table's rules, and why not."""
    table = await tables.get(table_id)
    reason = explain_meld(body.cards, table.rules, lang)
    return {"valid": reason is None, "explanation": reason}


@router.get("/{table_id}/events")
async def missed(
    table_id: str,
    tables: TablesDep,
    token: SeatToken,
    since: Annotated[int, Query(ge=0, le=MAX_SEQ)] = 0,
) -> dict[str, Any]:
    """Events after number ``since`` (as the caller's seat sees them) and the
    state now; ``events`` is null when a full resync is needed."""
    table = await tables.get(table_id)
    seat = table.seat_of_token(token)
    return {
        "seq": table.seq,
        "events": table.missed_events(seat, since),
        "state": seat_state(table, seat),
    }
