"""The argument types and rules arguments shared by every ``pyrummy`` command
(pyrummy.cli.arguments): what they accept, what they say when they refuse."""

from __future__ import annotations

import argparse

import pytest

from pyrummy.cli.arguments import amount, rules_of, whole_number
from pyrummy.cli.main import build_parser, main


@pytest.mark.parametrize(
    ("low", "high", "text", "value"),
    [(1, 64, "1", 1), (1, 64, "64", 64), (0, None, "0", 0), (0, None, " 12 ", 12)],
)
def test_whole_numbers_in_range_are_read(low: int, high: int | None, text: str, value: int) -> None:
    assert whole_number(low, high)(text) == value


@pytest.mark.parametrize(
    ("low", "high", "text", "message"),
    [
        (1, 64, "0", "expected a whole number 1-64, got '0'"),
        (1, 64, "65", "expected a whole number 1-64, got '65'"),
        (0, None, "-1", "expected a whole number >= 0, got '-1'"),
        (0, None, "3.0", "expected a whole number >= 0, got '3.0'"),
        (0, None, "+3", "expected a whole number >= 0, got '+3'"),
        (0, None, "٣", "expected a whole number >= 0, got '٣'"),
        (0, None, "", "expected a whole number >= 0, got ''"),
    ],
)
def test_whole_numbers_refused_say_what_was_expected(
    low: int, high: int | None, text: str, message: str
) -> None:
    with pytest.raises(argparse.ArgumentTypeError) as refused:
        whole_number(low, high)(text)
    assert str(refused.value) == message


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("-0.5", "expected seconds 0-10, got '-0.5'"),
        ("10.5", "expected seconds 0-10, got '10.5'"),
        ("soon", "expected seconds 0-10, got 'soon'"),
        ("nan", "expected seconds 0-10, got 'nan'"),
        ("inf", "expected seconds 0-10, got 'inf'"),
    ],
)
def test_amounts_refused_say_what_was_expected(text: str, message: str) -> None:
    with pytest.raises(argparse.ArgumentTypeError) as refused:
        amount("seconds", 0, 10)(text)
    assert str(refused.value) == message


def test_an_amount_may_exclude_its_lower_bound() -> None:
    assert amount("seconds", 0, 10)("0") == 0.0
    assert amount("hours", 0, 24, above_low=True)("0.5") == 0.5
    with pytest.raises(argparse.ArgumentTypeError, match="expected hours above 0 and at most 24"):
        amount("hours", 0, 24, above_low=True)("0")


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["serve", "--workers", "0"], "argument --workers: expected a whole number 1-64, got '0'"),
        (
            ["serve", "--worker-healthcheck", "0"],
            "argument --worker-healthcheck: expected a whole number 1-600, got '0'",
        ),
        (["serve", "--port", "http"], "argument --port: expected a whole number 0-65535"),
        (["serve", "--bot-delay", "11"], "argument --bot-delay: expected seconds 0-10, got '11'"),
        (["serve", "--idle-after", "0"], "argument --idle-after: expected minutes above 0"),
        (["play", "--target", "0"], "argument --target: expected a whole number >= 1, got '0'"),
        (["simulate", "--seed", "-3"], "argument --seed: expected a whole number >= 0, got '-3'"),
        (
            ["tournament", "--bots", "simple,random", "--workers", "99"],
            "argument --workers: expected a whole number 1-64, got '99'",
        ),
    ],
)
def test_the_command_line_names_the_argument_and_the_expectation(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(argv)
    assert exit_.value.code == 2
    assert message in capsys.readouterr().err


@pytest.mark.parametrize(
    "command",
    [
        ["arrange", "7S 7H 7D"],
        ["settle", "7S 7H 7D"],
        ["simulate"],
        ["play"],
        ["tournament", "--bots", "simple,random"],
    ],
)
def test_every_command_that_takes_rules_takes_short_and_long_options(command: list[str]) -> None:
    parser = build_parser()
    short = parser.parse_args([*command, "--rules", "rummy", "-o", "ace=high_or_low"])
    long = parser.parse_args([*command, "--rules", "gin", "--option", "target=50"])
    assert rules_of(short).name == "rummy" and rules_of(short).ace == "high_or_low"
    assert rules_of(long).target == 50
