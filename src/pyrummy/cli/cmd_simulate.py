"""``pyrummy simulate``: play many deals with random legal actions and report.

Each deal is seeded from ``--seed`` and its number (the same derivation as a
match's deals), dealt by seat ``i mod players``; for a preset with a fixed
number of deals (rotham) the deal numbers cycle through the match, so the
all-seven deals are played too. Prints how the deals ended, the mean count
each seat was scored on (deadwood, or the hand value left), the mean number
of turns, and the speed. The progress bar goes to stderr.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from pyrummy.cli.arguments import add_rules_arguments, rules_of, whole_number
from pyrummy.core.deal import Deal, new_deal
from pyrummy.core.match import deal_seed
from pyrummy.core.rules import Rules


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "simulate",
        help="play random deals and report how they end",
        description="Play deals with uniformly random legal actions and report outcome "
        "counts, mean deadwood or hand value at the end, mean turns and deals per second.",
    )
    add_rules_arguments(parser)
    parser.add_argument(
        "--players", type=whole_number(1), default=None, help="players (default: the fewest)"
    )
    parser.add_argument(
        "--deals", type=whole_number(1), default=1000, help="deals to play (default 1000)"
    )
    parser.add_argument(
        "--seed", type=whole_number(0), default=0, help="seed of the whole run (default 0)"
    )
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    parser.set_defaults(func=run)


@dataclass
class Tally:
    """What the simulation counts, deal by deal."""

    deals: int = 0
    outcomes: Counter[str] = field(default_factory=Counter)
    counts_sum: int = 0
    counts_seen: int = 0
    turns_sum: int = 0
    actions_sum: int = 0

    def add(self, deal: Deal) -> None:
        settlement = deal.settlement
        assert settlement is not None, "a simulated deal is played to its end"
        self.deals += 1
        self.outcomes[settlement.outcome] += 1
        counts = settlement.counts or tuple(hand.deadwood for hand in settlement.hands)
        self.counts_sum += sum(counts)
        self.counts_seen += len(counts)
        self.turns_sum += deal.turn
        self.actions_sum += len(deal.history)


def play_random_deal(
    rules: Rules, players: int, seed: int, dealer: int, deal_number: int, rng: random.Random
) -> Deal:
    """One deal played to its end with uniformly random legal actions."""
    deal = new_deal(rules, players=players, seed=seed, dealer=dealer, deal_number=deal_number)
    while not deal.is_over:
        deal.apply(rng.choice(deal.legal_actions()))
    return deal


def run(args: argparse.Namespace) -> int:
    rules = rules_of(args)
    players = rules.min_players if args.players is None else args.players
    rules.check_players(players)
    tally = Tally()
    rng = random.Random(args.seed)
    cycle = rules.deals_in_match(players) if rules.match_end == "deals" else None
    console = Console(stderr=True)
    progress = Progress(
        TextColumn(f"{rules.name}, {players} players"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=console,
        transient=True,
        disable=args.quiet,
    )
    start = time.perf_counter()
    with progress:
        task = progress.add_task("deals", total=args.deals)
        for index in range(args.deals):
            deal_number = index % cycle + 1 if cycle else 1
            deal = play_random_deal(
                rules, players, deal_seed(args.seed, index + 1), index % players, deal_number, rng
            )
            tally.add(deal)
            progress.advance(task)
    elapsed = time.perf_counter() - start
    report = _report(rules, players, args.seed, tally, elapsed)
    print(json.dumps(report, indent=2) if args.json else _render(report))
    return 0


def _report(
    rules: Rules, players: int, seed: int, tally: Tally, elapsed: float
) -> dict[str, object]:
    return {
        "rules": rules.name,
        "options": rules.option_text(),
        "players": players,
        "seed": seed,
        "deals": tally.deals,
        "outcomes": dict(sorted(tally.outcomes.items(), key=lambda item: (-item[1], item[0]))),
        "mean_count_at_end": round(tally.counts_sum / max(tally.counts_seen, 1), 3),
        "mean_turns": round(tally.turns_sum / tally.deals, 3),
        "mean_actions": round(tally.actions_sum / tally.deals, 3),
        "seconds": round(elapsed, 3),
        "deals_per_second": round(tally.deals / elapsed, 1) if elapsed > 0 else None,
    }


def _render(report: dict[str, Any]) -> str:
    title = report["rules"] + (f" ({report['options']})" if report["options"] else "")
    lines = [f"{report['deals']} random deals of {title}, {report['players']} players"]
    lines.append("Outcomes:")
    width = max(len(name) for name in report["outcomes"])
    for name, count in report["outcomes"].items():
        share = 100 * count / report["deals"]
        lines.append(f"  {name:<{width}}  {count:>7}  {share:5.1f}%")
    lines.append(f"Mean deadwood / hand value at the end: {report['mean_count_at_end']}")
    lines.append(f"Mean turns: {report['mean_turns']} ({report['mean_actions']} actions)")
    lines.append(f"Deals per second: {report['deals_per_second']} ({report['seconds']} s)")
    return "\n".join(lines)
