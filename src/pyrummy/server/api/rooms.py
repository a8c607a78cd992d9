"""The API of private tables for friends (rooms); the logic is in :mod:`rooms`.

* ``POST /api/rooms`` — a room: the game, and per seat ``you``/``open``/``bot``.
* ``GET  /api/rooms/{code}`` — the waiting room (or the started table's id).
* ``POST /api/rooms/{code}/join`` — sit in the first open seat (a name).
* ``POST /api/rooms/{code}/leave`` — leave before the start.
* ``PUT  /api/rooms/{code}/seats/{n}`` — the creator makes an open seat a bot (or back).
* ``PUT  /api/rooms/{code}/rated`` — the creator makes the room's matches rated (or not),
  before the start.
* ``POST /api/rooms/{code}/start`` — the creator starts when every seat is taken
  (within the server's caps on unfinished tables, as ``POST /api/tables``).
* ``POST /api/rooms/{code}/again`` — the creator: a new match, the same people.
* ``POST /api/rooms/{code}/poll`` — "I am here" (seat or watcher), the room and new chat.
* ``POST /api/rooms/{code}/chat`` — a short message of a seated person.
* ``GET  /api/tables/{id}/room`` — the room a table belongs to (``{"room": null}``: none).
* ``GET  /join/{code}`` — the link friends get: the page, on the room.

The request bodies are declared in :mod:`pyrummy.server.schemas`. The seat
token travels as a table's does (:data:`pyrummy.server.seats.TOKEN_WAYS`,
the room's own cookie), never in a URL.
"""

from __future__ import annotations

import re
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request, Response
from fastapi.responses import RedirectResponse
from pydantic import Field

from pyrummy.server.deps import Client, ProfileOrNew, RoomsDep, ServicesDep
from pyrummy.server.rooms import Room, normalize_code
from pyrummy.server.schemas import ChatMessage, CreateRoom, JoinRoom, Poll, SetRated, SetSeat
from pyrummy.server.seats import ROOM_COOKIE, seat_token, set_seat_cookie
from pyrummy.server.tables import TableError


def room_token(request: Request, code: str) -> str | None:
    """The token of a seat in room ``code`` (None: a watcher)."""
    return seat_token(request, ROOM_COOKIE + normalize_code(code)[:8])


async def _room_token(request: Request, code: str) -> str | None:
    return room_token(request, code)


#: The seat token the request carries for room ``{code}``.
RoomToken = Annotated[str | None, Depends(_room_token)]

router = APIRouter(tags=["rooms"])


def _set_cookie(response: Response, room: Room, token: str, secure: bool) -> None:
    set_seat_cookie(response, ROOM_COOKIE + room.code, token, f"/api/rooms/{room.code}", secure)


@router.post("/api/rooms", status_code=201)
async def create_room(
    body: CreateRoom,
    request: Request,
    response: Response,
    services: ServicesDep,
    player: ProfileOrNew,
) -> dict[str, Any]:
    """A private table for friends; the answer holds the room code and the
    creator's seat token (also an HttpOnly cookie). The seat is the caller's
    profile's (made now on a first play)."""
    rooms = services.rooms
    grace = rooms.settings.default_grace if body.grace is None else body.grace
    delay = services.settings.bot_delay if body.bot_delay is None else body.bot_delay
    room, token = await rooms.create(
        body.preset,
        dict(body.options),
        [(s.kind, s.bot) for s in body.seats],
        body.name,
        body.turn_timer,
        grace,
        delay,
        player,
        rated=body.rated,
    )
    _set_cookie(response, room, token, services.secure_cookie(request))
    return {"room": await rooms.view(room, room.creator), "seat": room.creator, "token": token}


@router.get("/api/rooms/options")
async def room_options(rooms: RoomsDep) -> dict[str, Any]:
    """The grace periods and turn timers a creator may choose here."""
    settings = rooms.settings
    return {
        "grace_choices": list(settings.grace_choices),
        "default_grace": settings.default_grace,
        "turn_timers": list(settings.turn_timer_choices),
    }


@router.get("/api/rooms/{code}")
async def get_room(code: str, rooms: RoomsDep, token: RoomToken) -> dict[str, Any]:
    """The waiting room, or the started table's id."""
    room = await rooms.load(code)
    return await rooms.view(room, room.seat_of_token(token))


