"""Per-client rate limits (the ``limits`` library), as ASGI middleware.

Three kinds of request are counted per client address (behind a trusted
reverse proxy, uvicorn puts the forwarded address in the scope):

* ``create``: ``POST /api/tables`` and ``POST /api/rooms``;
* ``act``: ``POST`` to a table's ``actions``, ``continue``, ``settings`` and
  ``explain-meld``, and ``GET`` of its ``hint`` (a bot decision each); any
  request about a friends' room (``/api/rooms/...``, ``/join/...``);
* ``connect``: opening a table's WebSocket;
* ``queue``: joining a quick-match queue (``POST /api/quick/join``); its
  polls and leaves count as ``act``;
* ``passkey``: the passkey ceremonies (``POST /api/profile/passkeys/options``,
  ``/api/profile/passkeys``, ``/api/profile/signin/options``,
  ``/api/profile/signin``);
* ``profile``: a new profile, made on a first play; counted where it is made
  (:class:`~pyrummy.server.profiles.PlayingProfile`), not here, since only
  the route knows the request is good and the caller has none.

A message a person sends on a table's WebSocket counts as ``act`` too.

A client over its limit gets a 429 with ``Retry-After`` (seconds) and
nothing changes. A WebSocket handshake over the limit is answered the same
429 where the server supports ASGI's ``websocket.http.response`` (uvicorn
does), and refused otherwise.

>>> classify("POST", "/api/tables"), classify("POST", "/api/tables/ab12/actions")
('create', 'act')
>>> classify("GET", "/api/tables/ab12/state") is None, classify("GET", "/api/tables/ab12/hint")
(True, 'act')
>>> classify("POST", "/api/profile/signin/options"), classify("GET", "/api/profile/passkeys")
('passkey', None)
"""

from __future__ import annotations

import math
import re
import time
from collections.abc import Callable

from limits import RateLimitItem, parse_many
from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter
from starlette.types import ASGIApp, Receive, Scope, Send

from pyrummy.server.messages import pick_language, server_text
from pyrummy.server.security import json_error_body
from pyrummy.server.settings import RateLimits

_TABLE_POST = re.compile(r"^/api/tables/[^/]+/(actions|continue|settings|explain-meld)$")
_TABLE_HINT = re.compile(r"^/api/tables/[^/]+/hint$")
_TABLE_WS = re.compile(r"^/api/tables/[^/]+/ws$")
_PASSKEY_POSTS = (
    "/api/profile/passkeys",
    "/api/profile/passkeys/options",
    "/api/profile/signin",
    "/api/profile/signin/options",
)


def classify(method: str, path: str) -> str | None:
    if method == "POST" and path.rstrip("/") in ("/api/tables", "/api/rooms"):
        return "create"
    if method == "POST" and path.rstrip("/") == "/api/quick/join":
        return "queue"
    if method == "POST" and path.startswith("/api/quick/"):
        return "act"
    if method == "POST" and path.rstrip("/") in _PASSKEY_POSTS:
        return "passkey"
    if path.startswith(("/api/rooms/", "/join/")):
        # Rooms of friends: every look-up counts, so codes cannot be guessed fast.
        return "act"
    if method in ("POST", "PUT") and _TABLE_POST.match(path):
        return "act"
    if method == "GET" and _TABLE_HINT.match(path):
        return "act"
    return None


class ClientCounter:
    """Requests per client and kind, in moving windows (one per server process).

    The middleware counts HTTP requests with it; a table's WebSocket counts
    each message a person sends in the same ``act`` bucket as the POSTs.
    """

    def __init__(self, limits: RateLimits) -> None:
        self.limiter = MovingWindowRateLimiter(MemoryStorage())
        self.items: dict[str, list[RateLimitItem]] = {
            kind: parse_many(text)
            for kind, text in (
                ("create", limits.create),
                ("act", limits.act),
                ("connect", limits.connect),
                ("queue", limits.queue),
                ("passkey", limits.passkey),
                ("profile", limits.profile),
            )
            if text
        }

    def over_limit(self, kind: str, key: str) -> int | None:
        """Seconds to wait when ``key`` is over a limit of ``kind`` (else count one hit)."""
        items = self.items.get(kind)
        if not items:
            return None
        for item in items:
            if not self.limiter.test(item, kind, key):
                reset, _remaining = self.limiter.get_window_stats(item, kind, key)
                return max(1, math.ceil(reset - time.time()))
        for item in items:
            self.limiter.hit(item, kind, key)
        return None


class RateLimit:
    """Count requests per client and kind; refuse those over the limit."""

    def __init__(
        self, app: ASGIApp, limits: RateLimits, counter: ClientCounter | None = None
    ) -> None:
        self.app = app
        self.counter = counter or ClientCounter(limits)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            kind = classify(scope["method"], scope["path"])
        elif scope["type"] == "websocket" and _TABLE_WS.match(scope["path"]):
            kind = "connect"
        else:
            kind = None
        if kind is not None and kind in self.counter.items:
            client = scope.get("client")
            key = client[0] if client else "unknown"
            wait = self.counter.over_limit(kind, key)
            if wait is not None:
                await self._refuse(scope, receive, send, wait)
                return
        await self.app(scope, receive, send)

    async def _refuse(self, scope: Scope, receive: Receive, send: Send, wait: int) -> None:
        headers = dict(scope.get("headers") or [])
        lang = pick_language(headers.get(b"accept-language", b"").decode("latin-1"))
        body = json_error_body(
            429, "request.rate_limited", server_text("request.rate_limited", lang, wait=wait)
        )
        response_headers = [
            (b"content-type", b"application/json"),
            (b"content-length", str(len(body)).encode()),
            (b"retry-after", str(wait).encode()),
        ]
        if scope["type"] == "http":
            await send({"type": "http.response.start", "status": 429, "headers": response_headers})
            await send({"type": "http.response.body", "body": body})
            return
        message = await receive()
        if message["type"] != "websocket.connect":
            return
        extensions = scope.get("extensions") or {}
        if "websocket.http.response" in extensions:
            await send(
                {
                    "type": "websocket.http.response.start",
                    "status": 429,
                    "headers": response_headers,
                }
            )
            await send({"type": "websocket.http.response.body", "body": body})
        else:
            await send({"type": "websocket.close", "code": 1013, "reason": "rate limited"})


class CreatedBy:
    """The tables each client created that still count against its cap.

    ``unfinished`` keeps, of a set of table ids, those still in memory and not
    over. Nothing is kept when the per-client cap is off (``cap`` 0), and the
    whole record is pruned every ``prune_every`` creations, so clients that
    never come back do not keep their tables' ids (and their own entry) forever.
    """

    def __init__(
        self, cap: int, unfinished: Callable[[set[str]], set[str]], prune_every: int = 256
    ) -> None:
        self.cap = cap
        self.unfinished = unfinished
        self.prune_every = prune_every
        self.by_client: dict[str, set[str]] = {}
        self._since_prune = 0

    def add(self, client: str, table_id: str) -> None:
        if not self.cap:
            return
        self.by_client.setdefault(client, set()).add(table_id)
        self._since_prune += 1
        if self._since_prune >= self.prune_every:
            self.prune()

    def count(self, client: str) -> int:
        """How many of ``client``'s tables count now (its own record pruned)."""
        mine = self.unfinished(self.by_client.pop(client, set()))
        if mine:
            self.by_client[client] = mine
        return len(mine)

    def prune(self) -> None:
        self._since_prune = 0
        for client in list(self.by_client):
            self.count(client)
