"""``WS /api/tables/{id}/ws?since=N``: a table's live events, numbered, and a
person's moves (:mod:`pyrummy.server.ws_actions`).

The handshake is declared in :data:`HANDSHAKE`, which the ``/api`` reference
prints: the query parameter, the subprotocols, and the close codes.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final

from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from pyrummy.server.deps import client_of, request_language, services_of
from pyrummy.server.play import continue_deal, play_action
from pyrummy.server.seats import TOKEN_SUBPROTOCOL_PREFIX, WS_SUBPROTOCOL, table_token
from pyrummy.server.tables import LiveTable, Subscriber, TableError
from pyrummy.server.views import seat_state
from pyrummy.server.ws_actions import SocketActions

SINCE_PATTERN = re.compile(r"[0-9]{1,9}")
#: Put in a subscriber's queue when its client has gone away.
CLIENT_GONE: dict[str, Any] = {"type": "client-gone"}


@dataclass(frozen=True)
class Handshake:
    """What opening a table's WebSocket takes and what closing one means."""

    path: str
    query: tuple[tuple[str, str], ...]
    subprotocols: tuple[tuple[str, str], ...]
    close_codes: tuple[tuple[int, str], ...]


HANDSHAKE: Final = Handshake(
    path="/api/tables/{table_id}/ws",
    query=(
        (
            "since",
            "the last event number the client has: the events after it come first"
            " (absent or unreadable: none, and the state says resync)",
        ),
    ),
    subprotocols=(
        (WS_SUBPROTOCOL, "offered with the token's: the server accepts it"),
        (f"{TOKEN_SUBPROTOCOL_PREFIX}TOKEN", "the seat's token, for a browser"),
    ),
    close_codes=(
        (4000 + 400, "`seat.token_in_url`: a token in the URL is refused"),
        (4000 + 403, "`seat.token_bad`: the token plays no seat here"),
        (4000 + 404, "`table.not_found`"),
        (4000 + 410, "the table was closed (or cannot be loaded)"),
        (1008, "the client kept sending what is refused"),
        (1012, "the server restarts: connect again"),
    ),
)

router = APIRouter(tags=["tables"])


@router.websocket(HANDSHAKE.path)
async def live(websocket: WebSocket, table_id: str) -> None:
    """The table's events as they happen, and the person's moves."""
    services = services_of(websocket)
    tables = services.tables
    try:
        table = await tables.get(table_id)
        token = table_token(websocket, table_id)
        seat = table.seat_of_token(token)
    except TableError as exc:
        await websocket.close(code=4000 + exc.status, reason=exc.key)
        return
    since_text = websocket.query_params.get("since", "")
    since = int(since_text) if SINCE_PATTERN.fullmatch(since_text) else -1
    offered = websocket.scope.get("subprotocols") or []
    await websocket.accept(subprotocol=WS_SUBPROTOCOL if WS_SUBPROTOCOL in offered else None)
    subscriber = table.subscribe(seat)
    receiver: asyncio.Task[None] | None = None
    try:
        events = table.missed_events(seat, since) if since >= 0 else None
        for event in events or []:
            await websocket.send_json(event)
        await websocket.send_json(
            {
                "type": "state",
                "seq": table.seq,
                "state": seat_state(table, seat),
                "resync": events is None,
            }
        )
        lang = request_language(websocket)

        async def play(
            table_id: str,
            token: str | None,
            text: str,
            seq: int | None,
            played: Callable[[LiveTable], None],
        ) -> LiveTable:
            return await play_action(tables, table_id, token, text, seq, lambda: lang, played)

        async def move_on(table_id: str, token: str | None) -> LiveTable:
            return await continue_deal(tables, table_id, token)

        moves = SocketActions(
            websocket,
            table,
            subscriber,
            token,
            lang,
            client_of(websocket),
            services.counter,
            play,
            move_on,
        )
        receiver = asyncio.create_task(_receive_until_gone(moves))
        # The client going away is one more message in the queue: a task
        # and an asyncio.wait per message cost more than the send.
        receiver.add_done_callback(lambda _: _client_gone(subscriber))
        await _send_until_closed(websocket, subscriber)
    except (WebSocketDisconnect, RuntimeError):
        pass
    finally:
        subscriber.send_now = None
        if receiver is not None:
            receiver.cancel()
        table.unsubscribe(subscriber)


async def _send_until_closed(websocket: WebSocket, subscriber: Subscriber) -> None:
    """Send what the subscriber's queue holds until the client or the table goes."""
    while True:
        subscriber.send_now = websocket.send_text  # see LiveTable.deliver
        message = await subscriber.queue.get()
        await subscriber.sending_done()
        if message is CLIENT_GONE:
            return
        if message is None or (isinstance(message, dict) and message.get("type") == "closing"):
            # 1012: the server restarts, come back; 4410: the table is
            # gone; 1008 (ws_actions): the client kept sending junk.
            reason = message.get("reason") if message else None
            code = message.get("code") if message else None
            code = code or (4410 if reason else 1012)
            await websocket.close(code=code, reason=reason or "")
            return
        if isinstance(message, str):
            await websocket.send_text(message)
        else:
            await websocket.send_json(message)


def _client_gone(subscriber: Subscriber) -> None:
    # A full queue is being sent: the next send finds the socket closed.
    with contextlib.suppress(asyncio.QueueFull):
        subscriber.queue.put_nowait(CLIENT_GONE)


async def _receive_until_gone(moves: SocketActions) -> None:
    """Play what the client sends (ws_actions), until it goes away."""
    with contextlib.suppress(WebSocketDisconnect, RuntimeError):
        await moves.run()
