"""The FastAPI application: a JSON API, a WebSocket per table and the page.

Endpoints (OpenAPI at ``/docs``):

* ``GET  /api/presets`` — the games, their limits and options, the bots.
* ``POST /api/tables`` — a new table; returns the seat token(s) (also set as
  an HttpOnly cookie) and the first state.
* ``GET  /api/tables/{id}/state`` — the state for the caller's seat.
* ``POST /api/tables/{id}/actions`` — one action for the caller's seat.
* ``POST /api/tables/{id}/continue`` — the caller has seen the showdown.
* ``PUT  /api/tables/{id}/settings`` — the bots' pause between steps.
* ``POST /api/tables/{id}/explain-meld`` — why some cards are (not) a meld.
* ``GET  /api/tables/{id}/events?since=N`` — missed events and a fresh state.
* ``WS   /api/tables/{id}/ws?since=N`` — live events, numbered.
* ``GET  /api/matches`` — finished (or live) matches, newest first.
* ``GET  /api/matches/{id}/replay?step=K`` and ``/record`` — finished matches.

The seat token travels in the ``X-Seat-Token`` header, an
``Authorization: Bearer`` header or the table's cookie. Without one the
caller is a spectator: it sees what a spectator may see and cannot act.
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import logging
import re
from collections.abc import AsyncIterator, Callable
from importlib import resources
from pathlib import Path
from typing import Annotated, Any

from fastapi import Depends, FastAPI, Query, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import (
    FileResponse,
    HTMLResponse,
    JSONResponse,
    PlainTextResponse,
    Response,
)
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.requests import HTTPConnection
from starlette.types import ASGIApp, Receive, Scope, Send

from pyrummy.core.actions import ActionKind, parse_action
from pyrummy.core.errors import IllegalActionError, RummyError
from pyrummy.core.melds import explain_meld
from pyrummy.core.rules import PRESETS
from pyrummy.server import memtrace
from pyrummy.server.api_text import API_DESCRIPTION
from pyrummy.server.botpool import BotPool
from pyrummy.server.cluster import Cluster
from pyrummy.server.loopstats import LoopStats, Refreezer, tune_gc
from pyrummy.server.messages import pick_language, server_text
from pyrummy.server.ratelimit import ClientCounter, CreatedBy, RateLimit
from pyrummy.server.reference import REFERENCE_CSS, REFERENCE_CSS_PATH, reference_html
from pyrummy.server.room_keeper import RoomKeeper
from pyrummy.server.rooms import Rooms
from pyrummy.server.routes_health import health_router
from pyrummy.server.routes_player import player_router
from pyrummy.server.routes_rooms import rooms_router
from pyrummy.server.schemas import (
    MAX_OFFSET,
    MAX_SEQ,
    CreateTable,
    ExplainMeld,
    PostAction,
    TableSettings,
)
from pyrummy.server.security import CatchAll, SecurityHeaders, WebSocketOrigins
from pyrummy.server.settings import Settings
from pyrummy.server.storage import SeatSpec, Store, StoredAction
from pyrummy.server.tables import (
    WEB_BOTS,
    BotFactory,
    LiveTable,
    Subscriber,
    TableError,
    TableManager,
    default_bot_factory,
    new_table_spec,
)
from pyrummy.server.views import (
    event_with_state_json,
    replay_view,
    rules_summary,
    seat_state,
    seat_state_json,
    state_message_json,
    table_summary,
)
from pyrummy.server.ws_actions import SocketActions, error_parts, validation_detail

log = logging.getLogger("pyrummy.server")

#: How far past the requested page ``GET /api/matches`` counts its total.
COUNT_WINDOW = 1000
#: A browser cannot set headers on a WebSocket: it offers ``pyrummy`` and
#: ``pyrummy.token.<seat token>`` as subprotocols instead (never the URL).
WS_SUBPROTOCOL = "pyrummy"
TOKEN_SUBPROTOCOL_PREFIX = "pyrummy.token."
SINCE_PATTERN = re.compile(r"[0-9]{1,9}")
COOKIE_PREFIX = "pyrummy_seat_"


def static_dir() -> Path:
    return Path(str(resources.files("pyrummy") / "web" / "static"))


class BodyLimit:
    """Refuse request bodies over ``limit`` bytes (413), counted as they arrive."""

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = dict(scope.get("headers") or [])
        length = headers.get(b"content-length")
        if length is not None and (not length.isdigit() or int(length) > self.limit):
            await self._refuse(scope, send)
            return
        body = b""
        more = True
        while more:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            body += message.get("body", b"")
            more = bool(message.get("more_body", False))
            if len(body) > self.limit:
                await self._refuse(scope, send)
                return
        replayed = False

        async def replay() -> Any:
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)

    async def _refuse(self, scope: Scope, send: Send) -> None:
        headers = dict(scope.get("headers") or [])
        lang = pick_language(headers.get(b"accept-language", b"").decode("latin-1"))
        text = server_text("request.too_large", lang, limit=self.limit)
        response = _error_response(413, "request.too_large", text)
        await response({"type": "http"}, _no_receive, send)


async def _no_receive() -> Any:  # pragma: no cover - the refusal reads nothing
    return {"type": "http.disconnect"}


class JSONBytes(Response):
    """A JSON answer already encoded (a table state's cached JSON)."""

    media_type = "application/json"


def _error_response(status: int, code: str, message: str, **extra: Any) -> JSONResponse:
    return JSONResponse(
        {"error": {"status": status, "code": code, "message": message, **extra}},
        status_code=status,
    )


def request_language(request: HTTPConnection) -> str:
    return pick_language(request.headers.get("accept-language"), request.query_params.get("lang"))


async def _language_dependency(request: Request) -> str:
    # async: FastAPI runs a plain-def dependency in its thread pool, a thread
    # hop on every action for a few string operations.
    return request_language(request)


Lang = Annotated[str, Depends(_language_dependency)]


def create_app(
    settings: Settings | None = None, bot_factory: BotFactory = default_bot_factory
) -> FastAPI:
    """The web game as an ASGI app; tables are resumed from storage at start."""
    settings = settings or Settings()
    state: dict[str, Any] = {}
    loop_stats = LoopStats()
    refreezer = Refreezer()

    def manager() -> TableManager:
        result: TableManager = state["manager"]
        return result

    def broadcast(table: LiveTable, stored: StoredAction | None) -> None:
        # Messages go out as JSON text encoded once per seat (not per socket).
        cache: dict[int | None, str] = {}
        for subscriber in list(table.subscribers):
            seat = subscriber.seat
            if seat not in cache:
                if stored is None:
                    cache[seat] = state_message_json(table, seat)
                else:
                    cache[seat] = event_with_state_json(table, stored, seat)
            table.deliver(subscriber, cache[seat])

    @contextlib.asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        store = await Store.open(settings.url())
        # Bots of the default factory are importable by worker processes;
        # a factory of the caller's (tests) runs its bots in a thread.
        workers = settings.bot_workers if bot_factory is default_bot_factory else 0
        bot_pool = BotPool(workers, settings.bot_think_limit)
        await bot_pool.warm_up()
        tables = TableManager(store, bot_factory, bot_pool, settings.lifecycle)
        tables.on_change = broadcast
        state["manager"] = tables
        state["store"] = store
        _app.state.store = store  # for operators' hooks and tests
        _app.state.tables = tables
        # PostgreSQL: other server processes may serve the same tables (B).
        cluster = await Cluster.start(store, tables) if store.notifies else None
        resumed = await tables.resume_all()
        tables.start_sweeping()
        state["rooms"] = _app.state.rooms = Rooms(store, tables, settings.rooms)
        keeper = RoomKeeper(state["rooms"])
        keeper.start()
        log.info("pyrummy: %d live table(s) resumed from %s", resumed, store.url)
        loop_stats.start()
        memory_trace = memtrace.start_from_environment()  # a soak's diagnosis; off by default
        if settings.tune_gc:
            tune_gc(settings.gc_thresholds)
            if settings.gc_refreeze:
                refreezer.thaw_every = settings.gc_refreeze
                refreezer.install()
        try:
            yield
        finally:
            if memory_trace is not None:
                memory_trace.cancel()
            refreezer.uninstall()
            await loop_stats.stop()
            if cluster is not None:
                await cluster.stop()
            await keeper.stop()
            await tables.stop()
            await store.close()

    app = FastAPI(
        title="pyrummy",
        summary="Knock Rummy, Rummy, Gin and their cousins against bots.",
        description=API_DESCRIPTION,
        version="0.1.0",
        lifespan=lifespan,
        # The Swagger/ReDoc pages load scripts from a CDN onto the game's
        # origin; /api is the reference, served from here with no script.
        docs_url=None,
        redoc_url=None,
        **_NO_TELEMETRY,
    )
    # Outermost last: headers on every answer, then limits, then the body cap;
    # the catch-all sits innermost so its JSON 500 gets the headers too.
    app.add_middleware(CatchAll)
    app.add_middleware(BodyLimit, limit=settings.max_body)
    app.add_middleware(WebSocketOrigins, allowed=settings.allowed_origins)
    # One count per client for HTTP requests and moves sent over WebSockets.
    counter = ClientCounter(settings.limits)
    app.add_middleware(RateLimit, limits=settings.limits, counter=counter)
    app.add_middleware(SecurityHeaders)

    # -- errors: always JSON, always 4xx with a message for bad input -----------
    # (The table's WebSocket answers with the same parts: ws_actions.)
    @app.exception_handler(TableError)
    @app.exception_handler(RummyError)
    async def _refused(request: Request, exc: Exception) -> JSONResponse:
        return _error_response(*error_parts(exc, request_language(request)))

    @app.exception_handler(RequestValidationError)
    async def _invalid(request: Request, exc: RequestValidationError) -> JSONResponse:
        lang = request_language(request)
        errors = exc.errors()
        if any(e.get("type") == "json_invalid" for e in errors):
            detail = "; ".join(str(e.get("ctx", {}).get("error", e.get("msg"))) for e in errors)
            return _error_response(
                400, "request.bad_json", server_text("request.bad_json", lang, detail=detail)
            )
        detail = validation_detail(list(errors))
        return _error_response(
            422, "request.invalid", server_text("request.invalid", lang, detail=detail)
        )

    @app.exception_handler(StarletteHTTPException)
    async def _http(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        lang = request_language(request)
        if exc.status_code == 404:
            text = server_text("not_found", lang, path=request.url.path)
        else:
            text = str(exc.detail)
        return _error_response(exc.status_code, "http", text)

    # -- helpers ------------------------------------------------------------------
    def unfinished(table_ids: set[str]) -> set[str]:
        # Tables in memory and not over: those that cost something now (an
        # idle table left memory; an abandoned one was closed).
        tables = manager().tables
        return {t for t in table_ids if t in tables and not tables[t].is_over}

    #: Tables created per client address (this process), for the per-client cap.
    created_by = CreatedBy(settings.table_cap_per_client, unfinished)

    def check_table_caps(client: str) -> None:
        cap = settings.table_cap_per_client
        if cap and created_by.count(client) >= cap:
            raise TableError(429, "table.too_many_yours", limit=cap)
        if settings.table_cap:
            live = sum(1 for table in manager().tables.values() if not table.is_over)
            if live >= settings.table_cap:
                raise TableError(503, "table.server_full", limit=settings.table_cap)

    def token_of(request: Request | WebSocket, table_id: str) -> str | None:
        header = request.headers.get("x-seat-token")
        if header:
            return header
        auth = request.headers.get("authorization", "")
        if auth.lower().startswith("bearer "):
            return auth[7:].strip()
        if isinstance(request, WebSocket):
            if "token" in request.query_params:
                # URLs end up in logs, histories and referrers: never a secret.
                raise TableError(400, "seat.token_in_url")
            for protocol in request.scope.get("subprotocols") or []:
                if protocol.startswith(TOKEN_SUBPROTOCOL_PREFIX):
                    return str(protocol[len(TOKEN_SUBPROTOCOL_PREFIX) :])
        return request.cookies.get(COOKIE_PREFIX + table_id)

    def seat_of(request: Request | WebSocket, table: LiveTable) -> int | None:
        return table.seat_of_token(token_of(request, table.table_id))

    def acting_seat(request: Request, table: LiveTable) -> int:
        seat = seat_of(request, table)
        if seat is None:
            raise TableError(401, "seat.token_missing")
        return seat

    # -- the API ------------------------------------------------------------------
    app.include_router(
        health_router(lambda: state["store"], lambda: len(manager().tables), lambda: loop_stats)
    )

    @app.get("/api/presets", tags=["meta"])
    async def presets() -> dict[str, Any]:
        """The games, with their player limits and default options, and the bots."""
        return {
            "presets": [rules_summary(rules) for rules in PRESETS.values()],
            "bots": list(WEB_BOTS),
            "default_bot_delay": settings.bot_delay,
            "allow_seed": settings.allow_seed,
        }

    @app.post("/api/tables", status_code=201, tags=["tables"])
    async def create_table(
        body: CreateTable, request: Request, response: Response
    ) -> dict[str, Any]:
        """Create a table. People sit first, then the bots; the response holds a
        secret token per person's seat (also set as an HttpOnly cookie for the
        first person)."""
        if body.humans == 0 and not settings.allow_bot_only:
            raise TableError(403, "table.bot_only_forbidden")
        client = request.client.host if request.client else "unknown"
        check_table_caps(client)
        seats = [SeatSpec("human", None, body.name if i == 0 else None) for i in range(body.humans)]
        seats += [SeatSpec("bot", bot) for bot in body.bots]
        delay = settings.bot_delay if body.bot_delay is None else body.bot_delay
        if body.seed is not None and not settings.allow_seed:
            raise TableError(403, "table.seed_forbidden")
        spec = new_table_spec(body.preset, dict(body.options), seats, delay, body.seed)
        table, tokens = await manager().create(spec)
        created_by.add(client, table.table_id)
        first = next((t for t in tokens if t), None)
        if first is not None:
            response.set_cookie(
                COOKIE_PREFIX + table.table_id,
                first,
                httponly=True,
                secure=settings.secure_cookies
                or (settings.behind_proxy and request.url.scheme == "https"),
                samesite="strict",
                path=f"/api/tables/{table.table_id}",
                max_age=60 * 60 * 24 * 30,
            )
        table.wake_bots()
        seat = 0 if first is not None else None
        return {
            "table": table_summary(table.spec, "live"),
            "seat": seat,
            "token": first,
            "tokens": [{"seat": i, "token": t} for i, t in enumerate(tokens) if t],
            "state": seat_state(table, seat),
        }

    @app.get("/api/tables/{table_id}", tags=["tables"])
    async def get_table(table_id: str) -> dict[str, Any]:
        table = await manager().get(table_id)
        return table_summary(table.spec, "over" if table.is_over else "live")

    @app.get("/api/tables/{table_id}/state", tags=["tables"], response_class=JSONBytes)
    async def get_state(table_id: str, request: Request) -> Response:
        """The table as the caller's seat sees it (a spectator without a token)."""
        table = await manager().get(table_id)
        return JSONBytes(seat_state_json(table, seat_of(request, table)))

    async def play_action(
        table_id: str,
        token: str | None,
        action: str,
        seq: int | None,
        lang: Callable[[], str],
        played: Callable[[LiveTable], None] | None = None,
    ) -> LiveTable:
        """A person's move, from a POST or the table's WebSocket alike;
        ``played`` is called once it is stored, applied and its event published."""
        # As this process knows it: play() reads storage only if refused.
        table = await manager().get(table_id, current=False)
        seat = table.seat_of_token(token)
        if seat is None:
            raise TableError(401, "seat.token_missing")
        async with table.lock:
            try:
                await manager().play(table, seat, action, seq)
            except IllegalActionError as exc:
                # The language only when explaining: as a dependency (Lang) it
                # cost FastAPI's dependency solving on every action.
                raise _explained(exc, action, table, lang()) from exc
        table.wake_bots()
        if played is not None:
            played(table)
        return table

    async def continue_deal(table_id: str, token: str | None) -> LiveTable:
        """The person has seen the showdown (a POST or the WebSocket alike)."""
        table = await manager().get(table_id)
        seat = table.seat_of_token(token)
        if seat is None:
            raise TableError(401, "seat.token_missing")
        await table.acknowledge(seat)
        table.wake_bots()
        return table

    @app.post("/api/tables/{table_id}/actions", tags=["tables"], response_class=JSONBytes)
    async def post_action(table_id: str, body: PostAction, request: Request) -> Response:
        """Play one action for the caller's seat; the answer is the new state.
        (The table's WebSocket takes the same move as ``{"type": "act", ...}``.)"""
        token = token_of(request, table_id)
        table = await play_action(
            table_id, token, body.action, body.seq, lambda: request_language(request)
        )
        # No turn of the loop before this reply to let the action's WebSocket
        # events go out first: tried in session 20, WS and HTTP p99 became
        # equal, but both p50s rose (4 runs of 60 s under load, see issue 9).
        return JSONBytes(seat_state_json(table, table.seat_of_token(token)))

    @app.post("/api/tables/{table_id}/continue", tags=["tables"], response_class=JSONBytes)
    async def continue_after_showdown(table_id: str, request: Request) -> Response:
        """The caller has seen the last showdown; bots may play the next deal."""
        token = token_of(request, table_id)
        table = await continue_deal(table_id, token)
        seat = table.seat_of_token(token)
        # The cached JSON: FastAPI's own encoding of a whole state costs more
        # than building it.
        return JSONBytes(seat_state_json(table, seat))

    @app.put("/api/tables/{table_id}/settings", tags=["tables"])
    async def table_settings(
        table_id: str, body: TableSettings, request: Request
    ) -> dict[str, Any]:
        """Change the pause between bot steps (seconds) at this table."""
        table = await manager().get(table_id)
        acting_seat(request, table)
        await table.set_bot_delay(body.bot_delay)
        return table_summary(table.spec, "over" if table.is_over else "live") | {
            "bot_delay": table.bot_delay
        }

    @app.post("/api/tables/{table_id}/explain-meld", tags=["tables"])
    async def explain(table_id: str, body: ExplainMeld, lang: Lang) -> dict[str, Any]:
        """Whether the cards form a meld under this table's rules, and why not."""
        table = await manager().get(table_id)
        reason = explain_meld(body.cards, table.rules, lang)
        return {"valid": reason is None, "explanation": reason}

    @app.get("/api/tables/{table_id}/events", tags=["tables"])
    async def missed(
        table_id: str, request: Request, since: Annotated[int, Query(ge=0, le=MAX_SEQ)] = 0
    ) -> dict[str, Any]:
        """Events after number ``since`` (as the caller's seat sees them) and the
        state now; ``events`` is null when a full resync is needed."""
        table = await manager().get(table_id)
        seat = seat_of(request, table)
        return {
            "seq": table.seq,
            "events": table.missed_events(seat, since),
            "state": seat_state(table, seat),
        }

    @app.websocket("/api/tables/{table_id}/ws")
    async def live(websocket: WebSocket, table_id: str) -> None:
        try:
            table = await manager().get(table_id)
            token = token_of(websocket, table_id)
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
                return await play_action(table_id, token, text, seq, lambda: lang, played)

            client = websocket.client.host if websocket.client else "unknown"
            moves = SocketActions(
                websocket, table, subscriber, token, lang, client, counter, play, continue_deal
            )
            receiver = asyncio.create_task(_receive_until_gone(moves))
            # The client going away is one more message in the queue: a task
            # and an asyncio.wait per message cost more than the send.
            receiver.add_done_callback(lambda _: _client_gone(subscriber))
            while True:
                subscriber.send_now = websocket.send_text  # see LiveTable.deliver
                message = await subscriber.queue.get()
                await subscriber.sending_done()
                if message is CLIENT_GONE:
                    break
                if message is None or (
                    isinstance(message, dict) and message.get("type") == "closing"
                ):
                    # 1012: the server restarts, come back; 4410: the table is
                    # gone; 1008 (ws_actions): the client kept sending junk.
                    reason = message.get("reason") if message else None
                    code = message.get("code") if message else None
                    code = code or (4410 if reason else 1012)
                    await websocket.close(code=code, reason=reason or "")
                    break
                if isinstance(message, str):
                    await websocket.send_text(message)
                else:
                    await websocket.send_json(message)
        except (WebSocketDisconnect, RuntimeError):
            pass
        finally:
            subscriber.send_now = None
            if receiver is not None:
                receiver.cancel()
            table.unsubscribe(subscriber)

    @app.get("/api/matches", tags=["matches"])
    async def list_matches(
        status: Annotated[str, Query(pattern="^(over|live|all)$")] = "over",
        limit: Annotated[int, Query(ge=1, le=100)] = 20,
        offset: Annotated[int, Query(ge=0, le=MAX_OFFSET)] = 0,
    ) -> dict[str, Any]:
        """Matches, the newest finish first (games in progress before them):
        finished ones by default (``status=live|all``).

        ``total`` counts at most 1000 matches past this page (``total_exact``
        says whether it is the whole count)."""
        store: Store = state["store"]
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
                | {"finished_at": finished, "result": result, "actions": actions}
                for spec, row_status, finished, result, actions in rows
            ],
        }

    async def finished(table_id: str) -> Any:
        store: Store = state["store"]
        stored = await store.load_table(table_id) if len(table_id) <= 32 else None
        if stored is None:
            raise TableError(404, "table.not_found", table=table_id)
        if stored.status != "over":
            raise TableError(409, "table.not_over", table=table_id)
        return stored

    @app.get("/api/matches/{table_id}/replay", tags=["matches"])
    async def replay(
        table_id: str, step: Annotated[int | None, Query(ge=0, le=MAX_SEQ)] = None
    ) -> dict[str, Any]:
        """A finished match after ``step`` actions (default: the end), all hands shown."""
        stored = await finished(table_id)
        last = len(stored.actions)
        chosen = last if step is None else step
        if chosen > last:
            raise TableError(400, "replay.bad_step", step=chosen, last=last)
        view = replay_view(stored, chosen)
        view["actions"] = [{"seq": a.seq, "seat": a.seat, "text": a.text} for a in stored.actions]
        return view

    @app.get("/api/matches/{table_id}/record", tags=["matches"], response_class=PlainTextResponse)
    async def record(table_id: str) -> str:
        """The text game record of a finished match (with its seed)."""
        from pyrummy.server.tables import build_match

        stored = await finished(table_id)
        return build_match(stored.spec, stored.actions).record(seed=True)

    # The person's extras (the hint): pyrummy.server.routes_player.
    app.include_router(player_router(manager, seat_of))
    # Private tables for friends: pyrummy.server.routes_rooms.
    app.include_router(
        rooms_router(
            lambda: state["rooms"],
            lambda: settings.bot_delay,
            lambda request: (
                settings.secure_cookies or (settings.behind_proxy and request.url.scheme == "https")
            ),
            check_table_caps,
            created_by.add,
        )
    )

    # -- the page -------------------------------------------------------------------
    root = static_dir()

    @app.get("/api", include_in_schema=False, response_class=HTMLResponse)
    async def api_reference() -> str:
        return reference_html(app.openapi())

    @app.get(REFERENCE_CSS_PATH, include_in_schema=False)
    async def api_reference_css() -> Response:
        return Response(REFERENCE_CSS, media_type="text/css")

    @app.get("/", include_in_schema=False)
    async def index() -> FileResponse:
        return FileResponse(root / "index.html", headers={"Cache-Control": "no-cache"})

    app.mount("/static", StaticFiles(directory=root), name="static")
    return app


