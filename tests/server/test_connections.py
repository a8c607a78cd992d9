"""A connection upgraded to a WebSocket leaves no reference cycle behind
(pyrummy.server.connections): freed when it closes, not at the next full
collection of the garbage collector."""

from __future__ import annotations

import asyncio
import gc
import threading
import time
from collections import Counter
from pathlib import Path

import httpx
import pytest
import uvicorn
from websockets.sync.client import connect

from pyrummy.server import Settings, create_app
from pyrummy.server.connections import HttpProtocol, WebSocketProtocol, uvicorn_http, uvicorn_ws
from server_process import free_port


def garbage_after_sockets(
    tmp_path: Path, http: type[asyncio.Protocol] | str, ws: type[asyncio.Protocol] | str
) -> Counter[str]:
    """The objects only a full collection frees after three WebSockets closed."""
    app = create_app(Settings(data_dir=tmp_path, bot_workers=0))
    port = free_port()
    config = uvicorn.Config(
        app, host="127.0.0.1", port=port, log_level="warning", http=http, ws=ws, lifespan="on"
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while not server.started and time.monotonic() < deadline:
            time.sleep(0.05)
        with httpx.Client(base_url=base) as client:
            created = client.post("/api/tables", json={"preset": "knock", "bots": ["easy"]})
        table_id, token = created.json()["table"]["id"], created.json()["token"]
        gc.collect()
        gc.set_debug(gc.DEBUG_SAVEALL)
        try:
            for _ in range(3):
                with connect(
                    f"ws://127.0.0.1:{port}/api/tables/{table_id}/ws",
                    additional_headers={"X-Seat-Token": token, "Origin": base},
                ) as socket:
                    socket.recv()
                    # Gone without a closing handshake (a page closed, a
                    # network lost): the server's parser is mid-frame.
                    socket.socket.shutdown(2)
            time.sleep(0.5)  # the server's side of the last close
            gc.collect()
            return Counter(type(o).__qualname__ for o in gc.garbage)
        finally:
            gc.set_debug(0)
            gc.garbage.clear()
    finally:
        server.should_exit = True
        thread.join(30)


@pytest.mark.skipif(
    HttpProtocol is None or WebSocketProtocol is None, reason="httptools or websockets missing"
)
def test_a_closed_socket_leaves_no_cycle(tmp_path: Path) -> None:
    ours = garbage_after_sockets(tmp_path / "a", uvicorn_http(), uvicorn_ws())
    assert (ours["HttpToolsProtocol"], ours["ServerProtocol"]) == (0, 0), sorted(ours.items())
    # uvicorn's HTTP protocol leaves one per socket (the test can fail). (The
    # websockets parser's cycle, seen in a soak, 100 a minute, does not show
    # here: our WebSocket protocol is checked only not to leave one.)
    theirs = garbage_after_sockets(tmp_path / "b", "httptools", "websockets-sansio")
    assert theirs["HttpToolsProtocol"] == 3, theirs
