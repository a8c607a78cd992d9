"""On a SQLite file the group commit writes through its own thread and sqlite3
connection (pyrummy.server.sqlite_writer); in memory, through the engine."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import pytest

from pyrummy.server.sqlite_writer import sqlite_file_of
from pyrummy.server.storage import SeatSpec, Store, TableSpec


def spec(table_id: str) -> TableSpec:
    return TableSpec(table_id, "knock", {}, [SeatSpec("human"), SeatSpec("bot", "easy")], 7, 0, 0)


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        ("sqlite:////tmp/x/pyrummy.sqlite3", "/tmp/x/pyrummy.sqlite3"),
        ("sqlite+aiosqlite:///relative.sqlite3", "relative.sqlite3"),
        ("sqlite://", None),
        ("sqlite:///:memory:", None),
        ("sqlite+aiosqlite:///file:/tmp/x.sqlite3?mode=ro&uri=true", None),
        ("postgresql+psycopg://user@localhost/pyrummy", None),
    ],
)
def test_which_databases_get_the_writer(url: str, expected: str | None) -> None:
    assert sqlite_file_of(url) == expected


def test_a_file_store_writes_actions_and_results_through_its_writer(tmp_path: Path) -> None:
    path = tmp_path / "pyrummy.sqlite3"

    async def run() -> None:
        store = await Store.open(f"sqlite:///{path}")
        try:
            assert store._appends.sqlite is not None
            await store.create_table(spec("t1"), [None, None])
            await asyncio.gather(
                store.append_action("t1", 1, 0, "draw stock"),
                store.append_action("t1", 2, 0, "discard 7H", {"winners": [0]}),
            )
            with pytest.raises(sqlite3.IntegrityError):
                await store.append_action("t1", 2, 1, "draw discard")
            stored = await store.load_table("t1")
            assert stored is not None and [a.text for a in stored.actions] == [
                "draw stock",
                "discard 7H",
            ]
            assert stored.status == "over"
        finally:
            await store.close()
        # Closed: its connection too (the file can be opened for writing at once).
        assert store._appends.sqlite._connection is None

    asyncio.run(run())
    # What another connection reads: the rows and the finished table.
    with sqlite3.connect(path) as connection:
        rows = connection.execute("SELECT seq, seat, text FROM actions ORDER BY seq").fetchall()
        status, result = connection.execute("SELECT status, result_json FROM tables").fetchone()
    assert rows == [(1, 0, "draw stock"), (2, 0, "discard 7H")]
    assert status == "over" and result == '{"winners": [0]}'


def test_an_in_memory_store_keeps_the_engine_path() -> None:
    async def run() -> None:
        store = await Store.open("sqlite://")
        try:
            assert store._appends.sqlite is None
            await store.create_table(spec("m1"), [None, None])
            await store.append_action("m1", 1, 0, "draw stock")
            stored = await store.load_table("m1")
            assert stored is not None and [a.text for a in stored.actions] == ["draw stock"]
        finally:
            await store.close()

    asyncio.run(run())


def test_a_file_store_writes_acknowledgements_through_its_writer(tmp_path: Path) -> None:
    path = tmp_path / "pyrummy.sqlite3"

    async def run() -> None:
        store = await Store.open(f"sqlite:///{path}")
        try:
            writes: list[tuple[str, int, int]] = []
            writer = store._appends.sqlite
            assert writer is not None
            original = writer._acknowledge

            def counted(table_id: str, seat: int, deals: int) -> None:
                writes.append((table_id, seat, deals))
                original(table_id, seat, deals)

            writer._acknowledge = counted  # type: ignore[method-assign]
            await store.create_table(spec("t1"), [None, None])
            await store.set_acknowledged("t1", 0, 2)
            await store.set_acknowledged("t1", 1, 1)
            await store.set_acknowledged("t1", 0, 3)
            await store.set_acknowledged("gone", 0, 1)  # no such table: nothing written
            stored = await store.load_table("t1")
            assert stored is not None and stored.acknowledged == {0: 3, 1: 1}
            assert [w[0] for w in writes] == ["t1", "t1", "t1", "gone"]
        finally:
            await store.close()

    asyncio.run(run())
    with sqlite3.connect(path) as connection:
        (seen,) = connection.execute("SELECT acknowledged_json FROM tables").fetchone()
    assert seen == '{"0": 3, "1": 1}'
