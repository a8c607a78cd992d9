"""Gin: re-deals read the opponent's earlier turns (pyrummy.bots.gin_read)."""

from __future__ import annotations

import random

import pytest

from pyrummy.bots import SimpleBot
from pyrummy.bots.gin_hold import Play, Redeals
from pyrummy.bots.gin_read import contradicted, earlier_refusals
from pyrummy.bots.gin_search import Budget, discard_values
from pyrummy.core.actions import ActionKind
from pyrummy.core.cards import Card, CardSet
from pyrummy.core.deal import Deal, new_deal
from pyrummy.core.rules import find_rules
from pyrummy.core.sampling import sample_deal


def _played(seed: int, give_backs: int) -> Deal:
    """A simple-play gin deal after ``give_backs`` give-backs (or at its end)."""
    deal = new_deal("gin", players=2, seed=seed, dealer=seed % 2)
    bot = SimpleBot(seed=seed)
    given = 0
    while not deal.is_over and given < give_backs:
        seat = deal.current_seat
        assert seat is not None
        action = bot.choose(deal.observe(seat), deal.legal_actions())
        given += action.kind is ActionKind.DISCARD
        deal.apply(action)
    return deal


def _reading_decision() -> tuple[Deal, int]:
    """A live deal whose seat to move has earlier opponent turns to read; the seat."""
    for seed in range(50):
        deal = _played(seed, 8)
        seat = deal.current_seat
        if not deal.is_over and seat is not None and earlier_refusals(deal.observe(seat), 1 - seat):
            return deal, seat
    raise AssertionError("no deal to read")


def test_meld_partners_are_counted_per_card() -> None:
    hand = CardSet("8H TH 2S 2D KC 4C 5C").mask
    assert contradicted(hand, Card("9H").bit) == 1  # 8H and TH around it
    assert contradicted(hand, Card("2C").bit) == 1  # two twos
    assert contradicted(hand, Card("3C").bit | Card("6C").bit) == 2  # 4C 5C on both sides
    # One partner is not enough, and runs do not turn the corner (ace low).
    assert contradicted(hand, Card("QC").bit | Card("JH").bit | Card("AC").bit) == 0
    assert contradicted(CardSet("QS KS").mask, Card("AS").bit) == 0


def test_earlier_refusals_are_the_opponents_turns_before_its_last() -> None:
    checked = 0
    for seed in range(20):
        deal = _played(seed, 9)
        if deal.is_over:
            continue
        seat = deal.current_seat
        assert seat is not None
        seen = deal.observe(seat)
        opponent = 1 - seat
        given = [
            action.cards[0]
            for actor, action in seen.history
            if actor == opponent and action.kind is ActionKind.DISCARD
        ]
        refused = earlier_refusals(seen, opponent)
        # Every give-back but the last is in; the last is read elsewhere.
        for card in given[:-1]:
            assert refused & card.bit or seen.known_cards[opponent].mask & card.bit
        # Nothing it is known to hold is among them.
        assert not refused & seen.known_cards[opponent].mask
        assert refused.bit_count() >= len(given) - 1 - seen.known_cards[opponent].mask.bit_count()
        checked += 1
    assert checked >= 10


def test_a_re_deal_weighs_the_likelihood_once_per_contradicted_card() -> None:
    rules = find_rules("gin")
    deal, seat = _reading_decision()
    seen = deal.observe(seat)
    refused = earlier_refusals(seen, 1 - seat)
    assert refused
    plain = Redeals(seen, rules, random.Random(7), Play(rules), discard_likelihood=1.0)
    read = Redeals(
        seen, rules, random.Random(7), Play(rules), discard_likelihood=1.0, earlier_likelihood=0.5
    )
    contradictions = 0
    for _ in range(200):
        theirs, stock, weight = plain.draw()
        theirs_read, stock_read, weight_read = read.draw()
        assert (theirs, stock) == (theirs_read, stock_read)  # the same re-deal, weighed
        count = contradicted(theirs, refused)
        assert weight_read == pytest.approx(weight * 0.5**count)
        contradictions += count > 0
    assert contradictions > 0


def test_reading_earlier_turns_draws_no_more_re_deals() -> None:
    rules = find_rules("gin")
    deal, seat = _reading_decision()
    seen = deal.observe(seat)
    candidates = [c.index for c in seen.hand][:3]
    found = discard_values(
        seen, candidates, rules, random.Random(1), Budget(12, earlier_likelihood=0.35)
    )
    assert found.samples == 12


def test_earlier_reading_values_depend_only_on_what_the_seat_sees() -> None:
    rng = random.Random(5)
    checked = 0
    for seed in range(40):
        deal = _played(seed, 8)
        seat = deal.current_seat
        if deal.is_over or seat is None:
            continue
        if not any(a.kind is ActionKind.DISCARD for a in deal.legal_actions()):
            deal.apply(SimpleBot(seed=seed).choose(deal.observe(seat), deal.legal_actions()))
        seen = deal.observe(seat)
        other = sample_deal(seen, rng)
        cards = [c.index for c in seen.hand][:3]
        rules = find_rules(seen.rules)

        budget = Budget(12, earlier_likelihood=0.35)
        first = discard_values(seen, cards, rules, random.Random(2), budget)
        again = discard_values(other.observe(seat), cards, rules, random.Random(2), budget)
        assert first.values == again.values
        checked += 1
    assert checked >= 20
