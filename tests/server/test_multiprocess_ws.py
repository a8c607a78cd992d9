"""Moves over the table's WebSocket with two server processes on one database.

A person's move sent on the socket of either process is played as the POST
plays it there: by the process that does not run the table's bots too, on a
copy that may not have heard of the bots' last moves yet (it reads them, and
plays the move). Every move is acknowledged, every event reaches both
sockets once and in order, and the stored actions are 1..N with none lost or
twice.
"""

from __future__ import annotations

import json
import threading
import time
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import httpx

from db_fixtures import committed_rows, fresh_postgres_database, load_stored
from pyrummy.server.tables import build_match
from test_multiprocess import Watcher, in_order_once, long_match_table, my_turn, server


class MovingWatcher(Watcher):
    """A seat's socket on one process that also sends moves and keeps the answers."""

    def __init__(self, client: httpx.Client, table_id: str, token: str) -> None:
        super().__init__(client, table_id, token)
        self.answers: dict[int, dict[str, Any]] = {}
        self.answered = threading.Condition()
        self.next_id = 0

    def run(self) -> None:
        real_recv = self.socket.recv

        def recv(*args: Any, **kwargs: Any) -> Any:
            # Answers are kept here; events and states go on to Watcher.run.
            while True:
                text = real_recv(*args, **kwargs)
                message = json.loads(text)
                if message["type"] not in ("ack", "error"):
                    return text
                with self.answered:
                    self.answers[message["id"]] = message
                    self.answered.notify_all()

        self.socket.recv = recv  # type: ignore[method-assign]
        super().run()

    def move(self, action: str, seq: int) -> dict[str, Any]:
        self.next_id += 1
        request_id = self.next_id
        message = {"type": "act", "id": request_id, "action": action, "seq": seq}
        self.socket.send(json.dumps(message))
        with self.answered:
            self.answered.wait_for(lambda: request_id in self.answers, timeout=30)
        return self.answers[request_id]


def test_moves_on_either_process_s_socket_are_played_once_and_in_order(
    postgres_server: str, tmp_path: Path
) -> None:
    url = fresh_postgres_database(postgres_server)
    log = tmp_path / "servers.log"
    with ExitStack() as stack:
        owner, _ = stack.enter_context(server(url, log))
        other, _ = stack.enter_context(server(url, log))
        table_id, token = long_match_table(owner)
        sockets = [MovingWatcher(client, table_id, token) for client in (owner, other)]
        for socket in sockets:
            socket.start()
        moves = 0
        for turn in range(16):
            # The turn as the owner (it runs the bots) knows it; the move goes
            # mostly to the other process, which may not have heard of the
            # bots' last moves yet.
            data = my_turn(owner, table_id, token)
            if data["match"]["over"]:
                break
            legal = data["legal_actions"]
            calm = [a for a in legal if not a.startswith(("knock", "meld", "layoff"))]
            socket = sockets[0 if turn % 4 == 3 else 1]
            answer = socket.move((calm or legal)[0], data["seq"])
            assert answer == {"type": "ack", "id": answer["id"], "seq": data["seq"] + 1}, answer
            moves += 1
        final = my_turn(other, table_id, token)["seq"]
        deadline = time.monotonic() + 10
        while any(s.events[-1:] != [final] for s in sockets) and time.monotonic() < deadline:
            time.sleep(0.05)
        for socket in sockets:
            socket.close()

    assert moves >= 10
    for socket in sockets:
        assert in_order_once(socket.events), socket.events
        assert socket.events[-1] == final
    rows = committed_rows(
        url, "SELECT seq FROM actions WHERE table_id = :t ORDER BY seq", t=table_id
    )
    assert [r[0] for r in rows] == list(range(1, final + 1))
    stored = load_stored(url, table_id)
    build_match(stored.spec, stored.actions)  # every stored action replays legally
