"""CPU of building one live event, in process: robust to a loaded machine.

``benchmarks/load.py`` measures the server's CPU per action end to end, but
on a shared 2-core machine its figure moves by 10% and more between runs.
This measures one piece of it the same way every time: a seeded bot-only
table (two easy bots, knock to 1000 points, so deals go on) is played until
the current deal holds ``--history`` moves, then the live event of the last
action is built and encoded for a seat and for a spectator (what
``broadcast`` does at every action), caches emptied each time; and
``Match.observe`` (what every state and every bot decision starts from).
Each figure is the best of ``--repeats`` rounds of ``--loops`` (thread CPU
time), so other processes' load mostly drops out::

    .venv/bin/python benchmarks/server_events.py --history 40

Session 21 (issue 9): building a seat state printed the whole deal's history
again at every event and ``Match.observe`` copied the view through
``dataclasses.replace``; with actions' texts built once and the copy made
directly, the two-seat event went from ~300 to ~200 us and the observation
from ~25 to ~10 us (load average 10).
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import httpx

from pyrummy.server import views
from pyrummy.server.app import Settings, create_app
from pyrummy.server.settings import RateLimits


def best_of(action: Callable[[], object], loops: int, repeats: int) -> float:
    """The least thread CPU per call over ``repeats`` rounds of ``loops`` calls (s)."""
    best = float("inf")
    for _ in range(repeats):
        started = time.thread_time()
        for _ in range(loops):
            action()
        best = min(best, (time.thread_time() - started) / loops)
    return best


async def measure(history: int, loops: int, repeats: int) -> dict[str, float]:
    settings = Settings(
        data_dir=Path(tempfile.mkdtemp(prefix="pyrummy-events-")),
        bot_workers=0,
        rate_limits=RateLimits.off(),
        allow_bot_only=True,
        allow_seed=True,
    )
    app = create_app(settings)
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://bench") as client:
            reply = await client.post(
                "/api/tables",
                json={
                    "seed": 7,
                    "preset": "knock",
                    "humans": 0,
                    "bots": ["easy", "easy"],
                    "bot_delay": 0.0,
                    "options": {"match_end": "target", "target": 1000},
                },
            )
            reply.raise_for_status()
        table = await app.state.tables.get(reply.json()["table"]["id"])
        while len(table.match.deal.history) < history and not table.is_over:
            await asyncio.sleep(0.001)
        if table.bot_task is not None:
            table.bot_task.cancel()
        await asyncio.sleep(0.01)
        last = table.actions[-1]

        def event_for_two_seats() -> None:
            cached = views._views_now(table)
            cached.states.clear()
            cached.encoded.clear()
            cached.live_encoded.clear()
            views.event_with_state_json(table, last, 0)
            views.event_with_state_json(table, last, None)

        event_for_two_seats()  # the finished deals' summaries, built once per table
        return {
            "history": len(table.match.deal.history),
            "event_two_seats_us": 1e6 * best_of(event_for_two_seats, loops, repeats),
            "match_observe_us": 1e6 * best_of(lambda: table.match.observe(0), loops, repeats),
        }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--history", type=int, default=40, help="moves in the current deal")
    parser.add_argument("--loops", type=int, default=200)
    parser.add_argument("--repeats", type=int, default=7)
    args = parser.parse_args(argv)
    figures = asyncio.run(measure(args.history, args.loops, args.repeats))
    print(
        f"deal history {figures['history']:.0f} moves: live event for a seat and a spectator"
        f" {figures['event_two_seats_us']:.1f} us; Match.observe {figures['match_observe_us']:.1f} us"
    )


if __name__ == "__main__":
    main()
