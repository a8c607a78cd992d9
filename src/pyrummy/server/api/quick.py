"""The API of the quick match (people you don't know); the logic is in :mod:`pyrummy.server.quick`.

* ``GET  /api/quick`` — per game and number of players how many wait, and
  the caller's cooldown (seconds left) if they left rated matches.
* ``POST /api/quick/join`` — wait for a game (preset, players, the wait
  before bots or none, the bots' level, a name); the answer holds the queue
  ticket (also an HttpOnly cookie).
* ``POST /api/quick/poll`` — "still here": the queue, the place in it, and
  once seated the table's id, the seat and its token (the ticket itself).
* ``POST /api/quick/leave`` — leave the queue (409 once seated).

The ticket travels as the header ``X-Queue-Ticket`` or the cookie, never in
a URL. The person is the caller's profile (made on joining, as on a first
play): one profile waits once and is seated once, from any browser.
"""

from __future__ import annotations

from typing import Annotated, Any, Final

from fastapi import APIRouter, Depends, Request, Response

from pyrummy.server.deps import CurrentProfile, ProfileOrNew, QuickDep, ServicesDep
from pyrummy.server.schemas import JoinQueue
from pyrummy.server.seats import TABLE_COOKIE, set_seat_cookie

#: The cookie of a queue ticket (path ``/api/quick``).
QUEUE_COOKIE: Final = "pyrummy_quick"

router = APIRouter(prefix="/api/quick", tags=["quick match"])


def queue_ticket(request: Request) -> str | None:
    """The queue ticket the request carries (header, else cookie)."""
    return request.headers.get("x-queue-ticket") or request.cookies.get(QUEUE_COOKIE)


async def _ticket(request: Request) -> str | None:
    return queue_ticket(request)


#: The queue ticket the request carries (None: none).
Ticket = Annotated[str | None, Depends(_ticket)]


@router.get("")
async def overview(quick: QuickDep, profile: CurrentProfile) -> dict[str, Any]:
    """How many wait for each game and number of players; the caller's cooldown."""
    return await quick.overview(profile.id if profile is not None else None)


@router.post("/join", status_code=201)
async def join(
    body: JoinQueue,
    request: Request,
    response: Response,
    services: ServicesDep,
    profile: ProfileOrNew,
) -> dict[str, Any]:
    """Wait for ``players`` people to play ``preset``: 403 ``quick.cooldown``
    (with ``retry_after`` seconds) after leaving rated matches, 409
    ``quick.already_queued`` while waiting in a queue (from any browser),
    422 for a game, bot or wait not offered; nothing is stored then."""
    secure = services.secure_cookie(request)
    # The person is their profile (made now on a first play, once the game is
    # known to be offered): one profile waits once, from any browser.
    services.quick.check_game(body.preset, body.players, body.bot, body.bot_wait)
    player = (await profile.get(body.name)).id
    ticket, view = await services.quick.join(
        player, body.preset, body.players, body.name, body.bot_wait, body.bot
    )
    if view["status"] == "seated":
        _seat_cookie(response, view, ticket, secure)
    else:
        response.set_cookie(
            QUEUE_COOKIE, ticket, httponly=True, secure=secure, samesite="strict", path="/api/quick"
        )
    return {"ticket": ticket, **view}


@router.post("/poll")
async def poll(
    request: Request, response: Response, services: ServicesDep, ticket: Ticket
) -> dict[str, Any]:
    """Still waiting (a page that stops polling leaves the queue): the queue,
    the caller's place, and once seated ``table_id``, ``seat`` and ``token``."""
    view = await services.quick.poll(ticket)
    _seat_cookie(response, view, ticket, services.secure_cookie(request))
    return view


@router.post("/leave")
async def leave(response: Response, quick: QuickDep, ticket: Ticket) -> dict[str, Any]:
    """Leave the queue (404 when not waiting, 409 once seated)."""
    await quick.leave(ticket)
    response.delete_cookie(QUEUE_COOKIE, path="/api/quick")
    return {"left": True}


def _seat_cookie(
    response: Response, view: dict[str, Any], ticket: str | None, secure: bool
) -> None:
    """Once seated, the ticket becomes the seat's cookie, and the queue's
    cookie goes: the page that read its seat is no longer in a queue."""
    table_id = view.get("table_id")
    if view.get("status") == "seated" and table_id and ticket:
        set_seat_cookie(
            response, TABLE_COOKIE + table_id, ticket, f"/api/tables/{table_id}", secure
        )
        response.delete_cookie(QUEUE_COOKIE, path="/api/quick")
