"""Two server processes on one PostgreSQL database, as behind a load balancer
without sticky sessions.

A person acts through both processes alternately while a WebSocket is open on
each: every event reaches both sockets once, in order. Then the process that
plays the table's bots is killed with SIGKILL: the other takes the table
over, the bots play on, and nothing stored is lost or duplicated.
"""

from __future__ import annotations

import json
import threading
import time
from contextlib import AbstractContextManager, ExitStack
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from db_fixtures import committed_rows, fresh_postgres_database, load_stored
from pyrummy.server.tables import build_match
from server_process import Server, ServerDidNotStart, running_server, server_and_client


def server(
    url: str, log: Path, *options: str
) -> AbstractContextManager[tuple[httpx.Client, Server]]:
    arguments = ["--bot-delay", "0.05", "--rate-limit", "off", *options]
    return server_and_client(arguments, env={"DATABASE_URL": url}, log=log, graceful=True)


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


def long_match_table(client: httpx.Client) -> tuple[str, str]:
    """A person and two easy bots, 50 deals: a table that outlives any test; (id, token)."""
    created = client.post(
        "/api/tables",
        json={
            "preset": "knock",
            "bots": ["easy", "easy"],
            "options": {"match_end": "deals", "deals": 50},
        },
    )
    assert created.status_code == 201, created.text
    return created.json()["table"]["id"], created.json()["token"]


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
        table_id, token = long_match_table(first)
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
        owner.kill()
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
    build_match(stored.spec, stored.actions)  # every stored action replays legally


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
    # Neither worker was killed as unresponsive while starting (uvicorn's 5 s
    # health check did that on a busy machine; --worker-healthcheck is 30 s).
    assert "died" not in started, started


def test_workers_need_postgresql(tmp_path: Path) -> None:
    # An empty DATABASE_URL: SQLite. A server that did start is killed on leaving the block.
    with (
        pytest.raises(ServerDidNotStart) as refused,
        running_server(["--workers", "2", "--data-dir", str(tmp_path)], env={"DATABASE_URL": ""}),
    ):
        pass
    assert "exited with status 2" in str(refused.value)
    assert "needs PostgreSQL" in str(refused.value)


# -- one event loop playing two server processes (deterministic timing) -------------


class SlowBot:
    """A bot that thinks ``seconds`` per decision (in the bot pool's thread)."""

    def __init__(self, seconds: float, seed: int) -> None:
        import random

        self.seconds = seconds
        self.rng = random.Random(seed)

    def choose(self, observation: Any, legal: Any) -> Any:
        time.sleep(self.seconds)
        return self.rng.choice(list(legal))


def recording(events: dict[str, list[int]]) -> Any:
    """A TableManager's ``on_change`` that notes the events of each table."""

    def on_change(table: Any, stored: Any) -> None:
        if stored is not None:
            events.setdefault(table.table_id, []).append(stored.seq)

    return on_change


def calm(legal: list[Any]) -> Any:
    quiet = [a for a in legal if a.kind.name.lower() not in ("knock", "meld", "layoff", "undo")]
    return (quiet or legal)[0]


