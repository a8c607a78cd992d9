"""The fast encoder equals the encoding of the observation, bit for bit, on every preset."""

from __future__ import annotations

import random

import numpy as np
import pytest

from pyrummy.core.deal import new_deal
from pyrummy.core.rules import PRESETS
from pyrummy.research.deal_encoding import encode_seat, legal_action_ids
from pyrummy.research.encoding import action_ids, encode_observation, research_legal_actions

CASES = [(name, rules.min_players) for name, rules in PRESETS.items()] + [
    (name, rules.max_players) for name, rules in PRESETS.items() if rules.max_players > 2
]


@pytest.mark.parametrize(("preset", "players"), CASES)
def test_encode_seat_equals_the_observations_encoding(preset: str, players: int) -> None:
    rng = random.Random(players)
    steps = 0
    seed = 0
    while steps < 150:
        seed += 1
        deal = new_deal(preset, players, seed=seed, dealer=seed % players, turn_cap=60)
        while True:
            for seat in range(players):
                want = encode_observation(deal.observe(seat))
                assert np.array_equal(encode_seat(deal, seat), want), (seat, deal.history[-3:])
            if deal.is_over:
                break
            actions, ids = legal_action_ids(deal)
            assert ids == action_ids(deal.rules, research_legal_actions(deal))
            deal.apply(actions[rng.randrange(len(actions))])
            steps += 1


def test_encode_seat_fills_a_given_buffer() -> None:
    deal = new_deal("gin", 2, seed=1)
    out = np.full(513, 7.0, np.float32)
    assert encode_seat(deal, 0, out) is out
    assert np.array_equal(out, encode_observation(deal.observe(0)))
