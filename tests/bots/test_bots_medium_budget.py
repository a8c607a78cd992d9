"""The medium bot's knock decision is anytime: it stops re-dealing when its budget is spent."""

from __future__ import annotations

import pytest

from pyrummy.bots import BotError, MediumBot
from pyrummy.bots.medium import DEFAULT_SAMPLES, DEFAULT_TIME_BUDGET, MIN_KNOCK_SAMPLES
from pyrummy.core.deal import new_deal


class TickingClock:
    """A clock that advances ``step`` seconds every time it is read."""

    def __init__(self, step: float) -> None:
        self.now = 0.0
        self.step = step

    def __call__(self) -> float:
        self.now += self.step
        return self.now


def _knock_samples_over_deals(bot: MediumBot, players: int, deals: int) -> list[int]:
    """Play ``deals`` knock rummy deals with ``bot`` in every seat; the re-deals behind
    each knock decision it weighed (every action legal)."""
    counts = []
    for seed in range(deals):
        deal = new_deal("knock", players=players, seed=seed, dealer=0)
        while not deal.is_over:
            seat = deal.current_seat
            assert seat is not None
            legal = deal.legal_actions()
            bot.last_knock_samples = 0
            action = bot.choose(deal.observe(seat), legal)
            assert action in legal
            if bot.last_knock_samples:
                counts.append(bot.last_knock_samples)
            deal.apply(action)
    return counts


@pytest.mark.parametrize("players", [2, 4])
def test_a_spent_budget_still_gives_a_legal_decision_on_the_minimum_re_deals(
    players: int,
) -> None:
    # Every clock read moves a second: the budget (~0) is spent before the first re-deal.
    bot = MediumBot(seed=1, samples=64, time_budget=1e-9, clock=TickingClock(1.0))
    counts = _knock_samples_over_deals(bot, players, deals=4)
    assert counts
    assert set(counts) == {MIN_KNOCK_SAMPLES}


def test_the_budget_bounds_the_re_deals_by_the_clock() -> None:
    # 10 ms a read, 45 ms budget: the first read sets the deadline, so the minimum
    # re-deals, then 4 more before the clock passes it; never all 64.
    bot = MediumBot(seed=1, samples=64, time_budget=0.045, clock=TickingClock(0.01))
    counts = _knock_samples_over_deals(bot, 2, deals=4)
    assert counts
    assert set(counts) == {MIN_KNOCK_SAMPLES + 4}


def test_without_a_budget_every_sample_is_drawn() -> None:
    bot = MediumBot(seed=1, samples=12, time_budget=None, clock=TickingClock(1.0))
    counts = _knock_samples_over_deals(bot, 2, deals=3)
    assert counts
    assert set(counts) == {12}


def test_the_default_budget_and_its_checks() -> None:
    config = MediumBot(seed=1).config
    assert (config.time_budget, config.samples) == (DEFAULT_TIME_BUDGET, DEFAULT_SAMPLES)
    with pytest.raises(BotError):
        MediumBot(seed=1, time_budget=-1.0)
