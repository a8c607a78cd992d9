"""A stub of the web game for the floor of ``benchmarks/load.py`` (``--against-stub``).

It answers what load.py's tables ask of ``pyrummy serve`` and does no game
work: no rules, no storage, no bots' decisions. Table creation answers a
state; the table's WebSocket sends that state, then one event per action,
each of ``--event-chars`` characters (load.py reports the real server's mean,
``events of N characters``): the person's two moves (draw, discard), each
acknowledged after its event as the server does, then the bots' four moves
(two bots, two moves each), one every ``bot_delay`` seconds, then the
person's turn again. So the stub sends the same messages per second, of the
same size, as the real server at the same load.

It is served the way ``pyrummy serve`` serves the game: uvicorn with
httptools, websockets without permessage-deflate, the same frame limit and
the project's connection classes (``pyrummy.server.connections``); the app
is either

* ``fastapi``: a FastAPI app with the real app's middlewares (headers,
  rate limits off as ``--rate-limit off``, the origin check, the body cap,
  the catch-all) and routes of the same shape (the request body read by the
  real server's pydantic model, the state answered as encoded JSON bytes);
* ``asgi``: a bare ASGI callable, no routing or middleware (what the
  framework adds is the difference).

``--store sqlite`` adds the one piece of game work every design must keep:
each move is stored before its event goes out, as the server stores it (a
row of the real schema in a SQLite file, written by the server's own
:class:`~pyrummy.server.storage.sqlite_writer.SqliteWriter` in its thread, a table's
row at its creation); so the stub's CPU per action is then the floor of any
server on this stack that acknowledges only stored moves.

Run by load.py (``load.py --against-stub fastapi``); alone for a look::

    .venv/bin/python benchmarks/ws_stub.py --app fastapi --port 8765
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import itertools
import json
import tempfile
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson
import uvicorn
from fastapi import FastAPI, Request, Response, WebSocket
from starlette.websockets import WebSocketDisconnect

from pyrummy.cli.cmd_serve import WS_MAX_FRAME
from pyrummy.server.connections import uvicorn_http, uvicorn_ws
from pyrummy.server.ratelimit import ClientCounter, RateLimit
from pyrummy.server.schemas import CreateTable
from pyrummy.server.security import BodyLimit, CatchAll, SecurityHeaders, WebSocketOrigins
from pyrummy.server.settings import RateLimits
from pyrummy.server.storage import Base
from pyrummy.server.storage.sqlite_writer import SqliteWriter
from pyrummy.server.views import JSONBytes

#: Mean characters of an event of the real server at load.py's default table
#: (Knock Rummy, a person and two easy bots), as load.py reported it.
EVENT_CHARS = 4200
#: The bots' moves between two turns of the person (two bots, draw and discard).
BOT_MOVES = 4

Send = Callable[[str], Awaitable[None]]


@dataclass
class StubAppend:
    """One move as the writer stores it (the fields of ``sqlite_writer.Append``)."""

    table_id: str
    seq: int
    seat: int
    text: str
    result: dict[str, Any] | None
    at: float


class StubStore:
    """Moves stored as the server stores them: the real schema, the real writer."""

    def __init__(self, folder: Path, inline: bool = False) -> None:
        path = folder / "stub.sqlite3"
        #: A diagnosis: the writes in the event loop's thread (the server must not).
        self.inline = inline
        from sqlalchemy import create_engine

        engine = create_engine(f"sqlite:///{path}")
        Base.metadata.create_all(engine)  # the server's tables and indexes
        engine.dispose()
        self.writer = SqliteWriter(str(path))

    async def create(self, table_id: str) -> None:
        row = (table_id, time.time(), "knock", "{}", "[]", "[]", 0, 0, 0.8, "live")

        def insert() -> None:
            connection = self.writer._connect()
            connection.execute(
                "INSERT INTO tables (id, created_at, preset, options_json, seats_json,"
                " token_digests_json, seed, first_dealer, bot_delay, status)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                row,
            )

        if self.inline:  # the connection then belongs to the loop's thread
            insert()
            return
        await self.writer._submit(insert)

    async def append(self, table_id: str, seq: int, seat: int, text: str) -> None:
        append = StubAppend(table_id, seq, seat, text, None, time.time())
        if self.inline:
            self.writer._write([(table_id, seq, seat, text, append.at)], [])
            return
        await self.writer.write([append])


class StubTable:
    """One table's turn order and sequence numbers; the messages it sends."""

    def __init__(
        self, table_id: str, bot_delay: float, event_chars: int, store: StubStore | None = None
    ) -> None:
        self.table_id = table_id
        self.store = store
        self.bot_delay = bot_delay
        self.event_chars = event_chars
        self.seq = 0
        #: "draw", "discard" (the person's turn) or "bots".
        self.phase = "draw"
        self.send: Send | None = None
        self.bot_task: asyncio.Task[None] | None = None

    def state(self, padding: int = 0) -> dict[str, Any]:
        legal = ["draw stock", "draw discard"] if self.phase == "draw" else []
        if self.phase == "discard":
            legal = ["discard 7H", "discard 9C", "discard KS"]
        return {
            "seq": self.seq,
            "table": {"id": self.table_id, "status": "live"},
            "match": {"over": False},
            "awaiting_continue": False,
            "legal_actions": legal,
            "knock_deadwood": {},
            "arrangement": {"deadwood_cards": ["KS", "9C", "7H"]},
            "padding": "x" * padding,
        }

    def event(self, action: str) -> str:
        """The event of the move just played, padded to ``event_chars``."""
        message = {"type": "event", "seq": self.seq, "action": action, "state": self.state()}
        short = len(orjson.dumps(message))
        message["state"] = self.state(max(0, self.event_chars - short))
        return orjson.dumps(message).decode()

    async def act(self, text: str) -> bool:
        """The person's move: its event, then (after a discard) the bots."""
        if self.phase == "draw" and text.startswith("draw"):
            self.phase = "discard"
        elif self.phase == "discard" and text.startswith("discard"):
            self.phase = "bots"
        else:
            return False
        self.seq += 1
        if self.store is not None:
            await self.store.append(self.table_id, self.seq, 0, text)
        if self.send is not None:
            await self.send(self.event(text))
        if self.phase == "bots" and (self.bot_task is None or self.bot_task.done()):
            self.bot_task = asyncio.get_running_loop().create_task(self.bots())
        return True

    async def bots(self) -> None:
        for move in range(BOT_MOVES):
            await asyncio.sleep(self.bot_delay)
            self.seq += 1
            text = "draw stock" if move % 2 == 0 else "discard 5D"
            if self.store is not None:
                await self.store.append(self.table_id, self.seq, 1 + move // 2, text)
            if move == BOT_MOVES - 1:
                self.phase = "draw"
            if self.send is not None:
                with contextlib.suppress(Exception):  # the socket went away
                    await self.send(self.event(text))

    def stop(self) -> None:
        if self.bot_task is not None:
            self.bot_task.cancel()


class Stub:
    """The stub's tables and the answers both apps give."""

    def __init__(self, event_chars: int, store: StubStore | None = None) -> None:
        self.event_chars = event_chars
        self.store = store
        self.tables: dict[str, StubTable] = {}
        self.numbers = itertools.count(1)

    async def create(self, bot_delay: float) -> bytes:
        table = StubTable(f"t{next(self.numbers)}", bot_delay, self.event_chars, self.store)
        if self.store is not None:
            await self.store.create(table.table_id)
        self.tables[table.table_id] = table
        return orjson.dumps(
            {
                "table": {"id": table.table_id, "status": "live"},
                "seat": 0,
                "token": "stub-token",
                "state": table.state(self.event_chars // 2),
            }
        )

    def opening(self, table: StubTable) -> str:
        message = {"type": "state", "seq": table.seq, "state": table.state(self.event_chars // 2)}
        return orjson.dumps(message).decode()

    async def answer(self, table: StubTable, text: str, send: Send) -> None:
        """A client's message: the move's event (sent by the table), then its ack."""
        request = json.loads(text)
        played = await table.act(str(request.get("action", "")))
        reply: dict[str, Any] = {"type": "ack", "id": request.get("id"), "seq": table.seq}
        if not played:
            reply = {"type": "error", "id": request.get("id"), "status": 409}
        await send(orjson.dumps(reply).decode())

    def close(self, table: StubTable) -> None:
        table.send = None
        table.stop()
        self.tables.pop(table.table_id, None)


def fastapi_app(stub: Stub) -> FastAPI:
    app = FastAPI(docs_url=None, redoc_url=None, openapi_url=None)
    # The real app's middlewares, in its order (app.create_app).
    app.add_middleware(CatchAll)
    app.add_middleware(BodyLimit, limit=64 * 1024)
    app.add_middleware(WebSocketOrigins, allowed=())
    limits = RateLimits.off()
    app.add_middleware(RateLimit, limits=limits, counter=ClientCounter(limits))
    app.add_middleware(SecurityHeaders)

    @app.get("/api/presets")
    async def presets() -> dict[str, Any]:
        return {"presets": [], "bots": ["easy"]}

    @app.post("/api/tables", status_code=201, response_class=JSONBytes)
    async def create_table(body: CreateTable, request: Request) -> Response:
        delay = 0.8 if body.bot_delay is None else body.bot_delay
        return JSONBytes(await stub.create(delay), status_code=201)

    @app.websocket("/api/tables/{table_id}/ws")
    async def live(websocket: WebSocket, table_id: str) -> None:
        table = stub.tables.get(table_id)
        if table is None:
            await websocket.close(code=4404)
            return
        await websocket.accept()
        await websocket.send_text(stub.opening(table))
        table.send = websocket.send_text
        try:
            while True:
                await stub.answer(table, await websocket.receive_text(), websocket.send_text)
        except (WebSocketDisconnect, RuntimeError):
            pass
        finally:
            stub.close(table)

    return app


def asgi_app(stub: Stub) -> Any:
    """The same answers as a bare ASGI callable: no routing, no middleware."""

    async def reply(send: Any, status: int, body: bytes) -> None:
        headers = [(b"content-type", b"application/json"), (b"content-length", b"%d" % len(body))]
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send({"type": "http.response.body", "body": body})

    async def http(scope: dict[str, Any], receive: Any, send: Any) -> None:
        body = b""
        more = True
        while more:
            message = await receive()
            body += message.get("body", b"")
            more = message.get("more_body", False)
        if scope["method"] == "POST" and scope["path"] == "/api/tables":
            delay = json.loads(body).get("bot_delay")
            await reply(send, 201, await stub.create(0.8 if delay is None else float(delay)))
        elif scope["path"] == "/api/presets":
            await reply(send, 200, b'{"presets": [], "bots": ["easy"]}')
        else:
            await reply(send, 404, b'{"error": "not found"}')

    async def websocket(scope: dict[str, Any], receive: Any, send: Any) -> None:
        parts = scope["path"].split("/")  # /api/tables/{id}/ws
        table = stub.tables.get(parts[3]) if len(parts) == 5 else None
        await receive()  # websocket.connect
        if table is None:
            await send({"type": "websocket.close", "code": 4404})
            return

        async def send_text(text: str) -> None:
            await send({"type": "websocket.send", "text": text})

        await send({"type": "websocket.accept"})
        await send_text(stub.opening(table))
        table.send = send_text
        try:
            while True:
                message = await receive()
                if message["type"] != "websocket.receive":
                    break
                await stub.answer(table, message["text"], send_text)
        finally:
            stub.close(table)

    async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] == "http":
            await http(scope, receive, send)
        elif scope["type"] == "websocket":
            await websocket(scope, receive, send)
        elif scope["type"] == "lifespan":
            while (await receive())["type"] != "lifespan.shutdown":
                await send({"type": "lifespan.startup.complete"})
            await send({"type": "lifespan.shutdown.complete"})

    return app


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--app", choices=("fastapi", "asgi"), default="fastapi")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8765)
    parser.add_argument("--event-chars", type=int, default=EVENT_CHARS)
    parser.add_argument(
        "--store",
        choices=("none", "sqlite", "sqlite-inline"),
        default="none",
        help="sqlite: store each move before its event, as the server does;"
        " sqlite-inline: the same writes in the event loop's thread (a diagnosis)",
    )
    args = parser.parse_args(argv)
    folder = Path(tempfile.mkdtemp(prefix="pyrummy-stub-"))
    store = None if args.store == "none" else StubStore(folder, args.store == "sqlite-inline")
    stub = Stub(args.event_chars, store)
    app = fastapi_app(stub) if args.app == "fastapi" else asgi_app(stub)
    # As cmd_serve.run serves the game.
    uvicorn.run(
        app,
        host=args.host,
        port=args.port,
        log_level="warning",
        ws_per_message_deflate=False,
        http=uvicorn_http(),
        ws=uvicorn_ws(),
        ws_max_size=WS_MAX_FRAME,
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
