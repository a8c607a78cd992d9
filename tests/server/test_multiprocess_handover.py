"""Two cluster members on one PostgreSQL database: a copy of a table that
nothing uses in a process leaves it (and comes back current on demand), and
the owner of a table hands it over to the process its person uses.

The members are two table managers in this event loop (as in
test_multiprocess.py); their sweeps are called by hand with short periods.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

from db_fixtures import fresh_postgres_database
from test_multiprocess import stop_members, two_cluster_members


def short_periods(*managers: Any, seconds: float = 0.3) -> None:
    from pyrummy.server.settings import Lifecycle

    for manager in managers:
        manager.lifecycle = Lifecycle(unload_copies_after=seconds)


def person_and_bot_table() -> Any:
    from pyrummy.server.storage import SeatSpec
    from pyrummy.server.tables import new_table_spec

    return new_table_spec(
        "knock",
        {"match_end": "deals", "deals": 50},
        [SeatSpec("human"), SeatSpec("bot", "random")],
        bot_delay=0.02,
        seed=5,
    )


def bots_playing(table: Any) -> bool:
    return table.bot_task is not None and not table.bot_task.done()


async def persons_turn(table: Any) -> None:
    """Until the person (seat 0) is to move and no bot is playing here."""
    async with asyncio.timeout(10):
        while table.match.current_seat != 0 or table.lock.locked() or bots_playing(table):
            await asyncio.sleep(0.01)


async def person_acts(manager: Any, table: Any) -> None:
    """One legal move of the person's (a draw or a discard, never a knock)."""
    await persons_turn(table)
    async with table.lock:
        legal = [str(a) for a in table.match.legal_actions()]
        move = next(a for a in legal if a.startswith(("draw", "discard")))
        await manager.play(table, 0, move)
    table.wake_bots()  # as the routes do after a person's move


async def until(condition: Any) -> None:
    async with asyncio.timeout(10):
        while not condition():
            await asyncio.sleep(0.01)


def test_an_unused_copy_leaves_and_comes_back_current(postgres_server: str) -> None:
    """B holds a copy of a table A plays; nothing uses it on B for the period:
    B drops it and applies none of the notices that follow. The next request
    on B reads it back: the same actions as storage, and a socket opened on
    B then gets the next events once each, in order."""
    url = fresh_postgres_database(postgres_server)

    async def run() -> None:
        members = await two_cluster_members(url)
        (store, a, on_a), (_, b, on_b) = members
        short_periods(a, b)
        try:
            spec = person_and_bot_table()
            table_a, _ = await a.create(spec)
            copy = await b.get(spec.table_id)
            assert on_a.owns(spec.table_id) and not on_b.owns(spec.table_id) and not copy.bots
            await person_acts(a, table_a)
            await until(lambda: copy.seq >= 1)
            # Used a moment ago (the request above): kept.
            assert (await on_b.tidy()).dropped == 0 and spec.table_id in b.tables
            await asyncio.sleep(0.4)
            # The owner is never dropped for want of use; the copy is.
            assert (await on_a.tidy()).dropped == 0 and spec.table_id in a.tables
            assert (await on_b.tidy()).dropped == 1 and spec.table_id not in b.tables
            left_at = copy.seq
            for _ in range(3):
                await person_acts(a, table_a)
            await persons_turn(table_a)
            assert copy.seq == left_at  # no notice applied to the dropped copy
            back = await b.get(spec.table_id)
            stored = await store.load_table(spec.table_id)
            assert back is not copy and back.seq == table_a.seq > left_at
            assert back.actions == stored.actions == table_a.actions
            seen: list[int] = []
            back.on_change = lambda _t, s: seen.append(s.seq) if s is not None else None
            before = back.seq
            await person_acts(a, table_a)
            await persons_turn(table_a)
            await until(lambda: back.seq == table_a.seq)
            assert seen == list(range(before + 1, table_a.seq + 1))
        finally:
            await stop_members(members)

    asyncio.run(run())


def test_the_owner_hands_a_table_over_to_the_process_its_person_uses(
    postgres_server: str,
) -> None:
    """The person's socket is on B; A plays the bots. B claims the table; A
    keeps it while something uses it there (a request a moment ago, a socket),
    then hands it over: B takes the lock, plays the bots, and every action is
    stored once, in order."""
    url = fresh_postgres_database(postgres_server)

    async def run() -> None:
        members = await two_cluster_members(url)
        (store, a, on_a), (_, b, on_b) = members
        short_periods(a, b, seconds=1.0)
        try:
            spec = person_and_bot_table()
            table_a, _ = await a.create(spec)
            table_b = await b.get(spec.table_id)
            socket = table_b.subscribe(0)
            assert (await on_b.tidy()).claimed == 1
            assert (await on_b.tidy()).claimed == 0  # once per half period
            await until(lambda: spec.table_id in on_a._claimed)
            await persons_turn(table_a)
            # A request on A a moment ago (the creation): A keeps it.
            assert (await on_a.tidy()).handed == 0 and on_a.owns(spec.table_id)
            await asyncio.sleep(1.1)
            sent_at = time.monotonic()
            assert (await on_b.tidy()).claimed == 1  # still used on B: claimed again
            await until(lambda: on_a._claimed.get(spec.table_id, 0) > sent_at)
            watcher = table_a.subscribe(None)  # a spectator's socket on A: kept
            assert (await on_a.tidy()).handed == 0 and on_a.owns(spec.table_id)
            table_a.unsubscribe(watcher)
            assert (await on_a.tidy()).handed == 1
            assert spec.table_id not in a.tables and not on_a.owns(spec.table_id)
            seen: list[int] = []
            table_b.on_change = lambda _t, s: seen.append(s.seq) if s is not None else None
            assert await on_b.take_over() == 1
            assert on_b.owns(spec.table_id) and table_b.bots
            played = table_b.seq
            for _ in range(3):
                await person_acts(b, table_b)
            await persons_turn(table_b)
            assert table_b.seq > played + 3  # the bots moved on B too
            stored = await store.load_table(spec.table_id)
            assert [x.seq for x in stored.actions] == list(range(1, table_b.seq + 1))
            assert stored.actions == table_b.actions
            assert seen == list(range(played + 1, table_b.seq + 1))
            table_b.unsubscribe(socket)
        finally:
            await stop_members(members)

    asyncio.run(run())
