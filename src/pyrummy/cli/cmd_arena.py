"""``pyrummy arena``: any set of bots in duplicate, rated on a ladder.

Every pair of entrants plays the same decks, each deck dealt twice with the
seats swapped. Entrants (``--bots``, comma separated, or ``--bot`` once per
entrant): our bots (``random``, ``simple``, ``medium``, ``hard``, with
options as ``hard+rollouts=16``), ``openspiel:simple`` and
``openspiel:ismcts`` (``--game openspiel-gin`` only), ``rlcard:gin-rule``
(gin games; ``pip install rlcard``), and ``cmd:PROGRAM ARGS``, a program
speaking the line protocol of docs/arena-protocol.md.

The game: ``--game PRESET`` (with ``-o NAME=VALUE`` options) is played by
pyrummy's engine; ``--game openspiel-gin`` is OpenSpiel's own gin_rummy
with its default rules, where our bots play through the bridge.

Every finished board is appended to the results file (JSON Lines, default
``arena-<game>-seed<seed>.jsonl``); ``--resume`` continues it and ends with
the results an uninterrupted run gives. ``--ray ADDRESS`` plays the boards
as Ray tasks on a cluster (``auto``, ``local`` or ``HOST:PORT``; needs
``pyrummy[ray]``), with the same results. At the end the ladder (ratings
with intervals, head-to-head) is printed, and written to ``--ladder FILE``.

Example::

    pyrummy arena --game openspiel-gin --bots simple,hard,openspiel:simple \\
        --deals 200 --seed 1 --ladder ladder-gin.md
"""

from __future__ import annotations

import argparse
import secrets
import shlex
import sys
import time
from pathlib import Path
from typing import Any

from pyrummy.cli.arguments import add_command, amount, whole_number
from pyrummy.core.errors import RummyError
from pyrummy.core.rules import format_option, parse_options
from pyrummy.extras import require

#: Deals per pair unless told otherwise.
DEFAULT_DEALS = 100


def register(subparsers: Any) -> None:
    parser = add_command(
        subparsers, "arena", "any set of bots in duplicate, with a rated ladder", __doc__
    )
    parser.add_argument(
        "--game",
        default="knock",
        metavar="GAME",
        help="a preset (knock, gin, ...) or openspiel-gin (OpenSpiel's own gin); default knock",
    )
    parser.add_argument(
        "-o",
        "--option",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="change one rule option of the preset (repeatable)",
    )
    parser.add_argument(
        "--bots", default=None, help="entrants, comma separated (e.g. random,simple,hard)"
    )
    parser.add_argument(
        "--bot",
        action="append",
        default=[],
        metavar="ENTRANT",
        help="one more entrant (repeatable; for a cmd: entrant with commas)",
    )
    size = parser.add_mutually_exclusive_group()
    size.add_argument(
        "--deals",
        type=whole_number(2),
        default=None,
        help=f"deals per pair, two per deck (default {DEFAULT_DEALS})",
    )
    size.add_argument("--decks", type=whole_number(1), default=None, help="decks per pair")
    parser.add_argument(
        "--seed", type=whole_number(0), default=None, help="arena seed (default: random)"
    )
    parser.add_argument(
        "--workers", type=whole_number(1, 64), default=1, help="worker processes (default 1)"
    )
    parser.add_argument(
        "--time-limit",
        type=amount("seconds", 0, 600, above_low=True),
        default=5.0,
        metavar="SECONDS",
        help="per decision (default 5): a program is cut off and faulted, "
        "an in-process bot's late decisions are counted",
    )
    parser.add_argument(
        "--results", type=Path, default=None, metavar="FILE", help="the JSON Lines results file"
    )
    parser.add_argument(
        "--resume", action="store_true", help="continue the results file (same settings)"
    )
    parser.add_argument(
        "--ray",
        default=None,
        metavar="ADDRESS",
        help="play the boards as Ray tasks: auto, local or HOST:PORT (needs pyrummy[ray])",
    )
    parser.add_argument(
        "--ladder", type=Path, default=None, metavar="FILE", help="write the ladder (Markdown)"
    )
    parser.add_argument(
        "--anchor",
        default=None,
        metavar="ENTRANT[=RATING]",
        help="the entrant whose rating is fixed (default simple=1000, else the first)",
    )
    parser.set_defaults(func=run)


def _entrants(args: argparse.Namespace) -> tuple[str, ...]:
    named = [] if args.bots is None else [name.strip() for name in args.bots.split(",")]
    named += [name.strip() for name in args.bot]
    if any(not name for name in named):
        raise RummyError("--bots: an empty entrant name")
    if len(named) < 2:
        raise RummyError("name at least 2 entrants with --bots or --bot")
    return tuple(named)


