"""The versioned observation encoding, action masks and rewards."""

from __future__ import annotations

import random
from fractions import Fraction

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from pyrummy.core.deal import Deal, new_deal
from pyrummy.core.rules import PRESETS, find_rules
from pyrummy.core.sampling import sample_deal
from pyrummy.core.settlement import settle, settle_going_out
from pyrummy.research.encoding import (
    ENCODING_VERSION,
    action_ids,
    action_mask,
    deal_rewards,
    encode_observation,
    observation_blocks,
    observation_size,
    research_legal_actions,
    reward_bound,
)

PRESET_PLAYERS = st.sampled_from(
    [(name, n) for name, r in PRESETS.items() for n in range(r.min_players, r.max_players + 1)]
)


def _views(vector: np.ndarray, players: int) -> dict[str, np.ndarray]:
    views, start = {}, 0
    for name, size, shape in observation_blocks(players):
        views[name] = vector[start : start + size].reshape(shape)
        start += size
    return views


def _played(preset: str, players: int, seed: int, steps: int) -> Deal:
    deal = new_deal(preset, players, seed=seed, dealer=seed % players)
    rng = random.Random(seed)
    for _ in range(steps):
        if deal.is_over:
            break
        deal.apply(rng.choice(research_legal_actions(deal)))
    return deal


def test_version_and_sizes() -> None:
    assert ENCODING_VERSION == 1
    for players in range(2, 7):
        assert observation_size(players) == 55 * (3 * players + 3) + 4 * players + 10
        assert sum(size for _, size, _ in observation_blocks(players)) == observation_size(players)


@settings(max_examples=40, deadline=None)
@given(PRESET_PLAYERS, st.integers(0, 10_000), st.integers(0, 40))
def test_blocks_hold_what_the_seat_sees(case: tuple[str, int], seed: int, steps: int) -> None:
    preset, players = case
    deal = _played(preset, players, seed, steps)
    seat = seed % players
    observation = deal.observe(seat)
    vector = encode_observation(observation)
    assert vector.dtype == np.float32 and vector.min() >= 0.0 and vector.max() <= 1.0
    views = _views(vector, players)
    assert set(np.flatnonzero(views["hand"])) == {c.index for c in deal.hands(seat)}
    assert set(np.flatnonzero(views["discard_pile"])) == {c.index for c in deal.discard_pile}
    if deal.discard_pile:
        assert list(np.flatnonzero(views["discard_top"])) == [deal.discard_pile[-1].index]
    for r in range(1, players):
        other = (seat + r) % players
        taken = {c.index for c in observation.taken_discards[other]}
        assert set(np.flatnonzero(views["taken"][r - 1])) == taken
    on_table = {c.index for tm in deal.table for c in tm.meld.cards}
    assert set(np.flatnonzero(views["table"].sum(axis=0))) == on_table
    assert views["phase"].sum() == 1.0 and views["dealer"][(deal.dealer - seat) % players] == 1
    if deal.current_seat is not None:
        assert views["to_play"][(deal.current_seat - seat) % players] == 1.0
    assert views["counts"][0] == np.float32(len(deal.stock) / deal.rules.deck_size)


@settings(max_examples=25, deadline=None)
@given(PRESET_PLAYERS, st.integers(0, 10_000), st.integers(0, 30))
def test_the_encoding_only_depends_on_what_the_seat_knows(
    case: tuple[str, int], seed: int, steps: int
) -> None:
    preset, players = case
    deal = _played(preset, players, seed, steps)
    seat = (seed + 1) % players
    observation = deal.observe(seat)
    resampled = sample_deal(observation, random.Random(seed)).observe(seat)
    assert np.array_equal(encode_observation(observation), encode_observation(resampled))


def test_a_different_opponent_hand_gives_the_same_vector() -> None:
    # Seat 1 of a 2-player gin deal is dealt deck[0], deck[2], ...; swapping a
    # card of seat 0's hand with a stock card changes nothing seat 1 can see.
    deck = list(new_deal("gin", 2, seed=5).deck)
    swapped = deck[:]
    swapped[1], swapped[30] = swapped[30], swapped[1]
    a = Deal.from_deck("gin", 2, 1, deck).observe(0)
    b = Deal.from_deck("gin", 2, 1, swapped).observe(0)
    assert a.hand == b.hand
    assert np.array_equal(encode_observation(a), encode_observation(b))
    c = Deal.from_deck("gin", 2, 1, deck).observe(1)
    d = Deal.from_deck("gin", 2, 1, swapped).observe(1)
    assert c.hand != d.hand and not np.array_equal(encode_observation(c), encode_observation(d))


@settings(max_examples=30, deadline=None)
@given(PRESET_PLAYERS, st.integers(0, 10_000), st.integers(0, 30))
def test_mask_marks_exactly_the_legal_actions(case: tuple[str, int], seed: int, steps: int) -> None:
    preset, players = case
    deal = _played(preset, players, seed, steps)
    if deal.is_over:
        return
    seat = deal.current_seat
    assert seat is not None
    legal = research_legal_actions(deal)
    mask = action_mask(deal.observe(seat), legal)
    assert sorted(np.flatnonzero(mask)) == sorted(action_ids(deal.rules, legal))
    assert all(action.kind.name != "UNDO" for action in legal)


def test_rewards_of_the_transfer_presets_are_the_net() -> None:
    result = settle(["4H 5H 6H QC QD QS 8D", "AS AH AD 7C 8C 9C 3H", "2S 5C 9D TH KS"], knocker=0)
    assert deal_rewards(result, "knock") == tuple(float(x) for x in result.net)
    assert sum(deal_rewards(result, "knock")) == 0.0


def test_rewards_of_the_award_presets_are_points_minus_the_others_mean() -> None:
    result = settle_going_out(0, ["", "5H 7C", "KS QS 2D"], find_rules("rummy"), went_rummy=False)
    points = float(result.net[0])
    assert points == 5 + 7 + 10 + 10 + 2 and all(x == 0 for x in result.net[1:])
    assert deal_rewards(result, "rummy") == (points, -points / 2, -points / 2)
    assert Fraction(sum(deal_rewards(result, "rummy"))).limit_denominator() == 0


def test_reward_bound_covers_the_worst_deal() -> None:
    # knock, 5 players: a rum knocker collects (deadwood + 25) from four hands.
    assert reward_bound("knock", 5) >= 4 * (100 + 25)
    # gin: 25 bonus plus a defender's full deadwood.
    assert reward_bound(find_rules("gin", gin_bonus=25), 2) >= 98 + 25
