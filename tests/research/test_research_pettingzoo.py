"""The PettingZoo environments: PettingZoo's own tests on every preset, and behaviour."""

from __future__ import annotations

import functools
import types
import warnings
from fractions import Fraction

import numpy as np
import pytest
from pettingzoo.test import api_test, max_cycles_test, seed_test

from pyrummy.core.actions import UNDO
from pyrummy.core.errors import IllegalActionError
from pyrummy.core.rules import PRESETS
from pyrummy.research import pettingzoo as pz
from pyrummy.research.encoding import action_ids, deal_rewards, research_legal_actions

PLAYER_COUNTS = [
    (name, players)
    for name, rules in PRESETS.items()
    for players in sorted({rules.min_players, rules.max_players})
]


@pytest.fixture(autouse=True)
def _quiet() -> object:
    # PettingZoo warns that a dict observation is "not a NumPy array": that is
    # the documented shape of observations with action masks.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        yield


@pytest.mark.parametrize(("rules", "players"), PLAYER_COUNTS)
def test_pettingzoo_api_test(rules: str, players: int) -> None:
    api_test(pz.env(rules, players, seed=1), num_cycles=40)


@pytest.mark.parametrize("rules", list(PRESETS))
def test_pettingzoo_seed_test(rules: str) -> None:
    seed_test(functools.partial(pz.env, rules, PRESETS[rules].min_players, seed=3), num_cycles=40)


@pytest.mark.parametrize(("rules", "players"), PLAYER_COUNTS)
def test_pettingzoo_max_cycles_test(rules: str, players: int) -> None:
    # The test samples actions without masks, so illegal actions must be
    # tolerated, and it needs every agent to act once per cycle. The action
    # spaces are seeded (seed=2), so the sampled actions are reproducible.
    module = types.SimpleNamespace(
        env=functools.partial(
            pz.env, rules, players, seed=2, schedule="cycle", illegal_action="ignore"
        ),
        parallel_env=functools.partial(
            pz.parallel_env, rules, players, seed=2, illegal_action="ignore"
        ),
    )
    max_cycles_test(module)


def _play_masked(env: object, rng: np.random.Generator) -> dict[str, float]:
    totals: dict[str, float] = {}
    for agent in env.agent_iter():  # type: ignore[attr-defined]
        observation, reward, terminated, truncated, _ = env.last()  # type: ignore[attr-defined]
        totals[agent] = totals.get(agent, 0.0) + reward
        if terminated or truncated:
            env.step(None)  # type: ignore[attr-defined]
            continue
        legal = np.flatnonzero(observation["action_mask"])
        env.step(int(rng.choice(legal)))  # type: ignore[attr-defined]
    return totals


@pytest.mark.parametrize(("rules", "players"), [("knock", 4), ("knock-target", 3), ("gin", 2)])
def test_final_rewards_are_the_settlement_net(rules: str, players: int) -> None:
    env = pz.raw_env(rules, players, seed=11)
    env.reset(seed=11)
    totals = _play_masked(env, np.random.default_rng(0))
    deal = env.deal
    assert deal is not None and deal.settlement is not None
    expected = deal_rewards(deal.settlement, rules)
    assert [totals[f"player_{s}"] for s in range(players)] == pytest.approx(expected)
    if rules.startswith("knock"):
        assert expected == tuple(float(x) for x in deal.settlement.net)
    assert sum(expected) == pytest.approx(0.0)


def test_award_presets_are_zero_sum_points_minus_others_mean() -> None:
    env = pz.raw_env("rummy", 3, seed=5)
    env.reset(seed=5)
    totals = _play_masked(env, np.random.default_rng(1))
    deal = env.deal
    assert deal is not None and deal.settlement is not None
    net = deal.settlement.net
    for seat in range(3):
        others = [net[s] for s in range(3) if s != seat]
        assert totals[f"player_{seat}"] == pytest.approx(float(net[seat] - sum(others) / 2))
    assert sum(totals.values()) == pytest.approx(0.0)