def test_events_reach_a_process_whose_other_table_is_busy(postgres_server: str) -> None:
    """The regression of a lost-looking event: a person's WebSocket on process A,
    their actions through process B. A also plays a table whose slow bot holds
    that table's lock for seconds at a time; the person's events still reach A
    at once (no table's catch-up waits behind another's), each once, in order."""
    import asyncio

    from pyrummy.server.botpool import BotPool
    from pyrummy.server.cluster import Cluster
    from pyrummy.server.storage import SeatSpec, Store
    from pyrummy.server.tables import TableManager, default_bot_factory, new_table_spec

    url = fresh_postgres_database(postgres_server)

    def factory(name: str, seed: int) -> Any:
        return SlowBot(1.5, seed) if name == "hard" else default_bot_factory(name, seed)

    async def run() -> None:
        seen_on_a: dict[str, list[int]] = {}
        stores = [await Store.open(url), await Store.open(url)]
        managers = [TableManager(store, factory, BotPool(0, think_limit=30)) for store in stores]
        managers[0].on_change = recording(seen_on_a)
        clusters = [
            await Cluster.start(s, m, takeover_every=0.2)
            for s, m in zip(stores, managers, strict=True)
        ]
        a, b = managers
        try:
            busy = new_table_spec("knock", {}, [SeatSpec("bot", "hard")] * 2, bot_delay=0.0)
            await a.create(busy)
            (await a.get(busy.table_id)).wake_bots()
            person = new_table_spec(
                "knock",
                {"match_end": "deals", "deals": 50},
                [SeatSpec("human"), SeatSpec("bot", "random"), SeatSpec("bot", "random")],
                bot_delay=0.0,
            )
            await a.create(person)
            (await a.get(person.table_id)).wake_bots()
            await asyncio.sleep(2.0)  # the slow bots are deep in thought on A
            mine: list[int] = []
            while len(mine) < 25:
                table = await b.get(person.table_id)
                if table.is_over:
                    break
                if table.awaiting:
                    await table.acknowledge(0)
                if table.match.current_seat != 0:
                    await asyncio.sleep(0.01)
                    continue
                async with table.lock:
                    stored = await table.apply(0, str(calm(table.match.legal_actions())))
                mine.append(stored.seq)
                async with asyncio.timeout(1.0):  # far below the slow bot's 1.5 s
                    while stored.seq not in seen_on_a.get(person.table_id, []):
                        await asyncio.sleep(0.005)
            assert len(mine) >= 20
            events = seen_on_a[person.table_id]
            assert events == list(range(1, len(events) + 1))
        finally:
            for cluster in clusters:
                await cluster.stop()
            for manager, store in zip(managers, stores, strict=True):
                await manager.stop()
                await store.close()

    asyncio.run(run())


def test_a_conflicting_action_publishes_what_the_other_process_stored(
    postgres_server: str,
) -> None:
    """Process B, not yet told of action N stored by A, plays action N itself:
    storage refuses it (409 stale), B reads the newer actions, and B's
    subscribers get event N: nothing skipped because B learnt of it by a refusal."""
    import asyncio

    from pyrummy.server.storage import SeatSpec, Store
    from pyrummy.server.tables import LiveTable, TableError, new_table_spec

    url = fresh_postgres_database(postgres_server)

    async def run() -> None:
        store = await Store.open(url)
        try:
            spec = new_table_spec("knock", {}, [SeatSpec("human"), SeatSpec("human")], 0.0)
            await store.create_table(spec, [None, None])
            stored = await store.load_table(spec.table_id)
            assert stored is not None
            first, second = LiveTable(stored, store), LiveTable(stored, store)
            published: list[int | None] = []
            second.on_change = lambda _t, s: published.append(None if s is None else s.seq)
            seat = first.match.current_seat
            assert seat is not None
            action = str(calm(first.match.legal_actions()))
            await first.apply(seat, action)
            try:
                await second.apply(seat, action)
            except TableError as refused:
                assert (refused.status, refused.key) == (409, "seat.stale")
            else:
                raise AssertionError("storage took action 1 twice")
            assert published == [1]
            assert second.seq == 1 and second.match.current_seat == first.match.current_seat
        finally:
            await store.close()

    asyncio.run(run())


def two_cluster_members(url: str) -> Any:
    """Two 'processes' (store, table manager, cluster) in this event loop."""
    from pyrummy.server.botpool import BotPool
    from pyrummy.server.cluster import Cluster
    from pyrummy.server.storage import Store
    from pyrummy.server.tables import TableManager

    async def start() -> list[tuple[Any, Any, Any]]:
        members = []
        for _ in range(2):
            store = await Store.open(url)
            manager = TableManager(store, bot_pool=BotPool(0))
            members.append((store, manager, await Cluster.start(store, manager, 3600)))
        return members

    return start()


