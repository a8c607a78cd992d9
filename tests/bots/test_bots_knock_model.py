"""Knock rummy: the two-type opponent model (active seats that passed hold poor hands)."""

from __future__ import annotations

import itertools
import random
import statistics

import pytest

from deal_helpers import after_passive_rounds
from pyrummy.bots import HardBot
from pyrummy.bots.knock_equity import (
    HORIZON,
    KnockEstimate,
    _history_of_opponents,
    _modelled_redeal,
    estimate_knock,
)
from pyrummy.bots.knock_model import ACTIVE_FIT, KnockFit, OpponentModel
from pyrummy.core.actions import ActionKind
from pyrummy.core.observation import Observation
from pyrummy.core.rules import find_rules
from pyrummy.core.solver import deadwood_of_mask


def _redeals(
    observation: Observation, model: OpponentModel, count: int, seed: int
) -> list[tuple[list[int], list[tuple[int, ...]], float, list[int]]]:
    me = observation.seat
    assert me is not None
    opponents = _history_of_opponents(observation, me)
    pool = [card.index for card in observation.unseen_cards()]
    missing = [observation.hand_sizes[o.seat] - o.known.bit_count() for o in opponents]
    rng = random.Random(seed)
    return [
        _modelled_redeal(model, opponents, missing, pool, 12, observation.players, "low", rng)
        for _ in range(count)
    ]


def test_each_pass_makes_a_seat_look_more_passive() -> None:
    model = OpponentModel(active_prior=0.8)
    chances = [model.active_posterior(passes) for passes in range(5)]
    assert chances[0] == 0.8
    assert all(later < earlier for earlier, later in itertools.pairwise(chances))
    # A seat that never passes at all (rate 1) tells nothing; one that always knocks can't pass.
    sure = OpponentModel(fits=(KnockFit(30.0, 2.0, 1.0),), active_prior=0.3)
    assert sure.active_posterior(4) == 0.3
    never = OpponentModel(fits=(KnockFit(30.0, 2.0, 0.0),), active_prior=0.9)
    assert never.active_posterior(1) == 0.0


def test_the_knock_chance_is_a_half_at_the_fitted_threshold_and_falls_with_deadwood() -> None:
    model = OpponentModel()
    first = ACTIVE_FIT[0]
    assert abs(model.knock_chance(int(first.threshold), 1) - 0.5) < 0.1
    chances = [model.knock_chance(deadwood, 1) for deadwood in range(0, 80, 5)]
    assert chances == sorted(chances, reverse=True)
    # Turns past the fitted rows use the last row.
    assert model.knock_chance(20, 9) == model.knock_chance(20, len(ACTIVE_FIT))


def test_a_re_deal_keeps_the_known_cards_and_deals_every_card_once() -> None:
    for seed in range(4):
        deal = after_passive_rounds(seed, rounds=2)
        observation = deal.observe(deal.current_seat or 0)
        me = observation.seat
        assert me is not None
        for hands, thresholds, weight, stock in _redeals(observation, OpponentModel(), 20, seed):
            assert 0 < weight <= 1
            seen = observation.hand.mask
            used = 0
            for seat, hand in enumerate(hands):
                if seat == me:
                    continue
                assert hand & observation.known_cards[seat].mask == (
                    observation.known_cards[seat].mask
                )
                assert hand.bit_count() == observation.hand_sizes[seat]
                assert not hand & (used | seen)
                used |= hand
                assert len(thresholds[seat]) == HORIZON
            bits = 0
            for card in stock:
                assert not card & (used | seen | bits)
                bits |= card


def test_an_active_seat_that_passed_is_re_dealt_a_poor_hand_a_passive_one_a_good_hand() -> None:
    means = {}
    for prior in (0.0, 1.0):
        deadwoods = []
        for seed in range(5):
            deal = after_passive_rounds(seed, rounds=1)
            observation = deal.observe(deal.current_seat or 0)
            for hands, thresholds, _, _ in _redeals(
                observation, OpponentModel(active_prior=prior), 40, seed
            ):
                for seat, hand in enumerate(hands):
                    if seat != observation.seat:
                        deadwoods.append(deadwood_of_mask(hand, "low"))
                        # A passive seat never knocks in the rollouts; an active one does.
                        assert (thresholds[seat][0] >= 0) is (prior == 1.0)
        means[prior] = statistics.fmean(deadwoods)
    # Active: it would have knocked at about 36 or less (the fit), so it holds more.
    assert means[1.0] > ACTIVE_FIT[0].threshold
    assert means[1.0] > means[0.0] + 5


def test_against_active_seats_knocking_now_is_worth_more_than_against_passive_ones() -> None:
    rules = find_rules("knock")
    gains = []
    for seed in range(6):
        deal = after_passive_rounds(seed, rounds=1)
        observation = deal.observe(deal.current_seat or 0)
        card = max(observation.hand, key=lambda c: c.index).bit
        active, passive = (
            estimate_knock(
                observation,
                rules,
                card,
                random.Random(seed),
                0.0,
                lambda: 1.0,
                min_samples=200,
                model=OpponentModel(active_prior=prior),
            )
            for prior in (1.0, 0.0)
        )
        assert active.samples == passive.samples == 200
        gains.append(active.now - passive.now)
    assert statistics.fmean(gains) > 3.0


def test_the_equity_knocks_at_a_loss_only_at_two_players(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Knocking now (-1) beats waiting (-5): at two players the hard bot knocks; at 3+
    players it knocks only at an expected gain, so it waits."""
    monkeypatch.setattr(
        "pyrummy.bots.hard_knock.estimate_knock",
        lambda *args, **kwargs: KnockEstimate(-1.0, -5.0, 1),
    )
    for players, kind in ((2, ActionKind.KNOCK), (4, ActionKind.DISCARD)):
        deal = after_passive_rounds(2, rounds=1, players=players)
        seat = deal.current_seat
        assert seat is not None
        observation, legal = deal.observe(seat), deal.legal_actions()
        # The learned knock (pyrummy.bots.knock_value) is off: this is the equity's rule.
        bot = HardBot(seed=1, rollouts=2, knock_value=False)
        assert bot.choose(observation, legal).kind is kind
        assert bot.last_knock_samples == 1
