"""Group commit: concurrent appends of many tables share transactions, each one
still durable before it returns, and a faulty append fails alone.

Runs on SQLite and on PostgreSQL (tests/db_fixtures.py gives ``database_url``).
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from db_fixtures import committed_rows
from pyrummy.server.storage import SeatSpec, Store, TableSpec

TABLES = 12
ACTIONS = 15


def spec(table_id: str) -> TableSpec:
    return TableSpec(table_id, "knock", {}, [SeatSpec("human"), SeatSpec("bot", "easy")], 7, 0, 0)


async def play(store: Store, table_id: str, seen_committed: list[bool], url: str) -> None:
    for seq in range(1, ACTIONS + 1):
        result = {"totals": ["1", "-1"]} if seq == ACTIONS else None
        await store.append_action(table_id, seq, seq % 2, f"discard {seq}", result)
        if seq == 3:
            # Returned means committed: another connection already reads it.
            rows = await asyncio.to_thread(
                committed_rows,
                url,
                "SELECT seq FROM actions WHERE table_id = :t AND seq = 3",
                t=table_id,
            )
            seen_committed.append(rows == [(3,)])


def test_concurrent_appends_are_all_stored_in_order(database_url: str) -> None:
    seen_committed: list[bool] = []

    async def run() -> None:
        store = await Store.open(database_url)
        try:
            ids = [f"g{i}" for i in range(TABLES)]
            for table_id in ids:
                await store.create_table(spec(table_id), ["d" * 64, None])
            await asyncio.gather(*(play(store, t, seen_committed, database_url) for t in ids))
            for table_id in ids:
                stored = await store.load_table(table_id)
                assert stored is not None
                assert [a.seq for a in stored.actions] == list(range(1, ACTIONS + 1))
                assert [a.text for a in stored.actions][:2] == ["discard 1", "discard 2"]
                assert stored.status == "over" and stored.result == {"totals": ["1", "-1"]}
        finally:
            await store.close()

    asyncio.run(run())
    assert seen_committed == [True] * TABLES


def test_a_refused_append_fails_alone_and_the_others_of_its_batch_are_stored(
    database_url: str,
) -> None:
    async def run() -> None:
        store = await Store.open(database_url)
        try:
            for table_id in ("a", "b", "c"):
                await store.create_table(spec(table_id), ["d" * 64, None])
            await store.append_action("b", 1, 0, "draw stock")
            # Queued together: b's second number 1 is a duplicate (refused).
            outcomes = await asyncio.gather(
                store.append_action("a", 1, 0, "draw stock"),
                store.append_action("b", 1, 0, "draw discard"),
                store.append_action("c", 1, 0, "draw stock"),
                return_exceptions=True,
            )
            assert outcomes[0] is None and outcomes[2] is None
            assert isinstance(outcomes[1], Exception)
            for table_id, texts in (
                ("a", ["draw stock"]),
                ("b", ["draw stock"]),
                ("c", ["draw stock"]),
            ):
                stored = await store.load_table(table_id)
                assert stored is not None and [a.text for a in stored.actions] == texts
            # The store goes on working after a refusal.
            await store.append_action("b", 2, 1, "discard 7H")
            stored = await store.load_table("b")
            assert stored is not None and len(stored.actions) == 2
        finally:
            await store.close()

    asyncio.run(run())


def test_an_append_to_an_unknown_table_is_refused(database_url: str) -> None:
    async def run() -> None:
        store = await Store.open(database_url)
        try:
            with pytest.raises(Exception, match=r"(?i)foreign key|constraint"):
                await store.append_action("nope", 1, 0, "draw stock")
        finally:
            await store.close()

    asyncio.run(run())


@pytest.mark.backends("postgresql")  # SQLite writes through one thread: one batch at a time
def test_on_postgresql_an_append_does_not_wait_for_the_batch_under_way(
    database_url: str,
) -> None:
    """A POST's append used to wait for the batch being written before its own
    started (62% of them under load); on PostgreSQL batches go at once."""

    async def run() -> None:
        store = await Store.open(database_url)
        try:
            for table_id in ("a", "b"):
                await store.create_table(spec(table_id), ["d" * 64, None])
            appends = store._appends
            write = appends._write
            held, release = asyncio.Event(), asyncio.Event()

            async def slow_write(batch: list[Any]) -> None:
                if any(item.table_id == "a" for item in batch):
                    held.set()
                    await release.wait()  # table a's batch stays under way
                await write(batch)

            appends._write = slow_write  # type: ignore[method-assign]
            first = asyncio.create_task(store.append_action("a", 1, 0, "draw stock"))
            try:
                await asyncio.wait_for(held.wait(), 10)
                # Stored while a's batch is still being written (one writer: never).
                await asyncio.wait_for(store.append_action("b", 1, 0, "draw stock"), 10)
                assert not first.done()
            finally:
                release.set()
                await first
            for table_id in ("a", "b"):
                stored = await store.load_table(table_id)
                assert stored is not None and [a.text for a in stored.actions] == ["draw stock"]
        finally:
            await store.close()

    asyncio.run(run())