#: FastAPI 0.165+ asks OpenTelemetry on every request whether a provider is
#: configured (environment lookups: ~1.5% of the server's CPU under load);
#: pyrummy exports none, so the question is not asked.
_NO_TELEMETRY: dict[str, Any] = (
    {"telemetry": {"tracing": False, "metrics": False, "logs": False}}
    if "telemetry" in inspect.signature(FastAPI.__init__).parameters
    else {}
)


def _explained(exc: IllegalActionError, text: str, table: LiveTable, lang: str) -> Exception:
    """An illegal meld is explained in words (the core's catalogue, ``lang``)."""
    with contextlib.suppress(RummyError):
        action = parse_action(text)
        if action.kind is ActionKind.MELD:
            reason = explain_meld(action.cards, table.rules, lang, run=action.run)
            if reason is not None:
                return _MeldRefused(reason)
    return exc


class _MeldRefused(IllegalActionError):
    def __init__(self, explanation: str) -> None:
        super().__init__(explanation)
        self.explanation = explanation


#: Put in a subscriber's queue when its client has gone away.
CLIENT_GONE: dict[str, Any] = {"type": "client-gone"}


def _client_gone(subscriber: Subscriber) -> None:
    # A full queue is being sent: the next send finds the socket closed.
    with contextlib.suppress(asyncio.QueueFull):
        subscriber.queue.put_nowait(CLIENT_GONE)


async def _receive_until_gone(moves: SocketActions) -> None:
    """Play what the client sends (ws_actions), until it goes away."""
    with contextlib.suppress(WebSocketDisconnect, RuntimeError):
        await moves.run()