async def stop_members(members: list[tuple[Any, Any, Any]]) -> None:
    for store, manager, cluster in members:
        await cluster.stop()
        await manager.stop()
        await store.close()


def bots_table() -> Any:
    from pyrummy.server.storage import SeatSpec
    from pyrummy.server.tables import new_table_spec

    # Many deals: the bots must have moves left to make whatever they draw.
    return new_table_spec(
        "knock",
        {"match_end": "deals", "deals": 50},
        [SeatSpec("bot", "random")] * 2,
        bot_delay=0.05,
        seed=3,
    )


def test_a_table_in_nobody_s_memory_gets_its_bots_back(postgres_server: str) -> None:
    """The owner of a table dies while no other process holds it: the sweep of
    another process adopts it and its bots play on."""
    import asyncio

    url = fresh_postgres_database(postgres_server)

    async def run() -> None:
        members = await two_cluster_members(url)
        (_, owner_manager, owner), (_, other, cluster) = members
        try:
            spec = bots_table()
            table, _ = await owner_manager.create(spec)
            assert owner.owns(spec.table_id) and spec.table_id not in other.tables
            await owner.stop()  # its lock connection closes, as when a process dies
            table.bots = {}
            stopped_at = table.seq
            assert await cluster.adopt_orphans() == 1
            adopted = other.tables[spec.table_id]
            assert cluster.owns(spec.table_id) and adopted.seq >= stopped_at
            # Generous: on a loaded machine two workers' suites share the cores.
            async with asyncio.timeout(30):
                while adopted.seq < stopped_at + 5:
                    await asyncio.sleep(0.05)
        finally:
            await stop_members(members)

    asyncio.run(run())


def test_a_lost_lock_connection_stops_the_bots_then_takes_them_back(
    postgres_server: str, caplog: Any
) -> None:
    import asyncio

    import psycopg

    url = fresh_postgres_database(postgres_server)

    async def run() -> None:
        members = await two_cluster_members(url)
        (_, manager, cluster) = members[0]
        try:
            spec = bots_table()
            table, _ = await manager.create(spec)
            assert cluster.owns(spec.table_id) and table.bots
            pid = cluster._locks.info.backend_pid
            async with await psycopg.AsyncConnection.connect(url, autocommit=True) as admin:
                await admin.execute("SELECT pg_terminate_backend(%s)", (pid,))
            assert await cluster.check_locks() is False
            assert not cluster.owns(spec.table_id) and not table.bots
            assert "advisory-lock connection was lost" in caplog.text
            # Reconnected: nobody else took the table, so it is taken back.
            assert await cluster.check_locks() is True
            assert await cluster.take_over() == 1
            assert cluster.owns(spec.table_id) and table.bots
        finally:
            await stop_members(members)

    asyncio.run(run())


class CatchUpOnly:
    """The part of a Cluster that :meth:`TableManager.play` uses, without the
    listening: the table stays as stale as the test leaves it."""

    def __init__(self, store: Any) -> None:
        self.store = store
        self.reads = 0

    async def catch_up_locked(self, table: Any) -> int:
        from pyrummy.server.cluster import catch_up

        self.reads += 1
        return await catch_up(table, self.store)


