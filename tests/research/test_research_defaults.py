"""Every research environment works for every preset with its defaults."""

from __future__ import annotations

import numpy as np
import pyspiel
import pytest

from pyrummy.core.rules import PRESETS
from pyrummy.research import pettingzoo as pz
from pyrummy.research.encoding import default_players
from pyrummy.research.gym import RummyEnv
from pyrummy.research.openspiel import game_name


@pytest.mark.parametrize("preset", list(PRESETS))
def test_pettingzoo_defaults_follow_the_rules(preset: str) -> None:
    env = pz.env(rules=preset)
    env.reset(seed=1)
    players = default_players(preset)
    assert len(env.possible_agents) == players
    rules = PRESETS[preset]
    assert rules.min_players <= players <= rules.max_players
    for _ in range(6):
        observation, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            break
        env.step(int(np.flatnonzero(observation["action_mask"])[0]))
    parallel = pz.parallel_env(rules=preset, max_cycles=2)
    observations, _ = parallel.reset(seed=2)
    assert len(observations) == players


@pytest.mark.parametrize("preset", list(PRESETS))
def test_gym_and_openspiel_defaults_work(preset: str) -> None:
    env = RummyEnv(preset, opponents="random")
    observation, info = env.reset(seed=1)
    observation, *_ = env.step(int(np.flatnonzero(info["action_mask"])[0]))
    assert observation.shape == env.observation_space.shape
    game = pyspiel.load_game(game_name(preset))
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    assert state.legal_actions()


def test_the_default_is_four_where_allowed_else_the_nearest() -> None:
    assert [default_players(p) for p in ("knock", "knock-target", "gin")] == [4, 4, 2]
