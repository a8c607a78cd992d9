"""Matches: endings of every kind, dealer rotation, seeds, standings, ledger."""

from __future__ import annotations

import dataclasses
import random
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pyrummy.core.actions import parse_action
from pyrummy.core.errors import IllegalActionError, RulesError, StoredActionError
from pyrummy.core.match import (
    Match,
    Standings,
    deal_seed,
    match_end_of,
    new_match,
    replay_actions,
)
from pyrummy.core.rules import find_rules


def play_out(match: Match, seed: int = 0, limit: int = 200_000) -> Match:
    """Random legal actions until the match is over."""
    rng = random.Random(seed)
    for _ in range(limit):
        if match.is_over:
            return match
        match.apply(rng.choice(match.legal_actions()))
    raise AssertionError("the match did not end")


def totals_by_hand(match: Match) -> list[list[Fraction]]:
    """Running totals after each finished deal, summed from the settlements here."""
    running = [Fraction(0)] * match.players
    history = []
    for deal in match.finished_deals:
        assert deal.settlement is not None
        running = [t + n for t, n in zip(running, deal.settlement.net, strict=True)]
        history.append(list(running))
    return history


# -- building a match ---------------------------------------------------------


def test_first_dealer_comes_from_the_seed_and_is_reproducible() -> None:
    dealers = {new_match("knock", players=4, seed=seed).first_dealer for seed in range(40)}
    assert dealers == {0, 1, 2, 3}
    a, b = new_match("knock", 4, seed=11), new_match("knock", 4, seed=11)
    assert a.first_dealer == b.first_dealer
    assert a.deal.record() == b.deal.record()


def test_unseeded_matches_differ() -> None:
    first = new_match("knock", 4)
    second = new_match("knock", 4)
    assert first.seed is None and second.seed is None
    assert first.deal.record() != second.deal.record()


def test_given_dealer_is_used() -> None:
    assert new_match("knock", 3, seed=5, dealer=2).deal.dealer == 2