def test_observation_is_the_seats_own_view_and_the_mask_its_legal_actions() -> None:
    env = pz.raw_env("rummy", 3, seed=4)
    env.reset(seed=4)
    rng = np.random.default_rng(2)
    for _ in range(60):
        deal = env.deal
        assert deal is not None
        if deal.is_over:
            break
        agent = env.agent_selection
        seat = int(agent.split("_")[1])
        assert seat == deal.current_seat
        observation = env.observe(agent)
        hand = np.flatnonzero(observation["observation"][:55])
        assert sorted(hand) == sorted(card.index for card in deal.hands(seat))
        expected = sorted(action_ids(deal.rules, research_legal_actions(deal)))
        assert list(np.flatnonzero(observation["action_mask"])) == expected
        for other in env.agents:
            if other != agent:
                assert not env.observe(other)["action_mask"].any()
        env.step(int(rng.choice(expected)))


def test_no_undo_is_ever_offered() -> None:
    env = pz.raw_env("rummy", 2, seed=8)
    env.reset(seed=8)
    undo = env.space.encode(UNDO)
    rng = np.random.default_rng(3)
    for _agent in env.agent_iter(400):
        observation, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        assert observation["action_mask"][undo] == 0
        env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))


def test_illegal_actions_raise_by_default_and_are_ignored_on_request() -> None:
    strict = pz.env("knock", 2, seed=1)
    strict.reset(seed=1)
    with pytest.raises(IllegalActionError):
        strict.step(107)  # knock KC: not legal before drawing
    lenient = pz.raw_env("knock", 2, seed=1, illegal_action="ignore")
    lenient.reset(seed=1)
    agent = lenient.agent_selection
    before = lenient.deal.record() if lenient.deal else ""
    lenient.step(107)
    assert lenient.infos[agent] == {"illegal_action": True}
    assert lenient.agent_selection == agent
    assert lenient.deal is not None and lenient.deal.record() == before


def test_cycle_schedule_steps_every_agent_in_order_with_wait() -> None:
    env = pz.raw_env("rummy", 3, seed=6, schedule="cycle")
    env.reset(seed=6)
    rng = np.random.default_rng(4)
    order = []
    for agent in env.agent_iter(30):
        observation, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        order.append(agent)
        seat = int(agent.split("_")[1])
        mask = observation["action_mask"]
        if env.deal is not None and env.deal.current_seat != seat:
            assert list(np.flatnonzero(mask)) == [env.wait_action]
        env.step(int(rng.choice(np.flatnonzero(mask))))
    assert len(order) == 30
    assert order == [f"player_{i % 3}" for i in range(30)]


def test_max_cycles_truncates_the_turns_schedule() -> None:
    env = pz.raw_env("gin", 2, seed=3, max_cycles=3)
    env.reset(seed=3)
    rng = np.random.default_rng(5)
    steps = 0
    for _ in env.agent_iter():
        observation, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            assert truncated and not terminated
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
        steps += 1
    assert steps == 3 * 2


def test_reset_with_a_seed_repeats_the_deal() -> None:
    env = pz.raw_env("basic", 4, seed=None)
    env.reset(seed=21)
    first = env.deal.deck if env.deal else ()
    env.reset(seed=22)
    env.reset(seed=21)
    assert env.deal is not None and env.deal.deck == first


def test_render_ansi_shows_every_hand() -> None:
    env = pz.env("knock", 3, seed=2, render_mode="ansi")
    env.reset(seed=2)
    text = env.render()
    assert isinstance(text, str)
    deal = env.unwrapped.deal
    assert deal is not None
    for seat in range(3):
        cards = " ".join(card.pretty() for card in deal.hands(seat).sorted_by_rank())
        assert f"seat {seat}: {cards}" in text
    assert "stock: 30 cards" in text


def test_bad_arguments_are_refused() -> None:
    with pytest.raises(ValueError, match="players"):
        pz.env("gin", 3)
    with pytest.raises(ValueError, match="schedule"):
        pz.env("knock", 2, schedule="sometimes")
    with pytest.raises(ValueError, match="render_mode"):
        pz.env("knock", 2, render_mode="rgb_array")


def test_rewards_are_fractions_made_floats() -> None:
    # knock example 3 of RULES.md: shares of 5/2 reach the agents as 2.5.
    from pyrummy.core.settlement import settle

    result = settle(["4H 5H 6H 7C 8C", "AS AH 2C 2D", "4S 4D 9S", "9H 9D 3C 3D 2S"], 0)
    rewards = deal_rewards(result, "knock")
    assert rewards == tuple(float(Fraction(x)) for x in result.net)