def _anchor(text: str | None) -> tuple[str | None, float]:
    if text is None:
        return None, 1000.0
    label, equals, rating = text.partition("=")
    if not equals:
        return label.strip(), 1000.0
    try:
        return label.strip(), float(rating)
    except ValueError:
        raise RummyError(f"--anchor {text!r}: the rating must be a number") from None


def command_line(args: argparse.Namespace, entrants: tuple[str, ...], decks: int, seed: int) -> str:
    """The command that replays this arena (its settings spelt out)."""
    words = ["pyrummy", "arena", "--game", args.game]
    for name, value in parse_options(list(args.option)).items():
        words += ["-o", f"{name}={format_option(value)}"]
    if any("," in name for name in entrants):
        for name in entrants:
            words += ["--bot", name]
    else:
        words += ["--bots", ",".join(entrants)]
    words += ["--decks", str(decks), "--seed", str(seed), "--time-limit", f"{args.time_limit:g}"]
    if args.anchor is not None:
        words += ["--anchor", args.anchor]
    if args.ladder is not None:
        words += ["--ladder", str(args.ladder)]
    return shlex.join(words)


def run(args: argparse.Namespace) -> int:
    require("tournament")
    from pyrummy.arena import (
        ArenaConfig,
        ladder_markdown,
        read_results,
        run_arena,
        software_versions,
        summarize,
    )

    entrants = _entrants(args)
    seed = args.seed
    results = args.results
    if seed is None and args.resume and results is not None and results.exists():
        seed = int(read_results(results).header["config"]["seed"])  # the file's own seed
    if seed is None:
        seed = secrets.randbelow(10**9)
    decks = args.decks if args.decks is not None else -(-(args.deals or DEFAULT_DEALS) // 2)
    config = ArenaConfig(
        game=args.game,
        entrants=entrants,
        decks=decks,
        seed=seed,
        options=parse_options(list(args.option)),
        time_limit=args.time_limit,
    )
    config.validate()
    anchor, anchor_rating = _anchor(args.anchor)
    if anchor is not None and anchor not in entrants:
        raise RummyError(f"--anchor {anchor!r} is not an entrant ({', '.join(entrants)})")
    if results is None:
        results = Path(f"arena-{config.resolved_game().name}-seed{seed}.jsonl")
    game = config.resolved_game().describe()
    started = time.perf_counter()
    with _progress(f"{game}: {len(config.pairs())} pairs", config.deals) as advance:
        records = run_arena(
            config,
            results,
            resume=args.resume,
            workers=args.workers,
            ray_address=args.ray,
            progress=advance,
        )
    elapsed = time.perf_counter() - started
    ladder = summarize(config, records, anchor=anchor, anchor_rating=anchor_rating)
    software = dict(read_results(results).header.get("software", software_versions()))
    text = ladder_markdown(
        ladder, command=command_line(args, entrants, decks, seed), game=game, software=software
    )
    print(text, end="")
    print(f"{len(records)} boards in {results} · {elapsed:.1f} s", file=sys.stderr)
    if args.ladder is not None:
        args.ladder.parent.mkdir(parents=True, exist_ok=True)
        args.ladder.write_text(text, encoding="utf-8")
        print(f"Wrote {args.ladder}", file=sys.stderr)
    return 0


class _progress:
    """A progress bar on a terminal (rich), else a line every tenth of the run."""

    def __init__(self, title: str, total: int) -> None:
        self.title = title
        self.total = total
        self.done = 0
        self.next_line = 0
        self.started = time.perf_counter()
        self.bar: Any = None
        self.task: Any = None

    def __enter__(self) -> Any:
        try:
            from rich.console import Console
            from rich.progress import (
                BarColumn,
                MofNCompleteColumn,
                Progress,
                TextColumn,
                TimeElapsedColumn,
                TimeRemainingColumn,
            )
        except ImportError:  # pragma: no cover - the cli extra brings rich
            return self.advance
        console = Console(stderr=True)
        if console.is_terminal:
            self.bar = Progress(
                TextColumn("[bold]{task.description}"),
                BarColumn(),
                MofNCompleteColumn(),
                TextColumn("deals"),
                TimeElapsedColumn(),
                TimeRemainingColumn(),
                console=console,
            )
            self.bar.__enter__()
            self.task = self.bar.add_task(self.title, total=self.total)
        return self.advance

    def advance(self, deals: int) -> None:
        self.done += deals
        if self.bar is not None:
            self.bar.advance(self.task, deals)
        elif self.done >= self.next_line or self.done == self.total:
            seconds = time.perf_counter() - self.started
            print(
                f"arena: {self.done}/{self.total} deals · {seconds:.0f} s",
                file=sys.stderr,
                flush=True,
            )
            self.next_line = self.done + max(1, self.total // 10)

    def __exit__(self, *exc: object) -> None:
        if self.bar is not None:
            self.bar.__exit__(None, None, None)
