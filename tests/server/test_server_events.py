"""Live messages are incremental: their size does not grow with the match.

A live event (or ``state`` message) carries the receiving seat's state with
only the last finished deal (``deals_from``); the client keeps the earlier
ones from the snapshot it got on connecting. These tests play long matches
and check that the messages stay small, that merging them the way the page
does (web/static/js/table.js, ``accept``) gives exactly the whole state, and
that a client reconnecting from an old number gets what it missed and a
whole snapshot.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import tempfile
import time
from pathlib import Path
from typing import Any

import pytest

from pyrummy.server import tables, views
from pyrummy.server.storage import SeatSpec, Store
from pyrummy.server.tables import TableManager, new_table_spec
from server_helpers import app_client, create, headers, state


def merged(known: dict[str, Any], live: dict[str, Any]) -> dict[str, Any]:
    """What the page makes of a live state (table.js ``accept``)."""
    start = live.pop("deals_from")
    assert len(known["match"]["deals"]) >= start
    return live | {
        "match": live["match"]
        | {"deals": known["match"]["deals"][:start] + live["match"]["deals"]},
        "deal_histories": known["deal_histories"][:start] + live["deal_histories"],
        "taken_cards": known["taken_cards"][:start] + live["taken_cards"],
    }


def test_live_messages_stay_small_and_merge_into_the_whole_state() -> None:
    async def run() -> None:
        folder = tempfile.mkdtemp(prefix="pyrummy-events-")
        url = os.environ.get("DATABASE_URL") or f"sqlite:///{folder}/t.sqlite3"
        store = await Store.open(url)
        manager = TableManager(store)
        try:
            spec = new_table_spec(
                "knock",
                {"match_end": "deals", "deals": 24},
                [SeatSpec("human"), SeatSpec("human")],
                0.0,
                seed=5,
            )
            table, _ = await manager.create(spec)
            rng = random.Random(5)
            client = json.loads(views.seat_state_json(table, 0))  # the snapshot on connecting
            sizes: list[tuple[int, int]] = []  # (finished deals, event bytes)
            while not table.is_over:
                seat = table.match.current_seat
                assert seat is not None
                legal = [str(a) for a in table.match.legal_actions() if str(a) != "undo"]
                stored = await table.apply(seat, rng.choice(legal))
                table.awaiting.clear()
                text = views.event_with_state_json(table, stored, 0)
                sizes.append((len(table.match.finished_deals), len(text.encode())))
                client = merged(client, json.loads(text)["state"])
                whole_state = json.loads(views.seat_state_json(table, 0))
                whole_state.pop("record", None)  # not in live messages
                assert client == whole_state, stored.seq
            whole = len(views.seat_state_json(table, 0))
        finally:
            await manager.stop()
            await store.close()
        early = max(size for deals, size in sizes if deals <= 3)
        late = max(size for deals, size in sizes if deals >= 20)
        # The last deals' events are no bigger than the first ones' (one deal
        # of moves and a summary more at most), while the whole state grew.
        assert late <= early + 2500, (early, late)
        assert whole > 3 * late, (whole, late)

    asyncio.run(run())


def test_a_reconnecting_socket_gets_what_it_missed_then_a_whole_snapshot(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with app_client(tmp_path, allow_seed=True) as client:
        created = create(
            client,
            preset="knock",
            bots=["random"],
            seed=11,
            options={"match_end": "deals", "deals": 50},
        )
        table_id, token = created["table"]["id"], created["token"]
        rng = random.Random(11)
        # The person plays on (the bot answers at once) for a few dozen actions.
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            now = state(client, table_id, token)
            if now["match"]["over"] or now["seq"] >= 60:
                break
            if now["awaiting_continue"]:
                client.post(f"/api/tables/{table_id}/continue", headers=headers(token))
                continue
            legal = [a for a in now["legal_actions"] if a != "undo"]
            calm = [a for a in legal if not a.startswith("knock")]
            if not legal:
                time.sleep(0.01)  # the bot is thinking
            else:
                client.post(
                    f"/api/tables/{table_id}/actions",
                    json={"action": rng.choice(calm or legal)},
                    headers=headers(token),
                )
        whole = state(client, table_id, token)
        seq = whole["seq"]
        assert seq >= 30
        with client.websocket_connect(
            f"/api/tables/{table_id}/ws?since=3", headers=headers(token)
        ) as ws:
            missed = [ws.receive_json() for _ in range(seq - 3)]
            assert [m["seq"] for m in missed] == list(range(4, seq + 1))
            assert all(m["type"] == "event" and "state" not in m for m in missed)
            snapshot = ws.receive_json()
        assert snapshot["type"] == "state" and snapshot["resync"] is False
        assert snapshot["state"] == whole and "deals_from" not in snapshot["state"]
        # Further behind than the server replays events: a whole snapshot only.
        monkeypatch.setattr(tables, "QUEUE_LIMIT", 10)
        with client.websocket_connect(
            f"/api/tables/{table_id}/ws?since=3", headers=headers(token)
        ) as ws:
            resync = ws.receive_json()
        assert resync["type"] == "state" and resync["resync"] is True
        assert resync["state"] == whole
