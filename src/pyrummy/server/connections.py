"""The HTTP protocol ``pyrummy serve`` gives uvicorn: uvicorn's own, which
lets go of its request parser once a connection became a WebSocket.

uvicorn's httptools protocol and its parser refer to each other (the parser
calls the protocol's methods). On an ordinary connection, uvicorn breaks that
cycle when the connection is lost; on one upgraded to a WebSocket the
protocol is replaced and never told, so the pair, the connection's transport
and its buffers waited for a full collection of the garbage collector, which
the server's tuned thresholds make rare: a soak's memory grew with every
table's socket closed (about 100 a minute at 200 tables) until one came.
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


def uvicorn_http() -> type[asyncio.Protocol] | str:
    """``http=`` for ``uvicorn.run`` (uvicorn's choice when httptools is missing)."""
    return "auto" if HttpProtocol is None else HttpProtocol
