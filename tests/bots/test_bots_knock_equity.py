"""The hard bot's knock equity: anytime (budget by an injected clock), opponent model, panel."""

from __future__ import annotations

import dataclasses
import random

import pytest

from pyrummy.bots import HardBot
from pyrummy.bots.hard_context import DEFAULT_TIME_BUDGET
from pyrummy.bots.knock_equity import MIN_SAMPLES, estimate_knock
from pyrummy.bots.policies import PANEL, PolicyBot, make_policy
from pyrummy.core.actions import ActionKind
from pyrummy.core.deal import Deal, new_deal
from pyrummy.core.rules import find_rules
from pyrummy.core.solver import best_discards_of_mask


class TickingClock:
    """A clock that advances ``step`` seconds every time it is read."""

    def __init__(self, step: float) -> None:
        self.now = 0.0
        self.step = step
        self.reads = 0

    def __call__(self) -> float:
        self.reads += 1
        self.now += self.step
        return self.now


def _at_first_give_back(seed: int, players: int = 2) -> Deal:
    deal = new_deal("knock", players=players, seed=seed, dealer=0)
    deal.apply("draw stock")
    return deal


def _after_a_pass(seed: int) -> Deal:
    """A 2-player knock deal at the second seat's first give-back, its opponent having passed."""
    deal = _at_first_give_back(seed)
    first = deal.current_seat
    assert first is not None
    deal.apply(f"discard {max(deal.hands(first), key=lambda c: c.index)}")
    deal.apply("draw stock")
    return deal


def test_the_budget_bounds_the_samples_by_construction() -> None:
    deal = _at_first_give_back(3)
    observation = deal.observe(deal.current_seat or 0)
    rules = find_rules("knock")
    card = min(observation.hand).bit
    # Each sample reads the clock once; 1 ms a read and a 50 ms budget: 50 samples, not more.
    clock = TickingClock(0.001)
    estimate = estimate_knock(
        observation, rules, card, random.Random(1), deadline=0.05, clock=clock, min_samples=1
    )
    assert 45 <= estimate.samples <= 51
    # A budget already spent still gives the minimum number of samples, and an answer.
    clock = TickingClock(1.0)
    estimate = estimate_knock(observation, rules, card, random.Random(1), deadline=0.0, clock=clock)
    assert estimate.samples == MIN_SAMPLES


def test_a_hard_decision_with_a_tiny_budget_is_legal_and_stops_early() -> None:
    clock = TickingClock(0.01)
    bot = HardBot(seed=2, time_budget=0.02, clock=clock)
    for seed in range(6):
        deal = _after_a_pass(seed)
        seat = deal.current_seat
        assert seat is not None
        legal = deal.legal_actions()
        action = bot.choose(deal.observe(seat), legal)
        assert action in legal
        if bot.last_knock_samples:
            assert bot.last_knock_samples <= MIN_SAMPLES + 1


def test_a_fixed_work_hard_bot_is_deterministic() -> None:
    deal = _after_a_pass(5)
    seat = deal.current_seat
    assert seat is not None
    observation, legal = deal.observe(seat), deal.legal_actions()
    first = HardBot(seed=4, rollouts=4, equity_samples=200)
    second = HardBot(seed=4, rollouts=4, equity_samples=200)
    assert first.choose(observation, legal) == second.choose(observation, legal)
    assert first.last_knock_samples == 200


def test_a_seat_that_passed_a_knock_looks_passive_so_waiting_is_worth_more() -> None:
    """The opponent model is read from the history: the same cards, with and without the
    opponent's passed knock in view; without it every threshold (always-knock too) stays
    likely, so the opponent is expected to knock sooner and waiting is worth less."""
    rules = find_rules("knock")
    gains = []
    for seed in range(12):
        deal = new_deal("knock", players=2, seed=seed, dealer=0)
        deal.apply("draw stock")
        first = deal.current_seat
        assert first is not None
        give = max(deal.hands(first), key=lambda c: c.index)
        deal.apply(f"discard {give}")
        deal.apply("draw stock")
        observation = deal.observe(deal.current_seat or 0)
        unseen_history = dataclasses.replace(observation, history=())
        card = max(observation.hand, key=lambda c: c.index).bit
        seen, unseen = (
            estimate_knock(
                view, rules, card, random.Random(seed), 0.0, lambda: 1.0, min_samples=400
            )
            for view in (observation, unseen_history)
        )
        assert seen.samples == unseen.samples == 400
        gains.append(seen.later - unseen.later)
    assert sum(gains) / len(gains) > 0.5


