"""``pyrummy settle``: score a showdown entered by hand.

Each HAND is one quoted list of cards; seats are numbered from 0 in the
order given. ``--knocker`` is the knocking seat or ``none`` (a showdown
without a knocker; required for knock and gin, not used by block).

    pyrummy settle --rules knock --knocker 0 "4H 5H 6H QC QD QS 8D" "AS AH AD 7C 8C 9C 3H"

prints every hand's arrangement and deadwood (block: hand value), the
transfers in words (``seat 0 pays seat 1 15 (difference 5 + knock penalty
10)``) and the net per seat; ``--json`` prints the settlement as JSON, amounts
as exact fractions (``"17/2"``).
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from rich.text import Text

from pyrummy.cli.arguments import add_rules_arguments, rules_of
from pyrummy.cli.format import arrangement_table, cards_text, net_line, show, transfer_lines
from pyrummy.core.cards import Card
from pyrummy.core.errors import RulesError
from pyrummy.core.families import family_of
from pyrummy.core.rules import Rules
from pyrummy.core.settlement import Settlement, SettlementError, settle


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "settle",
        help="score a showdown: knock, knock-target, gin or block",
        description="Arrange every hand, settle the deal under the rules and print who pays "
        "whom. Each HAND is one quoted list of cards; seats are numbered from 0.",
    )
    add_rules_arguments(parser)
    parser.add_argument(
        "--knocker",
        metavar="SEAT|none",
        default=None,
        help="the seat that knocked, or none (required for knock and gin)",
    )
    parser.add_argument("--json", action="store_true", help="print the settlement as JSON")
    parser.add_argument("hands", nargs="+", metavar="HAND", help='one hand, e.g. "4H 5H 6H 8D"')
    parser.set_defaults(func=run)


def knocker_of(text: str | None, rules: Rules) -> int | None:
    """The ``--knocker`` value: a seat number, ``none``, or absent (block only)."""
    if text is None:
        if family_of(rules).showdown is None:  # no knock: nothing to name
            return None
        raise SettlementError(
            f"--knocker is required for {rules.name}: a seat number from 0, or none"
        )
    if text.strip().lower() == "none":
        return None
    try:
        return int(text)
    except ValueError:
        raise SettlementError(f"--knocker {text!r}: expected a seat number or none") from None


def run(args: argparse.Namespace) -> int:
    rules = rules_of(args)
    knocker = knocker_of(args.knocker, rules)
    try:
        result = settle(args.hands, knocker, rules)
    except RulesError as exc:
        if len(args.hands) > rules.max_players and all(len(h.split()) == 1 for h in args.hands):
            raise RulesError(f'{exc} (quote each hand: "4H 5H 6H ...")') from None
        raise
    if args.json:
        print(json.dumps(result.to_dict()))
    else:
        show(*report(result, rules))
    return 0


def report(result: Settlement, rules: Rules) -> list[Text | str | Any]:
    """The settlement for people: hands, lay-offs, transfers, net."""
    whole_hands = family_of(rules).whole_hands
    rows = []
    for seat, hand in enumerate(result.hands):
        label = f"{seat} (knocker)" if seat == result.knocker else str(seat)
        rows.append((label, hand, result.counts[seat]))
    parts: list[Text | str | Any] = [
        f"{rules.title or rules.name}: {outcome_text(result)}",
        arrangement_table(rows, "hand value" if whole_hands else "deadwood"),
    ]
    if result.defender_deadwood is not None and result.knocker is not None:
        defender = 1 - result.knocker
        laid: dict[int, list[Card]] = {}
        for card, index in result.layoffs:
            laid.setdefault(index, []).append(card)
        melds = result.hands[result.knocker].melds
        for index, cards in laid.items():
            parts.append(
                Text.assemble(
                    f"seat {defender} lays off ",
                    cards_text(cards),
                    " on [",
                    cards_text(melds[index]),
                    "]",
                )
            )
        parts.append(f"seat {defender} deadwood after lay-offs: {result.defender_deadwood}")
    lines = transfer_lines(result.transfers)
    parts.extend(lines or ["nobody pays or scores"])
    parts.append(f"net: {net_line(result.net)}")
    return parts


_OUTCOMES = {
    "rum": "the knocker goes rum",
    "knocker-lowest": "the knocker is lowest",
    "knocker-tied": "the knocker ties for lowest",
    "knocker-beaten": "the knocker is beaten",
    "no-knocker": "showdown without a knocker",
    "knock": "the knocker is lower",
    "undercut": "undercut",
    "gin": "gin",
    "block": "nobody out: the lowest hand collects",
    "penalty": "nobody out: every hand is a penalty",
    "draw": "a draw",
}


def outcome_text(result: Settlement) -> str:
    text = _OUTCOMES.get(result.outcome, result.outcome)
    if result.winners:
        seats = ", ".join(str(seat) for seat in result.winners)
        text += f"; {'winner' if len(result.winners) == 1 else 'winners'}: seat {seats}"
    return text
