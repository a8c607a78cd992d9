"""Measure the bots' anchor ratings: rated two-player matches between every pair of bots.

For each game every pair of bots plays ``--matches`` whole matches (the
seats alternate, every match seeded, so a run replays exactly); a match is
won by the one who finishes ahead (a tie is half a win). The ratings are the
arena's Bradley-Terry fit (:func:`pyrummy.arena.rating.fit_ratings`) on the
rating scale (Elo points, the Easy bot ``simple`` held at 1000), which is the
scale the server's Plackett-Luce ratings are read on (docs/ratings.md).

Writes ``src/pyrummy/ratings/anchors.json`` (what the server reads) and
``benchmarks/results/ratings.md`` (the table, the command and the machine).

    .venv/bin/python benchmarks/rating_anchors.py --games knock,gin --matches knock=400,gin=100 --workers 8
    .venv/bin/python benchmarks/rating_anchors.py --games all --matches 100 --workers 8
"""

from __future__ import annotations

import argparse
import datetime
import itertools
import json
import os
import platform
import shlex
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from pyrummy.arena.rating import fit_ratings
from pyrummy.bots.registry import find_level
from pyrummy.core.rules import find_rules, preset_names
from pyrummy.core.seeds import derive_seed
from pyrummy.ratings.anchor_play import MatchOutcome, MatchTask, play_match
from pyrummy.ratings.scale import ANCHOR_BOT, ANCHOR_POINTS
from pyrummy.tournament.runner import run_tasks

ROOT = Path(__file__).resolve().parent.parent
ANCHORS_JSON = ROOT / "src" / "pyrummy" / "ratings" / "anchors.json"
RESULTS_MD = ROOT / "benchmarks" / "results" / "ratings.md"
DEFAULT_BOTS = ("random", "simple", "medium", "hard", "learned")


def tasks_of(game: str, bots: Sequence[str], matches: int, seed: int) -> list[MatchTask]:
    """Every pair of ``bots`` that play ``game`` for two, ``matches`` times, seats alternating."""
    rules = find_rules(game)
    playing = [bot for bot in bots if find_level(bot).plays(rules, 2)]
    tasks = []
    for a, b in itertools.combinations(playing, 2):
        for k in range(matches):
            players = (a, b) if k % 2 == 0 else (b, a)
            tasks.append(
                MatchTask(game, players, derive_seed("pyrummy-anchors", seed, game, a, b, k))
            )
    return tasks


def fit_game(game: str, outcomes: Sequence[MatchOutcome]) -> dict[str, Any]:
    """The anchors of one game from its matches."""
    names = sorted({name for o in outcomes for name in o.task.players}, key=DEFAULT_BOTS.index)
    index = {name: i for i, name in enumerate(names)}
    games = []
    played = dict.fromkeys(names, 0)
    scored = dict.fromkeys(names, 0.0)
    for outcome in outcomes:
        first, second = outcome.task.players
        places = outcome.places
        score = 1.0 if places[0] < places[1] else 0.0 if places[0] > places[1] else 0.5
        games.append((index[first], index[second], score))
        played[first] += 1
        played[second] += 1
        scored[first] += score
        scored[second] += 1.0 - score
    fit = fit_ratings(len(names), games, anchor=index[ANCHOR_BOT], anchor_rating=ANCHOR_POINTS)
    return {
        "players": 2,
        "matches": len(outcomes),
        "bots": {
            name: {
                "rating": round(fit.ratings[i], 1),
                "error": round(fit.standard_errors[i], 1),
                "low": round(fit.low[i], 1),
                "high": round(fit.high[i], 1),
                "matches": played[name],
                "won": round(scored[name] / played[name], 3) if played[name] else 0.0,
            }
            for i, name in enumerate(names)
        },
    }


