"""Entry point of the ``pyrummy`` command.

Each subcommand lives in its own module ``pyrummy.cli.cmd_<name>`` that
defines ``register(subparsers)``; it adds its parser and sets ``func`` (a
callable taking the parsed namespace and returning the exit status).
Errors on bad input are :class:`pyrummy.core.errors.RummyError`: they are
printed as one line on stderr with exit status 2, and so is a missing extra
(the command needs ``pyrummy[cli]``; ``serve`` needs ``pyrummy[web]``).
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys
from collections.abc import Sequence

import pyrummy.cli
from pyrummy import __version__
from pyrummy.core.errors import RummyError
from pyrummy.extras import MissingExtraError, require


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="pyrummy",
        description="Knock Rummy, Rummy, Gin and their cousins: rules, bots, play and analysis.",
    )
    parser.add_argument("-V", "--version", action="version", version=f"pyrummy {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    names = sorted(
        info.name
        for info in pkgutil.iter_modules(pyrummy.cli.__path__)
        if info.name.startswith("cmd_")
    )
    for name in names:
        module = importlib.import_module(f"pyrummy.cli.{name}")
        module.register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    arguments = sys.argv[1:] if argv is None else list(argv)
    if arguments in (["--version"], ["-V"]):  # answered even without the cli extra
        print(f"pyrummy {__version__}")
        return 0
    try:
        require("cli")
    except MissingExtraError as exc:
        print(f"pyrummy: {exc}", file=sys.stderr)
        return 2
    parser = build_parser()
    args = parser.parse_args(arguments)
    if not getattr(args, "func", None):
        parser.print_help()
        return 0
    try:
        status: int = args.func(args)
    except (RummyError, MissingExtraError) as exc:
        print(f"pyrummy {args.command}: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    return status


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
