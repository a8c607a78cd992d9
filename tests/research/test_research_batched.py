"""The batched environments against the core, step by step (differential test).

Every deal of a :class:`BatchedGame` is replayed on the core's
:class:`~pyrummy.core.deal.Deal` (dealt from the same deck and dealer): at
every step the observation and the mask of the seat to play, and at the end
of each deal every seat's reward and final observation, must equal the
core's (:func:`~pyrummy.research.encoding.encode_observation`,
:func:`~pyrummy.research.encoding.action_mask`,
:func:`~pyrummy.research.encoding.deal_rewards`) bit for bit.

``PYRUMMY_DIFF_STEPS`` sets the steps per preset and player count (default
4,000; the full check is 100,000: ``PYRUMMY_DIFF_STEPS=100000``).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pyrummy.core.cards import ALL_CARDS
from pyrummy.core.deal import Deal
from pyrummy.core.errors import IllegalActionError, RulesError
from pyrummy.core.solver import deadwood_of_mask
from pyrummy.research.batched import BatchedGame, UnsupportedRulesError, sample_legal
from pyrummy.research.batched.deadwood import deadwoods, suit_table
from pyrummy.research.encoding import (
    action_mask,
    deal_rewards,
    encode_observation,
    research_legal_actions,
)

STEPS = int(os.environ.get("PYRUMMY_DIFF_STEPS", "4000"))
CASES: list[tuple[str, int]] = [
    ("gin", 2),
    ("knock", 2),
    ("knock", 3),
    ("knock", 4),
    ("knock", 5),
    ("knock-target", 2),
    ("knock-target", 3),
    ("knock-target", 4),
    ("knock-target", 5),
    ("knock-target", 6),
]


def _core_deal(game: BatchedGame, row: int) -> Deal:
    deals = game.deals
    deck = [ALL_CARDS[i] for i in deals.deck[row].tolist()]
    return Deal.from_deck(game.rules, game.players, int(deals.dealer[row]), deck)


def _check_view(
    game: BatchedGame, deal: Deal, row: int, observations: np.ndarray, masks: np.ndarray
) -> None:
    seat = deal.current_seat
    assert seat == int(game.to_play[row])
    seen = deal.observe(seat)
    want = encode_observation(seen)
    assert np.array_equal(observations[row], want), (row, np.flatnonzero(observations[row] != want))
    assert np.array_equal(masks[row], action_mask(seen, research_legal_actions(deal)))


TurnTaker = Callable[[np.random.Generator, np.ndarray], np.ndarray]


def run_against_core(
    game: BatchedGame, steps: int, seed: int, turn_taker: TurnTaker | None = None
) -> dict[str, int]:
    """Step ``game`` with random legal actions for ``steps`` row-steps, each
    deal mirrored by the core; the counts of steps and ended deals."""
    rng = np.random.default_rng(seed)
    observations, masks = game.reset(seed=seed)
    core = [_core_deal(game, row) for row in range(game.batch)]
    done_deals = 0
    taken = 0
    while taken < steps:
        for row, deal in enumerate(core):
            _check_view(game, deal, row, observations, masks)
        actions = game.sample_actions(rng) if turn_taker is None else turn_taker(rng, masks)
        for row, deal in enumerate(core):
            deal.apply(game.deals.space.decode(int(actions[row])))
        observations, masks, rewards, done = game.step(actions)
        taken += game.batch
        finals = dict(zip(game.final_rows.tolist(), game.final_observations, strict=True))
        for row, deal in enumerate(core):
            assert deal.is_over == bool(done[row]), row
            if deal.is_over:
                assert deal.settlement is not None
                want = deal_rewards(deal.settlement, game.rules)
                assert tuple(rewards[row].tolist()) == want, (row, rewards[row], want)
                for seat in range(game.players):
                    assert np.array_equal(finals[row][seat], encode_observation(deal.observe(seat)))
                core[row] = _core_deal(game, row)
                done_deals += 1
            else:
                assert not rewards[row].any()
    return {"steps": taken, "deals": done_deals}


@pytest.mark.parametrize(("preset", "players"), CASES)
def test_batched_equals_core(preset: str, players: int) -> None:
    game = BatchedGame(preset, players=players, batch=16, seed=7)
    counts = run_against_core(game, STEPS, seed=players * 101 + len(preset))
    assert counts["deals"] > 0


def test_batched_options_equal_core() -> None:
    """Options that change the rules the engine reads: knock limit, wall, bonuses, ace, turn cap."""
    cases: list[tuple[str, int, dict[str, Any]]] = [
        ("gin", 2, {"knock_limit": 30, "wall_cards": 8, "gin_bonus": 25, "turn_cap": 12}),
        ("knock", 3, {"ace": "high_or_low", "rum_bonus": 7, "knock_penalty": 3, "turn_cap": 6}),
        ("knock-target", 4, {"knock_penalty_mode": "shared", "turn_cap": 5}),
    ]
    for preset, players, options in cases:
        game = BatchedGame(preset, players=players, batch=32, seed=3, **options)
        run_against_core(game, 3000, seed=5)


def _draw_first(rng: np.random.Generator, masks: np.ndarray) -> np.ndarray:
    """A player who draws or declines rather than knocks: long deals (turn cap, empty stock)."""
    choice = np.empty(masks.shape[0], np.int64)
    for row, mask in enumerate(masks):
        legal = np.flatnonzero(mask)
        discards = legal[(legal >= 4) & (legal < 56)]
        pick = discards if discards.size else legal
        choice[row] = rng.choice(pick)
    return choice


@pytest.mark.parametrize(("preset", "players"), [("knock", 4), ("knock", 5), ("gin", 2)])
def test_long_deals_equal_core(preset: str, players: int) -> None:
    """Deals that reach the empty stock (decline) and the turn cap."""
    game = BatchedGame(preset, players=players, batch=16, seed=11, turn_cap=40)
    counts = run_against_core(game, 2000, seed=2, turn_taker=_draw_first)
    assert counts["deals"] > 0


@settings(max_examples=25, deadline=None)
@given(
    case=st.sampled_from(CASES),
    seed=st.integers(0, 2**32 - 1),
    batch=st.integers(1, 9),
    turn_cap=st.integers(4, 60),
)
def test_batched_equals_core_hypothesis(
    case: tuple[str, int], seed: int, batch: int, turn_cap: int
) -> None:
    preset, players = case
    game = BatchedGame(preset, players=players, batch=batch, seed=seed, turn_cap=turn_cap)
    run_against_core(game, 40 * batch, seed=seed)


def test_unsupported_presets_are_refused() -> None:
    for preset in ("rummy", "basic", "block", "rotham"):
        with pytest.raises(UnsupportedRulesError, match="knock, knock-target, gin"):
            BatchedGame(preset)
    with pytest.raises(UnsupportedRulesError, match="jokers"):
        BatchedGame("knock", jokers=2)


def test_defaults_follow_the_rules() -> None:
    assert BatchedGame("gin", batch=2).players == 2
    assert BatchedGame("knock", batch=2).players == 4
    with pytest.raises(RulesError):
        BatchedGame("gin", players=3, batch=2)


def test_illegal_actions_are_refused_and_change_nothing() -> None:
    game = BatchedGame("gin", batch=4, seed=1)
    observations, _masks = game.reset()
    before = observations.copy()
    with pytest.raises(IllegalActionError, match="illegal actions in deals"):
        game.step(np.full(4, 50))
    assert np.array_equal(game.step(game.sample_actions())[0].shape, before.shape)
    masks = game.deals.legal_mask()
    for action in (-1, -65, 108, 172, 2**40):
        assert not game.deals.is_legal(np.full(4, action)).any()
    for action in range(108):
        assert (
            game.deals.is_legal(np.full(4, action)).tolist()
            == masks[:, action].astype(bool).tolist()
        )


def test_seeds_repeat() -> None:
    def run(seed: int) -> np.ndarray:
        game = BatchedGame("knock", players=3, batch=8, seed=seed)
        game.reset()
        rng = np.random.default_rng(seed)
        total = np.zeros(3)
        for _ in range(50):
            total += game.step(game.sample_actions(rng))[2].sum(axis=0)
        return total

    assert np.array_equal(run(4), run(4))
    assert not np.array_equal(run(4), run(5))


@settings(max_examples=200, deadline=None)
@given(
    low=st.integers(0, 2**64 - 1),
    high=st.integers(0, 2**44 - 1),
    uniform=st.floats(0.0, 1.0, exclude_max=True),
)
def test_sample_legal_picks_the_nth_set_bit(low: int, high: int, uniform: float) -> None:
    legal = [bit for bit in range(108) if (low | high << 64) >> bit & 1]
    if not legal:
        return
    picked = sample_legal(
        np.array([low], np.uint64), np.array([high], np.uint64), np.array([uniform])
    )
    assert picked.tolist() == [legal[int(uniform * len(legal))]]


@pytest.mark.parametrize("ace", ["low", "high_or_low", "around_the_corner"])
def test_batched_deadwoods_equal_the_solver(ace: str) -> None:
    # Random hands of 7-13 cards, and hands built around sets of three and
    # four (one, two and three ranks in three suits or more).
    rng = np.random.default_rng(5)
    hands: list[int] = []
    for size in range(7, 14):
        for order in np.argsort(rng.random((300, 52)), axis=1)[:, :size].tolist():
            hands.append(sum(1 << card for card in order))
    for _ in range(600):
        hand = 0
        for rank in rng.choice(13, size=int(rng.integers(1, 4)), replace=False).tolist():
            for suit in rng.choice(4, size=int(rng.integers(3, 5)), replace=False).tolist():
                hand |= 1 << (13 * suit + rank)
        for card in rng.choice(52, size=int(rng.integers(0, 5)), replace=False).tolist():
            hand |= 1 << card
        hands.append(hand)
    got = deadwoods(np.array(hands, np.uint64), suit_table(ace)).tolist()
    assert got == [deadwood_of_mask(hand, ace) for hand in hands]
