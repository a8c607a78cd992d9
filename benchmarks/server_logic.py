"""The server's own CPU per action, in process: no uvicorn, no sockets.

``benchmarks/load.py`` measures the whole server end to end and
``load.py --against-stub`` its web stack alone (the floor); this measures
the rest, the game's own work per action, and takes it apart. Bot-only
tables (three ``easy`` bots, Knock Rummy to 1000 points so deals go on,
bots at delay 0) are played by the real app (``create_app``, SQLite file
storage, the bots inline as served) with one subscriber per table on seat 0
whose socket takes every message at once (so every action builds and
"sends" that seat's live event, as a person's socket gets it). The CPU of
the process (every thread: the SQLite writer's included) over ``--seconds``,
divided by the actions played, is the figure. Each mode runs in a fresh
process, modes alternate over ``--rounds``, and the median is reported::

    .venv/bin/python benchmarks/server_logic.py --rounds 3 --seconds 8
    .venv/bin/python benchmarks/server_logic.py --breakdown   # the live event's parts

Modes (the last three are diagnoses, not ways to serve):

* ``served``: as ``pyrummy serve`` plays a table;
* ``no-events``: no subscriber (no live event built or sent);
* ``storage-inline``: the SQLite writes run in the event loop's thread (no hop
  to the writer thread; the server must not block its loop so);
* ``no-storage``: appends answered at once, nothing written.

Every action here is a bot's (load.py's tables: two in three), so a bot's
decision is in every figure.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx

MODES = ("served", "no-events", "storage-inline", "no-storage")
#: ``--breakdown``: the event's parts timed in the flow (module, function).
TIMED = (
    ("pyrummy.server.play", "event_with_state_json"),
    ("pyrummy.server.views", "seat_state"),
    ("pyrummy.server.views", "observation_dict"),
    ("pyrummy.server.views", "arrangement_dict"),
    ("pyrummy.server.views", "knock_outcomes"),
    ("pyrummy.server.views", "encode"),
)


class Breakdown:
    """Thread CPU spent in :data:`TIMED` functions and in GC collections, in the
    flow of play (so caches are as cold as served; each timing adds ~2 us)."""

    def __init__(self) -> None:
        self.spent: dict[str, float] = {}
        self.calls: dict[str, int] = {}
        self.counting = False
        self._gc_started = 0.0

    def install(self) -> None:
        import gc
        import importlib

        for module_name, name in TIMED:
            module = importlib.import_module(module_name)
            setattr(module, name, self._timed(name, getattr(module, name)))
        gc.callbacks.append(self._gc)

    def _timed(self, name: str, function: Callable[..., Any]) -> Callable[..., Any]:
        def timed(*args: Any, **kwargs: Any) -> Any:
            started = time.thread_time()
            try:
                return function(*args, **kwargs)
            finally:
                self.add(name, time.thread_time() - started)

        return timed

    def _gc(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self._gc_started = time.thread_time()
        else:
            self.add("(gc collections)", time.thread_time() - self._gc_started)

    def add(self, name: str, seconds: float) -> None:
        if self.counting:
            self.spent[name] = self.spent.get(name, 0.0) + seconds
            self.calls[name] = self.calls.get(name, 0) + 1

    def per_action(self, actions: int) -> dict[str, tuple[float, float]]:
        per = max(1, actions)
        return {n: (1e6 * s / per, self.calls[n] / per) for n, s in self.spent.items()}


def patch_storage(mode: str) -> None:
    """The diagnosis modes' SQLite writer: inline in the loop, or none."""
    from pyrummy.server.storage import sqlite_writer

    def inline(self: Any, work: Callable[[], None]) -> asyncio.Future[None]:
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        try:
            work()
        except BaseException as exc:
            done.set_exception(exc)
        else:
            done.set_result(None)
        return done

    def nothing(self: Any, work: Callable[[], None]) -> asyncio.Future[None]:
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        done.set_result(None)
        return done

    if mode == "storage-inline":
        sqlite_writer.SqliteWriter._submit = inline  # type: ignore[method-assign]
    elif mode == "no-storage":
        sqlite_writer.SqliteWriter._submit = nothing  # type: ignore[method-assign]