@pytest.mark.parametrize("name", sorted(PANEL))
def test_every_panel_policy_plays_legal_deals(name: str) -> None:
    for seed in range(3):
        deal = new_deal("knock", players=2, seed=seed, dealer=0)
        bots = [make_policy(name, seed), make_policy("always-knock", seed)]
        while not deal.is_over:
            seat = deal.current_seat
            assert seat is not None
            legal = deal.legal_actions()
            action = bots[seat].choose(deal.observe(seat), legal)
            assert action in legal
            deal.apply(action)


def test_always_knock_knocks_on_its_first_turn_and_never_knock_never_does() -> None:
    deal = _at_first_give_back(7)
    seat = deal.current_seat
    assert seat is not None
    observation, legal = deal.observe(seat), deal.legal_actions()
    assert make_policy("always-knock").choose(observation, legal).kind is ActionKind.KNOCK
    assert make_policy("never-knock").choose(observation, legal).kind is ActionKind.DISCARD


def test_a_threshold_policy_knocks_at_its_threshold_only() -> None:
    deal = _at_first_give_back(7)
    seat = deal.current_seat
    assert seat is not None
    observation, legal = deal.observe(seat), deal.legal_actions()
    hand = observation.hand.mask
    least = best_discards_of_mask(hand, "low")[0]
    at = PolicyBot(knock_at=least).choose(observation, legal)
    below = PolicyBot(knock_at=least - 1).choose(observation, legal)
    assert at.kind is ActionKind.KNOCK
    assert below.kind is ActionKind.DISCARD


def test_a_gin_knock_decision_stops_sampling_at_its_budget() -> None:
    from pyrummy.bots.medium import MIN_KNOCK_SAMPLES, MediumBot

    checked = 0
    for seed in range(200):
        deal = new_deal("gin", players=2, seed=seed, dealer=0)
        bots = [MediumBot(seed, samples=128, time_budget=0.035, clock=TickingClock(0.01))] * 2
        while not deal.is_over:
            seat = deal.current_seat
            assert seat is not None
            legal = deal.legal_actions()
            bot = bots[seat]
            bot.last_knock_samples = 0
            action = bot.choose(deal.observe(seat), legal)
            assert action in legal
            if bot.last_knock_samples:
                # 10 ms a clock read (the first sets the deadline), 35 ms budget: the
                # minimum, then 3 more re-deals before the clock passes it; never all 128.
                assert bot.last_knock_samples == MIN_KNOCK_SAMPLES + 3
                checked += 1
            deal.apply(action)
        if checked >= 3:
            break
    assert checked >= 3


def test_the_default_knock_rule_is_the_medium_re_deals() -> None:
    deal = _at_first_give_back(9)
    seat = deal.current_seat
    assert seat is not None
    observation, legal = deal.observe(seat), deal.legal_actions()
    bot = HardBot(seed=1, rollouts=2, knock_samples=8)
    assert bot.choose(observation, legal) in legal
    assert bot.last_knock_samples == 0
    assert bot.guide.last_knock_samples == 8


def test_by_default_the_knock_equity_decides_only_once_an_opponent_passed() -> None:
    deal = _at_first_give_back(4)
    seat = deal.current_seat
    assert seat is not None
    bot = HardBot(seed=1, rollouts=2, equity_samples=40)
    bot.choose(deal.observe(seat), deal.legal_actions())
    # Nobody has passed yet: the medium re-deals decide, as by default.
    assert bot.last_knock_samples == 0
    give = max(deal.hands(seat), key=lambda c: c.index)
    deal.apply(f"discard {give}")
    deal.apply("draw stock")
    second = deal.current_seat
    assert second is not None
    bot.choose(deal.observe(second), deal.legal_actions())
    assert bot.last_knock_samples == 40


@pytest.mark.parametrize("preset", ["knock", "gin"])
def test_every_hard_decision_ends_inside_its_default_budget(preset: str) -> None:
    """On the default budget every search stops by construction: with a clock that
    moves 2 ms whenever it is read, no decision reads past the budget."""
    clock = TickingClock(0.002)
    bots = [HardBot(seed=seat, clock=clock) for seat in range(2)]
    decisions = 0
    for seed in range(4):
        deal = new_deal(preset, players=2, seed=seed, dealer=0)
        while not deal.is_over:
            seat = deal.current_seat
            assert seat is not None
            started = clock.now
            action = bots[seat].choose(deal.observe(seat), deal.legal_actions())
            assert clock.now - started <= DEFAULT_TIME_BUDGET
            decisions += 1
            deal.apply(action)
    assert decisions >= 8
