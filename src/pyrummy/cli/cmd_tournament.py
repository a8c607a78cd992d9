"""``pyrummy tournament``: bots against bots on duplicate deals.

``--deals`` counts deals in all (decks × rotations): with ``n`` players each
deck is dealt ``n`` times, once per rotation of the bots over the seats, so
``--deals 2000`` with 3 players plays 667 decks, 2001 deals. ``--decks``
gives the number of decks directly.

Output: a progress bar on stderr, then a table of each bot's mean net per
deal with its 95% confidence interval and the pairwise margins (stdout);
``results.json`` and ``cumulative.png`` in the output directory. ``--json``
prints the summary as JSON instead of the tables.
"""

from __future__ import annotations

import argparse
import json
import math
import secrets
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Table

from pyrummy.bots import BOT_NAMES
from pyrummy.cli.arguments import add_command, add_rules_arguments, amount, options_of, whole_number
from pyrummy.core.rules import find_rules
from pyrummy.extras import require

if TYPE_CHECKING:
    from pyrummy.tournament import Estimate, TournamentConfig, TournamentResult

#: Re-deals per hard-bot decision in tournaments (deterministic, unlike time).
DEFAULT_HARD_ROLLOUTS = 32


def register(subparsers: Any) -> None:
    parser = add_command(
        subparsers,
        "tournament",
        "bots against bots on duplicate deals, with confidence intervals",
        __doc__,
    )
    add_rules_arguments(parser)
    parser.add_argument(
        "--bots",
        required=True,
        help="bot names, one per seat, comma separated (e.g. hard,medium,simple)",
    )
    parser.add_argument(
        "--players",
        type=whole_number(1),
        default=None,
        help="number of players; must equal the number of bots (default: that number)",
    )
    size = parser.add_mutually_exclusive_group()
    size.add_argument(
        "--deals",
        type=whole_number(1),
        default=None,
        help="deals in all, decks × rotations, rounded up to whole decks (default 200)",
    )
    size.add_argument("--decks", type=whole_number(1), default=None, help="number of decks")
    parser.add_argument(
        "--seed", type=whole_number(0), default=None, help="tournament seed (default: random)"
    )
    parser.add_argument(
        "--workers", type=whole_number(1, 64), default=1, help="worker processes (default 1)"
    )
    parser.add_argument(
        "--ray",
        default=None,
        metavar="ADDRESS",
        help="play the decks as Ray tasks on the cluster at ADDRESS (auto, local or "
        "HOST:PORT; needs pyrummy[ray]); the results equal a local run's",
    )
    parser.add_argument(
        "--hard-budget",
        type=amount("seconds", 0, 60, above_low=True),
        default=None,
        metavar="SECONDS",
        help="thinking time per decision of the hard bot (results then depend on "
        "the machine's speed; default: a fixed number of rollouts)",
    )
    parser.add_argument(
        "--hard-rollouts",
        type=whole_number(1),
        default=DEFAULT_HARD_ROLLOUTS,
        metavar="N",
        help=f"re-deals searched per decision of the hard bot (default {DEFAULT_HARD_ROLLOUTS})",
    )
    parser.add_argument(
        "--out",
        type=Path,
        default=None,
        metavar="DIR",
        help="directory for results.json and cumulative.png "
        "(default tournament-<rules>-<players>p-seed<seed>)",
    )
    parser.add_argument("--no-files", action="store_true", help="write no files")
    parser.add_argument(
        "--json", action="store_true", help="print the summary as JSON instead of tables"
    )
    parser.set_defaults(func=run)


def config_from_args(args: argparse.Namespace) -> TournamentConfig:
    """The tournament the arguments ask for; a bad combination raises
    :class:`~pyrummy.tournament.TournamentError` (exit status 2)."""
    # The tournament layer is imported here, not at the top: every command's
    # module is loaded to build the parser, and only this one needs the extra.
    require("tournament")
    from pyrummy.tournament import TournamentConfig, TournamentError, decks_for_deals

    bots = tuple(name.strip().lower() for name in args.bots.split(","))
    if any(not name for name in bots):
        raise TournamentError(f"--bots {args.bots!r}: an empty bot name")
    if args.players is not None and args.players != len(bots):
        raise TournamentError(
            f"--players {args.players} but {len(bots)} bots in --bots {args.bots!r}: "
            "give one bot name per seat"
        )
    options = options_of(args)
    rules = find_rules(args.rules, **options)
    rules.check_players(len(bots))
    if args.decks is not None:
        decks = args.decks
    else:
        decks = decks_for_deals(args.deals if args.deals is not None else 200, len(bots))
    bot_options: dict[str, dict[str, object]] = {}
    if "hard" in bots:
        # A fixed number of rollouts keeps results identical on every machine and
        # for every worker count; a time budget trades that for the machine's speed.
        if args.hard_budget is not None:
            bot_options["hard"] = {"time_budget": args.hard_budget, "rollouts": None}
        else:
            bot_options["hard"] = {"rollouts": args.hard_rollouts}
    seed = args.seed if args.seed is not None else secrets.randbelow(10**9)
    return TournamentConfig(
        rules=rules.name,
        bots=bots,
        decks=decks,
        seed=seed,
        options=options,
        bot_options=bot_options,
    )


