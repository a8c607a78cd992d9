"""The learned bot: legal play from its observation, its network in numpy, its games."""

from __future__ import annotations

import numpy as np
import pytest

from pyrummy.bots.base import BotError
from pyrummy.bots.learned import LearnedBot, learned_games
from pyrummy.core.actions import ActionKind
from pyrummy.core.deal import new_deal
from pyrummy.nn.features import Layout, action_features, state_features
from pyrummy.nn.policy import PolicyWeights
from pyrummy.research.encoding import action_mask, encode_observation, research_legal_actions


def test_plays_whole_deals_with_legal_actions_only() -> None:
    bot = LearnedBot(seed=1)
    for seed in range(20):
        deal = new_deal("knock", players=2, seed=seed)
        while not deal.is_over:
            seat = deal.current_seat
            assert seat is not None
            legal = research_legal_actions(deal)
            action = bot.choose(deal.observe(seat), legal)
            assert action in legal
            deal.apply(action)
        assert deal.settlement is not None


@pytest.mark.parametrize("preset", ["gin-standard", "gin-openspiel"])
def test_plays_the_gin_presets_that_share_gin_s_weights(preset: str) -> None:
    """Standard and OpenSpiel's gin deal the same cards and moves as ``gin``
    (an offer of the up-card, other scores): the gin weights play them, to
    the end of the deal, as the web table and the arena ask."""
    bot = LearnedBot(seed=1)
    passed = 0
    for seed in range(20):
        deal = new_deal(preset, players=2, seed=seed)
        while not deal.is_over:
            seat = deal.current_seat
            assert seat is not None
            legal = deal.legal_actions()
            action = bot.choose(deal.observe(seat), legal)
            assert action in legal
            passed += action.kind is ActionKind.DECLINE
            deal.apply(action)
        assert deal.settlement is not None
    assert passed  # the offer's pass is among its moves


def test_never_takes_back_a_step() -> None:
    # The deal's own legal actions (as a server or the arena passes them) include undo.
    bot = LearnedBot(seed=1)
    for seed in range(10):
        deal = new_deal("knock", players=2, seed=seed)
        while not deal.is_over:
            seat = deal.current_seat
            assert seat is not None
            action = bot.choose(deal.observe(seat), deal.legal_actions())
            assert action.kind is not ActionKind.UNDO
            deal.apply(action)


def test_same_observation_same_answer() -> None:
    deal = new_deal("knock", players=2, seed=5)
    seat = deal.current_seat
    assert seat is not None
    legal = research_legal_actions(deal)
    answers = {str(LearnedBot(seed=s).choose(deal.observe(seat), legal)) for s in range(5)}
    assert len(answers) == 1


def test_plays_other_scores_but_not_other_hands() -> None:
    from pyrummy.bots.learned import learned_plays
    from pyrummy.core.rules import find_rules

    assert learned_plays(find_rules("gin", gin_bonus=25, undercut_bonus=25), 2)
    assert learned_plays(find_rules("knock", target=50), 2)
    assert not learned_plays(find_rules("knock", hand_sizes=((2, 7), (3, 7), (4, 7), (5, 7))), 2)
    assert not learned_plays(find_rules("knock"), 3)
    assert not learned_plays(find_rules("knock-target"), 2)


def test_refuses_a_game_it_was_not_trained_for() -> None:
    deal = new_deal("rummy", players=2, seed=1)
    seat = deal.current_seat
    assert seat is not None
    with pytest.raises(BotError, match="learned bot plays"):
        LearnedBot().choose(deal.observe(seat), research_legal_actions(deal))


def test_ships_knock_and_gin_for_two_and_small_weights() -> None:
    assert learned_games() == [("gin", 2), ("knock", 2)]
    from importlib import resources

    for preset, players in learned_games():
        file = resources.files("pyrummy.bots").joinpath("weights", f"{preset}-{players}p.npz")
        assert len(file.read_bytes()) <= 1_000_000


def test_features_list_exactly_the_legal_actions() -> None:
    layout = Layout.of("gin", 2)
    for seed in range(10):
        deal = new_deal("gin", players=2, seed=seed)
        for _ in range(12):
            if deal.is_over:
                break
            seat = deal.current_seat
            assert seat is not None
            obs = deal.observe(seat)
            legal = research_legal_actions(deal)
            mask = action_mask(obs, legal)[None, :]
            feats, ids, valid = action_features(encode_observation(obs)[None, :], mask, layout)
            assert sorted(ids[0][valid[0]].tolist()) == sorted(np.flatnonzero(mask[0]).tolist())
            assert not feats[0][~valid[0]].any()
            deal.apply(legal[seed % len(legal)])


def test_weights_round_trip(tmp_path: object) -> None:
    rng = np.random.default_rng(1)
    layout = Layout.of("knock", 2)
    shapes = {
        "state_w": (8, layout.state_size),
        "state_b": (8,),
        "action_w": (8, 8 + 68),
        "action_b": (8,),
        "score_w": (1, 8),
        "score_b": (1,),
        "value_w": (4, 8),
        "value_b": (4,),
        "value_out_w": (1, 4),
        "value_out_b": (1,),
    }
    arrays = {k: rng.normal(size=s).astype(np.float32) for k, s in shapes.items()}
    from pathlib import Path

    path = Path(str(tmp_path)) / "w.npz"
    PolicyWeights(arrays, {"rules": "knock"}).save(path)
    loaded = PolicyWeights.load(path)
    assert loaded.meta == {"rules": "knock"}
    for name, value in arrays.items():
        assert np.allclose(loaded.arrays[name], value, atol=1e-2)
    deal = new_deal("knock", players=2, seed=2)
    seat = deal.current_seat
    assert seat is not None
    obs = deal.observe(seat)
    encoded = encode_observation(obs)[None, :]
    mask = action_mask(obs, research_legal_actions(deal))[None, :]
    feats, _, _ = action_features(encoded, mask, layout)
    scores = loaded.scores(loaded.hidden(state_features(encoded, layout)), feats)
    assert scores.shape == feats.shape[:2]


def test_takes_big_gin_and_its_features_have_a_row_for_it() -> None:
    # Standard gin's big gin is the action after the knocks (number 108): the
    # features give it a row (a knock at deadwood 0 that gives no card back),
    # and the bot takes it, as every level does.
    deal = new_deal(
        "gin-standard",
        hands=["AD 2D 3D 4C 5C 6C 8S 9S TS 2C", "AS 2S 3S 4S 4H 5H 6H 7D 7S 7C"],
        upcard="QH",
        stock="7H",
        seed=1,
    )
    deal.apply("pass", 1)
    deal.apply("pass", 0)
    deal.apply("draw stock")  # 7H: all eleven cards melded
    observation = deal.observe(1)
    legal = research_legal_actions(deal)
    assert "big gin" in [str(a) for a in legal]
    layout = Layout.of(deal.rules, 2)
    encoded = encode_observation(observation)[None, :]
    feats, ids, valid = action_features(encoded, action_mask(observation, legal)[None, :], layout)
    big = [k for k in range(int(valid[0].sum())) if int(ids[0, k]) == 108]
    assert len(big) == 1 and np.isfinite(feats[0, big[0]]).all()
    assert str(LearnedBot(seed=1).choose(observation, legal)) == "big gin"
