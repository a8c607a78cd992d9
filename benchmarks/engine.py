"""Engine speed: random-play deals per second, ours against OpenSpiel and RLCard.

Run beside the peers, which are installed only in the benchmark env::

    .venv-bench/bin/python benchmarks/engine.py [--seconds 3] [--json]

Every engine plays whole deals of two-player Gin Rummy with the same loop:
build a fresh deal, then until it is over pick a uniformly random legal
action and apply it. OpenSpiel's deal is dealt by chance nodes, so its loop
also samples each chance outcome by its probability (that is its shuffle).
RLCard's loop uses the legal actions of the environment's state. The time
includes dealing. Then every preset of ours at 2 and 4 players (gin: 2).

Time is the process's CPU time (``time.process_time``; the peers' C++ and
Python run in this process), so the neighbours' load on a shared machine
matters less than with wall time; the passes of the three engines are
interleaved and each keeps its best.

The peers play their own rules (OpenSpiel: gin bonus 25, Oklahoma off;
RLCard: its gin rummy) — the same game in substance, deals of similar
length (mean actions per deal are printed so that can be checked).
A missing peer is reported as such; the rest still runs.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import platform
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass

from pyrummy.core.deal import new_deal
from pyrummy.core.rules import find_rules, preset_names
from pyrummy.core.shuffle import LEGACY_SHUFFLE, SHUFFLES

GOAL_VS_OPENSPIEL = 10.0


@dataclass
class Speed:
    name: str
    deals: int
    actions: int
    seconds: float

    @property
    def deals_per_second(self) -> float:
        return self.deals / self.seconds

    @property
    def actions_per_deal(self) -> float:
        return self.actions / self.deals

    def to_dict(self) -> dict[str, object]:
        return {
            "name": self.name,
            "deals": self.deals,
            "deals_per_second": round(self.deals_per_second, 1),
            "actions_per_deal": round(self.actions_per_deal, 1),
        }


def run_for(name: str, play_one: Callable[[int], int], seconds: float, start: int) -> Speed:
    """Play deals (``play_one(i)`` returns the actions taken) for ``seconds`` of CPU."""
    deals = actions = 0
    begin = time.process_time()
    while True:
        actions += play_one(start + deals)
        deals += 1
        used = time.process_time() - begin
        if used >= seconds and deals >= 5:
            return Speed(name, deals, actions, used)


def measure(loops: dict[str, Callable[[int], int]], seconds: float, passes: int) -> list[Speed]:
    """Best pass of each loop, the passes of different loops interleaved."""
    for loop in loops.values():
        loop(-1)  # warm up: imports, caches, tables
    best: dict[str, Speed] = {}
    for number in range(passes):
        for name, loop in loops.items():
            speed = run_for(name, loop, seconds / passes, number * 1_000_000)
            if name not in best or speed.deals_per_second > best[name].deals_per_second:
                best[name] = speed
    return [best[name] for name in loops]


def ours(
    rules_name: str, players: int, rng: random.Random, shuffle: str = LEGACY_SHUFFLE
) -> Callable[[int], int]:
    rules = find_rules(rules_name)
    cycle = rules.deals if rules.match_end == "deals" else 0

    def play_one(index: int) -> int:
        number = index % cycle + 1 if cycle and index >= 0 else 1
        deal = new_deal(
            rules,
            players=players,
            seed=index & 0xFFFFFFFF,
            dealer=0,
            deal_number=number,
            shuffle=shuffle,
        )
        actions = 0
        while not deal.is_over:
            deal.apply(rng.choice(deal.legal_actions()))
            actions += 1
        return actions

    return play_one


def openspiel(rng: random.Random) -> Callable[[int], int] | str:
    try:
        import pyspiel
    except ImportError as exc:
        return f"not installed ({exc})"
    game = pyspiel.load_game("gin_rummy")

    def play_one(index: int) -> int:
        state = game.new_initial_state()
        actions = 0
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, weights = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(outcomes, weights)[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
                actions += 1
        return actions

    return play_one


def rlcard_gin(rng: random.Random) -> Callable[[int], int] | str:
    try:
        import rlcard
    except ImportError as exc:
        return f"not installed ({exc})"
    env = rlcard.make("gin-rummy", config={"seed": 0})

    def play_one(index: int) -> int:
        state, _ = env.reset()
        actions = 0
        while not env.is_over():
            state, _ = env.step(rng.choice(list(state["legal_actions"])))
            actions += 1
        return actions

    return play_one


# A fresh process: import, then play the first deals, each phase timed in CPU
# seconds; prints one JSON line. The same random loop as above.
COLD_OURS = """
import json, random, sys, time
begin = time.process_time()
from pyrummy import new_deal
imported = time.process_time()
rng = random.Random(2026)
for index in range({deals}):
    deal = new_deal("gin", players=2, seed=index, dealer=0)
    while not deal.is_over:
        deal.apply(rng.choice(deal.legal_actions()))
    if index == 0:
        first = time.process_time()
