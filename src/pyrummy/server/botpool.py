"""Bots think in worker processes, within a time limit per decision.

A knock-rummy decision of the hard bot costs a few hundred milliseconds of
CPU, the easy bot's up to tens: on the event loop (or in a thread, under the
GIL) that would stall every other table. Here each decision is sent with the
bot's state to a worker process and the bot comes back with its state
advanced (its random generator included), so a table plays exactly as if the
bot lived in the server.

A decision that takes longer than ``think_limit`` seconds is abandoned: its
worker processes are stopped and replaced (the late result is never used),
the table plays the simple bot's move instead (logged) and goes on; a worker
that dies is replaced.

The cheap bots (random, easy, simple) decide on the event loop instead: a
decision of theirs costs ~0.05 ms of CPU, while sending it to a worker costs
~0.3 ms of pickling alone, plus the pipe and the worker's wake-up, for every
move. Only where they are known to be cheap: not with jokers (a rotham hand
with jokers once took the easy bot 155 ms), and a kind of game whose inline
decisions often take over :data:`INLINE_BUDGET` goes to the workers from then
on. Not after one slow decision: on a loaded server a garbage collection
that falls inside a decision made an easy bot's 0.05 ms take 15 ms.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import gc
import logging
import multiprocessing
import random
import time
from collections.abc import Sequence
from typing import Any

from pyrummy.bots.registry import DIFFICULTIES
from pyrummy.core.actions import Action
from pyrummy.core.observation import Observation
from pyrummy.core.seeds import bot_seed
from pyrummy.server.settings import DEFAULT_THINK_LIMIT

log = logging.getLogger("pyrummy.server")

#: Bots cheap enough to decide on the event loop (~0.05 ms per decision, well
#: under 1 ms at worst, on games without jokers: benchmarks/README.md, load),
#: by their names in the registry; a difficulty name (``easy``) means its bot.
INLINE_BOTS = frozenset({"random", "simple"})
#: CPU seconds an inline decision may take; a kind of game (``inline_key``)
#: whose decisions took longer :data:`INLINE_STRIKES` times, and more than one
#: time in :data:`INLINE_STRIKE_RATE`, is sent to the workers instead.
INLINE_BUDGET = 0.005
INLINE_STRIKES = 3
INLINE_STRIKE_RATE = 100


def choose_in_worker(
    bot: Any, observation: Observation, legal: Sequence[Action]
) -> tuple[Any, Any]:
    """Runs in a worker: the decision, and the bot as it is after making it."""
    return bot.choose(observation, legal), bot


def _ready(workers: int) -> int:
    """Runs in a worker: imports the bots; waits a moment so that every worker gets one."""
    import time

    import pyrummy.bots  # noqa: F401

    time.sleep(0.05 if workers > 1 else 0)
    return workers


class BotPool:
    """Where bot decisions run: ``workers`` processes (0: a thread of this process)."""

    def __init__(self, workers: int = 0, think_limit: float = DEFAULT_THINK_LIMIT) -> None:
        self.workers = workers
        self.think_limit = think_limit
        self._executor: concurrent.futures.ProcessPoolExecutor | None = None
        self._warming: asyncio.Task[None] | None = None
        #: Kinds of game (``inline_key``) whose inline decisions proved too slow.
        self.too_slow_inline: set[str] = set()
        #: Per kind of game: inline decisions made, and how many were over budget.
        self._inline_counts: dict[str, list[int]] = {}

    def _pool(self) -> concurrent.futures.ProcessPoolExecutor:
        if self._executor is None:
            # spawn, not fork: the server has threads (database drivers) that a
            # forked child would inherit mid-operation.
            self._executor = concurrent.futures.ProcessPoolExecutor(
                max_workers=self.workers, mp_context=multiprocessing.get_context("spawn")
            )
        return self._executor

    async def warm_up(self) -> None:
        """Start the workers now (a spawned worker takes a second or more to
        import the bots), so that no first decision spends its time limit on it."""
        if self.workers <= 0:
            return
        loop = asyncio.get_running_loop()
        pool = self._pool()
        await asyncio.gather(
            *(loop.run_in_executor(pool, _ready, self.workers) for _ in range(self.workers))
        )

    def decides_inline(self, kind: str | None, inline_key: str | None) -> bool:
        """Whether a ``kind`` bot decides on the event loop in this kind of game
        (``inline_key``; None: a game where no bot may, e.g. with jokers)."""
        return (
            kind is not None
            and DIFFICULTIES.get(kind, kind) in INLINE_BOTS
            and inline_key is not None
            and (inline_key not in self.too_slow_inline)
        )

    async def choose(
        self,
        bot: Any,
        kind: str | None,
        observation: Observation,
        legal: Sequence[Action],
        inline_key: str | None = None,
    ) -> tuple[Any, Any]:
        """``(action, bot)``: the decision and the bot to keep for the next one.

        ``inline_key`` names the kind of game (bot, variant, players) where a
        cheap bot may decide inline (see the module's docstring); None: it may not.
        Raises ``TimeoutError`` past :attr:`think_limit`, or what the bot raised.
        """
        if self.decides_inline(kind, inline_key):
            started = time.thread_time()
            action = bot.choose(observation, legal)
            spent = time.thread_time() - started
            if inline_key is not None:
                self._count_inline(inline_key, kind, spent)
            return action, bot
        if self.workers <= 0:
            action = await asyncio.wait_for(
                asyncio.to_thread(bot.choose, observation, legal), self.think_limit
            )
            return action, bot
        loop = asyncio.get_running_loop()
        pool = self._pool()
        try:
            future = loop.run_in_executor(pool, choose_in_worker, bot, observation, list(legal))
            return await asyncio.wait_for(future, self.think_limit)
        except TimeoutError:
            # The worker would go on thinking, and every other table's bots
            # would queue behind it: its processes are stopped (decisions of
            # other tables under way there fall back too) and new ones start.
            log.error("a bot decision took over %.1f s: bot workers restarted", self.think_limit)
            self._kill(pool)
            raise
        except concurrent.futures.BrokenExecutor:
            log.error("bot worker died: starting new workers")
            self._kill(pool)
            raise

    def _count_inline(self, inline_key: str, kind: str | None, spent: float) -> None:
        counts = self._inline_counts.setdefault(inline_key, [0, 0])
        counts[0] += 1
        if spent <= INLINE_BUDGET:
            return
        counts[1] += 1
        decisions, over = counts
        if over >= INLINE_STRIKES and over * INLINE_STRIKE_RATE > decisions:
            log.warning(
                "%s bots took over %.0f ms on the event loop %d times in %d decisions (%s):"
                " their decisions there go to the workers from now on",
                kind,
                1000 * INLINE_BUDGET,
                over,
                decisions,
                inline_key,
            )
            self.too_slow_inline.add(inline_key)

    @staticmethod
    def _stop(pool: concurrent.futures.ProcessPoolExecutor) -> None:
        processes = list((getattr(pool, "_processes", None) or {}).values())
        pool.shutdown(wait=False, cancel_futures=True)
        for process in processes:
            with contextlib.suppress(Exception):
                process.kill()

    def _kill(self, pool: concurrent.futures.ProcessPoolExecutor) -> None:
        if self._executor is pool:
            self._executor = None
        self._stop(pool)
        # New workers start now, not at the next decision (a spawned worker
        # takes a second or more to import the bots).
        self._warming = asyncio.get_running_loop().create_task(self._rewarm())

    async def _rewarm(self) -> None:
        try:
            await self.warm_up()
        except Exception as exc:  # the server may be stopping: the next decision retries
            log.warning("bot workers did not start again: %s", exc)

    def shutdown(self) -> None:
        """Stop the workers now: a decision under way is not waited for, and
        no worker outlives the server (a stopped server left them behind).

        The pool's queues are closed before this returns: uvicorn ends a
        process stopped by SIGTERM by raising the signal again, so no exit
        handler runs, and queues still open then were reported by
        multiprocessing's resource tracker as "leaked semaphore objects"
        (about one stop in four)."""
        executor, self._executor = self._executor, None
        if executor is None:
            return
        manager = getattr(executor, "_executor_manager_thread", None)
        self._stop(executor)
        if manager is not None:
            # The workers are dead: the manager thread closes the queues at once.
            manager.join(timeout=5)
        del executor, manager
        gc.collect()  # the queues' semaphores are unlinked when they are collected


def fallback_move(
    observation: Observation, legal: list[Action], match_seed: int, seq: int
) -> Action:
    """The move played for a bot whose decision took too long: the simple
    bot's (seeded by the table and the move, so a table replays the same)."""
    from pyrummy.bots import make_bot

    try:
        action: Action = make_bot("simple", bot_seed(match_seed, seq)).choose(observation, legal)
    except Exception:  # the last resort must not fail: any legal action
        log.exception("the simple bot failed too: a random legal action")
        return random.choice(legal)
    return action
