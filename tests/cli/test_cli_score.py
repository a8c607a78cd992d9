"""``pyrummy arrange`` and ``pyrummy settle`` through the real entry point."""

from __future__ import annotations

import json

import pytest

from pyrummy.cli.main import main

A_HAND = "4H 5H 6H QC QD QS 8D"
B_HAND = "AS AH AD 7C 8C 9C 3H"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def failure(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    """Run a command that must fail on bad input: exit 2, one line on stderr, no stdout."""
    status, out, err = run(capsys, *argv)
    assert status == 2
    assert out == ""
    assert len(err.strip().splitlines()) == 1
    return err


# ---------------------------------------------------------------------------
# arrange


def test_arrange_json_is_exactly_the_documented_shape(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, "arrange", "--json", "7S 7H 7D 8S 9S")
    assert status == 0
    assert err == ""
    assert json.loads(out) == {
        "cards": ["7S", "8S", "9S", "7H", "7D"],
        "melds": [["7S", "8S", "9S"]],
        "deadwood_cards": ["7H", "7D"],
        "deadwood": 14,
    }


def test_arrange_accepts_several_words(capsys: pytest.CaptureFixture[str]) -> None:
    _, one, _ = run(capsys, "arrange", "--json", A_HAND)
    _, many, _ = run(capsys, "arrange", "--json", *A_HAND.split())
    assert one == many
    assert json.loads(one)["deadwood"] == 8


def test_arrange_text_shows_suit_symbols(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "arrange", A_HAND)
    assert status == 0
    assert "4♥ 5♥ 6♥" in out
    assert "Q♠ Q♦ Q♣" in out
    assert "deadwood 8" in out


def test_arrange_rules_and_options(capsys: pytest.CaptureFixture[str]) -> None:
    _, low, _ = run(capsys, "arrange", "--json", "QS KS AS")
    _, high, _ = run(
        capsys, "arrange", "--json", "--rules", "basic", "--option", "ace=high_or_low", "QS KS AS"
    )
    assert json.loads(low)["deadwood"] == 21
    assert json.loads(high)["deadwood"] == 0


def test_arrange_joker_stands_in_its_place(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, "arrange", "--json", "--rules", "rotham", "5H X1 7H 2C")
    assert json.loads(out)["melds"] == [["5H", "X1", "7H"]]


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["arrange", "7S 7Z"], "'7Z' is not a card"),
        (["arrange", "7S 7S"], "7S appears twice"),
        (["arrange", "--rules", "canasta", "7S"], "unknown rules 'canasta'"),
        (["arrange", "--option", "ace=sideways", "7S"], "option ace"),
    ],
)
def test_arrange_bad_input(capsys: pytest.CaptureFixture[str], argv: list[str], words: str) -> None:
    assert words in failure(capsys, *argv)


# ---------------------------------------------------------------------------
# settle


def test_settle_example_1_text(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, "settle", "--rules", "knock", "--knocker", "0", A_HAND, B_HAND)
    assert status == 0
    assert err == ""
    assert "seat 0 pays seat 1 15 (difference 5 + knock penalty 10)" in out
    assert "seat 0 -15, seat 1 +15" in out
    assert "4♥ 5♥ 6♥" in out
    assert "3♥" in out


def test_settle_example_1_json(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, "settle", "--json", "--knocker", "0", A_HAND, B_HAND)
    data = json.loads(out)
    assert data["net"] == ["-15", "15"]
    assert data["transfers"] == [
        {"from": 0, "to": 1, "amount": "5", "reason": "difference"},
        {"from": 0, "to": 1, "amount": "10", "reason": "knock penalty"},
    ]
    assert data["hands"][1]["seat"] == 1
    assert data["hands"][1]["deadwood"] == 3
    assert data["hands"][1]["deadwood_cards"] == ["3H"]
    assert sorted(data["hands"][1]["melds"]) == [["7C", "8C", "9C"], ["AS", "AH", "AD"]]


