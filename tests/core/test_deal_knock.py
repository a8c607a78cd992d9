"""Knock Rummy deals (RULES.md §1-§3) as scenarios in the text notation."""

from __future__ import annotations

import json
import random
import re

import pytest

from deal_helpers import draw_and_throw_back, refused, snapshot
from pyrummy.core.actions import parse_action
from pyrummy.core.cards import ALL_CARDS, CardSet, parse_card_list
from pyrummy.core.deal import Deal, Phase, new_deal
from pyrummy.core.errors import IllegalActionError
from pyrummy.core.settlement import settle


def play(deal: Deal, *actions: str) -> None:
    for action in actions:
        deal.apply(action)


def test_four_players_deal_28_plus_1_plus_23_from_the_dealers_left() -> None:
    deck = list(ALL_CARDS[:52])
    deal = Deal.from_deck("knock", 4, 2, deck)
    assert [len(deal.hands(s)) for s in range(4)] == [7, 7, 7, 7]
    assert len(deal.discard_pile) == 1 and len(deal.stock) == 23
    # Dealer 2: seat 3 gets deck[0], seat 0 deck[1], seat 1 deck[2], seat 2 deck[3].
    assert deck[0] in deal.hands(3) and deck[1] in deal.hands(0)
    assert deck[3] in deal.hands(2) and deck[4] in deal.hands(3)
    assert deal.discard_pile == (deck[28],)
    assert deal.stock[0] == deck[29] and deal.stock[-1] == deck[51]
    assert deal.current_seat == 3 and deal.phase is Phase.DRAW


def test_deck_must_be_a_permutation() -> None:
    with pytest.raises(ValueError, match="each of the 52 cards"):
        Deal.from_deck("knock", 4, 0, list(ALL_CARDS[:51]))
    with pytest.raises(ValueError, match="each of the 52 cards"):
        Deal.from_deck("knock", 4, 0, [ALL_CARDS[0]] * 52)


def test_new_deal_is_reproducible_from_seed_and_replays_from_its_deck() -> None:
    a = new_deal("knock", 3, seed=11, dealer=1)
    b = new_deal("knock", 3, seed=11, dealer=1)
    assert a.deck == b.deck
    assert new_deal("knock", 3, seed=12).deck != a.deck
    play(a, "draw stock", f"discard {a.hands(2).sorted_by_rank()[0]}")
    replay = Deal.from_deck("knock", 3, 1, a.deck)
    for _, action in a.history:
        replay.apply(action)
    assert snapshot(replay) == snapshot(a)


def knock_deal() -> Deal:
    # Seat 1 (dealer's left) plays first.
    hands = [
        "AS AH AD 7C 8C 9C 3H",
        "4H 5H 6H QC QD QS 8D",
        "2C 4C 6D 8S TS JH KD",
    ]
    return new_deal("knock", hands=hands, upcard="KS", stock="2D 5C", seed=1)


def test_knock_ends_the_deal_at_once_and_hides_the_knock_card() -> None:
    deal = knock_deal()
    play(deal, "draw stock", "knock 2D")
    assert deal.is_over and deal.current_seat is None and deal.phase is Phase.OVER
    assert deal.legal_actions() == []
    assert deal.discard_pile == tuple(parse_card_list("KS"))  # face down: not on the pile
    expected = settle(["AS AH AD 7C 8C 9C 3H", "4H 5H 6H QC QD QS 8D", "2C 4C 6D 8S TS JH KD"], 1)
    assert deal.settlement is not None
    assert deal.settlement.net == expected.net
    assert deal.settlement.outcome == "knocker-beaten"
    seen = deal.observe(0)
    assert str(seen.knock_card) == "2D" and seen.revealed_hands is not None
    refused(deal, "draw stock", "action.deal_over")


def test_knock_is_allowed_on_the_first_turn_with_any_deadwood() -> None:
    deal = knock_deal()
    deal.apply("draw discard")
    legal = {str(a) for a in deal.legal_actions()}
    assert "knock 8D" in legal and "discard 8D" in legal
    assert "knock KS" not in legal and "discard KS" not in legal


