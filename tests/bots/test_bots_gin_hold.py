"""Gin: the knock-or-hold re-deals (pyrummy.bots.gin_hold) and the hard bot's use of them."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from pyrummy.bots import HardBot, SimpleBot
from pyrummy.bots.base import BotError
from pyrummy.bots.gin_hold import MIN_SAMPLES, Play, hold_values, knock_net
from pyrummy.core.actions import DISCARDS, KNOCKS, ActionKind
from pyrummy.core.cards import Card, CardSet
from pyrummy.core.deal import Deal, new_deal
from pyrummy.core.rules import Rules, find_rules
from pyrummy.core.sampling import sample_deal
from pyrummy.core.settlement import settle
from pyrummy.core.solver import best_discards_of_mask, deadwood_of_mask
from test_bots_gin import _gin_view

OPENSPIEL_GIN = find_rules("gin", gin_bonus=25, undercut_bonus=25, layoff_on_gin=False)


@pytest.mark.parametrize(
    "rules", [OPENSPIEL_GIN, find_rules("gin")], ids=["no-layoff-on-gin", "gin"]
)
def test_knock_net_is_the_settlement_of_the_two_hands(rules: Rules) -> None:
    rng = random.Random(3)
    checked = laid_off = undercuts = 0
    while checked < 400:
        cards = rng.sample(range(52), 27)
        eleven = sum(1 << c for c in cards[:11])
        least, tied = best_discards_of_mask(eleven, rules.ace)
        if least > rules.knock_limit:
            continue
        knocker = eleven & ~(tied & -tied)
        # A defender that kept the best 10 of 16 cards: close hands, so undercuts happen.
        defender = sum(1 << c for c in cards[11:])
        for _ in range(6):
            _, tied = best_discards_of_mask(defender, rules.ace)
            defender &= ~(tied & -tied)
        settlement = settle([CardSet(knocker), CardSet(defender)], 0, rules)
        assert knock_net(knocker, defender, rules) == settlement.net[0] - settlement.net[1]
        checked += 1
        laid_off += settlement.layoffs != ()
        undercuts += settlement.net[0] == 0
    # The sample covers lay-offs and undercuts, not only the plain difference.
    assert laid_off > 50 and undercuts > 10


def _knock_decisions(seeds: range) -> Iterator[Deal]:
    """Gin deals (simple play) stopped where the seat to move may knock without gin."""
    for seed in seeds:
        deal = new_deal("gin", players=2, seed=seed, dealer=seed % 2)
        bot = SimpleBot(seed=seed)
        while not deal.is_over:
            legal = deal.legal_actions()
            knocks = [a for a in legal if a.kind is ActionKind.KNOCK]
            if knocks and any(a.kind is ActionKind.DISCARD for a in legal):
                yield deal
                break
            seat = deal.current_seat
            assert seat is not None
            deal.apply(bot.choose(deal.observe(seat), legal))


def test_the_play_outs_remembered_solver_answers_are_the_solvers() -> None:
    # The play-outs remember answers by hand and kept card: asked again, or for the same hand
    # keeping another card, they must still be the solver's (a memo keyed by hand alone fails).
    play = Play(OPENSPIEL_GIN)
    rng = random.Random(5)
    for _ in range(300):
        cards = rng.sample(range(52), 11)
        hand = sum(1 << c for c in cards)
        for keep in (0, 1 << cards[0], 1 << cards[1], 0):
            assert play.best_discards(hand, keep) == best_discards_of_mask(hand, "low", keep=keep)
        ten = hand & ~(1 << cards[2])
        assert play.deadwood(ten) == deadwood_of_mask(ten) == play.deadwood(ten)


def test_hold_decisions_depend_only_on_what_the_seat_sees() -> None:
    rng = random.Random(5)
    checked = 0
    for deal in _knock_decisions(range(40)):
        seat = deal.current_seat
        assert seat is not None
        seen = deal.observe(seat)
        other = sample_deal(seen, rng)
        first = HardBot(seed=2, rollouts=4, gin_hold_samples=40).choose(seen, deal.legal_actions())
        again = HardBot(seed=2, rollouts=4, gin_hold_samples=40).choose(
            other.observe(seat), other.legal_actions()
        )
        assert first == again
        checked += 1
    assert checked >= 10


def test_hold_values_stop_at_the_deadline_after_the_minimum() -> None:
    deal = next(_knock_decisions(range(40)))
    seat = deal.current_seat
    assert seat is not None
    seen = deal.observe(seat)
    knock = next(a for a in deal.legal_actions() if a.kind is ActionKind.KNOCK)
    values = hold_values(
        seen,
        knock.cards[0].index,
        seen_rules(deal),
        random.Random(1),
        samples=500,
        wait_stock=14,
        deadline=3.0,
        clock=lambda: 10.0,  # always past the deadline
    )
    assert values.samples == MIN_SAMPLES
    unbounded = hold_values(
        seen, knock.cards[0].index, seen_rules(deal), random.Random(1), samples=50, wait_stock=14
    )
    assert unbounded.samples == 50


def seen_rules(deal: Deal) -> Rules:
    return find_rules(deal.observe(0).rules)


def test_the_hard_bot_on_a_time_budget_spends_at_most_its_knock_share() -> None:
    deal = next(_knock_decisions(range(40)))
    seat = deal.current_seat
    assert seat is not None
    now = [0.0]

    def clock() -> float:
        now[0] += 0.1  # every reading costs 100 ms of the 0.25 s budget
        return now[0]

    bot = HardBot(seed=1, time_budget=0.25, gin_hold_samples=1, clock=clock)
    bot.choose(deal.observe(seat), deal.legal_actions())
    # 30% of 0.25 s is gone at the first reading after the start: the minimum, then it
    # stops (on a time budget gin_hold_samples only switches the re-deals on).
    assert bot.last_knock_samples == MIN_SAMPLES


def test_gin_always_goes_down() -> None:
    view = _gin_view("2S 3S 4S 7H 7D 7C 9C TC JC QC 3D", "6C")
    rules = find_rules(view.rules)
    legal = [DISCARDS[card.index] for card in view.hand]
    legal += [
        KNOCKS[card.index]
        for card in view.hand
        if deadwood_of_mask(view.hand.mask & ~card.bit, rules.ace) <= rules.knock_limit
    ]
    bot = HardBot(seed=1, rollouts=4, gin_hold_samples=40)
    assert bot.choose(view, legal) == KNOCKS[Card("3D").index]
    assert bot.last_knock_samples == 0  # gin is not weighed


def test_a_negative_sample_count_is_refused() -> None:
    with pytest.raises(BotError):
        HardBot(rollouts=4, gin_hold_samples=-1)
