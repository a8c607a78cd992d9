"""Web hardening as ASGI middleware: security headers, a last-resort JSON 500
and the WebSocket ``Origin`` allow-list.

The game page needs nothing from another origin and no inline script or
style, so the Content-Security-Policy allows only this origin; the page may
not be framed (clickjacking) and sends no referrer elsewhere.

>>> same_origin("http://example.org:8000", "example.org:8000")
True
>>> same_origin("http://evil.example", "example.org:8000")
False
>>> origin_allowed("https://play.example", "localhost:8000", frozenset({"https://play.example"}))
True
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from typing import Any
from urllib.parse import urlsplit

import orjson
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from pyrummy.server.messages import pick_language, server_text

log = logging.getLogger("pyrummy.server")

#: Only this origin: the page's modules, its stylesheet, its API and WebSocket.
CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; "
    "form-action 'self'; frame-ancestors 'none'"
)

SECURITY_HEADERS: tuple[tuple[bytes, bytes], ...] = (
    (b"content-security-policy", CONTENT_SECURITY_POLICY.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"no-referrer"),
    (b"cross-origin-opener-policy", b"same-origin"),
)


class SecurityHeaders:
    """Add :data:`SECURITY_HEADERS` to every HTTP response that lacks them."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                present = {name.lower() for name, _ in headers}
                headers += [(k, v) for k, v in SECURITY_HEADERS if k not in present]
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, send_with_headers)


def json_error_body(status: int, code: str, message: str) -> bytes:
    return orjson.dumps({"error": {"status": status, "code": code, "message": message}})


class CatchAll:
    """An unexpected error becomes a JSON 500 and the connection stays usable.

    Starlette's own handler answers 500 and then re-raises, and uvicorn closes
    a keep-alive connection whose application raised: the client's next
    request on it is reset. Here the error is logged and swallowed once the
    answer is sent.
    """

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = False

        async def tracking_send(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, receive, tracking_send)
        except Exception:
            log.exception("unexpected error on %s %s", scope.get("method"), scope.get("path"))
            if started:
                # Half an answer is on the wire: only closing is honest.
                raise
            body = json_error_body(500, "server.error", "internal error: nothing was changed")
            await send(
                {
                    "type": "http.response.start",
                    "status": 500,
                    "headers": [
                        (b"content-type", b"application/json"),
                        (b"content-length", str(len(body)).encode()),
                    ],
                }
            )
            await send({"type": "http.response.body", "body": body})


def same_origin(origin: str, host: str) -> bool:
    """Whether the ``Origin`` header names the host the request was sent to."""
    parts = urlsplit(origin)
    return parts.scheme in ("http", "https") and parts.netloc.lower() == host.lower()


def origin_allowed(origin: str, host: str, allowed: frozenset[str]) -> bool:
    return same_origin(origin, host) or origin.rstrip("/").lower() in allowed


def normalize_origins(origins: Iterable[str]) -> frozenset[str]:
    return frozenset(o.rstrip("/").lower() for o in origins)


class WebSocketOrigins:
    """Refuse WebSocket handshakes from pages of other origins (403).

    A browser always sends ``Origin`` on a WebSocket handshake, and cookies
    go with it: without this check any site could open a socket carrying the
    visitor's seat cookie. Clients that are not browsers send no Origin and
    carry their token themselves, so they are let through.
    """

    def __init__(self, app: ASGIApp, allowed: Iterable[str] = ()) -> None:
        self.app = app
        self.allowed = normalize_origins(allowed)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket":
            headers = dict(scope.get("headers") or [])
            origin = headers.get(b"origin")
            if origin is not None:
                host = headers.get(b"host", b"").decode("latin-1")
                if not origin_allowed(origin.decode("latin-1"), host, self.allowed):
                    await _refuse_websocket(receive, send)
                    return
        await self.app(scope, receive, send)


async def _refuse_websocket(receive: Receive, send: Send) -> None:
    message: Any = await receive()
    if message["type"] == "websocket.connect":
        # Closing before accepting makes the server answer the handshake 403.
        await send({"type": "websocket.close", "code": 1008, "reason": "origin not allowed"})


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
        payload = json_error_body(413, "request.too_large", text)
        await send(
            {
                "type": "http.response.start",
                "status": 413,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(payload)).encode()),
                ],
            }
        )
        await send({"type": "http.response.body", "body": payload})