async def measure(
    mode: str, tables: int, seconds: float, breakdown: Breakdown | None = None
) -> dict[str, Any]:
    from pyrummy.server.app import Settings, create_app
    from pyrummy.server.settings import RateLimits

    patch_storage(mode)
    settings = Settings(
        data_dir=Path(tempfile.mkdtemp(prefix="pyrummy-logic-")),
        bot_workers=0,
        rate_limits=RateLimits.off(),
        allow_bot_only=True,
        allow_seed=True,
    )
    app = create_app(settings)
    sent = 0

    async def take(message: str) -> None:
        nonlocal sent
        sent += 1

    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://bench") as client:
            ids = []
            for seed in range(tables):
                reply = await client.post(
                    "/api/tables",
                    json={
                        "seed": seed,
                        "preset": "knock",
                        "humans": 0,
                        "bots": ["easy", "easy", "easy"],
                        "bot_delay": 0.0,
                        "options": {"match_end": "target", "target": 1000},
                    },
                )
                reply.raise_for_status()
                ids.append(reply.json()["table"]["id"])
        played = [await app.state.tables.get(table_id) for table_id in ids]
        if mode != "no-events":
            for table in played:
                subscriber = table.subscribe(0)
                # A socket always ready: the connection's task would set
                # send_now again after each message it sent.
                write_now = subscriber.write_now

                def always_ready(message: str, s: Any = subscriber, w: Any = write_now) -> None:
                    w(message)
                    s.send_now = take

                subscriber.send_now = take
                subscriber.write_now = always_ready
        await asyncio.sleep(1.0)  # past the first deal's set-up
        actions_before = sum(table.seq for table in played)
        cpu_before = time.process_time()
        if breakdown is not None:
            breakdown.counting = True
        await asyncio.sleep(seconds)
        cpu = time.process_time() - cpu_before
        if breakdown is not None:
            breakdown.counting = False
        actions = sum(table.seq for table in played) - actions_before
        for table in played:
            if table.bot_task is not None:
                table.bot_task.cancel()
    result: dict[str, Any] = {
        "actions": actions,
        "cpu_s": cpu,
        "ms_per_action": 1000 * cpu / max(1, actions),
    }
    if breakdown is not None:
        result["us_per_action_and_calls"] = breakdown.per_action(actions)
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "--modes", default=",".join(MODES), help="comma-separated, of " + ", ".join(MODES)
    )
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=8.0)
    parser.add_argument("--tables", type=int, default=1)
    parser.add_argument(
        "--breakdown",
        action="store_true",
        help="one `served` run, printing the thread CPU per action of the live event's parts"
        " and of GC collections",
    )
    parser.add_argument("--one", choices=MODES, help=argparse.SUPPRESS)  # a child's run
    args = parser.parse_args(argv)
    if args.one:
        print(json.dumps(asyncio.run(measure(args.one, args.tables, args.seconds))))
        return 0
    if args.breakdown:
        breakdown = Breakdown()
        breakdown.install()
        result = asyncio.run(measure("served", args.tables, args.seconds, breakdown))
        print(f"served: {result['ms_per_action']:.3f} ms per action ({result['actions']} actions)")
        for name, (us, calls) in sorted(
            result["us_per_action_and_calls"].items(), key=lambda item: -item[1][0]
        ):
            print(f"  {name:>22}: {us:6.1f} us per action ({calls:.2f} calls per action)")
        return 0
    modes = [m for m in args.modes.split(",") if m]
    figures: dict[str, list[float]] = {m: [] for m in modes}
    for _ in range(args.rounds):
        for mode in modes:
            command = [sys.executable, __file__, "--one", mode, "--seconds", str(args.seconds)]
            command += ["--tables", str(args.tables)]
            out = subprocess.run(command, check=True, capture_output=True, text=True).stdout
            result = json.loads(out.strip().splitlines()[-1])
            figures[mode].append(result["ms_per_action"])
            print(
                f"  {mode:>15}: {result['ms_per_action']:.3f} ms per action "
                f"({result['actions']} actions)",
                flush=True,
            )
    for mode, values in figures.items():
        print(
            f"{mode:>15}: median {statistics.median(values):.3f} ms per action "
            f"(runs {', '.join(f'{v:.3f}' for v in values)})"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
