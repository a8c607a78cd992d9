"""On a SQLite file the group commit writes through its own thread and sqlite3
connection (pyrummy.server.storage.sqlite_writer); in memory, through the engine."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import pytest

from pyrummy.server.storage import SeatSpec, Store, TableSpec, _Append
from pyrummy.server.storage.sqlite_writer import SqliteWriter, sqlite_file_of


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


def test_the_writer_thread_hands_each_outcome_to_its_waiter_and_carries_on(
    tmp_path: Path,
) -> None:
    """One thread fed by a queue: a refused batch raises in its own waiter
    (stored: nothing of it), a waiter that goes away leaves its batch to be
    written, and the thread serves the next batch either way."""
    path = tmp_path / "pyrummy.sqlite3"

    async def run() -> None:
        store = await Store.open(f"sqlite:///{path}")
        writer = store._appends.sqlite
        assert writer is not None
        try:
            await store.create_table(spec("t1"), [None, None])
            first = _Append("t1", 1, 0, "draw stock", None, 1.0)
            again = _Append("t1", 1, 1, "draw discard", None, 2.0)  # same number: refused
            second = _Append("t1", 2, 0, "discard 7H", None, 3.0)
            await writer.write([first])
            with pytest.raises(sqlite3.IntegrityError):
                await writer.write([second, again])  # one transaction: neither is stored
            abandoned = asyncio.ensure_future(writer.write([second]))
            await asyncio.sleep(0)  # handed to the thread
            abandoned.cancel()
            with pytest.raises(asyncio.CancelledError):
                await abandoned
            await writer.write([_Append("t1", 3, 1, "discard 8H", None, 4.0)])
            thread = writer._thread
            assert thread is not None and thread.is_alive()
        finally:
            await store.close()
        assert writer._thread is None and not thread.is_alive()

    asyncio.run(run())
    with sqlite3.connect(path) as connection:
        rows = connection.execute("SELECT seq, seat, text FROM actions ORDER BY seq").fetchall()
    assert rows == [(1, 0, "draw stock"), (2, 0, "discard 7H"), (3, 1, "discard 8H")]


def test_one_writer_serves_waiters_of_successive_event_loops(tmp_path: Path) -> None:
    """Each batch is answered on the loop that sent it (a store outliving one
    ``asyncio.run``, as the tests' and the CLI's stores do)."""
    writer = SqliteWriter(str(tmp_path / "pyrummy.sqlite3"))

    async def create() -> None:
        store = await Store.open(f"sqlite:///{tmp_path / 'pyrummy.sqlite3'}")
        await store.create_table(spec("t1"), [None, None])
        await store.close()

    asyncio.run(create())
    asyncio.run(writer.write([_Append("t1", 1, 0, "draw stock", None, 1.0)]))

    async def second_and_close() -> None:
        await writer.write([_Append("t1", 2, 0, "discard 7H", None, 2.0)])
        await writer.close()

    asyncio.run(second_and_close())
    with sqlite3.connect(tmp_path / "pyrummy.sqlite3") as connection:
        count = connection.execute("SELECT COUNT(*) FROM actions").fetchone()
    assert count == (2,)
