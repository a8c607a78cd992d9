"""Gin: the hard bot decides on what its seat sees, and helpers the gin bot tests share."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable

from pyrummy.bots import HardBot, HardConfig, MediumBot
from pyrummy.core.actions import ActionKind
from pyrummy.core.cards import CardSet, parse_card_list
from pyrummy.core.deal import new_deal
from pyrummy.core.observation import Observation
from pyrummy.core.sampling import sample_deal


def _gin_view(hand: str, pile: str, taken: str = "") -> Observation:
    """Seat 0's view of a fresh gin deal with its hand, the pile and seat 1's taken cards set."""
    base = new_deal("gin", players=2, seed=1, dealer=1).observe(0)
    known = (CardSet(), CardSet(taken))
    return dataclasses.replace(
        base,
        hand=CardSet(hand),
        discard_pile=tuple(parse_card_list(pile)),
        taken_discards=((), tuple(parse_card_list(taken))),
        known_cards=known,
    )


def assert_gin_decisions_ignore_hidden_cards(
    make_bot: Callable[[], HardBot], seeds: range, rng: random.Random, decisions: int = 16
) -> None:
    """Fresh bots decide the same on a seat's view and on a re-deal of what it cannot see."""
    checked = 0
    for seed in seeds:
        deal = new_deal("gin", players=2, seed=seed, dealer=seed % 2)
        while not deal.is_over and checked < decisions:
            seat = deal.current_seat
            assert seat is not None
            seen = deal.observe(seat)
            other = sample_deal(seen, rng)
            first = make_bot().choose(seen, deal.legal_actions())
            again = make_bot().choose(other.observe(seat), other.legal_actions())
            assert first == again
            deal.apply(first)
            checked += 1
    assert checked == decisions


def test_hard_gin_decisions_depend_only_on_what_the_seat_sees() -> None:
    def bot() -> HardBot:
        return HardBot(seed=1, rollouts=2, knock_samples=4, gin_search_samples=16)

    assert_gin_decisions_ignore_hidden_cards(bot, range(10), random.Random(5))


def test_hard_without_the_knock_search_gives_back_as_its_guide() -> None:
    deal = new_deal("gin", players=2, seed=4, dealer=1)
    config = HardConfig(rollouts=2, knock_samples=8, gin_hold_samples=0, gin_reach_bonus=0.0)
    checked = 0
    while not deal.is_over and checked < 12:
        seat = deal.current_seat
        assert seat is not None
        view, legal = deal.observe(seat), deal.legal_actions()
        action = HardBot(seed=seat, config=config).choose(view, legal)
        if any(a.kind is ActionKind.DISCARD for a in legal):
            guide = MediumBot(seed=seat, config=config.guide())
            assert action == guide.choose(view, legal)
            checked += 1
        deal.apply(action)
    assert checked >= 6
