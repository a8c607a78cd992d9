"""``pyrummy play``: you against bots in the terminal.

You sit in seat 0; each name in ``--bots`` takes the next seat, so the
number of players is the number of bots + 1. Type ``?`` at the prompt for
the keys; the full text form of every action (``discard 7H``,
``meld 7H 8H 9H``, ``layoff 9H 2``) works too.

To play a position (a puzzle, a hand from a real table), give every seat's
cards with ``--hands "7H 8H 9H ... / 2C 3C 4C ..."`` (yours first, seats
separated by ``/``), and optionally the discard pile's first card with
``--upcard KS``, the top of the stock with ``--stock "QC JC"`` and the first
dealer with ``--dealer N`` (the seat after the dealer plays first). Only the
first deal is set up; what is not given is shuffled by ``--seed``.
"""

from __future__ import annotations

import argparse
from typing import Any

from rich.console import Console

from pyrummy.cli.arguments import add_command, add_rules_arguments, amount, options_of, whole_number
from pyrummy.cli.play import PlaySession
from pyrummy.core.errors import RulesError
from pyrummy.core.rules import find_rules


def register(subparsers: Any) -> None:
    parser = add_command(subparsers, "play", "play against bots in the terminal", __doc__)
    add_rules_arguments(parser)
    parser.add_argument(
        "--bots",
        default="simple",
        help="opponents, comma separated, one per seat after yours (default simple)",
    )
    parser.add_argument("--seed", type=whole_number(0), default=None, help="seed of the match")
    parser.add_argument(
        "--target", type=whole_number(1), default=None, help="play to this score instead"
    )
    parser.add_argument(
        "--delay",
        type=amount("seconds", 0, 60),
        default=0.4,
        metavar="SECONDS",
        help="pause after each bot move (default 0.4)",
    )
    parser.add_argument(
        "--no-pause", action="store_true", help="do not wait for Enter between deals"
    )
    position = parser.add_argument_group("a set-up first deal")
    position.add_argument(
        "--hands",
        default=None,
        metavar="CARDS / CARDS ...",
        help="every seat's cards, yours first, seats separated by /",
    )
    position.add_argument("--upcard", default=None, metavar="CARD", help="the first discard")
    position.add_argument(
        "--stock", default=None, metavar="CARDS", help="the top of the stock, top card first"
    )
    position.add_argument(
        "--dealer", type=whole_number(0), default=None, metavar="SEAT", help="the first dealer"
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from pyrummy.bots import BOT_NAMES

    bot_names = [name.strip().lower() for name in args.bots.split(",")]
    for name in bot_names:
        if name not in BOT_NAMES:
            raise RulesError(f"unknown bot {name!r}; bots are: {', '.join(sorted(BOT_NAMES))}")
    options = options_of(args)
    rules = find_rules(args.rules, **options)
    rules.check_players(len(bot_names) + 1)
    console = Console(highlight=False)
    session = PlaySession.new(
        rules.name,
        bot_names,
        console,
        lambda prompt: console.input(f"[bold green]{prompt}[/]"),
        seed=args.seed,
        target=args.target,
        options=options,
        pause_between_deals=not args.no_pause,
        bot_delay=args.delay if console.is_terminal else 0.0,
        dealer=args.dealer,
        hands=args.hands,
        upcard=args.upcard,
        stock=args.stock,
    )
    session.run()
    return 0