def test_settle_shared_amounts_show_halves(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, "settle", "--knocker", "0", "9S", "2H", "2D", "5C")
    assert "seat 0 pays seat 1 8½ (difference 3½ + knock penalty 5)" in out
    assert "seat 3 pays seat 2 1½ (difference)" in out
    _, out, _ = run(capsys, "settle", "--json", "--knocker", "0", "9S", "2H", "2D", "5C")
    amounts = {(t["from"], t["to"], t["reason"]): t["amount"] for t in json.loads(out)["transfers"]}
    assert amounts[0, 1, "difference"] == "7/2"
    assert amounts[3, 2, "difference"] == "3/2"


def test_settle_thirds_show_as_fractions(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, "settle", "--knocker", "none", "2S", "2H", "2D", "4C")
    assert "seat 3 pays seat 0 2/3 (difference)" in out
    assert "seat 0 +2/3" in out


def test_settle_knock_target(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, "settle", "--rules", "knock-target", "--knocker", "0", "9S", "2H", "5C")
    assert "seat 0 pays seat 1 17 (difference 7 + knock penalty 10)" in out
    assert "seat 0 pays seat 2 10 (knock penalty)" in out


def test_settle_gin_shows_layoffs(capsys: pytest.CaptureFixture[str]) -> None:
    knocker = "4H 5H 6H 9S 9D 9C KS KD KC 2C"
    defender = "2H 3H 7H 8H QS QH JD 5C 5S AC"
    _, out, _ = run(capsys, "settle", "--rules", "gin", "--knocker", "0", knocker, defender)
    assert "lays off 3♥ 2♥ 7♥ 8♥ on [4♥ 5♥ 6♥]" in out
    assert "deadwood after lay-offs: 41" in out
    assert "seat 0 scores 39 (difference)" in out
    _, out, _ = run(
        capsys, "settle", "--json", "--rules", "gin", "--knocker", "0", knocker, defender
    )
    data = json.loads(out)
    assert [layoff["card"] for layoff in data["layoffs"]] == ["3H", "2H", "7H", "8H"]
    assert data["transfers"] == [{"from": None, "to": 0, "amount": "39", "reason": "difference"}]


def test_settle_block_counts_hand_values(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, "settle", "--rules", "block", "6S", "5H KS", "7C", "AS KH QD")
    assert "hand value" in out
    assert "seat 0 scores 25 (block difference)" in out
    _, out, _ = run(
        capsys, "settle", "--json", "--rules", "block", "--knocker", "none", "6S", "5H KS"
    )
    assert json.loads(out)["net"] == ["9", "0"]


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["settle", "--knocker", "0", A_HAND, "QS 2D"], "QS is in the hands of seat 0 and seat 1"),
        (["settle", "--knocker", "2", A_HAND, B_HAND], "knocker 2 is not a seat"),
        (["settle", "--knocker", "x", A_HAND, B_HAND], "--knocker 'x'"),
        (["settle", A_HAND, B_HAND], "--knocker is required for knock"),
        (["settle", "--knocker", "0", A_HAND], "not 1"),
        (["settle", "--knocker", "0", "--rules", "gin", "2S", "3S", "4S"], "not 3"),
        (["settle", "--knocker", "0", "7S 7Z", "2S"], "seat 0: '7Z' is not a card"),
        (["settle", "--knocker", "0", *A_HAND.split()], "quote each hand"),
        (["settle", "--rules", "block", "--knocker", "0", "2S", "3S"], "no knocker"),
    ],
)
def test_settle_bad_input(capsys: pytest.CaptureFixture[str], argv: list[str], words: str) -> None:
    assert words in failure(capsys, *argv)


def test_settle_without_hands_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as caught:
        main(["settle", "--knocker", "0"])
    assert caught.value.code == 2
    assert capsys.readouterr().out == ""