def test_an_action_on_a_stale_table_is_played_after_reading_what_others_stored(
    postgres_server: str,
) -> None:
    """Process B answers a person's action from the table as it knows it, with
    no read first. B was not told of action 1, stored by A: the person's
    action 2 is refused there (not their turn), B reads action 1, plays action
    2 and publishes both events in order. On a table B knows to be current,
    a refusal stands after one read."""
    import asyncio

    from pyrummy.server.storage import SeatSpec, Store
    from pyrummy.server.tables import TableError, TableManager, new_table_spec

    url = fresh_postgres_database(postgres_server)

    async def run() -> None:
        store = await Store.open(url)
        try:
            spec = new_table_spec("knock", {}, [SeatSpec("human"), SeatSpec("human")], 0.0)
            await store.create_table(spec, [None, None])
            a, b = TableManager(store), TableManager(store)
            on_a, on_b = await a.get(spec.table_id), await b.get(spec.table_id)
            b.cluster = CatchUpOnly(store)
            published: list[int] = []
            on_b.on_change = lambda _t, s: published.append(s.seq) if s is not None else None
            first = on_a.match.current_seat
            assert first is not None
            async with on_a.lock:
                await a.play(on_a, first, "draw stock")
            second = on_a.match.current_seat
            assert second is not None and on_b.seq == 0
            discard = next(str(x) for x in on_a.match.legal_actions() if "discard" in str(x))
            async with on_b.lock:
                stored = await b.play(on_b, second, discard, seq=1)
            assert stored.seq == 2 and published == [1, 2] and b.cluster.reads == 1
            assert [x.text for x in (await store.load_table(spec.table_id)).actions] == [  # type: ignore[union-attr]
                "draw stock",
                discard,
            ]
            # Current already: the refusal is the answer, after one read.
            wrong = 1 - (on_b.match.current_seat or 0)
            async with on_b.lock:
                with pytest.raises(TableError) as refused:
                    await b.play(on_b, wrong, "draw stock")
            assert refused.value.key == "seat.not_your_turn" and b.cluster.reads == 2
        finally:
            await store.close()

    asyncio.run(run())


def test_a_read_that_leaves_a_bot_to_move_starts_the_bots(postgres_server: str) -> None:
    """The owner reads a person's move another process stored (a request's
    refresh) before the notice of it arrives; the notice is then skipped as
    known, so the read itself must start the bots, or the table stalls."""
    import asyncio

    from pyrummy.server.cluster import catch_up
    from pyrummy.server.storage import SeatSpec, Store
    from pyrummy.server.tables import TableManager, new_table_spec

    url = fresh_postgres_database(postgres_server)

    async def run() -> None:
        store = await Store.open(url)
        try:
            seats = [SeatSpec("human"), SeatSpec("bot", "random")]
            # Two players: the dealer's left moves first; the person, seat 0.
            spec = next(
                spec
                for seed in range(100)
                if (spec := new_table_spec("knock", {}, seats, 0.0, seed=seed)).first_dealer == 1
            )
            await store.create_table(spec, [None, None])
            owner, other = TableManager(store), TableManager(store)
            on_owner, on_other = await owner.get(spec.table_id), await other.get(spec.table_id)
            on_other.bots = {}  # only the owner plays them
            assert on_owner.match.current_seat == 0 and on_owner.bot_task is None
            async with on_other.lock:
                await other.play(on_other, 0, "draw stock")
            discard = next(str(x) for x in on_other.match.legal_actions() if "discard" in str(x))
            async with on_other.lock:
                await other.play(on_other, 0, discard)
            async with on_owner.lock:
                assert await catch_up(on_owner, store) == 2
            assert on_owner.bot_task is not None
            async with asyncio.timeout(10):
                while on_owner.seq < 3:
                    await asyncio.sleep(0.02)
            await owner.stop()
            await other.stop()
        finally:
            await store.close()

    asyncio.run(run())


