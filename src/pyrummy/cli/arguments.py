"""The argument types and the rules arguments every ``pyrummy`` command shares.

Each type checks one argument and, when it is wrong, says what was expected
and what was given; argparse prefixes the argument's name::

    pyrummy serve: error: argument --workers: expected a whole number 1-64, got '0'

>>> whole_number(1, 64)("8")
8
>>> whole_number(1, 64)("0")
Traceback (most recent call last):
...
argparse.ArgumentTypeError: expected a whole number 1-64, got '0'
>>> amount("seconds", 0, 10)("0.5")
0.5
>>> amount("hours", 0, 24, above_low=True)("0")
Traceback (most recent call last):
...
argparse.ArgumentTypeError: expected hours above 0 and at most 24, got '0'
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable
from typing import Any

from pyrummy.core.rules import Rules, find_rules, parse_options, preset_names

__all__ = [
    "add_command",
    "add_rules_arguments",
    "amount",
    "options_of",
    "rules_of",
    "whole_number",
]


def whole_number(low: int = 0, high: int | None = None) -> Callable[[str], int]:
    """The type of a whole-number argument from ``low`` to ``high`` (None: no
    upper bound). Only ASCII digits are read: ``+3``, ``3.0`` and ``٣`` are not
    whole numbers here.

    >>> whole_number()("-1")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: expected a whole number >= 0, got '-1'
    """
    expected = f"a whole number {low}-{high}" if high is not None else f"a whole number >= {low}"

    def whole(text: str) -> int:
        stripped = text.strip()
        negative = stripped.startswith("-")  # read, so that the message names the bound
        digits = stripped[1:] if negative else stripped
        value = None
        if digits.isascii() and digits.isdigit():
            value = -int(digits) if negative else int(digits)
        if value is None or value < low or (high is not None and value > high):
            raise argparse.ArgumentTypeError(f"expected {expected}, got {text!r}")
        return value

    whole.__name__ = "whole number"  # argparse names the type in its own messages
    return whole


def amount(
    unit: str, low: float, high: float, *, above_low: bool = False
) -> Callable[[str], float]:
    """The type of a quantity in ``unit`` (seconds, hours...) from ``low`` to
    ``high``; with ``above_low``, ``low`` itself is refused.

    >>> amount("seconds", 0.05, 60)("nan")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: expected seconds 0.05-60, got 'nan'
    """
    expected = (
        f"{unit} above {low:g} and at most {high:g}" if above_low else f"{unit} {low:g}-{high:g}"
    )

    def quantity(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            value = math.nan
        # NaN fails every comparison, so it is refused with the rest.
        if not (low < value if above_low else low <= value) or not value <= high:
            raise argparse.ArgumentTypeError(f"expected {expected}, got {text!r}")
        return value

    quantity.__name__ = unit
    return quantity


def add_command(subparsers: Any, name: str, summary: str, doc: str) -> argparse.ArgumentParser:
    """The parser of command ``name``: its ``--help`` is the module's docstring
    ``doc``, paragraphs kept, double backquotes taken out."""
    parser: argparse.ArgumentParser = subparsers.add_parser(
        name,
        help=summary,
        description=doc.replace("``", ""),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    return parser


def add_rules_arguments(parser: Any, default: str = "knock") -> None:
    """``--rules PRESET`` and the repeatable ``-o/--option NAME=VALUE``
    (read them with :func:`rules_of` or :func:`options_of`)."""
    parser.add_argument(
        "--rules",
        default=default,
        metavar="PRESET",
        help=f"preset ({', '.join(preset_names())}); default {default}",
    )
    parser.add_argument(
        "-o",
        "--option",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="change one rule option (repeatable), e.g. -o ace=high_or_low",
    )


def options_of(args: argparse.Namespace) -> dict[str, Any]:
    """The ``-o`` options, read (not yet checked against a preset)."""
    return parse_options(list(args.option))


def rules_of(args: argparse.Namespace) -> Rules:
    """The preset of ``--rules`` with the ``-o`` options, checked."""
    return find_rules(args.rules, **options_of(args))