def test_the_taken_discard_cannot_be_discarded_or_knocked_but_can_be_undone() -> None:
    deal = knock_deal()
    deal.apply("draw discard")
    refused(deal, "knock KS", "action.taken_discard_knock")
    refused(deal, "discard KS", "action.taken_discard_back")
    deal.apply("undo")
    assert deal.phase is Phase.DRAW and deal.discard_pile == tuple(parse_card_list("KS"))
    assert "KS" not in str(deal.hands(1))
    assert deal.observe(0).taken_discards == ((), (), ())
    deal.apply("draw stock")
    refused(deal, "undo", "action.stock_draw_final")


def test_illegal_actions_name_the_problem_and_change_nothing() -> None:
    deal = knock_deal()
    refused(deal, "discard 8D", "action.draw_first")
    refused(deal, "decline", "action.decline_not_allowed")
    refused(deal, "undo", "action.nothing_to_undo")
    deal.apply("draw stock")
    refused(deal, "draw stock", "action.already_drew")
    refused(deal, "discard AS", "action.not_in_hand")
    refused(deal, "meld QC QD QS", "action.layoff_not_allowed")
    refused(deal, "layoff 7H 0", "action.layoff_not_allowed")
    with pytest.raises(IllegalActionError, match="cannot read"):
        deal.apply("discard")
    with pytest.raises(IllegalActionError, match="not your turn"):
        deal.apply("discard 8D", seat=0)


def test_decline_at_an_empty_stock_is_a_showdown_without_knocker() -> None:
    deal = new_deal("knock", 2, seed=3)
    draw_and_throw_back(deal, len(deal.stock))
    assert deal.phase is Phase.DECLINE
    assert [str(a) for a in deal.legal_actions()] == ["draw discard", "decline"]
    refused(deal, "draw stock", "action.stock_empty")
    hands = [deal.hands(s) for s in range(2)]
    deal.apply("decline")
    assert deal.settlement is not None and deal.settlement.outcome == "no-knocker"
    assert deal.settlement.net == settle(hands, None).net
    assert deal.end_reason == "decline"


def test_taking_discards_from_an_empty_stock_runs_into_the_120_turn_cap() -> None:
    deal = new_deal("knock", 2, seed=5)
    draw_and_throw_back(deal, len(deal.stock))
    while not deal.is_over:
        seat = deal.current_seat
        assert seat is not None and deal.phase is Phase.DECLINE
        deal.apply("draw discard")
        taken = deal.observe(seat).taken_discard
        other = next(c for c in deal.hands(seat) if c != taken)
        deal.apply(f"discard {other}")
    assert deal.turn == 121 and deal.end_reason == "cap"
    assert deal.settlement is not None and deal.settlement.outcome == "no-knocker"
    assert sum(1 for _, a in deal.history if str(a).startswith("discard")) == 120


def test_turn_cap_option() -> None:
    deal = new_deal("knock", 4, seed=1, turn_cap=6)
    draw_and_throw_back(deal, len(deal.stock))
    assert deal.is_over and deal.end_reason == "cap" and deal.turn == 7


CARD_TOKEN = re.compile(r'"([2-9TJQKA][SHDC]|X[123])"')


def secret_cards(deal: Deal, seat: int | None) -> set[str]:
    """Cards ``seat`` must not see: the stock and other hands' unknown cards."""
    view = deal.observe(seat)
    hidden = {str(c) for c in deal.stock}
    for other in range(deal.players):
        if other != seat:
            hidden |= {str(c) for c in deal.hands(other) - view.known_cards[other]}
    return hidden


def test_card_conservation_and_observation_secrecy_in_random_play() -> None:
    rng = random.Random(2)
    for number in range(30):
        deal = new_deal("knock-target", 2 + number % 5, seed=number)
        while not deal.is_over:
            for seat in [None, *range(deal.players)]:
                view = deal.observe(seat)
                assert view.hand == (deal.hands(seat) if seat is not None else CardSet())
                assert view.revealed_hands is None and view.knock_card is None
                shown = set(CARD_TOKEN.findall(json.dumps(view.to_dict())))
                assert not shown & secret_cards(deal, seat)
            total = sum(len(deal.hands(s)) for s in range(deal.players))
            total += len(deal.stock) + len(deal.discard_pile)
            assert total == 52
            deal.apply(rng.choice(deal.legal_actions()))
        assert deal.observe(None).revealed_hands == tuple(
            deal.hands(s) for s in range(deal.players)
        )


def test_action_text_accepts_ten_and_suit_symbols() -> None:
    assert parse_action("KNOCK 10♦") == parse_action("knock td")
