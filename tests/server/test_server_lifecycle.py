"""Tables' lifecycle (issue 9, item 3): abandoned tables close and are not
replayed at start; idle tables leave memory and come back on demand."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from db_fixtures import committed_rows
from pyrummy.server.settings import Lifecycle
from pyrummy.server.tables import TableManager
from server_helpers import act, app_client, create, headers, state

ONE_PERSON = {"preset": "knock", "bots": ["easy"], "bot_delay": 0}
HOUR = 3600.0


def manager_of(client: TestClient) -> TableManager:
    tables: TableManager = client.app.state.tables  # type: ignore[attr-defined]
    return tables


def sweep(client: TestClient, monotonic_now: float | None = None) -> None:
    """Run the lifecycle's sweep in the app's event loop (inside ``with client``)."""
    portal = client.portal
    assert portal is not None, "the client's app is running"
    tables = manager_of(client)
    portal.call(lambda: tables.sweep(monotonic_now=monotonic_now))


def status_in_storage(client: TestClient, table_id: str) -> str:
    url = client.app.state.store.url  # type: ignore[attr-defined]
    rows = committed_rows(url, "SELECT status FROM tables WHERE id = :id", id=table_id)
    return str(rows[0][0])


def person_to_act(client: TestClient, created: dict[str, Any]) -> None:
    """Wait until the bots have played up to the person (seat 0)."""
    table_id, token = created["table"]["id"], created["token"]
    deadline = time.monotonic() + 20
    while state(client, table_id, token)["observation"]["current_seat"] != 0:
        assert time.monotonic() < deadline
        time.sleep(0.01)


def test_an_abandoned_table_is_closed_and_its_watchers_told(tmp_path: Path) -> None:
    lifecycle = Lifecycle(abandon_after=HOUR, sweep_every=HOUR)
    with app_client(tmp_path, lifecycle=lifecycle) as client:
        left, playing = create(client, **ONE_PERSON), create(client, **ONE_PERSON)
        left_id, playing_id = left["table"]["id"], playing["table"]["id"]
        tables = manager_of(client)
        with client.websocket_connect(
            f"/api/tables/{left_id}/ws", headers=headers(left["token"])
        ) as ws:
            assert ws.receive_json()["type"] == "state"
            tables.tables[left_id].last_human_at -= 2 * HOUR
            sweep(client)
            with pytest.raises(WebSocketDisconnect) as closed:
                while True:  # events of the bots' moves may come first
                    ws.receive_json()
            assert (closed.value.code, closed.value.reason) == (4410, "table.closed")
        assert left_id not in tables.tables and playing_id in tables.tables
        assert status_in_storage(client, left_id) == "closed"
        assert status_in_storage(client, playing_id) == "live"
        gone = act(client, left_id, left["token"], "draw stock")
        assert gone.status_code == 410 and gone.json()["error"]["code"] == "table.closed"
        assert client.get(f"/api/tables/{left_id}").status_code == 410
        live = client.get("/api/matches?status=live").json()["matches"]
        assert [m["id"] for m in live] == [playing_id]


def test_a_persons_action_keeps_the_table_open(tmp_path: Path) -> None:
    lifecycle = Lifecycle(abandon_after=HOUR, sweep_every=HOUR)
    with app_client(tmp_path, lifecycle=lifecycle) as client:
        created = create(client, **ONE_PERSON)
        table_id = created["table"]["id"]
        tables = manager_of(client)
        tables.tables[table_id].last_human_at -= 2 * HOUR
        person_to_act(client, created)
        assert act(client, table_id, created["token"], "draw stock").status_code == 200
        sweep(client)
        assert status_in_storage(client, table_id) == "live"


def test_abandoned_tables_are_not_replayed_at_start(tmp_path: Path) -> None:
    with app_client(tmp_path) as client:
        old, fresh = create(client, **ONE_PERSON), create(client, **ONE_PERSON)
        url = client.app.state.store.url  # type: ignore[attr-defined]
    old_id, fresh_id = old["table"]["id"], fresh["table"]["id"]
    ten_days = 10 * 24 * HOUR
    from test_server_hardening import write_rows

    write_rows(
        url,
        "UPDATE tables SET created_at = created_at - :age WHERE id = :id",
        age=ten_days,
        id=old_id,
    )
    write_rows(
        url, "UPDATE actions SET at = at - :age WHERE table_id = :id", age=ten_days, id=old_id
    )
    with app_client(tmp_path) as client:
        tables = manager_of(client)
        assert old_id not in tables.tables and fresh_id in tables.tables
        assert status_in_storage(client, old_id) == "closed"
        assert client.get(f"/api/tables/{old_id}").status_code == 410


def test_an_idle_table_leaves_memory_and_comes_back_the_same(tmp_path: Path) -> None:
    lifecycle = Lifecycle(idle_after=60, sweep_every=HOUR)
    with app_client(tmp_path, lifecycle=lifecycle) as client:
        created = create(client, **ONE_PERSON)
        watched = create(client, **ONE_PERSON)
        table_id, token = created["table"]["id"], created["token"]
        person_to_act(client, created)
        person_to_act(client, watched)
        assert act(client, table_id, token, "draw stock").status_code == 200
        before = state(client, table_id, token)
        tables = manager_of(client)
        with client.websocket_connect(
            f"/api/tables/{watched['table']['id']}/ws", headers=headers(watched["token"])
        ) as ws:
            assert ws.receive_json()["type"] == "state"
            sweep(client, monotonic_now=time.monotonic() + 120)
            assert table_id not in tables.tables
            assert watched["table"]["id"] in tables.tables  # somebody is watching
        assert status_in_storage(client, table_id) == "live"
        assert state(client, table_id, token) == before
        assert table_id in tables.tables
        assert (
            act(client, table_id, token, "discard " + before["observation"]["hand"][0]).status_code
            == 200
        )