def matches_for(spec: str, game: str) -> int:
    """``--matches`` for ``game``: one number for all, or ``game=N`` pairs (``*=N``: the rest).

    >>> matches_for("30", "gin"), matches_for("knock=200,*=40", "gin"), matches_for("gin=8", "gin")
    (30, 40, 8)
    """
    if "=" not in spec:
        return int(spec)
    given = dict(part.split("=", 1) for part in spec.split(","))
    return int(given.get(game, given.get("*", "0")))


def machine() -> str:
    return f"{platform.node() or 'host'}: {platform.processor() or platform.machine()}, {os.cpu_count()} CPUs, Python {platform.python_version()}"


def markdown(data: dict[str, Any]) -> str:
    lines = [
        "# Ratings: the bots' anchors",
        "",
        "Every pair of bots plays whole two-player matches of each game (seats alternating, "
        "seeded); a match is won by the one who finishes ahead, a tie is half a win. Ratings: "
        "the arena's Bradley-Terry fit on the rating scale (Elo points, the Easy bot `simple` "
        "fixed at 1000), 95% intervals from the Fisher information. The server plays every "
        "bot at these ratings (`src/pyrummy/ratings/anchors.json`); see docs/ratings.md.",
        "",
        "```",
        data["command"],
        "```",
        "",
        f"Machine: {data['machine']}, {data['date']}; {data['seconds']:.0f} s.",
        "",
    ]
    for game, result in data["games"].items():
        lines += [
            f"## {game}",
            "",
            f"{result['matches']} matches for two.",
            "",
            "| bot | rating | 95% interval | matches | won |",
            "|:---|---:|:---|---:|---:|",
        ]
        for name, bot in sorted(result["bots"].items(), key=lambda kv: -kv[1]["rating"]):
            interval = (
                "(anchor)" if name == ANCHOR_BOT else f"[{bot['low']:.0f}, {bot['high']:.0f}]"
            )
            lines.append(
                f"| `{name}` | {bot['rating']:.0f} | {interval} | {bot['matches']} | {bot['won']:.1%} |"
            )
        lines.append("")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default="knock,gin", help="presets, comma-separated, or 'all'")
    parser.add_argument("--bots", default=",".join(DEFAULT_BOTS))
    parser.add_argument(
        "--matches",
        default="100",
        help="matches per pair of bots: a number, or per game (knock=200,gin=40)",
    )
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--anchors", type=Path, default=ANCHORS_JSON)
    parser.add_argument("--results", type=Path, default=RESULTS_MD)
    args = parser.parse_args(argv)
    games = list(preset_names()) if args.games == "all" else args.games.split(",")
    bots = args.bots.split(",")
    if ANCHOR_BOT not in bots:
        parser.error(f"the bots must include the anchor, {ANCHOR_BOT}")
    started = time.monotonic()
    data: dict[str, Any] = {
        "about": "The bots' fixed ratings per game (points; Easy = simple = 1000). Written by "
        "benchmarks/rating_anchors.py; read by pyrummy.ratings.anchors.",
        "command": "python benchmarks/rating_anchors.py "
        + shlex.join(sys.argv[1:] if argv is None else argv),
        "machine": machine(),
        "date": datetime.date.today().isoformat(),
        "games": {},
    }
    for game in games:
        tasks = tasks_of(game, bots, matches_for(args.matches, game), args.seed)
        outcomes: list[MatchOutcome | None] = [None] * len(tasks)
        finished = run_tasks(play_match, tasks, workers=args.workers)
        for done, (index, outcome) in enumerate(finished, start=1):
            outcomes[index] = outcome
            if done % max(1, len(tasks) // 20) == 0 or done == len(tasks):
                print(
                    f"{game}: {done}/{len(tasks)} matches, {time.monotonic() - started:.0f} s",
                    file=sys.stderr,
                    flush=True,
                )
        data["games"][game] = fit_game(game, [o for o in outcomes if o is not None])
    data["seconds"] = round(time.monotonic() - started, 1)
    args.anchors.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    args.results.write_text(markdown(data), encoding="utf-8")
    print(markdown(data))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
