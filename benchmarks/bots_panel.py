"""A bot against the panel of fixed policies, on duplicate deals, with 95% intervals.

The panel (:mod:`pyrummy.bots.policies`): always-knock, knock at or below
5 ... 60, never-knock, least-deadwood, take-if-improves. Each row plays
``--deals`` duplicate pairs (the same deck twice, seats swapped; at 4
players the bot holds seats 0 and 2, then 1 and 3), and shows the bot's
mean margin per pair with its 95% normal interval. Deals are split over
``--workers`` processes; results do not depend on the worker count except
for a time-budgeted hard bot (use ``--hard-rollouts``/``--hard-samples`` to
fix its work).

    .venv/bin/python benchmarks/bots_panel.py --bot hard --deals 400 --players 2
    .venv/bin/python benchmarks/bots_panel.py --bot medium --opponents always-knock knock-10
"""

from __future__ import annotations

import argparse
import ast
import json
import math
import statistics
import sys
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor

from bots import play_duplicate
from pyrummy.bots.hard_context import DEFAULT_TIME_BUDGET
from pyrummy.bots.policies import PANEL


def _chunk(
    args: tuple[str, str, str, int, int, int, dict[str, dict[str, object]], int],
) -> list[float]:
    bot, opponent, preset, start, count, seed, options, players = args
    nets: list[float] = []
    for number in range(start, start + count):
        # One deal per call keeps a pair's seed independent of the chunking.
        result = play_duplicate(bot, opponent, preset, 1, seed * 1_000 + number, options, players)
        nets.extend(result.nets)
    return nets


def measure(
    bot: str,
    opponent: str,
    preset: str,
    deals: int,
    seed: int,
    options: dict[str, dict[str, object]],
    players: int,
    workers: int,
) -> list[float]:
    """``bot``'s margin per duplicate pair against ``opponent``, pair by pair."""
    size = max(1, math.ceil(deals / max(1, workers * 4)))
    tasks = [
        (bot, opponent, preset, start, min(size, deals - start), seed, options, players)
        for start in range(0, deals, size)
    ]
    if workers > 1:
        with ProcessPoolExecutor(workers) as pool:
            chunks = list(pool.map(_chunk, tasks))
    else:
        chunks = [_chunk(task) for task in tasks]
    return [net for chunk in chunks for net in chunk]


def interval(nets: Sequence[float]) -> tuple[float, float, float]:
    mean = statistics.fmean(nets)
    half = 1.96 * statistics.stdev(nets) / math.sqrt(len(nets)) if len(nets) > 1 else 0.0
    return mean, mean - half, mean + half


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bot", default="hard")
    parser.add_argument("--opponents", nargs="+", default=[*PANEL, "medium"])
    parser.add_argument("--preset", default="knock")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--deals", type=int, default=200, help="duplicate pairs per opponent")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--hard-budget", type=float, default=DEFAULT_TIME_BUDGET)
    parser.add_argument("--hard-rollouts", type=int, default=0)
    parser.add_argument(
        "--hard-option",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a HardConfig field for hard, e.g. equity_selection=0 (repeatable)",
    )
    parser.add_argument(
        "--json",
        help="also write each opponent's margins pair by pair to this file (pairs line up "
        "across bots run with the same seed, players and deals: compare two bots pair by pair)",
    )
    args = parser.parse_args(argv)
    hard: dict[str, object] = {"time_budget": args.hard_budget}
    if args.hard_rollouts:
        hard = {"rollouts": args.hard_rollouts}
    for option in args.hard_option:
        name, _, value = option.partition("=")
        hard[name] = ast.literal_eval(value)
    options = {"hard": hard}
    print(
        f"{args.bot} v panel: preset {args.preset}, {args.players} players, {args.deals} "
        f"duplicate pairs each, seed {args.seed}, hard {hard}"
    )
    print(f"{'opponent':<18} {'mean/pair':>9} {'95% interval':>18} {'won':>5} {'lost':>5} {'s':>6}")
    margins: dict[str, list[float]] = {}
    for opponent in args.opponents:
        started = time.perf_counter()
        nets = measure(
            args.bot,
            opponent,
            args.preset,
            args.deals,
            args.seed,
            options,
            args.players,
            args.workers,
        )
        margins[opponent] = nets
        mean, low, high = interval(nets)
        won = sum(1 for n in nets if n > 0)
        lost = sum(1 for n in nets if n < 0)
        print(
            f"{opponent:<18} {mean:>+9.2f} {f'[{low:+.2f}, {high:+.2f}]':>18} {won:>5} "
            f"{lost:>5} {time.perf_counter() - started:>6.0f}",
            flush=True,
        )
    if args.json:
        with open(args.json, "w", encoding="utf-8") as out:
            json.dump({"bot": args.bot, "hard": hard, "margins": margins}, out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
