"""How the server's event loop keeps up: wake-up lag and garbage-collector pauses.

Every table shares one event loop, so anything that holds it (a long
collection of the cyclic garbage collector, a slow callback) delays every
person's round trip at once. Two measurements say which:

* :class:`LagProbe` — a task that sleeps a fixed interval and records how late
  it wakes. A late wake-up is time the loop spent on something else.
* :class:`GcPauses` — the collector's own start/stop callbacks
  (:data:`gc.callbacks`): per generation, how many collections, their total
  and longest pause, and the CPU time they took.

:func:`tune_gc` is the remedy ``pyrummy serve`` applies after start-up (see
``Settings.tune_gc``): what was imported and loaded leaves the collector's view
(:func:`gc.freeze`) and the youngest generation is collected less often, so
full collections are rarer and walk fewer objects.

Both are shown at ``GET /api/health/loop`` (:mod:`pyrummy.server.api.health`) and summed up
under ``"loop"`` in ``GET /api/health``.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import math
import os
import time
from collections import deque
from dataclasses import dataclass, field
from typing import Any

from pyrummy.server.settings import (
    GC_REFREEZE_ENV,
    GC_THRESHOLDS_ENV,
    TUNED_THRESHOLDS,
    parse_gc_thresholds,
    parse_refreeze,
)

#: The probe's sleep: short enough to see a stall of a few tens of
#: milliseconds, long enough to cost nothing (20 wake-ups a second).
PROBE_INTERVAL = 0.05
#: Wake-ups kept: five minutes at the default interval (two deques of floats,
#: about 400 KB), so a benchmark can ask for the lag over its own window.
PROBE_KEPT = 6000
#: Collections kept per generation for the windowed maximum.
GC_KEPT = 2000
#: The window of the figures when none is asked for (seconds).
DEFAULT_WINDOW = 60.0
# The thresholds :func:`tune_gc` sets unless ``PYRUMMY_GC_THRESHOLDS`` says
# (declared with the other settings): a web server allocates many short-lived
# objects per request; at the default 700 the youngest generation is collected
# several times per action and each tenth of those promotes survivors toward a
# full collection.


def _percentile(ordered: list[float], pct: float) -> float:
    """Nearest-rank percentile of an already sorted list (0.0 when empty)."""
    if not ordered:
        return 0.0
    rank = max(1, math.ceil(pct / 100 * len(ordered)))
    return ordered[rank - 1]


def _ms(seconds: float) -> float:
    return round(seconds * 1000, 2)


def _since(times: deque[float], values: deque[float], start: float) -> list[float]:
    """The values recorded at or after ``start`` (times ascend)."""
    found: list[float] = []
    for at, value in zip(reversed(times), reversed(values), strict=True):
        if at < start:
            break
        found.append(value)
    return found


class LagProbe:
    """Sleeps ``interval`` seconds again and again; records how late each wake-up is."""

    def __init__(self, interval: float = PROBE_INTERVAL, kept: int = PROBE_KEPT) -> None:
        self.interval = interval
        # Two deques of floats, not one of tuples: a tuple is one more object
        # for the garbage collector to track, times the thousands kept.
        self.times: deque[float] = deque(maxlen=kept)
        self.lags: deque[float] = deque(maxlen=kept)
        self.wakeups = 0
        self.worst = 0.0
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._run(), name="loop-lag-probe")

    async def stop(self) -> None:
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    async def _run(self) -> None:
        clock = asyncio.get_running_loop().time
        while True:
            before = clock()
            await asyncio.sleep(self.interval)
            self.record(clock() - before - self.interval)

    def record(self, lag: float, at: float | None = None) -> None:
        lag = max(0.0, lag)
        self.times.append(time.monotonic() if at is None else at)
        self.lags.append(lag)
        self.wakeups += 1
        self.worst = max(self.worst, lag)

    def snapshot(self, window: float = DEFAULT_WINDOW) -> dict[str, Any]:
        ordered = sorted(_since(self.times, self.lags, time.monotonic() - window))
        return {
            "interval_ms": _ms(self.interval),
            "window_s": window,
            "wakeups": self.wakeups,
            "in_window": len(ordered),
            "p50_ms": _ms(_percentile(ordered, 50)),
            "p99_ms": _ms(_percentile(ordered, 99)),
            "max_ms": _ms(ordered[-1] if ordered else 0.0),
            "max_ever_ms": _ms(self.worst),
        }


@dataclass
class GenerationPauses:
    """The collections of one generation: how many, their pauses (seconds), the recent ones."""

    count: int = 0
    total: float = 0.0
    longest: float = 0.0
    #: The collector's own CPU time: on a busy machine a pause also holds
    #: the time other processes had the core, which this leaves out.
    cpu: float = 0.0
    collected: int = 0
    times: deque[float] = field(default_factory=lambda: deque(maxlen=GC_KEPT))
    pauses: deque[float] = field(default_factory=lambda: deque(maxlen=GC_KEPT))

    def add(self, pause: float, cpu: float, collected: int) -> None:
        self.count += 1
        self.total += pause
        self.cpu += cpu
        self.longest = max(self.longest, pause)
        self.collected += collected
        self.times.append(time.monotonic())
        self.pauses.append(pause)

    def as_json(self, window: float) -> dict[str, Any]:
        recent = _since(self.times, self.pauses, time.monotonic() - window)
        return {
            "count": self.count,
            "total_ms": _ms(self.total),
            "cpu_ms": _ms(self.cpu),
            "max_ever_ms": _ms(self.longest),
            "collected": self.collected,
            # Only the last GC_KEPT collections are kept: a busy youngest
            # generation may have had more in the window.
            "in_window": len(recent),
            "max_ms": _ms(max(recent, default=0.0)),
        }


class GcHook:
    """Something called by the garbage collector at each collection's start and stop.

    The callbacks are process-wide: :meth:`install` and :meth:`uninstall`
    pair up (an app's lifespan), so tests that start many apps leave none behind.
    """

    def install(self) -> None:
        if self._callback not in gc.callbacks:
            gc.callbacks.append(self._callback)

    def uninstall(self) -> None:
        with contextlib.suppress(ValueError):
            gc.callbacks.remove(self._callback)

    def _callback(self, phase: str, info: dict[str, int]) -> None:
        raise NotImplementedError


class GcPauses(GcHook):
    """Times every collection of the cyclic garbage collector, per generation."""

    def __init__(self) -> None:
        self.generations = [GenerationPauses() for _ in range(3)]
        self._started: float | None = None
        self._started_cpu = 0.0

    def _callback(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._started = time.perf_counter()
            self._started_cpu = time.thread_time()
            return
        if self._started is None:  # installed mid-collection
            return
        pause = time.perf_counter() - self._started
        cpu = time.thread_time() - self._started_cpu
        self._started = None
        generation = min(max(info.get("generation", 0), 0), 2)
        self.generations[generation].add(pause, cpu, info.get("collected", 0))

    def snapshot(self, window: float = DEFAULT_WINDOW) -> dict[str, Any]:
        return {
            "window_s": window,
            "generations": [g.as_json(window) for g in self.generations],
            "frozen": gc.get_freeze_count(),
            "thresholds": list(gc.get_threshold()),
        }


class LoopStats:
    """The lag probe and the GC timer of one app, started and stopped together."""

    def __init__(self, interval: float = PROBE_INTERVAL) -> None:
        self.lag = LagProbe(interval)
        self.gc = GcPauses()

    def start(self) -> None:
        self.gc.install()
        self.lag.start()

    async def stop(self) -> None:
        await self.lag.stop()
        self.gc.uninstall()

    def snapshot(self, window: float = DEFAULT_WINDOW) -> dict[str, Any]:
        # The process id: with several workers two snapshots may come from
        # different processes, whose counters cannot be subtracted.
        return {
            "pid": os.getpid(),
            "lag": self.lag.snapshot(window),
            "gc": self.gc.snapshot(window),
        }

    def summary(self) -> dict[str, Any]:
        """A few figures for ``/api/health``: the last minute's lag and longest GC pause."""
        lag = self.lag.snapshot()
        pauses = self.gc.snapshot()["generations"]
        return {
            "lag_p99_ms": lag["p99_ms"],
            "lag_max_ms": lag["max_ms"],
            "gc_max_ms": max(g["max_ms"] for g in pauses),
        }


def gc_thresholds_from_env(environ: dict[str, str] | None = None) -> tuple[int, int, int]:
    """The thresholds for :func:`tune_gc`: ``PYRUMMY_GC_THRESHOLDS=a,b,c`` or the tuned ones.

    Raises ValueError with the reason when the variable is not three whole
    numbers (the first at least 1: 0 would turn the collector off).
    """
    text = (os.environ if environ is None else environ).get(GC_THRESHOLDS_ENV)
    return TUNED_THRESHOLDS if text is None else parse_gc_thresholds(text)


def tune_gc(thresholds: tuple[int, int, int]) -> None:
    """Collect once, freeze what survives, then collect less often.

    Called once the server has started (modules imported, tables resumed):
    those objects live as long as the process, and frozen they are no longer
    walked by every full collection.
    """
    gc.collect()
    gc.freeze()
    gc.set_threshold(*thresholds)


#: Seconds between two thaws of :class:`Refreezer` unless ``PYRUMMY_GC_REFREEZE``
#: says; 0, the default: no refreezing at all. Off by default because what
#: dies in a reference cycle after it was frozen (a closed connection's
#: transport and protocol objects) stays until the next thaw: a 10-minute soak
#: at 200 tables grew 8.8 MiB over its last 7 minutes with it (2.1 without).
REFREEZE_THAW_EVERY = 0.0


def refreeze_from_env(environ: dict[str, str] | None = None) -> float:
    """Seconds between thaws for :class:`Refreezer` (``PYRUMMY_GC_REFREEZE``; 0: off).

    Raises ValueError with the reason when the variable is not a number of
    seconds from 0 to 86400.
    """
    text = (os.environ if environ is None else environ).get(GC_REFREEZE_ENV)
    return REFREEZE_THAW_EVERY if text is None else parse_refreeze(text)


class Refreezer(GcHook):
    """After each collection, freeze what is left.

    What survives a collection is mostly the live tables' state; frozen,
    later collections no longer walk it: a middle-generation collection walks
    only the young objects, like a young one (it walked up to five young
    generations' survivors: 112 ms seen), and the full collections (every
    table: 174 ms seen) have nearly nothing to walk. The cost: garbage cycles among frozen
    objects are not freed. So every ``thaw_every`` seconds everything is thawed,
    collected once (one long pause, rare) and frozen again (:func:`tune_gc`).
    Opt-in (``PYRUMMY_GC_REFREEZE``): see :data:`REFREEZE_THAW_EVERY` for why.
    """

    def __init__(self, thaw_every: float = REFREEZE_THAW_EVERY) -> None:
        self.thaw_every = thaw_every
        self.freezes = 0
        self.thaws = 0
        self._loop: asyncio.AbstractEventLoop | None = None
        self._scheduled = False
        self._thawed_at = time.monotonic()

    def install(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._thawed_at = time.monotonic()
        super().install()

    def _callback(self, phase: str, info: dict[str, int]) -> None:
        # Any thread may collect (the SQLite writer, the bots' threads): the
        # freezing itself is done by the event loop, outside the collection.
        if phase != "stop" or self._scheduled:
            return
        loop = self._loop
        if loop is None or loop.is_closed():
            return
        self._scheduled = True
        with contextlib.suppress(RuntimeError):  # the loop is closing
            loop.call_soon_threadsafe(self.refreeze)

    def refreeze(self, now: float | None = None) -> None:
        """Freeze what is tracked now; thaw, collect and freeze everything when due."""
        self._scheduled = False
        now = time.monotonic() if now is None else now
        if now - self._thawed_at >= self.thaw_every:
            self._thawed_at = now
            self.thaws += 1
            gc.unfreeze()
            gc.collect()
        gc.freeze()
        self.freezes += 1
