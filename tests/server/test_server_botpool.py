"""Bots decide in worker processes, within a time limit (issue 9, item 2)."""

from __future__ import annotations

import asyncio
import multiprocessing.connection
import os
import time
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from pyrummy.bots import make_bot
from pyrummy.core.actions import Action
from pyrummy.core.match import new_match
from pyrummy.core.observation import Observation
from pyrummy.core.rules import find_rules
from pyrummy.server import Settings, create_app
from pyrummy.server.botpool import INLINE_BUDGET, INLINE_STRIKE_RATE, INLINE_STRIKES, BotPool
from pyrummy.server.settings import RateLimits
from pyrummy.server.storage import SeatSpec
from server_helpers import create, wait_for


class WhereBot:
    """Plays the first legal action and remembers which process decided."""

    def __init__(self) -> None:
        self.decided_in: list[int] = []

    def choose(self, observation: Observation, legal: list[Action]) -> Action:
        self.decided_in.append(os.getpid())
        return legal[0]


class SlowBot:
    def choose(self, observation: Observation, legal: list[Action]) -> Action:
        time.sleep(2)
        return legal[0]


def a_decision() -> tuple[Observation, list[Action]]:
    match = new_match(find_rules("knock"), players=3, seed=11)
    return match.observe(match.current_seat or 0), match.legal_actions()


def test_a_decision_runs_in_a_worker_and_the_bot_keeps_its_state() -> None:
    observation, legal = a_decision()

    async def twice() -> WhereBot:
        pool = BotPool(workers=1)
        await pool.warm_up()
        try:
            bot: Any = WhereBot()
            for _ in range(2):
                action, bot = await pool.choose(bot, "medium", observation, legal)
                assert action == legal[0]
            return bot  # type: ignore[no-any-return]
        finally:
            pool.shutdown()

    bot = asyncio.run(twice())
    assert len(bot.decided_in) == 2 and os.getpid() not in bot.decided_in


def test_a_bot_in_a_worker_decides_as_it_would_in_the_server() -> None:
    """The random generator travels with the bot: same seed, same decisions."""
    match = new_match(find_rules("knock"), players=2, seed=5)
    here, there = make_bot("medium", 3), make_bot("medium", 3)

    async def play() -> None:
        nonlocal there
        pool = BotPool(workers=1)
        await pool.warm_up()
        try:
            for _ in range(12):
                seat = match.current_seat
                if seat is None:  # the deal is over
                    break
                observation, legal = match.observe(seat), match.legal_actions()
                expected = here.choose(observation, legal)
                action, there = await pool.choose(there, "medium", observation, legal)
                assert action == expected
                match.apply(action)
        finally:
            pool.shutdown()

    asyncio.run(play())


def test_a_decision_over_the_limit_is_abandoned() -> None:
    observation, legal = a_decision()

    async def slow() -> None:
        pool = BotPool(workers=0, think_limit=0.1)
        with pytest.raises(TimeoutError):
            await pool.choose(SlowBot(), "hard", observation, legal)

    asyncio.run(slow())


def test_a_table_plays_on_past_a_bot_that_thinks_too_long(tmp_path: Path) -> None:
    settings = Settings(
        data_dir=tmp_path,
        bot_delay=0,
        bot_think_limit=0.1,
        allow_bot_only=True,
        rate_limits=RateLimits.off(),
    )
    with TestClient(create_app(settings, bot_factory=lambda name, seed: SlowBot())) as client:
        created = create(client, preset="knock", bots=["hard", "hard"], humans=0, bot_delay=0)
        table_id = created["table"]["id"]
        wait_for(lambda: client.get(f"/api/tables/{table_id}/state").json()["seq"] >= 3)


def test_real_bots_play_a_match_through_the_worker_processes(tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path, bot_delay=0, bot_workers=1, allow_bot_only=True)
    with TestClient(create_app(settings)) as client:
        created = create(
            client,
            preset="knock",
            bots=["easy", "medium"],
            humans=0,
            bot_delay=0,
            options={"match_end": "deals", "deals": 1},
        )
        table_id = created["table"]["id"]
        wait_for(lambda: client.get(f"/api/tables/{table_id}").json()["status"] == "over", 60)


