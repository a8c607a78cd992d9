"""Gin Rummy deals (RULES.md §8) as scenarios in the text notation."""

from __future__ import annotations

import random

import pytest

from deal_helpers import draw_and_throw_back
from pyrummy.core.deal import Deal, Phase, new_deal
from pyrummy.core.errors import IllegalActionError

KNOCKER = "AS 2S 3S 4H 5H 6H 7D 7S 7C 9C"  # deadwood 9 (9C)
DEFENDER = "AD 2D 3D 4C 5C 6C 8S 9S TS 2C"  # deadwood 2 (2C)


def gin_deal(stock: str = "KD", knocker: str = KNOCKER, defender: str = DEFENDER) -> Deal:
    # Dealer 0: seat 1 plays first and is the knocker in these scenarios.
    return new_deal("gin", hands=[defender, knocker], upcard="QH", stock=stock, seed=1)


def test_two_hands_of_ten_and_seat_one_starts() -> None:
    deal = gin_deal()
    assert len(deal.hands(0)) == len(deal.hands(1)) == 10
    assert len(deal.stock) == 31 and deal.current_seat == 1


def test_knock_only_at_ten_or_less_after_the_knock_card() -> None:
    deal = gin_deal()
    deal.apply("draw stock")  # KD: 11 cards
    knocks = {str(a) for a in deal.legal_actions() if str(a).startswith("knock")}
    # KD out leaves 9 (9C); 9C out leaves 10 (KD); anything else leaves more.
    assert knocks == {"knock KD", "knock 9C"}
    before = [str(a) for a in deal.legal_actions()]
    with pytest.raises(IllegalActionError) as caught:
        deal.apply("knock 7C")  # AS-3S, 4H-6H melded; 7D 7S 9C KD left: 33
    reason = caught.value.reason
    assert reason is not None and reason.key == "action.knock_limit"
    assert "33" in str(caught.value)
    assert [str(a) for a in deal.legal_actions()] == before and not deal.is_over


def test_undercut_is_settled_by_the_showdown() -> None:
    deal = gin_deal()
    deal.apply("draw stock")
    deal.apply("knock KD")
    result = deal.settlement
    assert result is not None and result.outcome == "undercut"
    assert result.winners == (0,)
    assert result.net[0] == 9 - 2 + 10 and result.net[1] == 0
    assert str(deal.observe(0).knock_card) == "KD"


def test_knocker_lower_scores_the_difference() -> None:
    deal = gin_deal(defender="AD 2D 3D 4C 5C 6C 8S 9S KS QC")  # 8S 9S KS QC: deadwood 37
    deal.apply("draw stock")
    deal.apply("knock KD")
    assert deal.settlement is not None and deal.settlement.outcome == "knock"
    assert deal.settlement.net[1] == 37 - 9


def test_gin_when_every_card_is_melded() -> None:
    deal = gin_deal(stock="7H", knocker="AS 2S 3S 4H 5H 6H 7D 7S 7C KD")
    deal.apply("draw stock")
    deal.apply("knock KD")
    assert deal.settlement is not None and deal.settlement.outcome == "gin"
    assert deal.settlement.net[1] == 20 + 2


def test_the_wall_two_cards_left_and_a_discard_is_a_draw() -> None:
    deal = new_deal("gin", 2, seed=8)
    turns = 0
    while not deal.is_over:
        seat = deal.current_seat
        assert seat is not None
        before = deal.hands(seat)
        deal.apply("draw stock")
        (drawn,) = deal.hands(seat) - before
        deal.apply(f"discard {drawn}")
        turns += 1
    assert turns == 29 and len(deal.stock) == 2
    assert deal.end_reason == "wall"
    assert deal.settlement is not None and deal.settlement.outcome == "draw"
    assert all(n == 0 for n in deal.settlement.net)


def test_knock_is_still_allowed_at_the_wall() -> None:
    deal = new_deal("gin", 2, seed=8)
    for _ in range(28):
        seat = deal.current_seat
        assert seat is not None
        before = deal.hands(seat)
        deal.apply("draw stock")
        (drawn,) = deal.hands(seat) - before
        deal.apply(f"discard {drawn}")
    deal.apply("draw stock")
    assert len(deal.stock) == 2 and deal.phase is Phase.DISCARD


def test_undo_of_a_discard_draw_before_the_discard() -> None:
    deal = gin_deal()
    deal.apply("draw discard")
    assert "undo" in [str(a) for a in deal.legal_actions()]
    deal.apply("undo")
    assert str(deal.discard_pile[-1]) == "QH" and deal.phase is Phase.DRAW


def test_clone_is_independent() -> None:
    deal = new_deal("gin", 2, seed=1)
    copy = deal.clone()
    copy.apply("draw stock")
    assert deal.phase is Phase.DRAW and copy.phase is Phase.DISCARD
    assert len(deal.stock) == len(copy.stock) + 1


def test_random_play_ends_and_legal_actions_are_sorted_and_unique() -> None:
    rng = random.Random(4)
    for seed in range(40):
        deal = new_deal("gin", 2, seed=seed)
        steps = 0
        while not deal.is_over:
            ids = deal.legal_action_ids()
            assert ids == sorted(set(ids)) and ids
            deal.apply(rng.choice(deal.legal_actions()))
            steps += 1
            assert steps < 5000
        assert deal.settlement is not None
        assert deal.settlement.outcome in {"draw", "knock", "gin", "undercut"}


def test_turn_cap_is_a_draw() -> None:
    deal = new_deal("gin", 2, seed=2, turn_cap=4)
    draw_and_throw_back(deal, 4)
    assert deal.is_over and deal.end_reason == "cap"
    assert deal.settlement is not None and deal.settlement.outcome == "draw"


def test_a_wall_of_zero_plays_the_stock_out() -> None:
    deal = new_deal("gin", 2, seed=2, wall_cards=0)
    draw_and_throw_back(deal, 30)
    assert not deal.is_over and len(deal.stock) == 1
    draw_and_throw_back(deal, 1)
    assert deal.end_reason == "wall"
    assert deal.settlement is not None and deal.settlement.outcome == "draw"
