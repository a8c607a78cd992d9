"""The OpenSpiel games: OpenSpiel's conformance test, its search bots, our additions."""

from __future__ import annotations

import random

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import ismcts, mcts

from pyrummy.core.cards import ALL_CARDS, CardSet
from pyrummy.core.rules import PRESETS
from pyrummy.research import openspiel as ros
from pyrummy.research.encoding import deal_rewards, encode_observation

# Under random play nobody goes out of a `basic` deal and its stock is turned
# over for ever, so the deal runs to its 400-turn cap (about 20 s a deal); a
# lower cap (a game parameter) keeps that one conformance run short. Every
# other preset runs at its own cap.
SHORT_CAP = {"basic": 60}
CASES = [
    (preset, players)
    for preset, rules in PRESETS.items()
    for players in sorted({rules.min_players, rules.max_players})
]


def _load(preset: str, players: int, turn_cap: int | None = None) -> pyspiel.Game:
    cap = turn_cap or SHORT_CAP.get(preset) or PRESETS[preset].turn_cap
    return pyspiel.load_game(f"{ros.game_name(preset)}(players={players},turn_cap={cap})")


def _deal_out(state: pyspiel.State, rng: random.Random) -> None:
    while state.is_chance_node():
        outcomes = state.chance_outcomes()
        state.apply_action(rng.choice(outcomes)[0])


def _play_randomly(state: pyspiel.State, rng: random.Random, steps: int) -> None:
    for _ in range(steps):
        if state.is_terminal():
            return
        if state.is_chance_node():
            state.apply_action(rng.choice(state.chance_outcomes())[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))


def test_every_preset_is_registered_under_its_name() -> None:
    names = set(pyspiel.registered_names())
    assert {f"pyrummy_{p.replace('-', '_')}" for p in PRESETS} <= names
    game = pyspiel.load_game("pyrummy_knock(players=4)")
    assert (game.num_players(), game.get_type().short_name) == (4, "pyrummy_knock")
    assert pyspiel.load_game("pyrummy_knock_target").num_players() == 2
    assert pyspiel.load_game("pyrummy_gin").num_distinct_actions() == 108


@pytest.mark.parametrize(("preset", "players"), CASES)
def test_openspiel_random_sim_test(preset: str, players: int) -> None:
    pyspiel.random_sim_test(_load(preset, players), num_sims=2, serialize=True, verbose=False)