def test_rummy_person_in_seat_0_plays_first() -> None:
    for players in (2, 3, 4):
        match = new_match("rummy", players=players, seed=players)
        assert match.first_dealer == players - 1
        assert match.current_seat == 0


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"rules": "gin", "players": 3}, "gin is for 2-2 players, not 3"),
        ({"rules": "knock", "players": 4, "dealer": 4}, "dealer 4 is not a seat of 4 players"),
        ({"rules": "knock", "players": 2, "seed": -1}, "seed: expected a whole number >= 0"),
        ({"rules": "knock", "players": 2, "names": ["A"]}, "names: 1 names for 2 players"),
        ({"rules": "knock", "players": 2, "names": ["A", "B,C"]}, "may not contain commas"),
        ({"rules": "knock", "players": 2, "names": ["A", " B"]}, "without outer spaces"),
        ({"rules": "knock", "players": 2, "colour": "red"}, "unknown option 'colour'"),
        ({"rules": "canasta", "players": 2}, "unknown rules 'canasta'"),
        ({"rules": "gin", "players": 2, "match_end": "penalty_limit"}, "scores that can fall"),
        ({"rules": "rummy", "players": 2, "match_end": "penalty_limit"}, "scores that can fall"),
    ],
)
def test_bad_match_arguments_are_refused(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(RulesError, match=message):
        new_match(**kwargs)  # type: ignore[arg-type]


def test_names_default_and_given() -> None:
    assert new_match("knock", 3, seed=1).names == ("Seat 1", "Seat 2", "Seat 3")
    assert new_match("gin", 2, seed=1, names=["Ann", "Bob"]).names == ("Ann", "Bob")


def test_deal_seeds_are_distinct_per_deal_and_match() -> None:
    seeds = {deal_seed(m, d) for m in range(20) for d in range(1, 20)}
    assert len(seeds) == 20 * 19


# -- endings ------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_knock_match_is_one_round_of_dealers(players: int) -> None:
    match = play_out(new_match("knock", players, seed=players))
    dealers = [deal.dealer for deal in match.finished_deals]
    first = match.first_dealer
    assert dealers == [(first + i) % players for i in range(players)]
    assert [d.deal_number for d in match.finished_deals] == list(range(1, players + 1))
    assert sum(match.totals) == 0


@pytest.mark.parametrize(
    ("preset", "players", "options"),
    [
        ("knock-target", 3, {"target": 30}),
        ("rummy", 3, {"target": 40}),
        ("basic", 4, {"target": 40}),
        ("block", 2, {"target": 40}),
        ("gin", 2, {"target": 40}),
    ],
)
def test_target_match_ends_after_the_deal_that_reaches_it(
    preset: str, players: int, options: dict[str, object]
) -> None:
    match = play_out(new_match(find_rules(preset, **options), players, seed=3))
    history = totals_by_hand(match)
    target = match.rules.target
    assert all(max(totals) < target for totals in history[:-1])
    assert max(history[-1]) >= target
    assert list(match.totals) == history[-1]


def test_rotham_plays_six_numbered_deals() -> None:
    match = play_out(new_match("rotham", 3, seed=8))
    assert [d.deal_number for d in match.finished_deals] == [1, 2, 3, 4, 5, 6]
    assert match.rules.deals == 6


def test_penalty_scoring_ends_at_the_penalty_limit_and_lowest_penalty_wins() -> None:
    match = play_out(new_match("basic", 3, seed=4, scoring="penalty", target=40))
    assert match.ending == "penalty_limit"
    history = totals_by_hand(match)
    assert all(min(totals) > -40 for totals in history[:-1])
    assert min(history[-1]) <= -40
    assert all(t <= 0 for t in match.totals)  # penalties only
    best = max(match.totals)
    assert match.winners == tuple(s for s in range(3) if match.totals[s] == best)


def test_knock_match_to_a_penalty_limit_ends_when_someone_falls_to_it() -> None:
    match = play_out(new_match("knock", 3, seed=10, match_end="penalty_limit", target=30))
    history = totals_by_hand(match)
    assert all(min(totals) > -30 for totals in history[:-1])
    assert min(history[-1]) <= -30


def test_match_end_of_reads_the_rules() -> None:
    assert match_end_of(find_rules("knock")) == "dealer_round"
    assert match_end_of(find_rules("rotham")) == "deals"
    assert match_end_of(find_rules("basic", scoring="penalty")) == "penalty_limit"
    assert match_end_of(find_rules("basic", match_end="penalty_limit")) == "penalty_limit"
    assert match_end_of(find_rules("gin")) == "target"


# -- playing ------------------------------------------------------------------


def test_next_deal_starts_at_once_dealt_to_the_left() -> None:
    match = new_match("knock", 3, seed=21, dealer=1)
    rng = random.Random(0)
    while not match.finished_deals:
        match.apply(rng.choice(match.legal_actions()))
    assert match.deal is not match.finished_deals[0]
    assert match.deal.dealer == 2 and match.deal.deal_number == 2
    assert not match.deal.history


def test_ledger_is_every_deal_transfers_in_order() -> None:
    match = play_out(new_match("knock-target", 4, seed=6, target=25))
    transfers = [t for d in match.finished_deals for t in d.settlement.transfers]  # type: ignore[union-attr]
    assert match.ledger.transfers == transfers
    assert match.ledger.net(4) == match.totals
    assert sum(match.totals) == 0


def test_illegal_action_changes_nothing() -> None:
    match = new_match("knock", 2, seed=9)
    before = match.deal.record()
    seat = match.current_seat
    with pytest.raises(IllegalActionError):
        match.apply("discard 2C" if "2C" not in str(match.observe(seat).hand) else "discard 3C")
    with pytest.raises(IllegalActionError):
        match.apply("fold")
    assert match.deal.record() == before and match.current_seat == seat


def test_no_action_after_the_end() -> None:
    match = play_out(new_match("gin", 2, seed=2, target=10))
    assert match.is_over and match.current_seat is None and match.legal_actions() == []
    with pytest.raises(IllegalActionError, match="the match is over"):
        match.apply(parse_action("draw stock"))


def test_observation_scores_are_the_match_totals() -> None:
    match = new_match("knock", 3, seed=12)
    rng = random.Random(1)
    while len(match.finished_deals) < 2:
        match.apply(rng.choice(match.legal_actions()))
    for seat in (0, 1, 2, None):
        scores = match.observe(seat).scores
        assert scores is not None and tuple(scores) == match.totals
    assert any(match.totals)


def test_observation_with_scores_is_a_copy_equal_to_the_deal_view_but_for_scores() -> None:
    match = new_match("knock", 3, seed=12)
    rng = random.Random(2)
    while len(match.finished_deals) < 1:
        match.apply(rng.choice(match.legal_actions()))
    for seat in (0, 1, None):
        scored = match.observe(seat)
        plain = match.deal.observe(seat)
        assert plain.scores is None and scored.scores == match.totals
        assert dataclasses.replace(scored, scores=None) == plain
        # The deal's own views stay untouched (a view may be shared).
        assert match.deal.observe(seat).scores is None


def test_clone_is_independent() -> None:
    match = new_match("rummy", 2, seed=13)
    rng = random.Random(2)
    for _ in range(30):
        match.apply(rng.choice(match.legal_actions()))
    copy = match.clone()
    text = match.record(seed=True)
    assert copy.record(seed=True) == text
    play_out(copy, seed=3)
    assert match.record(seed=True) == text
    assert not match.is_over


def test_same_seed_same_actions_same_match() -> None:
    a = play_out(new_match("knock", 4, seed=77), seed=5)
    b = play_out(new_match("knock", 4, seed=77), seed=5)
    assert a.record() == b.record() and a.totals == b.totals


# -- standings ----------------------------------------------------------------


@given(st.lists(st.fractions(min_value=-200, max_value=200), min_size=2, max_size=6))
def test_standings_order_and_shared_win(totals: list[Fraction]) -> None:
    standings = Standings.from_totals(totals)
    assert sorted(standings.order) == list(range(len(totals)))
    ordered = [totals[s] for s in standings.order]
    assert ordered == sorted(totals, reverse=True)
    assert set(standings.winners) == {s for s, t in enumerate(totals) if t == max(totals)}
    assert standings.winners == tuple(sorted(standings.winners))
    assert standings.order[: len(standings.winners)] == standings.winners


def test_out_of_turn_is_refused() -> None:
    match = new_match("gin", 2, seed=14)
    seat = match.current_seat
    assert seat is not None
    with pytest.raises(IllegalActionError):
        match.apply("draw stock", seat=1 - seat)
    match.apply("draw stock", seat=seat)
    assert match.deal.history == [(seat, parse_action("draw stock"))]


# -- rebuilding a match from stored actions ----------------------------------------


def first_deal_actions(seed: int = 5) -> tuple[Match, list[tuple[int, str]]]:
    """A fresh seeded gin match, and the (seat, action) pairs that play its first deal out."""
    played = new_match("gin", players=2, seed=seed, dealer=0)
    rng = random.Random(seed)
    actions: list[tuple[int, str]] = []
    while played.deal_number == 1:
        seat = played.current_seat
        assert seat is not None
        action = rng.choice(played.legal_actions())
        actions.append((seat, str(action)))
        played.apply(action)
    return new_match("gin", players=2, seed=seed, dealer=0), actions


def test_replay_rebuilds_the_same_match() -> None:
    fresh, actions = first_deal_actions()
    replay_actions(fresh, actions)
    assert fresh.deal_number == 2 and len(fresh.finished_deals) == 1
    assert list(fresh.finished_deals[0].history) == [
        (seat, parse_action(text)) for seat, text in actions
    ]


def test_refused_stored_action_names_its_place_and_keeps_the_ones_before() -> None:
    fresh, actions = first_deal_actions()
    seat = actions[1][0]
    broken = [actions[0], (seat, "knock 7H"), *actions[2:]]
    with pytest.raises(StoredActionError) as info:
        replay_actions(fresh, broken)
    assert (info.value.index, info.value.action) == (2, "knock 7H")
    assert info.value.reason is not None  # the engine's catalogue reason is kept
    assert str(info.value).startswith("stored action 2 ('knock 7H'): ")
    assert len(fresh.deal.history) == 1
    assert isinstance(info.value, IllegalActionError)  # callers catching the wider error still do


def test_stored_action_from_the_wrong_seat_is_refused() -> None:
    fresh, actions = first_deal_actions()
    seat, text = actions[0]
    with pytest.raises(StoredActionError, match=f"seat {1 - seat} is not to play: seat {seat} is"):
        replay_actions(fresh, [(1 - seat, text)])
    assert not fresh.deal.history


def test_action_past_the_end_of_one_deal_is_refused_not_played_in_the_next() -> None:
    fresh, actions = first_deal_actions()
    next_deal = new_match("gin", players=2, seed=5, dealer=0)
    replay_actions(next_deal, actions)
    seat = next_deal.current_seat
    assert seat is not None
    opening = (seat, str(next_deal.legal_actions()[0]))
    # The same action is legal in deal 2: only one_deal tells the two cases apart.
    with pytest.raises(StoredActionError, match="after the end of the deal") as info:
        replay_actions(fresh, [*actions, opening], one_deal=True)
    assert info.value.index == len(actions) + 1
    assert fresh.deal_number == 2 and not fresh.deal.history
    replay_actions(next_deal, [opening])
    assert len(next_deal.deal.history) == 1


def test_a_deal_refuses_actions_past_its_end() -> None:
    fresh, actions = first_deal_actions()
    deal = fresh.deal
    replay_actions(deal, actions)
    assert deal.is_over
    with pytest.raises(StoredActionError, match="after the end of the deal"):
        replay_actions(deal, ["draw stock"])
