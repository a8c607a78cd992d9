"""``pyrummy replay FILE``: check a game record and print its results.

The record is replayed move by move (see :mod:`pyrummy.core.record`); the
results are recomputed and must agree with those written. A broken record
prints ``FILE:LINE: reason`` on stderr and exits with status 2.
"""

from __future__ import annotations

import argparse
import json
import sys
from fractions import Fraction
from pathlib import Path
from typing import Any

from pyrummy.core.deal import Deal
from pyrummy.core.errors import RecordError
from pyrummy.core.match import Match
from pyrummy.core.record import format_points, read_record


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "replay",
        help="check a game record and print its results",
        description="Replay a game record move by move, check its written results, "
        "and print each deal's outcome and points and the final standings.",
    )
    parser.add_argument("file", metavar="FILE", help="the record (a text file; - for stdin)")
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    name = args.file
    try:
        text = sys.stdin.read() if name == "-" else Path(name).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        print(f"{name}: cannot read: {exc}", file=sys.stderr)
        return 2
    try:
        record = read_record(text)
    except RecordError as exc:
        reason = str(exc).removeprefix(f"line {exc.line}: ")
        where = f"{name}:{exc.line}" if exc.line is not None else name
        print(f"{where}: {reason}", file=sys.stderr)
        return 2
    summary = summarize(record.game)
    if args.json:
        print(json.dumps(summary, indent=2))
    else:
        print(render(summary))
    return 0


def summarize(game: Match | Deal) -> dict[str, object]:
    """The results of a replayed game as JSON-able data."""
    deals = game.deals if isinstance(game, Match) else [game]
    names = (
        list(game.names)
        if isinstance(game, Match)
        else [f"Seat {seat + 1}" for seat in range(game.players)]
    )
    result: dict[str, object] = {
        "kind": "match" if isinstance(game, Match) else "deal",
        "rules": game.rules.name,
        "options": game.rules.option_text(),
        "players": game.players,
        "names": names,
        "deals": [
            {
                "number": deal.deal_number,
                "dealer": deal.dealer,
                "actions": len(deal.history),
                "over": deal.is_over,
                "outcome": None if deal.settlement is None else deal.settlement.outcome,
                "winners": None if deal.settlement is None else list(deal.settlement.winners),
                "net": None if deal.settlement is None else [str(n) for n in deal.settlement.net],
            }
            for deal in deals
        ],
        "over": game.is_over,
    }
    if isinstance(game, Match):
        result["standings"] = game.standings.to_dict()
    return result


def render(summary: dict[str, Any]) -> str:
    names: list[str] = summary["names"]
    title = f"{summary['rules']}" + (f" ({summary['options']})" if summary["options"] else "")
    lines = [f"{summary['kind'].capitalize()} of {title}, {summary['players']} players"]
    for deal in summary["deals"]:
        head = f"Deal {deal['number']} (dealer {names[deal['dealer']]}, {deal['actions']} actions)"
        if deal["outcome"] is None:
            lines.append(f"{head}: not over")
            continue
        points = ", ".join(f"{names[seat]} {_signed(net)}" for seat, net in enumerate(deal["net"]))
        lines.append(f"{head}: {deal['outcome']}; {points}")
    standings = summary.get("standings")
    if standings is not None:
        state = "final standings" if summary["over"] else "standings so far"
        lines.append(f"{state.capitalize()}:")
        for place, seat in enumerate(standings["order"], start=1):
            mark = " (winner)" if summary["over"] and seat in standings["winners"] else ""
            lines.append(f"  {place}. {names[seat]} {_signed(standings['totals'][seat])}{mark}")
    return "\n".join(lines)


def _signed(text: str) -> str:
    return format_points(Fraction(text))