def test_take_over_asks_for_every_free_table_at_once_and_leaves_the_held_ones(
    postgres_server: str,
) -> None:
    import asyncio

    url = fresh_postgres_database(postgres_server)

    async def run() -> None:
        members = await two_cluster_members(url)
        (_, owner_manager, owner), (_, other, cluster) = members
        try:
            ids = []
            for seed in (3, 4, 5):
                spec = bots_table()
                spec = type(spec)(**{**spec.__dict__, "table_id": f"takeover{seed}", "seed": seed})
                await owner_manager.create(spec)
                ids.append(spec.table_id)
                table = await other.get(spec.table_id)
                assert not table.bots and not cluster.owns(spec.table_id)
            assert await cluster.take_over() == 0  # all three held by their owner
            owner_manager.tables.pop(ids[0]).bots = {}
            await owner.release(ids[0])
            assert await cluster.take_over() == 1
            assert cluster.owns(ids[0]) and other.tables[ids[0]].bots
            await owner.stop()  # its lock connection closes, as when a process dies
            for table_id in ids[1:]:
                owner_manager.tables[table_id].bots = {}
            # The server frees a closed connection's locks a moment later.
            taken = 0
            async with asyncio.timeout(10):
                while taken < 2:
                    taken += await cluster.take_over()
                    await asyncio.sleep(0.05)
            assert taken == 2
            assert all(cluster.owns(t) and other.tables[t].bots for t in ids)
        finally:
            await stop_members(members)

    asyncio.run(run())


