"""The HTTP and WebSocket protocols ``pyrummy serve`` gives uvicorn: uvicorn's
own, which let go of their parsers, so that a closed socket is freed at once.

uvicorn's httptools protocol and its parser refer to each other (the parser
calls the protocol's methods). On an ordinary connection, uvicorn breaks that
cycle when the connection is lost; on one upgraded to a WebSocket the
protocol is replaced and never told, so the pair, the connection's transport
and its buffers waited for a full collection of the garbage collector, which
the server's tuned thresholds make rare: a soak's memory grew with every
table's socket closed (about 100 a minute at 200 tables) until one came.
The same holds for the WebSocket's own parser: the websockets library parses
in a generator whose frame refers to its protocol object, a cycle left when
the connection is lost mid-parse (the usual case).
"""

from __future__ import annotations

import asyncio

HttpProtocol: type[asyncio.Protocol] | None
try:
    from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
except ImportError:  # pragma: no cover - httptools missing: uvicorn uses h11
    HttpProtocol = None
else:

    class ReleasingHttpToolsProtocol(HttpToolsProtocol):
        """uvicorn's httptools protocol, without the cycle an upgrade left."""

        def handle_websocket_upgrade(self) -> None:
            super().handle_websocket_upgrade()
            # The connection now belongs to the WebSocket protocol.
            self.parser = None  # type: ignore[assignment]

    HttpProtocol = ReleasingHttpToolsProtocol


WebSocketProtocol: type[asyncio.Protocol] | None
try:
    from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
except ImportError:  # pragma: no cover - websockets missing: uvicorn's choice
    WebSocketProtocol = None
else:

    class ReleasingWebSocketsProtocol(WebSocketsSansIOProtocol):
        """uvicorn's websockets protocol, its parser closed when the connection is lost."""

        def connection_lost(self, exc: Exception | None) -> None:
            super().connection_lost(exc)
            # Closing the generator drops its frame, and with it the cycle.
            self.conn.parser.close()

    WebSocketProtocol = ReleasingWebSocketsProtocol


def uvicorn_ws() -> type[asyncio.Protocol] | str:
    """``ws=`` for ``uvicorn.run`` (uvicorn's choice when websockets is missing)."""
    return "auto" if WebSocketProtocol is None else WebSocketProtocol


def uvicorn_http() -> type[asyncio.Protocol] | str:
    """``http=`` for ``uvicorn.run`` (uvicorn's choice when httptools is missing)."""
    return "auto" if HttpProtocol is None else HttpProtocol