end = time.process_time()
print(json.dumps([imported - begin, first - imported, end - imported]))
"""

COLD_OPENSPIEL = """
import json, random, sys, time
begin = time.process_time()
import pyspiel
game = pyspiel.load_game("gin_rummy")
imported = time.process_time()
rng = random.Random(2026)
for index in range({deals}):
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, weights = zip(*state.chance_outcomes())
            state.apply_action(rng.choices(outcomes, weights)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    if index == 0:
        first = time.process_time()
end = time.process_time()
print(json.dumps([imported - begin, first - imported, end - imported]))
"""


@dataclass
class Cold:
    name: str
    deals: int
    runs: list[tuple[float, float, float]]  # (import, first deal, all deals) CPU seconds

    def median(self, part: int) -> float:
        return statistics.median(run[part] for run in self.runs)

    @property
    def deals_per_second(self) -> float:
        """Deals per CPU second over the first deals of a fresh process (median run)."""
        return self.deals / self.median(2)

    def to_dict(self) -> dict[str, object]:
        return {
            "name": self.name,
            "deals": self.deals,
            "runs": len(self.runs),
            "import_ms": round(1000 * self.median(0), 1),
            "first_deal_ms": round(1000 * self.median(1), 2),
            "deals_per_second": round(self.deals_per_second, 1),
        }


def median_interval(
    values: list[float], confidence: float = 0.95
) -> tuple[float, float, float, float]:
    """The median of ``values`` and a distribution-free interval for it, with
    its coverage: the widest pair of order statistics ``k``-th from each end
    that still covers the median with probability >= ``confidence`` (by the
    binomial law of how many values fall below it); with few values, the
    minimum and maximum and their (lower) coverage.

    >>> median_interval([3.0, 1.0, 2.0, 5.0, 4.0])
    (3.0, 1.0, 5.0, 0.9375)
    """
    ordered = sorted(values)
    n = len(ordered)
    below = 0.0  # P(at most k-1 of n values fall below the median)
    k = 0
    while k < n // 2:
        next_below = below + math.comb(n, k) / 2**n
        if 1 - 2 * next_below < confidence:
            break
        below = next_below
        k += 1
    k = max(k, 1)
    coverage = 1 - 2 * sum(math.comb(n, i) for i in range(k)) / 2**n
    median: float = statistics.median(ordered)
    return median, ordered[k - 1], ordered[n - k], coverage


def cold_ratios(ours: Cold, theirs: Cold, with_import: bool = False) -> list[float]:
    """Per pair of runs (they alternate), our deals per second over theirs, on
    the first deals (import apart, or counted in with ``with_import``)."""

    def part(run: tuple[float, float, float]) -> float:
        return run[0] + run[2] if with_import else run[2]

    return [part(them) / part(us) for us, them in zip(ours.runs, theirs.runs, strict=True)]


def cold_runs(deals: int, runs: int) -> list[Cold]:
    """Fresh ``python -c`` processes, ours and OpenSpiel's alternating; import
    time apart from the deals. One unmeasured run of each first (it writes
    the bytecode caches, as an installed package has them)."""
    env = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}
    scripts = {"pyrummy gin": COLD_OURS, "OpenSpiel gin_rummy": COLD_OPENSPIEL}
    results = {name: Cold(name, deals, []) for name in scripts}
    for number in range(runs + 1):
        for name, script in scripts.items():
            done = subprocess.run(
                [sys.executable, "-c", script.format(deals=deals)],
                capture_output=True,
                text=True,
                env=env,
                check=False,
            )
            if done.returncode:
                print(f"{name}: cold run failed: {done.stderr.strip().splitlines()[-1:]}")
                return []
            if number:
                imported, first, every = (float(part) for part in json.loads(done.stdout))
                results[name].runs.append((imported, first, every))
    return list(results.values())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--seconds", type=float, default=3.0, help="CPU seconds per measurement (default 3)"
    )
    parser.add_argument(
        "--passes", type=int, default=3, help="interleaved passes, the best kept (default 3)"
    )
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    parser.add_argument("--no-presets", action="store_true", help="only the gin comparison")
    parser.add_argument(
        "--shuffle",
        choices=SHUFFLES,
        default=LEGACY_SHUFFLE,
        help="how our seeded deals are shuffled (default: the legacy python-mt; "
        "the server deals by sha256-fy-1)",
    )
    parser.add_argument(
        "--cold-runs",
        type=int,
        default=5,
        help="fresh processes per engine for the cold row (default 5; 0: none)",
    )
    parser.add_argument(
        "--cold-deals", type=int, default=100, help="deals per fresh process (default 100)"
    )
    args = parser.parse_args(argv)
    rng = random.Random(2026)
    say = (lambda *_: None) if args.json else print

    say(
        f"Random-play deals per CPU second, {args.seconds:g} s per engine in {args.passes}"
        f" interleaved passes (best kept); Python {platform.python_version()}"
    )
    say("(on a shared machine CPU time still varies with the neighbours' load)\n")
    loops: dict[str, Callable[[int], int]] = {"pyrummy gin": ours("gin", 2, rng, args.shuffle)}
    missing: dict[str, str] = {}
    for name, factory in (("OpenSpiel gin_rummy", openspiel), ("RLCard gin-rummy", rlcard_gin)):
        loop = factory(rng)
        if isinstance(loop, str):
            missing[name] = loop
        else:
            loops[name] = loop
    gin = measure(loops, args.seconds, args.passes)
    base = gin[0].deals_per_second
    say(f"{'two-player gin':<22} {'deals/s':>9} {'actions/deal':>13} {'ours is':>9}")
    for speed in gin:
        ratio = base / speed.deals_per_second
        say(
            f"{speed.name:<22} {speed.deals_per_second:>9.1f} {speed.actions_per_deal:>13.1f}"
            f" {ratio:>8.2f}x"
        )
    for name, why in missing.items():
        say(f"{name:<22} {why}")
    ratios = {s.name: base / s.deals_per_second for s in gin[1:]}
    spiel = ratios.get("OpenSpiel gin_rummy")
    if spiel is not None:
        verdict = "meets" if spiel >= GOAL_VS_OPENSPIEL else "misses"
        say(f"\nvs OpenSpiel: {spiel:.2f}x ({verdict} the goal of {GOAL_VS_OPENSPIEL:g}x)")

    cold: list[Cold] = []
    if args.cold_runs and "OpenSpiel gin_rummy" in loops:
        cold = cold_runs(args.cold_deals, args.cold_runs)
    if cold:
        say(
            f"\nfresh processes, first {args.cold_deals} deals (median of {args.cold_runs} runs,"
            " CPU time)"
        )
        say(f"{'two-player gin':<22} {'import ms':>9} {'1st deal ms':>12} {'deals/s':>9}")
        for run in cold:
            say(
                f"{run.name:<22} {1000 * run.median(0):>9.1f} {1000 * run.median(1):>12.2f}"
                f" {run.deals_per_second:>9.1f}"
            )
        cold_ratio, low, high, coverage = median_interval(cold_ratios(cold[0], cold[1]))
        verdict = "meets" if cold_ratio >= GOAL_VS_OPENSPIEL else "misses"
        say(
            f"cold vs OpenSpiel: {cold_ratio:.2f}x, {coverage:.0%} interval {low:.2f}-{high:.2f}x"
            f" (median of paired runs; {verdict} the goal of {GOAL_VS_OPENSPIEL:g}x)"
        )
        with_import = median_interval(cold_ratios(cold[0], cold[1], with_import=True))
        say(
            f"counting the import too: {with_import[0]:.2f}x,"
            f" {with_import[3]:.0%} interval {with_import[1]:.2f}-{with_import[2]:.2f}x"
        )

    presets: list[Speed] = []
    if not args.no_presets:
        say(f"\n{'preset':<22} {'deals/s':>9} {'actions/deal':>13}")
        for name in preset_names():
            rules = find_rules(name)
            for players in (2, 4):
                if not rules.min_players <= players <= rules.max_players:
                    continue
                label = f"{name} ({players}p)"
                speed = measure(
                    {label: ours(name, players, rng, args.shuffle)}, args.seconds, args.passes
                )[0]
                presets.append(speed)
                say(
                    f"{speed.name:<22} {speed.deals_per_second:>9.1f}"
                    f" {speed.actions_per_deal:>13.1f}"
                )
    if args.json:
        print(
            json.dumps(
                {
                    "seconds": args.seconds,
                    "passes": args.passes,
                    "gin": [s.to_dict() for s in gin],
                    "missing": missing,
                    "ratios": {k: round(v, 2) for k, v in ratios.items()},
                    "cold": [run.to_dict() for run in cold],
                    "cold_ratio": (
                        median_interval(cold_ratios(cold[0], cold[1])) if len(cold) == 2 else None
                    ),
                    "presets": [s.to_dict() for s in presets],
                },
                indent=2,
            )
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
