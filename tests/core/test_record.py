"""Game records: emit, parse, exact replay, precise errors; the replay command."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import TypeVar

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pyrummy.cli.main import main
from pyrummy.core.deal import Deal, new_deal
from pyrummy.core.errors import RecordError
from pyrummy.core.match import Match, new_match
from pyrummy.core.record import emit_record, parse_record, read_record
from pyrummy.core.rules import PRESETS, find_rules, preset_names
from pyrummy.core.sampling import sample_deal

FIXTURES = Path(__file__).parents[1] / "fixtures"


# A match or a deal, played on: the caller gets back the same kind it gave.
Game = TypeVar("Game", Match, Deal)


def play(game: Game, seed: int = 0, steps: int | None = None) -> Game:
    rng = random.Random(seed)
    done = 0
    while not game.is_over and (steps is None or done < steps):
        game.apply(rng.choice(game.legal_actions()))
        done += 1
    return game


def finished_knock_match() -> tuple[Match, str]:
    match = play(new_match("knock", 3, seed=31, names=["Ann", "Bob", "Cy"]), seed=4)
    assert isinstance(match, Match)
    return match, emit_record(match)


def line_of(text: str, pattern: str) -> int:
    """1-based number of the first line matching ``pattern``."""
    for number, line in enumerate(text.splitlines(), start=1):
        if re.search(pattern, line):
            return number
    raise AssertionError(f"no line matches {pattern!r}")


def replace_line(text: str, number: int, new: str) -> str:
    lines = text.splitlines()
    lines[number - 1] = new
    return "\n".join(lines) + "\n"


# -- round trips --------------------------------------------------------------


@pytest.mark.parametrize("preset", preset_names())
def test_every_preset_match_round_trips(preset: str) -> None:
    players = min(3, find_rules(preset).max_players)
    options = {} if preset in ("knock", "rotham") else {"target": 30}
    match = play(new_match(find_rules(preset, **options), players, seed=5), seed=1)
    text = emit_record(match)
    again = parse_record(text)
    assert isinstance(again, Match)
    assert emit_record(again) == text
    assert again.totals == match.totals and again.is_over
    assert [d.settlement for d in again.finished_deals] == [
        d.settlement for d in match.finished_deals
    ]


@pytest.mark.parametrize("preset", preset_names())
def test_every_preset_deal_round_trips_finished_and_unfinished(preset: str) -> None:
    players = min(4, find_rules(preset).max_players)
    deal = new_deal(preset, players=players, seed=17, dealer=1)
    play(deal, seed=2, steps=7)
    middle = emit_record(deal)
    assert emit_record(parse_record(middle)) == middle
    play(deal, seed=3)
    text = emit_record(deal)
    again = parse_record(text)
    assert isinstance(again, Deal)
    assert emit_record(again) == text
    assert again.settlement == deal.settlement


def test_unfinished_and_unseeded_matches_round_trip() -> None:
    for seed in (None, 8):
        match = play(new_match("rummy", 3, seed=seed, target=10_000), seed=6, steps=120)
        assert not match.is_over
        text = emit_record(match)
        again = parse_record(text)
        assert emit_record(again) == text
        assert again.legal_actions() == match.legal_actions()


def test_free_headers_are_kept_in_order() -> None:
    match, _ = finished_knock_match()
    text = emit_record(match, {"Site": "home", "Date": "2026.11.29", "Event": "club night"})
    record = read_record(text)
    assert record.headers == {"Event": "club night", "Site": "home", "Date": "2026.11.29"}
    assert emit_record(record.game, record.headers) == text
    assert text.index("[Event") < text.index("[Site") < text.index("[Date")


def test_header_values_are_escaped() -> None:
    match, _ = finished_knock_match()
    text = emit_record(match, {"Event": 'the "big" one \\ 2'})
    assert read_record(text).headers["Event"] == 'the "big" one \\ 2'


def test_options_header_round_trips() -> None:
    match = play(new_match("basic", 2, seed=3, ace="high_or_low", going_rummy="plus10", target=20))
    text = emit_record(match)
    options = re.search(r'\[Options "(.*)"\]', text)
    assert options is not None
    assert sorted(options.group(1).split()) == [
        "ace=high_or_low",
        "going_rummy=plus10",
        "target=20",
    ]
    again = parse_record(text)
    assert again.rules == match.rules


def test_comments_and_blank_lines_are_ignored() -> None:
    _, text = finished_knock_match()
    lines = text.splitlines()
    noisy = "# a comment\n\n" + "\n\n".join(lines) + "\n# the end\n"
    assert emit_record(parse_record(noisy)) == text


# -- secrecy ------------------------------------------------------------------


def test_seed_only_once_over_unless_asked() -> None:
    match = new_match("knock", 2, seed=99)
    assert "[Seed" not in emit_record(match)
    assert '[Seed "99"]' in emit_record(match, seed=True)
    play(match)
    assert '[Seed "99"]' in emit_record(match)
    assert "[Seed" not in emit_record(match, seed=False)


def test_seeded_record_keeps_the_seed_after_replay() -> None:
    match = play(new_match("knock", 3, seed=42), steps=25)
    text = emit_record(match, seed=True)
    again = parse_record(text)
    assert isinstance(again, Match) and again.seed == 42
    play(again, seed=9)
    play(match, seed=9)
    assert emit_record(again) == emit_record(match)


# -- broken records -----------------------------------------------------------


def assert_broken(text: str, line: int, reason: str) -> None:
    with pytest.raises(RecordError) as info:
        parse_record(text)
    assert info.value.line == line
    assert re.search(reason, str(info.value)), str(info.value)


def test_unknown_header() -> None:
    _, text = finished_knock_match()
    assert_broken(text.replace('[Players "3"]', '[Colour "3"]'), 3, "unknown header 'Colour'")


def test_malformed_and_duplicate_headers() -> None:
    _, text = finished_knock_match()
    assert_broken(text.replace('[Players "3"]', "[Players 3]"), 3, "a header is")
    assert_broken(text.replace('[Players "3"]', '[Rules "knock"]'), 3, "Rules appears twice")
    assert_broken(text.replace('[Game "match"]\n', ""), 1, "missing header")


def test_bad_rules_options_and_players() -> None:
    _, text = finished_knock_match()
    assert_broken(text.replace('"knock"', '"snap"'), 2, "unknown rules 'snap'")
    assert_broken(text.replace('[Players "3"]', '[Players "three"]'), 3, "whole number")
    assert_broken(text.replace('[Players "3"]', '[Players "7"]'), 3, "2-5 players, not 7")
    with_options = text.replace('[Players "3"]', '[Options "colour=red"]\n[Players "3"]')
    assert_broken(with_options, 3, "unknown option 'colour'")


def test_bad_card_in_the_deck() -> None:
    _, text = finished_knock_match()
    deck = line_of(text, "^Deck:")
    lines = text.splitlines()
    broken = replace_line(text, deck, lines[deck - 1].replace(" ", " 1Z ", 1))
    assert_broken(broken, deck, "deck: '1Z' is not a card")


def test_deck_not_a_permutation() -> None:
    _, text = finished_knock_match()
    deck = line_of(text, "^Deck:")
    cards = text.splitlines()[deck - 1].split()[1:]
    assert_broken(replace_line(text, deck, "Deck: " + " ".join(cards[:-1])), deck, "permutation")
    doubled = [*cards[:-1], cards[0]]
    assert_broken(replace_line(text, deck, "Deck: " + " ".join(doubled)), deck, "twice")


def test_deck_that_the_seed_does_not_deal() -> None:
    _, text = finished_knock_match()
    deck = line_of(text, "^Deck:")
    cards = text.splitlines()[deck - 1].split()[1:]
    cards[0], cards[1] = cards[1], cards[0]
    assert_broken(replace_line(text, deck, "Deck: " + " ".join(cards)), deck, "Seed")


def test_illegal_action_names_the_line_and_the_engine_reason() -> None:
    _, text = finished_knock_match()
    first_action = line_of(text, r"^\d+: ")
    seat = text.splitlines()[first_action - 1].split(":")[0]
    broken = replace_line(text, first_action, f"{seat}: knock 7H")
    with pytest.raises(RecordError) as info:
        parse_record(broken)
    assert info.value.line == first_action
    assert "illegal action 'knock 7H'" in str(info.value)
    unreadable = replace_line(text, first_action, f"{seat}: fold")
    assert_broken(unreadable, first_action, "illegal action 'fold': cannot read the action")


def test_out_of_turn_action() -> None:
    _, text = finished_knock_match()
    first_action = line_of(text, r"^\d+: ")
    seat, action = text.splitlines()[first_action - 1].split(":", 1)
    wrong = (int(seat) + 1) % 3
    broken = replace_line(text, first_action, f"{wrong}:{action}")
    assert_broken(broken, first_action, f"seat {wrong} is not to play: seat {seat} is")


def test_action_after_the_end_of_a_deal_is_refused_on_its_line() -> None:
    _, text = finished_knock_match()
    outcome = line_of(text, "^Outcome:")
    lines = text.splitlines()
    extra = "\n".join([*lines[: outcome - 1], "0: draw stock", *lines[outcome - 1 :]]) + "\n"
    assert_broken(extra, outcome, "illegal action 'draw stock': after the end of the deal")


def test_result_mismatches() -> None:
    _, text = finished_knock_match()
    net = line_of(text, "^Net:")
    assert_broken(replace_line(text, net, "Net: +1 -1 0"), net, "result mismatch")
    outcome = line_of(text, "^Outcome:")
    assert_broken(replace_line(text, outcome, "Outcome: gin"), outcome, "result mismatch")
    totals = line_of(text, "^Totals:")
    assert_broken(replace_line(text, totals, "Totals: +1 -1 0"), totals, "result mismatch")
    winners = line_of(text, "^Winners:")
    assert_broken(replace_line(text, winners, "Winners: 0 1 2"), winners, "result mismatch")


def test_structure_errors() -> None:
    _, text = finished_knock_match()
    dealer = line_of(text, "^Dealer:")
    assert_broken(replace_line(text, dealer, "Dealer: 9"), dealer, "the dealer is a seat")
    wrong_dealer = int(text.splitlines()[dealer - 1].split()[1]) + 1
    assert_broken(
        replace_line(text, dealer, f"Dealer: {wrong_dealer % 3}"), dealer, "is dealt by seat"
    )
    second = line_of(text, "^Deal 2")
    assert_broken(replace_line(text, second, "Deal 5"), second, "expected Deal 2")
    assert_broken(text + "junk\n", len(text.splitlines()) + 1, "unexpected line 'junk'")
    net = line_of(text, "^Net:")
    lines = text.splitlines()
    action_after_end = "\n".join([*lines[:net], "0: draw stock", *lines[net:]]) + "\n"
    assert_broken(action_after_end, net + 1, "")


def test_results_of_an_unfinished_deal_are_refused() -> None:
    deal = new_deal("knock", players=2, seed=1)
    deal.apply("draw stock")
    deal.apply(f"discard {min(deal.hands(deal.current_seat))}")  # type: ignore[arg-type]
    assert not deal.is_over
    text = emit_record(deal) + "Outcome: rum\nNet: +1 -1\n"
    assert_broken(text, len(text.splitlines()) - 1, "not over")


def test_deal_record_refuses_match_headers_and_second_deal() -> None:
    deal = play(new_deal("gin", players=2, seed=4))
    text = emit_record(deal)
    assert_broken(text.replace('[Players "2"]', '[Players "2"]\n[FirstDealer "0"]'), 4, "match")
    section = text[text.index("Deal ") :]
    assert_broken(text + "\n" + section, len(text.splitlines()) + 2, "one deal")


# -- pinned fixtures -----------------------------------------------------------


@pytest.mark.parametrize("path", sorted(FIXTURES.glob("*.txt")), ids=lambda p: p.name)
def test_fixture_records_replay(path: Path) -> None:
    """Pinned records (tests/fixtures) replay and are written back byte for byte."""
    text = path.read_text(encoding="utf-8")
    record = read_record(text)
    assert emit_record(record.game, record.headers, seed="[Seed" in text) == text


# -- the replay command ----------------------------------------------------------


def test_replay_command_prints_results(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    match, text = finished_knock_match()
    path = tmp_path / "game.txt"
    path.write_text(text, encoding="utf-8")
    assert main(["replay", str(path)]) == 0
    out = capsys.readouterr().out
    assert out.count("Deal ") == 3 and "Final standings" in out
    assert main(["replay", str(path), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["standings"]["totals"] == [str(t) for t in match.totals]
    assert [d["outcome"] for d in data["deals"]] == [
        d.settlement.outcome  # type: ignore[union-attr]
        for d in match.finished_deals
    ]


def test_replay_command_reports_file_and_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _, text = finished_knock_match()
    net = line_of(text, "^Net:")
    path = tmp_path / "bad.txt"
    path.write_text(replace_line(text, net, "Net: +1 -1 0"), encoding="utf-8")
    assert main(["replay", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"{path}:{net}: result mismatch")


def test_worked_example_1_fixture_settles_as_the_rules_say() -> None:
    """RULES.md §9 example 1: A (8) knocked, B (3) wins; A pays 8 - 3 + 10, C (20) pays 17."""
    deal = parse_record((FIXTURES / "knock_example_1.txt").read_text(encoding="utf-8"))
    assert isinstance(deal, Deal) and deal.settlement is not None
    assert deal.settlement.outcome == "knocker-beaten"
    assert [str(n) for n in deal.settlement.net] == ["-15", "32", "-17"]


@settings(max_examples=30, deadline=None)
@given(
    preset=st.sampled_from(preset_names()),
    seed=st.integers(0, 2**40),
    steps=st.integers(0, 400),
    unseeded=st.booleans(),
)
def test_any_match_prefix_round_trips(preset: str, seed: int, steps: int, unseeded: bool) -> None:
    """emit(parse(emit(m))) == emit(m) for a match stopped anywhere, seeded or not."""
    rules = PRESETS[preset]
    players = rules.min_players + seed % (rules.max_players - rules.min_players + 1)
    options = {"deals": 2} if rules.match_end == "deals" else {}
    if rules.match_end == "target":
        options = {"target": 15}
    match = new_match(find_rules(preset, **options), players, seed=None if unseeded else seed)
    play(match, seed=seed, steps=steps)
    for flag in (None, True):
        text = emit_record(match, seed=flag)
        again = parse_record(text)
        assert isinstance(again, Match)
        assert emit_record(again, seed=flag) == text
        assert again.totals == match.totals and again.is_over == match.is_over
        assert again.legal_actions() == match.legal_actions()


def test_emit_refuses_bad_free_headers_and_sampled_deals() -> None:
    match, _ = finished_knock_match()
    with pytest.raises(RecordError, match="unknown header 'Colour'"):
        emit_record(match, {"Colour": "red"})
    with pytest.raises(RecordError, match="one line"):
        emit_record(match, {"Event": "two\nlines"})
    sampled = sample_deal(new_deal("gin", 2, seed=1).observe(0), random.Random(0))
    with pytest.raises(RecordError, match="sampled deal"):
        emit_record(sampled)