def test_the_shuffle_is_one_uniform_chance_node_per_card() -> None:
    game = pyspiel.load_game("pyrummy_rotham(players=3)")
    state = game.new_initial_state()
    seen: list[int] = []
    while state.is_chance_node():
        outcomes = state.chance_outcomes()
        assert len(outcomes) == 55 - len(seen)
        assert all(p == pytest.approx(1 / len(outcomes)) for _, p in outcomes)
        card = outcomes[len(outcomes) // 2][0]
        seen.append(card)
        state.apply_action(card)
    assert sorted(seen) == list(range(55))
    deal = state.deal
    assert deal is not None and [c.index for c in deal.deck] == seen


def test_returns_are_the_zero_sum_deal_rewards() -> None:
    game = _load("knock-target", 4)
    rng = random.Random(3)
    state = game.new_initial_state()
    _play_randomly(state, rng, 10_000)
    assert state.is_terminal()
    deal = state.deal
    assert deal is not None and deal.settlement is not None
    assert state.returns() == pytest.approx(list(deal_rewards(deal.settlement, "knock-target")))
    assert state.returns() == pytest.approx([float(x) for x in deal.settlement.net])
    assert sum(state.returns()) == pytest.approx(0.0)


def test_observation_tensor_is_the_seats_encoding() -> None:
    game = _load("rummy", 3)
    state = game.new_initial_state()
    rng = random.Random(5)
    _deal_out(state, rng)
    _play_randomly(state, rng, 7)
    deal = state.deal
    assert deal is not None
    for seat in range(3):
        expected = encode_observation(deal.observe(seat))
        assert np.array_equal(np.asarray(state.observation_tensor(seat)), expected)
    assert "hand: " + str(deal.hands(1)) in state.observation_string(1)


def test_serialization_round_trips_mid_deal() -> None:
    game = _load("basic", 4)
    state = game.new_initial_state()
    rng = random.Random(9)
    _play_randomly(state, rng, 52 + 25)
    text = pyspiel.serialize_game_and_state(game, state)
    again_game, again = pyspiel.deserialize_game_and_state(text)
    assert str(again_game) == str(game)
    assert str(again) == str(state) and again.history() == state.history()
    assert again.legal_actions() == state.legal_actions()
    action = state.legal_actions()[-1]
    state.apply_action(action)
    again.apply_action(action)
    assert str(again) == str(state)


def test_information_state_string_is_private_and_perfect_recall() -> None:
    game = _load("knock", 2)
    state = game.new_initial_state()
    rng = random.Random(2)
    _deal_out(state, rng)
    deal = state.deal
    assert deal is not None
    seat = state.current_player()
    other = 1 - seat
    state.apply_action(0)  # draw stock
    text = state.information_state_string(seat)
    drawn = deal.history and CardSet(deal.hands(seat)) - CardSet(deal.deck[:21])
    assert f"hand: {deal.hands(seat)}" in text
    assert f"stock draws: {next(iter(drawn))}" in text
    # The opponent sees the draw but not the card.
    assert "stock draws: \n" in state.information_state_string(other) + "\n"
    assert str(deal.hands(seat)) not in state.information_state_string(other)


@pytest.mark.parametrize(("preset", "players"), [("knock", 3), ("rummy", 2), ("gin", 2)])
def test_resample_keeps_the_information_state_and_redeals_the_rest(
    preset: str, players: int
) -> None:
    game = _load(preset, players)
    state = game.new_initial_state()
    rng = random.Random(11)
    _deal_out(state, rng)
    for _ in range(9):  # the lowest numbers: draw stock, discard; never a knock
        state.apply_action(min(state.legal_actions()))
    assert not state.is_terminal()
    player = state.current_player()
    key = state.information_state_string(player)
    deal = state.deal
    assert deal is not None
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    differed = False
    for _ in range(8):
        sample = state.resample_from_infostate(player, sampler)
        assert sample.information_state_string(player) == key
        assert sample.legal_actions() == state.legal_actions()
        assert sample.observation_tensor(player) == state.observation_tensor(player)
        other = sample.deal
        assert other is not None
        every_card = CardSet()
        for seat in range(players):
            assert len(other.hands(seat)) == len(deal.hands(seat))
            every_card |= other.hands(seat)
        every_card |= CardSet(other.stock) | CardSet(other.discard_pile)
        for table_meld in other.table:
            every_card |= CardSet(table_meld.meld.cards)
        assert every_card == CardSet(ALL_CARDS[: deal.rules.deck_size])
        differed |= any(other.hands(s) != deal.hands(s) for s in range(players) if s != player)
    assert differed


def _play_with_bots(game: pyspiel.Game, bots: list[object], seed: int) -> list[float]:
    rng = np.random.RandomState(seed)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probabilities = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(actions, p=probabilities)))
        else:
            action = bots[state.current_player()].step(state)
            assert action in state.legal_actions()
            state.apply_action(action)
    return list(state.returns())


@pytest.mark.parametrize(
    ("name", "simulations"), [("pyrummy_knock(players=3)", 8), ("pyrummy_gin", 3)]
)
def test_openspiel_mcts_and_ismcts_play_complete_games(name: str, simulations: int) -> None:
    game = pyspiel.load_game(name)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(1))
    bots: list[object] = [
        mcts.MCTSBot(game, 2.0, simulations, evaluator, random_state=np.random.RandomState(2)),
        ismcts.ISMCTSBot(game, evaluator, 2.0, simulations, random_state=np.random.RandomState(3)),
    ]
    if game.num_players() == 3:
        bots.append(
            ismcts.ISMCTSBot(
                game,
                evaluator,
                2.0,
                simulations,
                max_world_samples=2,
                random_state=np.random.RandomState(4),
            )
        )
    returns = _play_with_bots(game, bots, seed=7)
    assert sum(returns) == pytest.approx(0.0)
    assert max(abs(r) for r in returns) <= game.max_utility()


def test_bad_parameters_are_refused() -> None:
    with pytest.raises(ValueError, match="gin is for 2-2 players, not 3"):
        pyspiel.load_game("pyrummy_gin(players=3)")
    with pytest.raises(ValueError, match="dealer must be a seat 0-1"):
        pyspiel.load_game("pyrummy_knock(players=2,dealer=5)")
