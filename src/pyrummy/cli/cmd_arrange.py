"""``pyrummy arrange CARDS...``: the best arrangement of a hand.

The cards may be one quoted string or several words (``pyrummy arrange 7S 7H
7D 8S 9S``). Prints the melds and the deadwood left, with suit symbols, or
with ``--json`` exactly ``{"cards": [...], "melds": [[...], ...],
"deadwood_cards": [...], "deadwood": N}`` (cards in notation).
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from rich.table import Table
from rich.text import Text

from pyrummy.cli.arguments import add_rules_arguments, rules_of
from pyrummy.cli.format import cards_text, show
from pyrummy.core.cards import Card, CardSet, parse_cards
from pyrummy.core.melds import check_meld
from pyrummy.core.rules import Rules
from pyrummy.core.solver import Arrangement, best_arrangement


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "arrange",
        help="the best arrangement of a hand (least deadwood)",
        description="Arrange a hand into non-overlapping melds that leave the least deadwood.",
    )
    add_rules_arguments(parser)
    parser.add_argument("--json", action="store_true", help="print the arrangement as JSON")
    parser.add_argument(
        "cards", nargs="+", metavar="CARDS", help='the hand, e.g. "7S 7H 7D 8S 9S" (10 = T)'
    )
    parser.set_defaults(func=run)


def arrangement_dict(arrangement: Arrangement, rules: Rules) -> dict[str, object]:
    """The JSON form of an arrangement, cards in notation, melds in meld order.

    >>> from pyrummy.core.rules import find_rules
    >>> rules = find_rules("rotham")
    >>> data = arrangement_dict(best_arrangement("7S 7H 7D 8S X1", rules), rules)
    >>> data["melds"], data["deadwood_cards"], data["deadwood"]
    ([['7S', '7H', '7D', 'X1']], ['8S'], 8)
    """
    return {
        "cards": [str(card) for card in arrangement.cards],
        "melds": [[str(card) for card in meld_cards(meld, rules)] for meld in arrangement.melds],
        "deadwood_cards": [str(card) for card in arrangement.deadwood_cards],
        "deadwood": arrangement.deadwood,
    }


def meld_cards(meld: CardSet, rules: Rules) -> tuple[Card, ...]:
    """A meld's cards in meld order (a joker where it stands in a run)."""
    return check_meld(meld, rules).cards


def run(args: argparse.Namespace) -> int:
    rules = rules_of(args)
    hand = parse_cards(" ".join(args.cards))
    arrangement = best_arrangement(hand, rules)
    if args.json:
        print(json.dumps(arrangement_dict(arrangement, rules)))
        return 0
    table = Table(box=None, pad_edge=False, show_header=False)
    table.add_column()
    table.add_column()
    for cards in arrangement.melds:
        meld = check_meld(cards, rules)
        table.add_row(meld.kind.value, cards_text(meld.cards))
    table.add_row("deadwood", cards_text(arrangement.deadwood_cards) or Text("-"))
    show(
        Text.assemble(f"{rules.name}: ", cards_text(hand)),
        table,
        f"deadwood {arrangement.deadwood}",
    )
    return 0
