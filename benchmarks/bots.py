"""Bot benchmarks: decision latency per bot and preset, and a duplicate ladder.

Latency: the bot under test sits at seat 0 against simple bots; every call
of its ``choose`` is timed (wall clock, one process), and the table shows the
median and 95th percentile in milliseconds, per preset.

Ladder: two bots play the same deals twice with the seats swapped
(duplicate), so the luck of the deal cancels; the table shows the first
bot's mean net per deal, its standard error and how many deals it won.

    .venv/bin/python benchmarks/bots.py latency --decisions 200 --hard-decisions 20
    .venv/bin/python benchmarks/bots.py ladder --deals 200 --preset knock
    .venv/bin/python benchmarks/bots.py ladder --pairs simple:random --deals 50
    .venv/bin/python benchmarks/bots.py endings --bot hard --deals 500 --hard-rollouts 8
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass

from pyrummy.bots import make_bot
from pyrummy.bots.base import Bot
from pyrummy.bots.hard_context import DEFAULT_TIME_BUDGET
from pyrummy.bots.policies import PANEL, make_policy
from pyrummy.core.actions import ActionKind
from pyrummy.core.deal import Deal, new_deal
from pyrummy.core.rules import preset_names
from pyrummy.core.settlement import Settlement

#: Player count per preset in the latency table (the most common table size).
LATENCY_PLAYERS = {
    "knock": 2,
    "knock-target": 3,
    "rummy": 2,
    "basic": 2,
    "block": 2,
    "rotham": 3,
    "gin": 2,
}
DEFAULT_PAIRS = ("simple:random", "medium:simple", "hard:medium")


def make_player(name: str, seed: int, options: dict[str, object]) -> Bot:
    """A bot by name, or a fixed policy of the panel (:mod:`pyrummy.bots.policies`)."""
    if name in PANEL:
        return make_policy(name, seed)
    return make_bot(name, seed=seed, **options)


def percentile(values: Sequence[float], fraction: float) -> float:
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, math.ceil(fraction * len(ordered)) - 1))
    return ordered[index]


def time_decisions(
    bot_name: str,
    preset: str,
    players: int,
    decisions: int,
    options: dict[str, object],
    knock_timings: list[float] | None = None,
    cpu_timings: list[float] | None = None,
) -> list[float]:
    """Seconds per ``choose`` call of ``bot_name`` at seat 0, over enough deals.

    Calls where a knock was among the legal actions are also added to
    ``knock_timings``; the process CPU time of every call to ``cpu_timings``
    (on a loaded machine wall time mostly measures the neighbours).
    """
    timings: list[float] = []
    seed = 0
    while len(timings) < decisions:
        seed += 1
        deal = new_deal(preset, players=players, seed=seed, dealer=seed % players)
        bots: list[Bot] = [make_bot(bot_name, seed=seed, **options)]
        bots += [make_bot("simple", seed=seed + s) for s in range(1, players)]
        while not deal.is_over and len(timings) < decisions:
            seat = deal.current_seat
            assert seat is not None
            observation, legal = deal.observe(seat), deal.legal_actions()
            started = time.perf_counter()
            cpu_started = time.process_time()
            action = bots[seat].choose(observation, legal)
            if seat == 0:
                timings.append(time.perf_counter() - started)
                if cpu_timings is not None:
                    cpu_timings.append(time.process_time() - cpu_started)
                if knock_timings is not None and any(a.kind is ActionKind.KNOCK for a in legal):
                    knock_timings.append(timings[-1])
            deal.apply(action)
    return timings


def run_latency(args: argparse.Namespace) -> None:
    presets = args.presets or preset_names()
    print(
        f"{'bot':<8} {'preset':<13} {'players':>7} {'calls':>6} {'median ms':>10} {'p95 ms':>9} "
        f"{'max ms':>8} {'knock calls':>11} {'knock p95':>9} {'knock max':>9}"
    )
    for bot_name in args.bots:
        options: dict[str, object] = {}
        decisions = args.decisions
        if bot_name == "hard":
            options = {"time_budget": args.hard_budget}
            decisions = args.hard_decisions
        for preset in presets:
            players = args.players or LATENCY_PLAYERS.get(preset, 2)
            knocks: list[float] = []
            cpu: list[float] = []
            timings = time_decisions(bot_name, preset, players, decisions, options, knocks, cpu)
            knock_p95 = f"{percentile(knocks, 0.95) * 1e3:.3f}" if knocks else "-"
            knock_max = f"{max(knocks) * 1e3:.3f}" if knocks else "-"
            print(
                f"{bot_name:<8} {preset:<13} {players:>7} {len(timings):>6} "
                f"{statistics.median(timings) * 1e3:>10.3f} {percentile(timings, 0.95) * 1e3:>9.3f} "
                f"{max(timings) * 1e3:>8.3f} {len(knocks):>11} {knock_p95:>9} {knock_max:>9}   "
                f"CPU ms median {statistics.median(cpu) * 1e3:.3f} p95 "
                f"{percentile(cpu, 0.95) * 1e3:.3f} max {max(cpu) * 1e3:.3f}",
                flush=True,
            )


@dataclass
class LadderResult:
    first: str
    second: str
    nets: list[float]
    seconds: float

    @property
    def mean(self) -> float:
        return statistics.fmean(self.nets)

    @property
    def stderr(self) -> float:
        return (
            statistics.stdev(self.nets) / math.sqrt(len(self.nets)) if len(self.nets) > 1 else 0.0
        )

    @property
    def won(self) -> int:
        return sum(1 for n in self.nets if n > 0)

    @property
    def lost(self) -> int:
        return sum(1 for n in self.nets if n < 0)


def play_out(deal: Deal, bots: Sequence[Bot]) -> Settlement:
    """Play ``deal`` to its end, each seat by its bot; its settlement."""
    while not deal.is_over:
        seat = deal.current_seat
        assert seat is not None
        deal.apply(bots[seat].choose(deal.observe(seat), deal.legal_actions()))
    settlement = deal.settlement
    assert settlement is not None
    return settlement


def play_duplicate(
    first: str,
    second: str,
    preset: str,
    deals: int,
    seed: int,
    options: dict[str, dict[str, object]],
    players: int = 2,
) -> LadderResult:
    """``first``'s margin per deal pair: both seatings of one deck.

    The bots alternate round the table (``first`` at the even seats, then at
    the odd ones); a seating's margin is the mean net of ``first``'s seats
    minus that of ``second``'s, and a pair's is the mean of its two seatings.
    """
    nets: list[float] = []
    started = time.perf_counter()
    for number in range(deals):
        deal_seed = seed * 100_003 + number
        total = 0.0
        for parity in (0, 1):
            deal = new_deal(preset, players=players, seed=deal_seed, dealer=0)
            names = [first if seat % 2 == parity else second for seat in range(players)]
            bots = [
                make_player(name, deal_seed * players + seat, options.get(name, {}))
                for seat, name in enumerate(names)
            ]
            settlement = play_out(deal, bots)
            mine = [float(settlement.net[s]) for s in range(players) if s % 2 == parity]
            theirs = [float(settlement.net[s]) for s in range(players) if s % 2 != parity]
            total += statistics.fmean(mine) - statistics.fmean(theirs)
        nets.append(total / 2)
    return LadderResult(first, second, nets, time.perf_counter() - started)


def run_ladder(args: argparse.Namespace) -> None:
    options: dict[str, dict[str, object]] = {"hard": {"time_budget": args.hard_budget}}
    if args.hard_rollouts:
        options["hard"] = {"rollouts": args.hard_rollouts}
    hard = options["hard"]
    print(
        f"preset {args.preset}, {args.players} players, {args.deals} duplicate deal pairs, "
        f"seed {args.seed}, hard {hard}"
    )
    print(
        f"{'pair':<16} {'mean net':>9} {'stderr':>7} {'95% CI':>17} {'won':>5} {'lost':>5} "
        f"{'seconds':>8}"
    )
    for pair in args.pairs:
        first, second = pair.split(":")
        result = play_duplicate(
            first, second, args.preset, args.deals, args.seed, options, args.players
        )
        low, high = result.mean - 1.96 * result.stderr, result.mean + 1.96 * result.stderr
        interval = f"[{low:+.2f}, {high:+.2f}]"
        print(
            f"{first + ' v ' + second:<16} {result.mean:>+9.2f} {result.stderr:>7.2f} "
            f"{interval:>17} {result.won:>5} {result.lost:>5} {result.seconds:>8.1f}",
            flush=True,
        )


def run_endings(args: argparse.Namespace) -> None:
    """When deals end: turn of the knock, who knocked and who won, for one bot at every seat."""
    ended: dict[str, int] = {}
    knocker_won = knocks = 0
    first_net = 0.0
    hard: dict[str, object] = {"rollouts": args.hard_rollouts} if args.hard_rollouts else {}
    for number in range(args.deals):
        seed = args.seed * 100_003 + number
        deal = new_deal(args.preset, players=args.players, seed=seed, dealer=number % args.players)
        bots = [
            make_player(args.bot, seed * args.players + s, hard if args.bot == "hard" else {})
            for s in range(args.players)
        ]
        first = deal.current_seat
        assert first is not None
        settlement = play_out(deal, bots)
        turn = deal.turn
        label = str(turn) if turn <= args.players * 2 else f">{args.players * 2}"
        if settlement.knocker is None:
            label = "no knock"
        else:
            knocks += 1
            knocker_won += int(settlement.knocker in settlement.winners)
        ended[label] = ended.get(label, 0) + 1
        first_net += float(settlement.net[first])
    print(
        f"{args.bot} at every seat, preset {args.preset}, {args.players} players, "
        f"{args.deals} deals, seed {args.seed}"
    )
    order = sorted(ended, key=lambda k: (not k.isdigit(), int(k) if k.isdigit() else 0, k))
    for label in order:
        share = ended[label] / args.deals
        print(f"ended on turn {label:<9} {ended[label]:>6} {share:>7.1%}")
    if knocks:
        print(f"the knocker won {knocker_won / knocks:.1%} of {knocks} knocks")
    print(f"the first player's mean net per deal: {first_net / args.deals:+.2f}")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    latency = commands.add_parser("latency", help="median and p95 time per decision")
    latency.add_argument("--bots", nargs="+", default=["random", "simple", "medium", "hard"])
    latency.add_argument("--presets", nargs="+", default=None)
    latency.add_argument("--decisions", type=int, default=200)
    latency.add_argument("--hard-decisions", type=int, default=20)
    latency.add_argument("--hard-budget", type=float, default=DEFAULT_TIME_BUDGET)
    latency.add_argument(
        "--players", type=int, default=None, help="table size for every preset (default: its usual)"
    )
    ladder = commands.add_parser("ladder", help="duplicate matches between bot pairs")
    ladder.add_argument("--pairs", nargs="+", default=list(DEFAULT_PAIRS))
    ladder.add_argument("--preset", default="knock")
    ladder.add_argument("--players", type=int, default=2)
    ladder.add_argument("--deals", type=int, default=200)
    ladder.add_argument("--seed", type=int, default=1)
    ladder.add_argument("--hard-budget", type=float, default=DEFAULT_TIME_BUDGET)
    ladder.add_argument("--hard-rollouts", type=int, default=0)
    endings = commands.add_parser("endings", help="on which turn deals end, one bot at every seat")
    endings.add_argument("--bot", default="hard")
    endings.add_argument("--preset", default="knock")
    endings.add_argument("--players", type=int, default=2)
    endings.add_argument("--deals", type=int, default=500)
    endings.add_argument("--seed", type=int, default=1)
    endings.add_argument("--hard-rollouts", type=int, default=0)
    args = parser.parse_args(argv)
    if args.command == "latency":
        run_latency(args)
    elif args.command == "endings":
        run_endings(args)
    else:
        run_ladder(args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
