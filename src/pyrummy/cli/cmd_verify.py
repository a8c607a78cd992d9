"""``pyrummy verify RECORD``: check that a record's deals were dealt fairly.

Every deal must carry a commitment and its reveal (docs/fair-deals.md):
the revealed seed and salt must give the commitment, and the deck the deal
was played with (so every hand dealt, the upcard and the stock) must be the
one the revealed seed deals by the record's shuffle. The whole record is
replayed too, move by move, with its results. Prints ``verified`` and exits
0, or says which deal fails and why and exits 1; a file that cannot be read
exits 2.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path
from typing import Any

from pyrummy.core.errors import RecordError
from pyrummy.core.match import Match
from pyrummy.core.record import read_record

_DEAL_LINE = re.compile(r"\s*Deal\s+(\d+)\s*$")


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "verify",
        help="check a record's commitments and that its decks come from the revealed seeds",
        description="Check that each deal of a game record was committed to before it was "
        "played and dealt by the revealed seed (docs/fair-deals.md), and that the record "
        "replays. Exit 0 and 'verified', or 1 with the deal that fails and why.",
    )
    parser.add_argument("record", metavar="RECORD", help="the record (a text file; - for stdin)")
    parser.set_defaults(func=run)


def _deal_at(text: str, line: int | None) -> int | None:
    """The number of the deal section that holds ``line`` (None: the headers)."""
    deal: int | None = None
    for number, content in enumerate(text.splitlines(), start=1):
        if line is not None and number > line:
            break
        found = _DEAL_LINE.fullmatch(content)
        if found is not None:
            deal = int(found.group(1))
    return deal


def problems(text: str) -> list[str]:
    """Why the record does not verify, one line per problem (empty: it does)."""
    try:
        record = read_record(text)
    except RecordError as exc:
        reason = str(exc).removeprefix(f"line {exc.line}: ")
        deal = _deal_at(text, exc.line)
        where = f"line {exc.line}" if exc.line is not None else "the record"
        if deal is not None and not reason.startswith(f"deal {deal}:"):
            reason = f"deal {deal}: {reason}"
        return [f"{where}: {reason}"]
    game = record.game
    numbers = [d.deal_number for d in (game.deals if isinstance(game, Match) else [game])]
    found: list[str] = []
    for number in numbers:
        fairness = record.fairness.get(number)
        if fairness is None:
            found.append(
                f"deal {number}: no commitment (dealt before fair deals, or set up by hand)"
            )
        elif not fairness.revealed:
            found.append(f"deal {number}: its seed and salt are not revealed (not over yet?)")
    return found


def run(args: argparse.Namespace) -> int:
    name = args.record
    try:
        text = sys.stdin.read() if name == "-" else Path(name).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        print(f"{name}: cannot read: {exc}", file=sys.stderr)
        return 2
    found = problems(text)
    if found:
        for problem in found:
            print(f"{name}: not verified: {problem}", file=sys.stderr)
        return 1
    print(f"{name}: verified")
    return 0