def test_the_simple_bot_moves_for_a_bot_that_thinks_too_long(tmp_path: Path) -> None:
    """Every move of a table whose bots always think too long is the simple
    bot's (seeded by the table and the move): the late decisions are never used."""
    from db_fixtures import load_stored, stored_url
    from pyrummy.server.botpool import fallback_move
    from pyrummy.server.tables import build_match

    settings = Settings(
        data_dir=tmp_path,
        bot_delay=0,
        bot_think_limit=0.1,
        allow_bot_only=True,
        rate_limits=RateLimits.off(),
    )
    with TestClient(create_app(settings, bot_factory=lambda name, seed: SlowBot())) as client:
        created = create(client, preset="knock", bots=["hard", "hard"], humans=0, bot_delay=0)
        table_id = created["table"]["id"]
        wait_for(lambda: client.get(f"/api/tables/{table_id}/state").json()["seq"] >= 3)
    stored = load_stored(stored_url(tmp_path), table_id)
    match = build_match(stored.spec)
    for before, action in enumerate(stored.actions):
        seat = match.current_seat
        assert seat == action.seat
        expected = fallback_move(
            match.observe(seat), match.legal_actions(), stored.spec.seed, before
        )
        assert str(expected) == action.text
        match.apply(action.text)


class SleepyBot:
    """Thinks far past any limit (in a worker process)."""

    def choose(self, observation: Observation, legal: list[Action]) -> Action:
        time.sleep(60)
        return legal[0]


def test_a_worker_past_the_limit_is_stopped_and_replaced() -> None:
    observation, legal = a_decision()

    async def run() -> None:
        pool = BotPool(workers=1, think_limit=0.5)
        try:
            await pool.warm_up()
            stuck = list(pool._pool()._processes.values())
            with pytest.raises(TimeoutError):
                await pool.choose(SleepyBot(), "hard", observation, legal)
            # Exited: its sentinel is ready. Not ``join()`` and ``is_alive()``: the
            # pool's own thread reaps the process too, and a ``waitpid`` that
            # loses that race reads as "alive" for a moment.
            for process in stuck:
                assert multiprocessing.connection.wait([process.sentinel], 15)
            # New workers are starting already; the next decision is not
            # queued behind the stuck one.
            assert pool._warming is not None
            await pool._warming
            action, _ = await pool.choose(make_bot("simple", 1), "medium", observation, legal)
            assert action in legal
        finally:
            pool.shutdown()

    asyncio.run(run())


class BusyBot(WhereBot):
    """Decides in the process it is in, after ``cpu`` seconds of CPU."""

    def __init__(self, cpu: float) -> None:
        super().__init__()
        self.cpu = cpu

    def choose(self, observation: Observation, legal: list[Action]) -> Action:
        started = time.thread_time()
        while time.thread_time() - started < self.cpu:
            pass
        return super().choose(observation, legal)


def test_cheap_bots_decide_inline_and_the_others_in_a_worker() -> None:
    observation, legal = a_decision()

    async def run() -> tuple[list[int], list[int], list[int]]:
        pool = BotPool(workers=1)
        await pool.warm_up()
        try:
            easy: Any = WhereBot()
            for _ in range(2):
                _, easy = await pool.choose(easy, "easy", observation, legal, "easy:knock:3")
            # No key (a game with jokers): the worker, whatever the bot.
            jokers: Any = WhereBot()
            _, jokers = await pool.choose(jokers, "easy", observation, legal, None)
            medium: Any = WhereBot()
            _, medium = await pool.choose(medium, "medium", observation, legal, "medium:knock:3")
            return easy.decided_in, jokers.decided_in, medium.decided_in
        finally:
            pool.shutdown()

    easy, jokers, medium = asyncio.run(run())
    assert easy == [os.getpid(), os.getpid()]
    assert len(jokers) == 1 and jokers[0] != os.getpid()
    assert len(medium) == 1 and medium[0] != os.getpid()


