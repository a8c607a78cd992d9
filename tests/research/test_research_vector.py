"""The Gymnasium vector environment against the core, and its API."""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
import pytest
from gymnasium.vector import AutoresetMode

from pyrummy.bots.base import BotError
from pyrummy.core.cards import ALL_CARDS
from pyrummy.core.deal import Deal
from pyrummy.core.errors import IllegalActionError, RulesError
from pyrummy.research.batched import UnsupportedRulesError
from pyrummy.research.encoding import (
    action_mask,
    deal_rewards,
    encode_observation,
    research_legal_actions,
)
from pyrummy.research.vector import RummyVectorEnv


class Mirror:
    """Replays every deal and action of a vector environment on core deals."""

    def __init__(self, env: RummyVectorEnv) -> None:
        self.env = env
        self.core: dict[int, Deal] = {}
        deals = env.deals
        deal, step = deals.deal, deals.step

        def mirrored_deal(rows: np.ndarray, decks: Any, dealers: Any) -> None:
            deal(rows, decks, dealers)
            for row in np.asarray(rows).tolist():
                cards = [ALL_CARDS[i] for i in deals.deck[row].tolist()]
                self.core[row] = Deal.from_deck(
                    env.rules, env.players, int(deals.dealer[row]), cards
                )

        def mirrored_step(actions: Any, rows: np.ndarray | None = None) -> np.ndarray:
            rows = np.arange(env.num_envs) if rows is None else rows
            for row, action in zip(
                np.asarray(rows).tolist(), np.asarray(actions).tolist(), strict=True
            ):
                self.core[row].apply(deals.space.decode(action))
            ended: np.ndarray = step(actions, rows)
            return ended

        deals.deal = mirrored_deal  # type: ignore[method-assign]
        deals.step = mirrored_step  # type: ignore[method-assign]

    def check(self, observations: np.ndarray, masks: np.ndarray) -> None:
        for row, deal in self.core.items():
            seat = int(self.env.seats[row])
            assert deal.current_seat == seat
            seen = deal.observe(seat)
            assert np.array_equal(observations[row], encode_observation(seen))
            assert np.array_equal(masks[row], action_mask(seen, research_legal_actions(deal)))


@pytest.mark.parametrize(
    ("preset", "players"), [("gin", 2), ("knock", 2), ("knock", 4), ("knock-target", 6)]
)
def test_vector_env_equals_core(preset: str, players: int) -> None:
    env = RummyVectorEnv(preset, num_envs=24, players=players, seed=3)
    mirror = Mirror(env)
    observations, infos = env.reset(seed=3)
    mirror.check(observations, infos["action_mask"])
    rng = np.random.default_rng(4)
    ended = 0
    for _ in range(150):
        before = dict(mirror.core)
        seats = env.seats.copy()
        actions = env.sample_legal_actions(rng)
        observations, rewards, terminated, truncated, infos = env.step(actions)
        for row in np.flatnonzero(terminated).tolist():
            old = before[row]
            assert old.is_over
            assert old.settlement is not None
            ended += 1
            seat = int(seats[row])
            assert rewards[row] == deal_rewards(old.settlement, env.rules)[seat]
            assert np.array_equal(infos["final_obs"][row], encode_observation(old.observe(seat)))
        for row in np.flatnonzero(~terminated).tolist():
            assert rewards[row] == 0.0
        mirror.check(observations, infos["action_mask"])
    assert ended > 0
    assert not truncated.any()


def test_fixed_seat_rewards_and_final_observations() -> None:
    env = RummyVectorEnv("knock", num_envs=16, players=3, seat=1, seed=5)
    mirror = Mirror(env)
    env.reset()
    rng = np.random.default_rng(6)
    for _ in range(40):
        before = dict(mirror.core)
        _, rewards, terminated, _, infos = env.step(env.sample_legal_actions(rng))
        assert (infos["seat"] == 1).all()
        for row in np.flatnonzero(terminated).tolist():
            old = before[row]
            assert old.settlement is not None
            assert rewards[row] == deal_rewards(old.settlement, env.rules)[1]
            assert np.array_equal(infos["final_obs"][row], encode_observation(old.observe(1)))


