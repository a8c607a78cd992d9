"""The ladder: ratings and head-to-head results of an arena, as Markdown.

:func:`summarize` turns the board records into per-entrant and per-pair
figures and fits the ratings (:mod:`pyrummy.arena.rating`);
:func:`ladder_markdown` writes them as the tables the docs publish, with
the command that made them, the game and the software versions.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from pyrummy.arena.rating import Ratings, fit_ratings
from pyrummy.arena.schedule import ArenaConfig
from pyrummy.tournament.stats import Estimate, mean_ci


@dataclass(frozen=True)
class PairSummary:
    """Entrant ``a`` against ``b``: boards won (ties as halves), points per deal."""

    a: int
    b: int
    boards: int
    score: float  # a's board points
    points: Estimate  # a's points per deal, over boards


@dataclass(frozen=True)
class EntrantSummary:
    label: str
    boards: int
    score: float  # boards won, ties as halves
    points_per_deal: float  # against the field, every board alike
    decisions: int
    seconds: float  # thinking time over all decisions
    late: int
    faults: int
    slowest: float


@dataclass(frozen=True)
class Ladder:
    config: ArenaConfig
    entrants: tuple[EntrantSummary, ...]
    pairs: tuple[PairSummary, ...]
    ratings: Ratings


def summarize(
    config: ArenaConfig,
    records: Sequence[dict[str, Any]],
    anchor: str | None = None,
    anchor_rating: float = 1000.0,
) -> Ladder:
    """The ladder of ``records`` (boards of ``config``), anchored at ``anchor``
    (default: ``simple`` if it played, else the first entrant)."""
    labels = list(config.entrants)
    index = {label: k for k, label in enumerate(labels)}
    if anchor is None:
        anchor = "simple" if "simple" in index else labels[0]
    if anchor not in index:
        raise ValueError(f"anchor {anchor!r} is not an entrant ({', '.join(labels)})")
    games: list[tuple[int, int, float]] = []
    per_pair: dict[tuple[int, int], list[dict[str, Any]]] = {}
    totals = {label: [0, 0.0, 0.0, 0, 0, 0, 0.0, 0.0] for label in labels}
    for record in records:
        a, b = (index[label] for label in record["pair"])
        games.append((a, b, float(record["score"])))
        per_pair.setdefault((a, b), []).append(record)
        deals = len(record["deals"])
        for label, sign in ((record["pair"][0], 1.0), (record["pair"][1], -1.0)):
            t = totals[label]
            t[0] += 1
            t[1] += record["score"] if sign > 0 else 1.0 - record["score"]
            t[2] += sign * record["margin"] / deals
            tally = record["tallies"][label]
            t[3] += tally["decisions"]
            t[4] += tally["late"]
            t[5] += len(tally["faults"])
            t[6] = max(t[6], tally["slowest"])
            t[7] += tally["seconds"]
    pairs = []
    for (a, b), found in sorted(per_pair.items()):
        points = [r["margin"] / len(r["deals"]) for r in found]
        pairs.append(PairSummary(a, b, len(found), sum(r["score"] for r in found), mean_ci(points)))
    entrants = tuple(
        EntrantSummary(
            label=label,
            boards=int(t[0]),
            score=float(t[1]),
            points_per_deal=float(t[2]) / t[0] if t[0] else math.nan,
            decisions=int(t[3]),
            seconds=float(t[7]),
            late=int(t[4]),
            faults=int(t[5]),
            slowest=float(t[6]),
        )
        for label, t in totals.items()
    )
    ratings = fit_ratings(len(labels), games, anchor=index[anchor], anchor_rating=anchor_rating)
    return Ladder(config, entrants, tuple(pairs), ratings)


def _signed(value: float) -> str:
    return "n/a" if math.isnan(value) else f"{value:+.2f}"


def ladder_markdown(ladder: Ladder, *, command: str, game: str, software: dict[str, str]) -> str:
    """The ladder as Markdown: ratings, then every pair's head-to-head."""
    config, ratings = ladder.config, ladder.ratings
    labels = config.entrants
    order = sorted(
        range(len(labels)),
        key=lambda k: -ratings.ratings[k] if not math.isnan(ratings.ratings[k]) else math.inf,
    )
    anchor = labels[ratings.anchor]
    versions = ", ".join(f"{name} {version}" for name, version in software.items())
    boards = sum(e.boards for e in ladder.entrants) // 2
    lines = [
        f"# Ladder: {game}",
        "",
        f"{len(labels)} entrants, every pair on {config.decks} decks dealt twice with the "
        f"seats swapped ({boards} boards, {2 * boards} deals), seed {config.seed}, "
        f"time limit {config.time_limit:g} s per decision.",
        "",
        "```",
        command,
        "```",
        "",
        f"Software: {versions}.",
        "",
        f"Rating: Bradley-Terry on boards won (a tie is half a win), Elo scale, "
        f"{anchor} fixed at {ratings.ratings[ratings.anchor]:.0f}; "
        f"{100 * ratings.confidence:.0f}% intervals from the Fisher information. "
        "Points per deal: against the whole field, each board alike. "
        "ms/decision: mean thinking time (wall clock, on the machine that played).",
        "",
        "| rank | entrant | rating | interval | boards | won | points/deal | ms/decision "
        "| late | faults |",
        "|---:|:---|---:|:---|---:|---:|---:|---:|---:|---:|",
    ]
    for rank, k in enumerate(order, start=1):
        entrant = ladder.entrants[k]
        rating = ratings.ratings[k]
        if k == ratings.anchor:
            interval = "(anchor)"
        elif math.isnan(rating):
            interval = "n/a"
        else:
            interval = f"[{ratings.low[k]:.0f}, {ratings.high[k]:.0f}]"
        shown = "n/a" if math.isnan(rating) else f"{rating:.0f}"
        won = 100 * entrant.score / entrant.boards if entrant.boards else math.nan
        thinking = 1000 * entrant.seconds / entrant.decisions if entrant.decisions else 0.0
        lines.append(
            f"| {rank} | `{entrant.label}` | {shown} | {interval} | {entrant.boards} | "
            f"{won:.1f}% | {_signed(entrant.points_per_deal)} | {thinking:.1f} | {entrant.late} | "
            f"{entrant.faults} |"
        )
    lines += [
        "",
        "## Head to head",
        "",
        "Boards won by A (ties as halves) and A's points per deal with a 95% interval "
        "(Student t over boards).",
        "",
        "| A | B | boards | A won | A points/deal | 95% interval |",
        "|:---|:---|---:|---:|---:|:---|",
    ]
    for pair in ladder.pairs:
        points = pair.points
        interval = (
            "n/a" if math.isnan(points.half_width) else f"[{points.low:+.2f}, {points.high:+.2f}]"
        )
        lines.append(
            f"| `{labels[pair.a]}` | `{labels[pair.b]}` | {pair.boards} | "
            f"{100 * pair.score / pair.boards:.1f}% | {points.mean:+.2f} | {interval} |"
        )
    return "\n".join(lines) + "\n"
