"""Two server processes on one PostgreSQL database, as behind a load balancer
without sticky sessions.

A person acts through both processes alternately while a WebSocket is open on
each: every event reaches both sockets once, in order. Then the process that
plays the table's bots is killed with SIGKILL: the other takes the table
over, the bots play on, and nothing stored is lost or duplicated.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

import httpx
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from db_fixtures import committed_rows, fresh_postgres_database, load_stored
from pyrummy.server.tables import build_match


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@contextmanager
def server(
    url: str, log: Path, *options: str
) -> Iterator[tuple[httpx.Client, subprocess.Popen[bytes]]]:
    port = free_port()
    with log.open("ab") as log_file:
        process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "pyrummy.cli.main",
                "serve",
                "--port",
                str(port),
                "--bot-delay",
                "0.05",
                "--rate-limit",
                "off",
                *options,
            ],
            stdout=subprocess.DEVNULL,
            stderr=log_file,
            env={**os.environ, "DATABASE_URL": url},
        )
    client = httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=10)
    try:
        deadline = time.monotonic() + 120
        while True:
            try:
                if client.get("/api/health").status_code == 200:
                    break
            except httpx.TransportError:
                pass
            if process.poll() is not None or time.monotonic() > deadline:
                raise AssertionError(f"server did not start: {log.read_text(errors='replace')}")
            time.sleep(0.1)
        yield client, process
    finally:
        client.close()
        if process.poll() is None:
            process.terminate()
            try:
                process.wait(10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(10)


class Watcher(threading.Thread):
    """A seat's WebSocket on one process: the sequence numbers of its events."""

    def __init__(self, client: httpx.Client, table_id: str, token: str) -> None:
        super().__init__(daemon=True)
        base = str(client.base_url).replace("http://", "ws://")
        self.socket = connect(
            f"{base}/api/tables/{table_id}/ws?since=0",
            additional_headers={"X-Seat-Token": token, "Origin": str(client.base_url)},
            legacy=True,
        )
        self.events: list[int] = []
        self.first_state: int | None = None

    def run(self) -> None:
        try:
            while True:
                message: dict[str, Any] = json.loads(self.socket.recv())
                if message["type"] == "event":
                    self.events.append(int(message["seq"]))
                elif message["type"] == "state" and self.first_state is None:
                    self.first_state = int(message["seq"])
        except (ConnectionClosed, OSError):
            return

    def close(self) -> None:
        self.socket.close()
        self.join(10)


def state(client: httpx.Client, table_id: str, token: str) -> dict[str, Any]:
    response = client.get(f"/api/tables/{table_id}/state", headers={"X-Seat-Token": token})
    assert response.status_code == 200, response.text
    data: dict[str, Any] = response.json()
    return data


def my_turn(client: httpx.Client, table_id: str, token: str) -> dict[str, Any]:
    """Wait (bots play on) until seat 0 is to act or the match is over."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        data = state(client, table_id, token)
        if data["match"]["over"] or data["legal_actions"]:
            return data
        if data.get("awaiting_continue"):
            client.post(f"/api/tables/{table_id}/continue", headers={"X-Seat-Token": token})
        time.sleep(0.05)
    raise AssertionError(f"the bots did not play: {data}")


def act(client: httpx.Client, table_id: str, token: str) -> bool:
    """One calm legal action for seat 0 through ``client``; False once the match is over."""
    data = my_turn(client, table_id, token)
    if data["match"]["over"]:
        return False
    legal = data["legal_actions"]
    calm = [a for a in legal if not a.startswith(("knock", "meld", "layoff"))]
    response = client.post(
        f"/api/tables/{table_id}/actions",
        json={"action": (calm or legal)[0], "seq": data["seq"]},
        headers={"X-Seat-Token": token},
    )
    assert response.status_code == 200, response.text
    return True


def in_order_once(events: list[int]) -> bool:
    """Sockets open with ``since=0``: the events missed so far, then live ones."""
    return events == list(range(1, len(events) + 1))


def test_two_processes_serve_one_table_and_survive_the_owner_s_death(
    postgres_server: str, tmp_path: Path
) -> None:
    url = fresh_postgres_database(postgres_server)
    log = tmp_path / "servers.log"
    with ExitStack() as stack:
        first, owner = stack.enter_context(server(url, log))
        second, _ = stack.enter_context(server(url, log))
        created = first.post(
            "/api/tables",
            json={
                "preset": "knock",
                "bots": ["easy", "easy"],
                "options": {"match_end": "deals", "deals": 50},
            },
        )
        assert created.status_code == 201, created.text
        table_id, token = created.json()["table"]["id"], created.json()["token"]
        watchers = [Watcher(client, table_id, token) for client in (first, second)]
        for watcher in watchers:
            watcher.start()

        # The person acts through each process in turn; the bots answer.
        for turn in range(12):
            assert act((first, second)[turn % 2], table_id, token)
        # Both processes agree on the table.
        seq = my_turn(second, table_id, token)["seq"]
        assert state(first, table_id, token)["seq"] == seq
        assert my_turn(first, table_id, token) == my_turn(second, table_id, token)

        # The owner of the bots dies mid-match.
        owner.send_signal(signal.SIGKILL)
        owner.wait(10)
        watchers[0].close()
        for _ in range(8):
            assert act(second, table_id, token)
        final = my_turn(second, table_id, token)["seq"]
        assert final > seq + 8  # the bots played on under the surviving process
        time.sleep(0.5)
        watchers[1].close()

    for watcher in watchers:
        assert watcher.first_state is not None
        assert in_order_once(watcher.events), watcher.events
    assert watchers[0].events and watchers[0].events[-1] >= seq - 1
    assert watchers[1].events[-1] == final

    # Nothing lost or duplicated: the stored actions are 1..final and replay legally.
    rows = committed_rows(
        url, "SELECT seq FROM actions WHERE table_id = :t ORDER BY seq", t=table_id
    )
    assert [r[0] for r in rows] == list(range(1, final + 1))
    stored = load_stored(url, table_id)
    match = build_match(stored.spec)
    for action in stored.actions:
        match.apply(action.text)


def test_serve_workers_share_one_port(postgres_server: str, tmp_path: Path) -> None:
    """``pyrummy serve --workers 2``: the kernel spreads new connections over two
    processes; a person acting through fresh connections is never refused."""
    url = fresh_postgres_database(postgres_server)
    with server(url, tmp_path / "workers.log", "--workers", "2", "--log-level", "info") as (
        client,
        _,
    ):
        created = client.post("/api/tables", json={"preset": "knock", "bots": ["easy", "easy"]})
        assert created.status_code == 201, created.text
        table_id, token = created.json()["table"]["id"], created.json()["token"]
        for _ in range(10):
            with httpx.Client(base_url=client.base_url, timeout=10) as fresh:
                assert act(fresh, table_id, token)
    started = (tmp_path / "workers.log").read_text(errors="replace")
    assert started.count("Started server process") == 2


def test_workers_need_postgresql(tmp_path: Path) -> None:
    refused = subprocess.run(
        [
            sys.executable,
            *("-m", "pyrummy.cli.main", "serve", "--workers", "2", "--data-dir", str(tmp_path)),
        ],
        capture_output=True,
        text=True,
        env={k: v for k, v in os.environ.items() if k != "DATABASE_URL"},
        timeout=120,
    )
    assert refused.returncode == 2 and "needs PostgreSQL" in refused.stderr
