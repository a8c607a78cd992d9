"""Gin: the draw and the discard chosen by play-outs (pyrummy.bots.gin_search) and the hard bot's use."""

from __future__ import annotations

import random

import pytest

from pyrummy.bots import HardBot, SimpleBot
from pyrummy.bots.base import BotError, is_draw_decision
from pyrummy.bots.gin_search import (
    MIN_SAMPLES,
    Budget,
    discard_values,
    searched_discard,
)
from pyrummy.core.actions import DISCARDS, ActionKind
from pyrummy.core.cards import Card
from pyrummy.core.deal import new_deal
from pyrummy.core.rules import find_rules
from pyrummy.core.sampling import sample_deal
from test_bots_gin import _gin_view


def _searching() -> HardBot:
    return HardBot(seed=2, rollouts=4, gin_search_samples=24)


def test_searched_decisions_depend_only_on_what_the_seat_sees() -> None:
    rng = random.Random(5)
    draws = give_backs = 0
    for seed in range(12):
        deal = new_deal("gin", players=2, seed=seed, dealer=seed % 2)
        simple = SimpleBot(seed=seed)
        for _ in range(10):
            if deal.is_over:
                break
            seat = deal.current_seat
            assert seat is not None
            seen = deal.observe(seat)
            legal = deal.legal_actions()
            if len(legal) > 1:
                other = sample_deal(seen, rng)
                first = _searching().choose(seen, legal)
                again = _searching().choose(other.observe(seat), other.legal_actions())
                assert first == again
                if is_draw_decision(legal):
                    draws += 1
                else:
                    give_backs += 1
            deal.apply(simple.choose(seen, legal))
    assert draws >= 10 and give_backs >= 10


def test_breaking_a_meld_plays_out_worse_than_giving_back_a_lone_high_card() -> None:
    view = _gin_view("2S 3S 4S 7H 7D 7C 9C TC KD QH 5D", "8S")
    rules = find_rules(view.rules)
    found = discard_values(
        view, [Card("3S").index, Card("KD").index], rules, random.Random(1), Budget(60)
    )
    assert found.samples == 60
    assert found.values[Card("KD").index] > found.values[Card("3S").index] + 1


def test_the_searched_discard_is_one_of_the_candidates() -> None:
    view = _gin_view("2S 3S 4S 7H 7D 7C 9C TC KD QH 5D", "8S")
    rules = find_rules(view.rules)
    scores = {card: float(i) for i, card in enumerate(view.hand)}
    choice, samples = searched_discard(
        view, scores, rules, random.Random(1), Budget(20), candidates=3
    )
    assert choice in sorted(scores, key=scores.__getitem__)[:3]
    assert samples == 20
    # One candidate: nothing to search.
    one = searched_discard(view, scores, rules, random.Random(1), Budget(20), candidates=1)
    assert one == (None, 0)


def test_the_searches_stop_at_the_deadline_after_the_minimum() -> None:
    view = _gin_view("2S 3S 4S 7H 7D 7C 9C TC KD QH 5D", "8S")
    rules = find_rules(view.rules)
    cards = [Card("KD").index, Card("QH").index]

    def late() -> float:
        return 10.0  # always past the deadline

    found = discard_values(view, cards, rules, random.Random(1), Budget(500, 3.0, late))
    assert found.samples == MIN_SAMPLES


def test_negative_search_counts_are_refused() -> None:
    with pytest.raises(BotError):
        HardBot(rollouts=4, gin_search_samples=-1)


def test_a_large_margin_keeps_the_heuristic_choice() -> None:
    view = _gin_view("2S 3S 4S 7H 7D 7C 9C TC KD QH 5D", "8S")
    rules = find_rules(view.rules)
    # The heuristic ranks breaking the run first; the play-outs clearly prefer KD (above).
    scores = {Card("3S"): 0.0, Card("KD"): 1.0}
    searched, _ = searched_discard(view, scores, rules, random.Random(1), Budget(60), candidates=2)
    assert searched == Card("KD")
    kept, _ = searched_discard(
        view, scores, rules, random.Random(1), Budget(60), candidates=2, margin=1e9
    )
    assert kept == Card("3S")
    found = discard_values(
        view, [Card("3S").index, Card("KD").index], rules, random.Random(1), Budget(60)
    )
    assert found.errors[Card("3S").index] == 0.0
    assert (
        0.0
        < found.errors[Card("KD").index]
        < found.values[Card("KD").index] - found.values[Card("3S").index]
    )


def test_the_hard_bot_on_a_time_budget_stops_its_discard_search_at_its_share() -> None:
    # No knock is legal (deadwood far above 10): the give-back is a searched discard.
    view = _gin_view("2S 3S 4S 7H 9D KC 9C TC KD QH 5D", "8S")
    legal = [DISCARDS[card.index] for card in view.hand]
    now = [0.0]

    def clock() -> float:
        now[0] += 0.2  # every reading costs 200 ms of the 0.25 s budget
        return now[0]

    bot = HardBot(seed=1, time_budget=0.25, gin_search_samples=500, clock=clock)
    assert bot.choose(view, legal).kind is ActionKind.DISCARD
    # Half of 0.25 s is gone at the first reading after the start: the minimum, then it stops.
    assert bot.last_rollouts == MIN_SAMPLES
    capped = HardBot(seed=1, time_budget=1e9, gin_search_samples=30, clock=clock)
    capped.choose(view, legal)
    assert capped.last_rollouts == 30  # time to spare: the count caps the search
    fixed = HardBot(seed=1, rollouts=4, gin_search_samples=30, clock=clock)
    fixed.choose(view, legal)
    assert fixed.last_rollouts == 30  # a fixed count ignores the clock


def test_the_default_hard_bot_searches_its_gin_discards_with_a_margin() -> None:
    view = _gin_view("2S 3S 4S 7H 9D KC 9C TC KD QH 5D", "8S")
    legal = [DISCARDS[card.index] for card in view.hand]
    bot = HardBot(seed=1, rollouts=4)
    assert (bot.config.gin_search_samples, bot.config.gin_search_margin) == (256, 0.5)
    bot.choose(view, legal)
    assert bot.last_rollouts == 256
    off = HardBot(seed=1, rollouts=4, gin_search_samples=0)
    off.choose(view, legal)
    assert off.last_rollouts == 0
