"""The Gymnasium single-agent environment."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from pyrummy.core.errors import IllegalActionError
from pyrummy.research.encoding import action_ids, deal_rewards, research_legal_actions
from pyrummy.research.gym import RummyEnv


@pytest.mark.parametrize(
    ("rules", "players", "opponents"),
    [
        ("knock", 2, "random"),
        ("knock-target", 5, "simple"),
        ("rummy", 3, "medium"),
        ("basic", 2, "simple"),
        ("block", 4, "random"),
        ("rotham", 2, "simple"),
        ("gin", 2, "medium"),
    ],
)
def test_gymnasium_check_env(rules: str, players: int, opponents: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # "no spec": it is not in gymnasium's registry
        check_env(RummyEnv(rules, players, opponents=opponents, seed=1, render_mode="ansi"))


def _episode(env: RummyEnv, seed: int, rng: np.random.Generator) -> tuple[float, int]:
    observation, info = env.reset(seed=seed)
    total, steps, done = 0.0, 0, False
    while not done:
        deal = env.deal
        assert deal is not None and deal.current_seat == env.seat
        expected = sorted(action_ids(env.rules, research_legal_actions(deal)))
        assert list(np.flatnonzero(info["action_mask"])) == expected
        assert sorted(np.flatnonzero(observation[:55])) == [c.index for c in deal.hands(env.seat)]
        observation, reward, terminated, truncated, info = env.step(int(rng.choice(expected)))
        total += reward
        steps += 1
        done = terminated or truncated
    assert terminated and not truncated
    return total, steps


@pytest.mark.parametrize(("rules", "players"), [("knock", 3), ("gin", 2), ("rummy", 2)])
def test_the_return_is_the_learners_deal_reward(rules: str, players: int) -> None:
    env = RummyEnv(rules, players, opponents="simple")
    rng = np.random.default_rng(0)
    for seed in range(3):
        total, _ = _episode(env, seed, rng)
        deal = env.deal
        assert deal is not None and deal.settlement is not None
        assert total == pytest.approx(deal_rewards(deal.settlement, rules)[env.seat])


def test_seat_and_opponents_can_be_chosen() -> None:
    env = RummyEnv("knock", 3, opponents=["random", "hard"], seat=2, seed=4)
    env.reset(seed=4)
    assert env.seat == 2
    names = [None if bot is None else bot.name for bot in env.opponents]
    assert names == ["random", "hard", None]


def test_a_seed_repeats_the_episode() -> None:
    env = RummyEnv("gin", 2, opponents="medium")
    first, _ = env.reset(seed=9)
    deck = env.deal.deck if env.deal else ()
    env.reset(seed=10)
    again, _ = env.reset(seed=9)
    assert np.array_equal(first, again) and env.deal is not None and env.deal.deck == deck


def test_illegal_actions_are_ignored_or_raise() -> None:
    env = RummyEnv("knock", 2, opponents="random", seed=2, illegal_reward=-1.0)
    observation, info = env.reset(seed=2)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[-1])
    again, reward, terminated, _truncated, info = env.step(illegal)
    assert info["illegal_action"] and reward == -1.0 and not terminated
    assert np.array_equal(observation, again)
    strict = RummyEnv("knock", 2, opponents="random", seed=2, illegal_action="raise")
    strict.reset(seed=2)
    with pytest.raises(IllegalActionError):
        strict.step(illegal)


def test_max_steps_truncates() -> None:
    env = RummyEnv("knock", 2, opponents="random", seed=3, max_steps=2)
    _, info = env.reset(seed=3)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[-1])
    env.step(illegal)
    _, _, terminated, truncated, _ = env.step(illegal)
    assert truncated and not terminated


def test_registered_with_gymnasium() -> None:
    import gymnasium

    env = gymnasium.make("pyrummy/Rummy-v0", rules="rotham", players=3, opponents="simple")
    observation, info = env.reset(seed=5)
    assert observation.shape == (682,)
    assert int(info["action_mask"].sum()) >= 1