def run(args: argparse.Namespace) -> int:
    config = config_from_args(args)
    from pyrummy.tournament import run_tournament

    config.validate(BOT_NAMES)
    err = Console(stderr=True)
    out = Console()
    started = time.perf_counter()
    with Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("deals"),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=err,
        disable=not err.is_terminal,
        transient=False,
    ) as progress:
        task = progress.add_task(
            f"{config.resolved_rules().name} · {' v '.join(config.labels)}",
            total=config.total_deals,
        )
        result = run_tournament(
            config,
            workers=args.workers,
            progress=lambda n: progress.advance(task, n),
            known_bots=BOT_NAMES,
            ray_address=args.ray,
        )
    elapsed = time.perf_counter() - started
    files: list[Path] = []
    if not args.no_files:
        out_dir = args.out or Path(
            f"tournament-{config.resolved_rules().name}-{config.players}p-seed{config.seed}"
        )
        files = write_files(result, out_dir, elapsed=elapsed, workers=args.workers)
    if args.json:
        summary = result.to_dict(include_decks=False)
        summary["elapsed_seconds"] = round(elapsed, 3)
        summary["files"] = [str(path) for path in files]
        print(json.dumps(summary, indent=2))
    else:
        print_report(out, result, elapsed, files)
    return 0


def write_files(
    result: TournamentResult, out_dir: Path, elapsed: float, workers: int
) -> list[Path]:
    """``results.json`` (everything, per-deck results included) and the plot."""
    out_dir.mkdir(parents=True, exist_ok=True)
    document = result.to_dict(include_decks=True)
    document["elapsed_seconds"] = round(elapsed, 3)
    document["workers"] = workers
    json_path = out_dir / "results.json"
    json_path.write_text(json.dumps(document, indent=1) + "\n", encoding="utf-8")
    png_path = out_dir / "cumulative.png"
    plot_cumulative(result, png_path)
    return [json_path, png_path]


def plot_cumulative(result: TournamentResult, path: Path) -> None:
    """Each bot's running net total over the deals, as a PNG."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    config = result.config
    series = result.cumulative_net()
    fig, axis = plt.subplots(figsize=(9, 5), dpi=110)
    try:
        deals = list(range(1, len(series[0]) + 1))
        for entry, values in zip(result.entries, series, strict=True):
            label = f"{entry.label}: {entry.score.mean:+.2f}/deal"
            axis.plot(deals, values, label=label, linewidth=1.4)
        axis.axhline(0, color="grey", linewidth=0.8)
        axis.set_xlabel("deal (decks in order, every rotation)")
        axis.set_ylabel("cumulative net points")
        axis.set_title(
            f"{config.resolved_rules().title or config.rules}: {config.players} players, "
            f"{config.decks} decks × {config.players} rotations, seed {config.seed}"
        )
        axis.grid(alpha=0.3)
        axis.legend(loc="best")
        fig.tight_layout()
        fig.savefig(path)
    finally:
        plt.close(fig)


def _interval(estimate: Estimate) -> str:
    if math.isnan(estimate.half_width):
        return "n/a (1 deck)"
    return f"[{estimate.low:+.2f}, {estimate.high:+.2f}]"


def print_report(
    console: Console, result: TournamentResult, elapsed: float, files: list[Path]
) -> None:
    config = result.config
    rules = config.resolved_rules()
    option_text = rules.option_text()
    console.print(
        f"[bold]{rules.title or rules.name}[/bold] ({rules.name}"
        f"{' ' + option_text if option_text else ''}) · {config.players} players · "
        f"{config.decks} decks × {config.players} rotations = {config.total_deals} deals · "
        f"seed {config.seed} · {elapsed:.1f} s"
    )
    table = Table(title="Mean net points per deal (95% CI over decks)", title_justify="left")
    table.add_column("bot")
    table.add_column("mean/deal", justify="right")
    table.add_column("95% CI", justify="right")
    table.add_column("total", justify="right")
    table.add_column("deals won", justify="right")
    for entry in sorted(result.entries, key=lambda e: -e.score.mean):
        table.add_row(
            entry.label,
            f"{entry.score.mean:+.3f}",
            _interval(entry.score),
            f"{float(entry.total):+.1f}",
            f"{100 * entry.win_rate:.1f}%",
        )
    console.print(table)
    margins = Table(title="Pairwise margins, A − B per deck (95% CI)", title_justify="left")
    margins.add_column("A − B")
    margins.add_column("mean", justify="right")
    margins.add_column("95% CI", justify="right")
    margins.add_column("verdict")
    labels = config.labels
    for margin in result.margins:
        a, b, estimate = labels[margin.a], labels[margin.b], margin.estimate
        if estimate.excludes_zero:
            verdict = f"{a if estimate.mean > 0 else b} better"
        else:
            verdict = "no clear difference"
        margins.add_row(f"{a} − {b}", f"{estimate.mean:+.3f}", _interval(estimate), verdict)
    console.print(margins)
    outcomes = ", ".join(f"{name} {count}" for name, count in result.outcomes().items())
    console.print(f"Outcomes: {outcomes}")
    for path in files:
        console.print(f"Wrote {path}")
