"""Storage on both databases: the async store, and Alembic upgrades of old databases.

Runs on SQLite and on PostgreSQL (tests/db_fixtures.py gives ``database_url``).
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import subprocess
import sys
import time
from collections.abc import Coroutine
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, text

from db_fixtures import committed_rows, sync_url
from pyrummy.core.errors import StoredActionError
from pyrummy.server import Settings, create_app
from pyrummy.server.migrations import head_revision
from pyrummy.server.storage import SeatSpec, Store, StoredAction, StoredTable
from pyrummy.server.tables import build_match, new_table_spec, token_digest

#: The schema as the server created it before ``acknowledged_json`` (and before
#: Alembic): what old deployments have on disk.
OLD_SCHEMA = (
    """CREATE TABLE tables (
        id VARCHAR(32) NOT NULL PRIMARY KEY,
        created_at FLOAT NOT NULL,
        finished_at FLOAT,
        preset VARCHAR(32) NOT NULL,
        options_json TEXT NOT NULL,
        seats_json TEXT NOT NULL,
        token_digests_json TEXT NOT NULL,
        seed BIGINT NOT NULL,
        first_dealer INTEGER NOT NULL,
        bot_delay FLOAT NOT NULL,
        status VARCHAR(8) NOT NULL,
        result_json TEXT
    )""",
    "CREATE INDEX ix_tables_status ON tables (status)",
    """CREATE TABLE actions (
        table_id VARCHAR(32) NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
        seq INTEGER NOT NULL,
        seat INTEGER NOT NULL,
        text VARCHAR(200) NOT NULL,
        at FLOAT NOT NULL,
        PRIMARY KEY (table_id, seq)
    )""",
)
TOKEN = "old-seat-token"


def run(coroutine: Coroutine[Any, Any, StoredTable | None]) -> StoredTable | None:
    return asyncio.run(coroutine)


def make_old_database(url: str, with_acknowledged: bool = False) -> tuple[str, list[str]]:
    """An old-schema database holding one live table (a person and a bot) with
    two actions played; returns the table id and the actions."""
    spec = new_table_spec("knock", {}, [SeatSpec("human"), SeatSpec("bot", "easy")], 0.0, seed=5)
    # Made before fair deals: the legacy shuffle, no salt (the old schema has neither).
    spec = dataclasses.replace(spec, shuffle=None, salt=None)
    match = build_match(spec)
    played = []
    seats = []
    for _ in range(2):
        action = str(match.legal_actions()[0])
        seats.append(match.current_seat)
        match.apply(action)
        played.append(action)
    engine = create_engine(sync_url(url))
    with engine.begin() as connection:
        for statement in OLD_SCHEMA:
            connection.execute(text(statement))
        if with_acknowledged:
            connection.execute(
                text("ALTER TABLE tables ADD COLUMN acknowledged_json TEXT NOT NULL DEFAULT '{}'")
            )
        connection.execute(
            text(
                "INSERT INTO tables (id, created_at, finished_at, preset, options_json,"
                " seats_json, token_digests_json, seed, first_dealer, bot_delay, status,"
                " result_json) VALUES (:id, :now, NULL, :preset, '{}', :seats, :tokens, :seed,"
                " :dealer, 0.0, 'live', NULL)"
            ),
            {
                "id": spec.table_id,
                "preset": spec.preset,
                "seats": json.dumps([s.to_dict() for s in spec.seats]),
                "tokens": json.dumps([token_digest(TOKEN), None]),
                "seed": spec.seed,
                "dealer": spec.first_dealer,
                "now": time.time(),
            },
        )
        for seq, action in enumerate(played, start=1):
            connection.execute(
                text("INSERT INTO actions VALUES (:t, :seq, :seat, :text, :now)"),
                {
                    "t": spec.table_id,
                    "seq": seq,
                    # The seat that played it: a table is rebuilt only from
                    # actions stored for the seat to play.
                    "seat": seats[seq - 1],
                    "text": action,
                    "now": time.time(),
                },
            )
    engine.dispose()
    return spec.table_id, played


async def open_and_load(url: str, table_id: str) -> StoredTable | None:
    store = await Store.open(url)
    try:
        return await store.load_table(table_id)
    finally:
        await store.close()


def revision_of(url: str) -> str | None:
    rows = committed_rows(url, "SELECT version_num FROM alembic_version")
    return str(rows[0][0]) if rows else None


def test_a_database_made_before_acknowledged_json_is_upgraded_at_open(database_url: str) -> None:
    table_id, played = make_old_database(database_url)
    stored = run(open_and_load(database_url, table_id))
    assert stored is not None
    assert [a.text for a in stored.actions] == played
    assert stored.acknowledged == {} and stored.status == "live"
    # Its deals keep the legacy shuffle, without commitments (0009_fair_deals).
    assert stored.spec.shuffle is None and stored.spec.salt is None
    assert revision_of(database_url) == head_revision()
    # Upgrading again changes nothing.
    again = run(open_and_load(database_url, table_id))
    assert again == stored


def test_the_server_starts_on_an_old_database_and_resumes_its_table(database_url: str) -> None:
    table_id, played = make_old_database(database_url)
    app = create_app(Settings(database_url=database_url, bot_delay=0))
    with TestClient(app) as client:
        state = client.get(f"/api/tables/{table_id}/state", headers={"X-Seat-Token": TOKEN})
        assert state.status_code == 200, state.text
        assert state.json()["seq"] >= len(played)
        assert state.json()["fair"] is None  # a table made before fair deals


def test_a_database_of_the_pre_alembic_current_schema_is_stamped(database_url: str) -> None:
    table_id, played = make_old_database(database_url, with_acknowledged=True)
    stored = run(open_and_load(database_url, table_id))
    assert stored is not None and [a.text for a in stored.actions] == played
    assert revision_of(database_url) == head_revision()


def test_pyrummy_db_upgrade_upgrades_an_old_database(database_url: str, tmp_path: Path) -> None:
    table_id, _ = make_old_database(database_url)
    command = [sys.executable, "-m", "pyrummy.cli.main", "db"]
    before = subprocess.run(
        [*command, "current", "--database-url", database_url], capture_output=True, text=True
    )
    assert before.returncode == 0 and "revision: none" in before.stdout
    upgraded = subprocess.run(
        [*command, "upgrade", "--database-url", database_url], capture_output=True, text=True
    )
    assert upgraded.returncode == 0, upgraded.stderr
    assert f"revision: {head_revision()}" in upgraded.stdout
    columns = committed_rows(database_url, "SELECT acknowledged_json FROM tables")
    assert columns == [("{}",)]
    assert run(open_and_load(database_url, table_id)) is not None


def test_store_round_trip(database_url: str) -> None:
    async def scenario() -> None:
        store = await Store.open(database_url)
        try:
            seats = [SeatSpec("human", None, "Ann"), SeatSpec("bot", "easy")]
            spec = new_table_spec("knock", {}, seats, 0.5, seed=3)
            await store.create_table(spec, [token_digest("x"), None])
            fresh = await store.load_table(spec.table_id)
            assert fresh is not None and fresh.actions == [] and fresh.last_human_at == 0.0
            before = time.time()
            await store.append_action(spec.table_id, 1, 0, "draw stock")
            acted = time.time()
            await store.set_acknowledged(spec.table_id, 0, 2)
            await store.set_bot_delay(spec.table_id, 1.5)
            stored = await store.load_table(spec.table_id)
            assert stored is not None
            assert [(a.seq, a.seat, a.text) for a in stored.actions] == [(1, 0, "draw stock")]
            assert stored.acknowledged == {0: 2}
            assert stored.spec.bot_delay == 1.5 and stored.spec.seats == seats
            assert stored.spec.seed == spec.seed and stored.token_digests == [
                token_digest("x"),
                None,
            ]
            assert await store.table_ids("live") == [spec.table_id]
            await store.append_action(spec.table_id, 2, 1, "discard 7H", {"winners": [0]})
            over = await store.load_table(spec.table_id)
            assert over is not None and over.status == "over"
            assert over.result == {"winners": [0]} and over.finished_at is not None
            # The person's action, not the bot's after it (the abandon clock).
            assert before <= over.last_human_at <= acted
            assert [a.seat for a in over.actions] == [0, 1]
            assert await store.table_ids("live") == []
            total, rows = await store.list_tables("over", 10, 0)
            assert total == 1 and rows[0][1] == "over" and rows[0][4] == 2
            assert rows[0][3] == {"winners": [0]}
            assert await store.load_table("nope") is None
        finally:
            await store.close()

    asyncio.run(scenario())


def test_an_action_stored_twice_is_refused(database_url: str) -> None:
    """(table, seq) is the key: two processes can never both store action N."""

    async def scenario() -> bool:
        store = await Store.open(database_url)
        try:
            spec = new_table_spec("knock", {}, [SeatSpec("human"), SeatSpec("bot", "easy")], 0)
            await store.create_table(spec, [None, None])
            await store.append_action(spec.table_id, 1, 0, "draw stock")
            try:
                await store.append_action(spec.table_id, 1, 0, "draw discard")
            except Exception:
                stored = await store.load_table(spec.table_id)
                return stored is not None and [a.text for a in stored.actions] == ["draw stock"]
            return False
        finally:
            await store.close()

    assert asyncio.run(scenario())


def test_matches_are_listed_by_finish_time_in_stable_pages(database_url: str) -> None:
    """History shows when a match finished, so the list is ordered by that
    (the newest finish first), not by the start; pages neither repeat nor
    skip a match."""

    async def scenario() -> tuple[list[str], list[str], list[str], list[str]]:
        store = await Store.open(database_url)
        try:
            seats = [SeatSpec("human"), SeatSpec("bot", "easy")]
            started = []
            for seed in range(4):
                spec = new_table_spec("knock", {}, seats, 0, seed=seed)
                await store.create_table(spec, [None, None])
                started.append(spec.table_id)
                time.sleep(0.002)
            # Finished in another order than started; the last one is still going.
            for table_id in (started[2], started[0], started[1]):
                await store.append_action(table_id, 1, 0, "draw stock", {"winners": [0]})
                time.sleep(0.002)
            pages = [await store.list_tables("over", 2, offset) for offset in (0, 2)]
            everything = await store.list_tables(None, 10, 0)
            return (
                started,
                [spec.table_id for page in pages for spec, *_ in page[1]],
                [spec.table_id for spec, *_ in everything[1]],
                [str(page[0]) for page in pages],
            )
        finally:
            await store.close()

    started, over, everything, totals = asyncio.run(scenario())
    assert over == [started[1], started[0], started[2]]
    assert totals == ["3", "3"]
    # With the games in progress: those first, then the finished ones by finish.
    assert everything == [started[3], started[1], started[0], started[2]]


def test_a_table_rebuilds_only_from_actions_stored_for_the_seat_to_play() -> None:
    spec = new_table_spec("knock", {}, [SeatSpec("human"), SeatSpec("bot", "easy")], 0.0, seed=5)
    match = build_match(spec)
    seat = match.current_seat
    assert seat is not None
    action = str(match.legal_actions()[0])
    assert build_match(spec, [StoredAction(1, seat, action)]).deal.history
    with pytest.raises(StoredActionError, match=f"seat {1 - seat} is not to play"):
        build_match(spec, [StoredAction(1, 1 - seat, action)])