def test_a_next_deal_reaches_the_other_process_in_its_notice(
    postgres_server: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A person's "Next deal" stored through process A is one statement whose
    notice carries it: process B stops waiting for them without reading the
    table's row; a notice for a deal B has not seen finish yet makes B read."""
    import asyncio

    from pyrummy.server import cluster as cluster_module
    from pyrummy.server.storage import SeatSpec
    from pyrummy.server.tables import new_table_spec

    url = fresh_postgres_database(postgres_server)
    reads: list[Any] = []
    read_meta = cluster_module.refresh_meta

    async def counted(table: Any, store: Any, *more: Any) -> None:
        reads.append(table)
        await read_meta(table, store, *more)

    monkeypatch.setattr(cluster_module, "refresh_meta", counted)

    async def waiting_ends(table: Any) -> None:
        async with asyncio.timeout(5):
            while table.awaiting:
                await asyncio.sleep(0.01)

    async def run() -> None:
        members = await two_cluster_members(url)
        (store_a, manager_a, _), (_, manager_b, _) = members
        try:
            spec = new_table_spec("knock", {}, [SeatSpec("human"), SeatSpec("human")], 0.0)
            await manager_a.create(spec)
            on_b = await manager_b.get(spec.table_id)
            on_b.awaiting = {0, 1}  # as if both looked at a showdown
            await store_a.set_acknowledged(spec.table_id, 0, 0)
            async with asyncio.timeout(5):
                while on_b.awaiting != {1}:
                    await asyncio.sleep(0.01)
            assert reads == []
            await store_a.set_acknowledged(spec.table_id, 1, 7)  # a deal B has not seen
            await waiting_ends(on_b)
            assert any(table is on_b for table in reads)
            stored = await store_a.load_table(spec.table_id)
            assert stored is not None and stored.acknowledged == {0: 0, 1: 7}
        finally:
            await stop_members(members)

    asyncio.run(run())


def test_a_resignation_and_a_bot_taking_a_seat_reach_the_other_process(
    postgres_server: str,
) -> None:
    """Resigning through process A: process B's copy of a table against bots
    is over; at a table of two people B's copy seats the bot and refuses the
    resigned person's token."""
    import asyncio

    from pyrummy.server.resign import resign
    from pyrummy.server.storage import SeatSpec
    from pyrummy.server.tables import TableError, new_table_spec

    url = fresh_postgres_database(postgres_server)

    async def run() -> None:
        members = await two_cluster_members(url)
        (_, manager_a, _), (_, manager_b, _) = members
        try:
            alone = new_table_spec("knock", {}, [SeatSpec("human"), SeatSpec("bot", "easy")], 9.0)
            _, alone_tokens = await manager_a.create(alone)
            alone_b = await manager_b.get(alone.table_id)
            await resign(manager_a, manager_a.tables[alone.table_id], 0)
            async with asyncio.timeout(5):
                while not alone_b.is_over:
                    await asyncio.sleep(0.01)
            assert alone_b.resigned == 0 and alone_b.status == "over"

            people = [SeatSpec("human"), SeatSpec("human"), SeatSpec("bot", "easy")]
            pair = new_table_spec("knock", {}, people, 9.0)
            _, tokens = await manager_a.create(pair)
            pair_b = await manager_b.get(pair.table_id)
            assert await resign(manager_a, manager_a.tables[pair.table_id], 1) == "easy"
            async with asyncio.timeout(5):
                while pair_b.spec.seats[1].kind != "bot":
                    await asyncio.sleep(0.01)
            assert not pair_b.is_over and pair_b.humans == [0]
            with pytest.raises(TableError):
                pair_b.seat_of_token(tokens[1])
            assert pair_b.seat_of_token(tokens[0]) == 0
            assert alone_tokens[0] is not None
        finally:
            await stop_members(members)

    asyncio.run(run())


def test_the_direct_pool_reuses_connections_and_replaces_a_lost_one(postgres_server: str) -> None:
    import asyncio

    import psycopg

    from pyrummy.server.storage.pg_direct import DirectPool

    url = fresh_postgres_database(postgres_server)

    async def run() -> None:
        pool = DirectPool(url, limit=1)  # one connection: its backend pid tells reuse
        try:
            [(first,)] = await pool.execute("SELECT pg_backend_pid()", ())
            [(again,)] = await pool.execute("SELECT pg_backend_pid()", ())
            assert again == first
            await pool.execute("CREATE TABLE once (id int PRIMARY KEY)", ())
            await pool.execute("INSERT INTO once VALUES (1)", ())
            with pytest.raises(psycopg.errors.UniqueViolation):
                await pool.execute("INSERT INTO once VALUES (1)", ())
            [(kept,)] = await pool.execute("SELECT pg_backend_pid()", ())
            assert kept == first  # a refused statement leaves the connection usable
            async with await psycopg.AsyncConnection.connect(url, autocommit=True) as admin:
                await admin.execute("SELECT pg_terminate_backend(%s)", (first,))
            with pytest.raises(psycopg.OperationalError):
                await pool.execute("SELECT pg_backend_pid()", ())
            [(fresh,)] = await pool.execute("SELECT pg_backend_pid()", ())
            assert fresh != first
        finally:
            await pool.close()

    asyncio.run(run())


def test_a_notified_next_action_is_applied_without_a_catch_up_task(postgres_server: str) -> None:
    """The usual notice (the table's next action, nothing under way for the
    table) is applied by the listener itself, without a task and a lock."""
    import asyncio

    from pyrummy.server.storage import SeatSpec
    from pyrummy.server.tables import new_table_spec

    url = fresh_postgres_database(postgres_server)

    async def run() -> None:
        members = await two_cluster_members(url)
        (_, manager_a, _), (_, manager_b, cluster_b) = members
        try:
            spec = new_table_spec("knock", {}, [SeatSpec("human"), SeatSpec("human")], 0.0)
            on_a, _ = await manager_a.create(spec)
            on_b = await manager_b.get(spec.table_id)
            async with asyncio.timeout(5):
                while cluster_b._runners:  # the catch-up of B's load
                    await asyncio.sleep(0.01)
            tasks: list[str] = []
            catch_up_table = cluster_b._catch_up_table

            async def counted(table_id: str) -> None:
                tasks.append(table_id)
                await catch_up_table(table_id)

            cluster_b._catch_up_table = counted
            seat = on_a.match.current_seat
            async with on_a.lock:
                await on_a.apply(seat, "draw stock")
            async with asyncio.timeout(5):
                while on_b.seq < 1:
                    await asyncio.sleep(0.01)
            assert tasks == [] and on_b.actions == on_a.actions
        finally:
            await stop_members(members)

    asyncio.run(run())
