"""Rotham Rummy (RULES.md §7): jokers, exchanges, the starter, all-seven deals."""

from __future__ import annotations

import random

from deal_helpers import legal, points, refused
from pyrummy.core.cards import CardSet
from pyrummy.core.deal import Deal, Phase, new_deal
from pyrummy.core.rules import find_rules

ROTHAM = find_rules("rotham")
SEAT0 = "8H 3C 5C 7C 9C JC QC"  # 8H: the card the joker below stands for
SEAT2 = "AS 3S 5S 7S 9S JS KH"
OTHER0 = "6H 3C 5C 7C 9C JC QC"


def rotham(seat1: str, stock: str = "TD 6D", deal_number: int = 1, seat0: str = SEAT0) -> Deal:
    """Seat 1 plays first (8 cards); the stock's top is given, the rest shuffled."""
    return new_deal(
        ROTHAM,
        hands=[seat0, seat1, SEAT2],
        upcard="4D",
        stock=stock,
        dealer=0,
        deal_number=deal_number,
        seed=deal_number,
    )


def test_fifty_five_cards_and_the_starter_gets_eight_without_a_draw() -> None:
    deal = new_deal("rotham", 4, seed=3)
    assert len(deal.deck) == 55 and {str(c) for c in deal.deck} >= {"X1", "X2", "X3"}
    assert [len(deal.hands(s)) for s in range(4)] == [7, 8, 7, 7]
    assert len(deal.stock) == 55 - 29 - 1
    assert deal.phase is Phase.MELD and deal.current_seat == 1
    refused(deal, "draw stock", "action.no_draw_first_turn")
    assert not any(a.startswith("draw") for a in legal(deal))


def test_joker_melds_are_listed_once_per_joker_position() -> None:
    deal = rotham("7H 9H X1 2C 2D KS QS JD")
    melds = {a for a in legal(deal) if a.startswith("meld")}
    assert melds == {"meld 7H X1 9H", "meld 2D 2C X1", "meld X1 QS KS"}
    deal.apply("meld 9H X1 7H")  # any order: the joker is read as 8H
    (table_meld,) = deal.table
    assert str(table_meld.meld) == "7H X1 9H"
    assert [str(c) for c in table_meld.meld.represents] == ["7H", "8H", "9H"]


def test_one_joker_fills_either_end_of_a_two_card_run() -> None:
    deal = rotham("5H 6H X1 2C 2D KS QS JD")
    melds = {a for a in legal(deal) if a.startswith("meld")}
    assert {"meld X1 5H 6H", "meld 5H 6H X1"} <= melds
    deal.apply("meld X1 5H 6H")
    assert str(deal.table[0].meld.represents[0]) == "4H"


def test_swap_joker_gives_the_joker_to_the_hand_and_can_be_undone() -> None:
    deal = rotham("7H 9H X1 2C 2D KS QS JD")
    for action in ["meld 7H X1 9H", "discard KS", "draw stock", "discard TD", "draw stock"]:
        deal.apply(action)
    assert deal.current_seat == 0 and "swap-joker 8H 0" in legal(deal)
    refused(deal, "swap-joker 3C 0", "action.joker_mismatch")
    deal.apply("swap-joker 8H 0")
    assert str(deal.table[0].meld) == "7H 8H 9H" and deal.table[0].laid_by == (1, 0, 1)
    assert "X1" in str(deal.hands(0)) and "8H" not in str(deal.hands(0))
    assert deal.observe(2).known_cards[0] == CardSet("X1")
    assert {"meld 3C X1 5C", "layoff X1 0"} <= legal(deal)
    refused(deal, "swap-joker 8H 0", "action.not_in_hand")
    deal.apply("undo")
    assert str(deal.table[0].meld) == "7H X1 9H" and "8H" in str(deal.hands(0))


def test_swap_joker_in_a_set() -> None:
    deal = rotham("7H 7D X1 2C 2D KS QS JD", seat0="8S 3C 5C 7C 9C JC QC")
    for action in ["meld 7H 7D X1", "discard KS", "draw stock", "discard TD", "draw stock"]:
        deal.apply(action)
    assert "swap-joker 7C 0" in legal(deal)
    deal.apply("swap-joker 7C 0")
    assert str(deal.table[0].meld) == "7H 7D 7C"


def test_a_joker_left_in_hand_counts_fifteen() -> None:
    deal = rotham("7H 8H 9H 2C 2D 2S JD X2", seat0="X1 3C 5C 7C 9C JC QC", stock="TD 6D 5D")
    turns = [
        ["meld 7H 8H 9H", "discard JD"],
        ["draw stock", "discard TD"],
        ["draw stock", "discard 6D"],
        ["draw stock", "meld 2C 2D 2S X2", "discard 5D"],
    ]
    for turn in turns:
        for action in turn:
            deal.apply(action)
    assert deal.settlement is not None and deal.settlement.outcome == "out"
    assert deal.settlement.net == points(0, (15 + 3 + 5 + 7 + 9 + 10 + 10) + 45, 0)


ALL_SEVEN = "7H 8H 9H 2C 2D 2S 2H KD"


def test_all_seven_deal_melds_only_when_everything_goes_down() -> None:
    deal = rotham(ALL_SEVEN, deal_number=4, seat0=OTHER0)
    assert {a for a in legal(deal) if a.startswith("meld")} == {
        "meld 2S 2H 2D 2C",
        "meld 7H 8H 9H",
    }
    deal.apply("meld 7H 8H 9H")
    # Going down: no discard until one card is left; the 3-card set would
    # leave 2 cards over.
    assert legal(deal) == {"undo", "meld 2S 2H 2D 2C"}
    refused(deal, "discard KD", "action.all_seven")
    refused(deal, "meld 2C 2D 2S", "action.all_seven")
    deal.apply("meld 2C 2D 2S 2H")  # a second meld this turn: the limit is lifted
    assert legal(deal) == {"undo", "discard KD"}
    deal.apply("discard KD")
    assert deal.settlement is not None and deal.settlement.winners == (1,)


def test_all_seven_deal_refuses_a_partial_meld() -> None:
    deal = rotham("7H 8H 9H 2C 2D 2S KD QS", deal_number=5, seat0=OTHER0)
    assert not any(a.startswith("meld") for a in legal(deal))
    refused(deal, "meld 7H 8H 9H", "action.all_seven")


def test_deals_one_to_three_play_as_basic() -> None:
    deal = rotham("7H 8H 9H 2C 2D 2S KD QS", deal_number=3, seat0=OTHER0)
    deal.apply("meld 7H 8H 9H")
    refused(deal, "meld 2C 2D 2S", "action.one_meld_per_turn")
    deal.apply("discard KD")
    assert deal.current_seat == 2


def test_random_rotham_deals_conserve_cards() -> None:
    rng = random.Random(3)
    for seed in range(12):
        deal = new_deal("rotham", 2 + seed % 5, seed=seed, deal_number=1 + seed % 6)
        while not deal.is_over:
            table = sum(len(t.meld.cards) for t in deal.table)
            hands = sum(len(deal.hands(s)) for s in range(deal.players))
            assert hands + table + len(deal.stock) + len(deal.discard_pile) == 55
            deal.apply(rng.choice(deal.legal_actions()))