@router.post("/api/rooms/{code}/join")
async def join_room(
    code: str,
    body: JoinRoom,
    request: Request,
    response: Response,
    services: ServicesDep,
    token: RoomToken,
    player: ProfileOrNew,
) -> dict[str, Any]:
    """Sit in the first open seat as the caller's profile (409 when full or
    started, or when the profile sits here already; 404 for a wrong code)."""
    rooms = services.rooms
    room, seat, new_token = await rooms.join(code, body.name, token, player)
    if new_token is not None:
        _set_cookie(response, room, new_token, services.secure_cookie(request))
    return {"room": await rooms.view(room, seat), "seat": seat, "token": new_token}


@router.post("/api/rooms/{code}/leave")
async def leave_room(
    code: str, response: Response, rooms: RoomsDep, token: RoomToken
) -> dict[str, Any]:
    """Leave before the start (the creator leaving closes the room)."""
    room = await rooms.leave(code, token)
    response.delete_cookie(ROOM_COOKIE + room.code, path=f"/api/rooms/{room.code}")
    return await rooms.view(room, None)


@router.put("/api/rooms/{code}/seats/{index}")
async def set_room_seat(
    code: str,
    index: Annotated[int, Field(ge=1, le=6)],
    body: SetSeat,
    rooms: RoomsDep,
    token: RoomToken,
) -> dict[str, Any]:
    """The creator fills open seat ``index`` (from 1) with a bot, or opens it again."""
    room = await rooms.set_seat(code, index - 1, body.kind, body.bot, token)
    return await rooms.view(room, room.creator)


@router.put("/api/rooms/{code}/rated")
async def set_room_rated(
    code: str, body: SetRated, rooms: RoomsDep, token: RoomToken
) -> dict[str, Any]:
    """The creator makes the room's matches rated or not (403 for anyone else,
    409 once started)."""
    room = await rooms.set_rated(code, body.rated, token)
    return await rooms.view(room, room.creator)


@router.post("/api/rooms/{code}/start")
async def start_room(
    code: str, services: ServicesDep, token: RoomToken, client: Client
) -> dict[str, Any]:
    """The creator starts the match (409 while a seat is still open; 429 or
    503 when the caps on unfinished tables refuse one more, nothing stored)."""
    rooms = services.rooms
    room = await rooms.start(code, token, lambda: services.check_table_caps(client))
    services.created_by.add(client, str(room.table_id))
    return await rooms.view(room, room.creator)


@router.post("/api/rooms/{code}/again")
async def again(
    code: str, services: ServicesDep, token: RoomToken, client: Client
) -> dict[str, Any]:
    """After the match: a new one with the same people (the creator asks)."""
    rooms = services.rooms
    room = await rooms.again(code, token, lambda: services.check_table_caps(client))
    services.created_by.add(client, str(room.table_id))
    return await rooms.view(room, room.creator)


@router.post("/api/rooms/{code}/poll")
async def poll(code: str, body: Poll, rooms: RoomsDep, token: RoomToken) -> dict[str, Any]:
    """Say "I am here" and get the room (presence, watchers, new chat)."""
    room = await rooms.load(code)
    seat = room.seat_of_token(token)
    if seat is not None:
        name = room.seats[seat].name or str(seat + 1)
        await rooms.seen(room, f"seat:{seat}", name, body.active, seat)
    elif body.watcher is not None:
        await rooms.seen(room, f"watch:{body.watcher}", body.name or "?", False, None)
    return await rooms.view(room, seat, body.since)


@router.post("/api/rooms/{code}/chat", status_code=201)
async def chat(code: str, body: ChatMessage, rooms: RoomsDep, token: RoomToken) -> dict[str, Any]:
    """A short message to the table, from a seated person (rate-limited)."""
    room = await rooms.load(code)
    seat = room.seat_of_token(token)
    if seat is None:
        raise TableError(401, "seat.token_missing")
    await rooms.say(room, seat, body.text)
    return {"ok": True}


@router.get("/api/tables/{table_id}/room")
async def room_of_table(table_id: str, rooms: RoomsDep) -> dict[str, Any]:
    """The room of a friends' table, for the table page's panel; ``{"room": null}``
    when the table has no room (a table against bots)."""
    room = await rooms.by_table_or_none(table_id)
    if room is None:
        return {"room": None}
    return await rooms.view(room, None)


@router.get("/join/{code}", include_in_schema=False)
async def join_link(code: str) -> RedirectResponse:
    """The link friends get: the page, on the room."""
    clean = normalize_code(code)
    if not re.fullmatch(r"[A-Z0-9]{1,12}", clean):
        clean = ""
    return RedirectResponse(f"/#/room/{clean}", status_code=303)