def test_policy_opponents_see_their_own_view() -> None:
    seen: list[int] = []

    def first_legal(observations: np.ndarray, masks: np.ndarray, seats: np.ndarray) -> np.ndarray:
        seen.extend(seats.tolist())
        assert observations.shape[0] == masks.shape[0] == seats.shape[0]
        first: np.ndarray = masks.argmax(axis=1)
        return first

    env = RummyVectorEnv("gin", num_envs=8, opponents=first_legal, seat=0, seed=1)
    mirror = Mirror(env)
    observations, infos = env.reset()
    rng = np.random.default_rng(2)
    for _ in range(60):
        observations, _, _, _, infos = env.step(env.sample_legal_actions(rng))
        mirror.check(observations, infos["action_mask"])
    assert seen and set(seen) == {1}


def test_gymnasium_api() -> None:
    env = RummyVectorEnv("gin", num_envs=4, seed=0)
    assert env.metadata["autoreset_mode"] is AutoresetMode.SAME_STEP
    assert isinstance(env, gymnasium.vector.VectorEnv)
    observations, _infos = env.reset(seed=0)
    assert env.observation_space.contains(observations.copy())
    assert observations.dtype == np.float32 and not observations.flags.writeable
    actions = env.sample_legal_actions()
    assert env.action_space.contains(actions)
    out = env.step(actions)
    assert len(out) == 5 and out[1].shape == (4,) and out[2].dtype == bool


def test_illegal_actions() -> None:
    env = RummyVectorEnv("gin", num_envs=3, seed=0, illegal_reward=-1.0)
    observations, infos = env.reset()
    before = observations.copy()
    _, rewards, terminated, _, infos = env.step(np.full(3, 50))
    assert infos["illegal_action"].all() and (rewards == -1.0).all() and not terminated.any()
    assert np.array_equal(env._view(), before)
    strict = RummyVectorEnv("gin", num_envs=3, seed=0, illegal_action="raise")
    strict.reset()
    with pytest.raises(IllegalActionError):
        strict.step(np.full(3, 50))


def test_truncation_and_configuration_errors() -> None:
    env = RummyVectorEnv("gin", num_envs=4, seed=0, max_steps=2)
    env.reset()
    env.step(env.sample_legal_actions())
    _, _, terminated, truncated, infos = env.step(env.sample_legal_actions())
    assert (truncated | terminated).all() and infos["_final_obs"].all()
    with pytest.raises(UnsupportedRulesError):
        RummyVectorEnv("rummy")
    with pytest.raises(RulesError):
        RummyVectorEnv("gin", seat=2)
    with pytest.raises(BotError):
        RummyVectorEnv("gin", opponents="nobody")
    with pytest.raises(RulesError):
        RummyVectorEnv("gin", opponents=3)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("preset", "players", "bot"), [("gin", 2, "simple"), ("knock", 3, "medium")]
)
def test_our_bots_as_opponents(preset: str, players: int, bot: str) -> None:
    env = RummyVectorEnv(preset, num_envs=4, players=players, opponents=bot, seed=2)
    mirror = Mirror(env)
    observations, infos = env.reset()
    mirror.check(observations, infos["action_mask"])
    rng = np.random.default_rng(3)
    ended = 0
    for _ in range(30):
        before = dict(mirror.core)
        seats = env.seats.copy()
        observations, rewards, terminated, _, infos = env.step(env.sample_legal_actions(rng))
        for row in np.flatnonzero(terminated).tolist():
            settlement = before[row].settlement
            assert settlement is not None
            assert rewards[row] == deal_rewards(settlement, env.rules)[int(seats[row])]
            ended += 1
        mirror.check(observations, infos["action_mask"])
    assert ended > 0