def test_a_cheap_bot_over_the_inline_budget_goes_to_the_workers_from_then_on() -> None:
    observation, legal = a_decision()

    async def run() -> list[int]:
        pool = BotPool(workers=1)
        await pool.warm_up()
        try:
            bot: Any = BusyBot(cpu=2 * INLINE_BUDGET)
            # One slow decision (a garbage collection inside it) is not enough.
            for _ in range(INLINE_STRIKES - 1):
                _, bot = await pool.choose(bot, "easy", observation, legal, "easy:rummy:4")
            assert not pool.too_slow_inline
            _, bot = await pool.choose(bot, "easy", observation, legal, "easy:rummy:4")
            assert pool.too_slow_inline == {"easy:rummy:4"}
            _, bot = await pool.choose(bot, "easy", observation, legal, "easy:rummy:4")
            # Another kind of game still decides inline.
            _, bot = await pool.choose(bot, "easy", observation, legal, "easy:knock:3")
            return bot.decided_in  # type: ignore[no-any-return]
        finally:
            pool.shutdown()

    decided_in = asyncio.run(run())
    here = os.getpid()
    assert decided_in[:INLINE_STRIKES] == [here] * INLINE_STRIKES
    assert decided_in[INLINE_STRIKES] != here and decided_in[-1] == here


def test_rare_slow_inline_decisions_keep_a_cheap_bot_inline() -> None:
    observation, legal = a_decision()

    async def run() -> set[str]:
        pool = BotPool(workers=0)
        slow, fast = BusyBot(cpu=2 * INLINE_BUDGET), WhereBot()
        # One slow decision in every 2 * INLINE_STRIKE_RATE: half the rate that demotes.
        for n in range(2 * INLINE_STRIKES * INLINE_STRIKE_RATE + 1):
            bot = slow if n % (2 * INLINE_STRIKE_RATE) == 0 else fast
            await pool.choose(bot, "easy", observation, legal, "easy:knock:3")
        return pool.too_slow_inline

    assert asyncio.run(run()) == set()


def test_a_table_with_jokers_sends_even_cheap_bots_to_the_workers() -> None:
    from pyrummy.server.storage import Store, StoredTable
    from pyrummy.server.tables import LiveTable, new_table_spec

    async def keys() -> tuple[str | None, str | None]:
        store = await Store.open("sqlite://")
        try:
            found: list[str | None] = []
            for preset in ("knock", "rotham"):
                spec = new_table_spec(
                    preset, {}, [SeatSpec("human"), SeatSpec("bot", "easy")], 0.5, seed=3
                )
                table = LiveTable(StoredTable(spec, [None, None], "live", None, None, []), store)
                found.append(table._inline_key("easy"))
            return found[0], found[1]
        finally:
            await store.close()

    assert asyncio.run(keys()) == ("easy:knock:2", None)


@pytest.mark.backends("sqlite")  # no database involved: once is enough
def test_shutdown_leaves_no_semaphore_behind() -> None:
    """uvicorn ends a process stopped by SIGTERM by raising the signal again, so
    no exit handler runs: the pool's queues must be closed (their named
    semaphores unlinked) by the time shutdown returns, or multiprocessing's
    resource tracker reports "leaked semaphore objects" at every other stop."""
    import importlib

    # No stub for the C module; its sem_unlink is what SemLock's own cleanup calls.
    native: Any = importlib.import_module("_multiprocessing")

    async def start() -> list[str]:
        pool = BotPool(workers=1)
        await pool.warm_up()
        executor: Any = pool._executor
        queues = (executor._call_queue, executor._result_queue)
        names = [
            lock._semlock.name
            for queue in queues
            for lock in (queue._rlock, getattr(queue, "_wlock", None), getattr(queue, "_sem", None))
            if lock is not None
        ]
        del executor, queues
        pool.shutdown()
        return names

    names = asyncio.run(start())
    assert len(names) >= 3
    for name in names:  # unlinking again fails: shutdown did it
        with pytest.raises(FileNotFoundError):
            native.sem_unlink(name)
