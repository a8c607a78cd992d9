"""Crash test: a real server process killed with SIGKILL in the middle of
games resumes every table exactly on restart.

Tables where a person is to play are frozen (bots wait for the person), so
the person's whole state must be identical after the restart. Tables of bots
keep playing at full speed while the process is killed; after the restart
their stored actions must start with everything committed before the kill,
replay legally through the rules core, and the bots must play on to the end.
"""

from __future__ import annotations

import random
import time
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any

import httpx

from db_fixtures import committed_rows, load_stored, stored_url
from pyrummy.server.tables import build_match
from server_process import Server, server_and_client


def server(data_dir: Path) -> AbstractContextManager[tuple[httpx.Client, Server]]:
    # DATABASE_URL (PostgreSQL runs) goes through; without it, --data-dir.
    arguments = ["--data-dir", str(data_dir), "--bot-delay", "0", "--rate-limit", "off"]
    return server_and_client([*arguments, "--allow-bot-only"], log=data_dir / "server.log")


def auth(token: str) -> dict[str, str]:
    return {"X-Seat-Token": token}


def my_state(client: httpx.Client, table_id: str, token: str) -> dict[str, Any]:
    response = client.get(f"/api/tables/{table_id}/state", headers=auth(token))
    assert response.status_code == 200, response.text
    data: dict[str, Any] = response.json()
    return data


def settle_on_my_turn(client: httpx.Client, table_id: str, token: str) -> dict[str, Any]:
    """Wait until the person must act (or the match is over); continue past showdowns."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        data = my_state(client, table_id, token)
        if data["awaiting_continue"]:
            client.post(f"/api/tables/{table_id}/continue", headers=auth(token))
        elif data["legal_actions"] or data["match"]["over"]:
            return data
        else:
            time.sleep(0.02)
    raise AssertionError("the bots never gave the turn back")


def play_moves(
    client: httpx.Client, table_id: str, token: str, moves: int, rng: random.Random
) -> None:
    for _ in range(moves):
        data = settle_on_my_turn(client, table_id, token)
        if data["match"]["over"]:
            return
        calm = [a for a in data["legal_actions"] if not a.startswith("knock")]
        choice = rng.choice(calm or data["legal_actions"])
        response = client.post(
            f"/api/tables/{table_id}/actions", json={"action": choice}, headers=auth(token)
        )
        assert response.status_code == 200, response.text


def committed_actions(data_dir: Path) -> dict[str, list[str]]:
    """What the database holds, read beside the (dead) server."""
    rows = committed_rows(
        stored_url(data_dir), "SELECT table_id, text FROM actions ORDER BY table_id, seq"
    )
    result: dict[str, list[str]] = {}
    for table_id, text in rows:
        result.setdefault(table_id, []).append(text)
    return result


def wait_for_progress(client: httpx.Client, tables: list[str], past: dict[str, int]) -> None:
    """Until every running table has played at least 10 actions more than ``past``."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        counts = {t: client.get(f"/api/tables/{t}/events?since=0").json()["seq"] for t in tables}
        if all(counts[t] >= past.get(t, 0) + 10 for t in tables):
            return
        time.sleep(0.05)
    raise AssertionError(f"bots did not play on: {counts} vs {past}")


def test_sigkill_in_the_middle_of_games_resumes_every_table(tmp_path: Path) -> None:
    rng = random.Random(20261129)
    people = [
        ("knock", ["easy", "medium"], {"match_end": "deals", "deals": 9}),
        ("rummy", ["easy", "easy"], {"target": 200}),
        ("gin", ["medium"], {"target": 200}),
    ]
    # Long matches with a tiny pause: the bots are still writing when the kill comes.
    bots_only = [
        ("knock", ["easy", "easy", "random", "easy"], {"match_end": "deals", "deals": 50}),
        ("rummy", ["easy", "random", "easy"], {"target": 1000}),
        ("basic", ["random", "easy"], {"target": 1000}),
    ]
    frozen: dict[str, tuple[str, dict[str, Any]]] = {}
    running: list[str] = []
    with server(tmp_path) as (client, serving):
        for preset, bots, options in people:
            created = client.post(
                "/api/tables",
                json={"preset": preset, "bots": bots, "options": options, "bot_delay": 0},
            ).json()
            table_id, token = created["table"]["id"], created["token"]
            play_moves(client, table_id, token, rng.randint(3, 12), rng)
            frozen[table_id] = (token, settle_on_my_turn(client, table_id, token))
        for preset, bots, options in bots_only:
            created = client.post(
                "/api/tables",
                json={
                    "preset": preset,
                    "bots": bots,
                    "humans": 0,
                    "options": options,
                    "bot_delay": 0.005,
                },
            ).json()
            running.append(created["table"]["id"])
        wait_for_progress(client, running, {})
        serving.kill()  # SIGKILL, the whole group: a crash
    first_kill = committed_actions(tmp_path)
    url = stored_url(tmp_path)
    if url.startswith("sqlite"):
        assert committed_rows(url, "PRAGMA journal_mode") == [("wal",)]

    with server(tmp_path) as (client, serving):
        for table_id, (token, state) in frozen.items():
            assert my_state(client, table_id, token) == state
        # The bots play on from where they were, and are killed again mid-flight.
        wait_for_progress(client, running, {t: len(first_kill[t]) for t in running})
        serving.kill()  # SIGKILL, the whole group: a crash
    second_kill = committed_actions(tmp_path)

    with server(tmp_path) as (client, _):
        for table_id, (token, state) in frozen.items():
            assert my_state(client, table_id, token) == state
        going_on = [t for t, (_, state) in frozen.items() if not state["match"]["over"]]
        assert len(going_on) >= 2
        # Every game continues: the person plays on, the bots answer.
        for table_id in going_on:
            token, state = frozen[table_id]
            play_moves(client, table_id, token, 3, rng)
            assert my_state(client, table_id, token)["seq"] > state["seq"]
        wait_for_progress(client, running, {t: len(second_kill[t]) for t in running})
    final = committed_actions(tmp_path)

    for table_id in running:
        # Nothing committed before a kill is lost or changed afterwards.
        assert final[table_id][: len(first_kill[table_id])] == first_kill[table_id]
        assert final[table_id][: len(second_kill[table_id])] == second_kill[table_id]
        stored = load_stored(stored_url(tmp_path), table_id)
        assert stored is not None
        build_match(stored.spec, stored.actions)  # every stored action replays legally
        assert [a.text for a in stored.actions] == final[table_id]
