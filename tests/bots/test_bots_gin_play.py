"""Gin: the hard bot's reach credits (pyrummy.bots.gin_play) and the decisions that use them."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pyrummy.bots import HardBot, HardConfig
from pyrummy.bots.gin_play import gin_discard_scores, reach_chances
from pyrummy.bots.lookahead import unseen_mask
from pyrummy.core.actions import parse_action
from pyrummy.core.cards import ALL_CARDS, Card, CardSet
from pyrummy.core.rules import find_rules
from pyrummy.core.solver import deadwood_of_mask
from test_bots_gin import _gin_view, assert_gin_decisions_ignore_hidden_cards

STANDARD = list(ALL_CARDS[:52])


@settings(max_examples=60, deadline=None)
@given(cards=st.lists(st.sampled_from(STANDARD), min_size=14, max_size=24, unique=True))
def test_reach_chances_count_the_draws_that_make_gin_or_a_knock(cards: list[Card]) -> None:
    hand = sum(c.bit for c in cards[:10])
    unseen = sum(c.bit for c in cards[10:])
    now = deadwood_of_mask(hand, "low")
    gin = knock = 0
    for card in cards[10:]:
        # After the draw: the least deadwood of the ten cards kept out of eleven.
        eleven = hand | card.bit
        after = min(
            deadwood_of_mask(eleven & ~(1 << i), "low") for i in range(64) if eleven >> i & 1
        )
        assert after <= now
        gin += after == 0
        knock += after <= 10
    draws = len(cards) - 10
    assert reach_chances(hand, unseen, "low", 10) == (gin / draws, knock / draws)


def test_reach_chances_of_a_hand_with_nothing_unseen_are_the_hand_itself() -> None:
    gin = CardSet("2H 3H 4H 9S 9D 9C JC QC KC TC").mask
    assert reach_chances(gin, 0, "low", 10) == (1.0, 1.0)
    assert reach_chances(CardSet("2H 3H 4H 9S 9D 9C JC QC KC AD").mask, 0, "low", 0) == (0.0, 0.0)


# Seat 0 may discard 6C (the least mean deadwood after the next draw) or 3D,
# which keeps twice the chance that the next draw makes gin.
REACH_HAND = "8S 9S TS 4H 6H 3D 6C 8C 9C TC JC"
REACH_PILE = "6S KD QD KH QH TH KS QS 9D TD"


def test_gin_discard_scores_subtract_the_reach_credit() -> None:
    view = _gin_view(REACH_HAND, REACH_PILE)
    rules = find_rules("gin")
    costs = {card: float(card.index) for card in view.hand}
    scores = gin_discard_scores(view, costs, rules, reach_bonus=40.0)
    unseen = unseen_mask(view)
    for card, cost in costs.items():
        gin, _ = reach_chances(view.hand.mask & ~card.bit, unseen, "low", rules.knock_limit)
        assert scores[card] == pytest.approx(cost - 40.0 * gin)
    assert gin_discard_scores(view, costs, rules, reach_bonus=0) == costs


def test_a_large_gin_reach_bonus_keeps_the_hand_closer_to_gin() -> None:
    view = _gin_view(REACH_HAND, REACH_PILE)
    legal = sorted(parse_action(f"discard {c}") for c in CardSet(REACH_HAND))
    unseen = unseen_mask(view)
    # The one-draw scores alone (the discard search off): what the reach bonus changes.
    plain = HardBot(seed=1, rollouts=2, knock_samples=4, gin_reach_bonus=0, gin_search_samples=0)
    eager = HardBot(seed=1, rollouts=2, knock_samples=4, gin_reach_bonus=200, gin_search_samples=0)
    assert str(plain.choose(view, legal)) == "discard 6C"
    assert str(eager.choose(view, legal)) == "discard 3D"
    kept_plain = view.hand.mask & ~Card("6C").bit
    kept_eager = view.hand.mask & ~Card("3D").bit
    assert (
        reach_chances(kept_eager, unseen, "low", 10)[0]
        > reach_chances(kept_plain, unseen, "low", 10)[0]
    )


@pytest.mark.parametrize("reach", [HardConfig().gin_reach_bonus, 0.0, 120.0])
def test_hard_gin_reach_decisions_depend_only_on_what_the_seat_sees(reach: float) -> None:
    def bot() -> HardBot:
        return HardBot(seed=1, rollouts=2, knock_samples=4, gin_reach_bonus=reach)

    assert_gin_decisions_ignore_hidden_cards(bot, range(20, 30), random.Random(8))
