"""The Rummy web game (RULES.md §4) as scenarios in the text notation."""

from __future__ import annotations

from deal_helpers import draw_and_throw_back, legal, points, refused, snapshot
from pyrummy.core.cards import CardSet, parse_card_list
from pyrummy.core.deal import Deal, Phase, new_deal
from pyrummy.core.rules import find_rules

SEAT0 = "AC 3C 5C 7C 9C JC QC"  # 45
SEAT2 = "AS 3S 5S 7S 9S JS 6H"  # 41


def rummy(seat1: str, upcard: str = "4D", stock: str = "TH", **options: object) -> Deal:
    rules = find_rules("rummy", **options)
    return new_deal(rules, hands=[SEAT0, seat1, SEAT2], upcard=upcard, stock=stock, seed=1)


def test_meld_lists_every_meld_and_accepts_any_card_order() -> None:
    deal = rummy("7H 8H 9H 2C 2D 2S KD")
    deal.apply("draw stock")  # TH
    melds = {a for a in legal(deal) if a.startswith("meld")}
    assert melds == {"meld 2S 2D 2C", "meld 7H 8H 9H", "meld 8H 9H TH", "meld 7H 8H 9H TH"}
    deal.apply("meld 9♥ 7h 8H")
    assert [str(t.meld) for t in deal.table] == ["7H 8H 9H"]
    assert deal.table[0].owner == 1 and deal.table[0].laid_by == (1, 1, 1)
    assert str(deal.history[-1][1]) == "meld 7H 8H 9H"


def test_going_out_at_once_scores_double() -> None:
    deal = rummy("7H 8H 9H 2C 2D 2S KD")
    for action in ["draw stock", "meld 7H 8H 9H TH", "meld 2C 2D 2S", "discard KD"]:
        deal.apply(action)
    assert deal.is_over and deal.end_reason == "out"
    assert deal.settlement is not None and deal.settlement.outcome == "rummy"
    assert deal.settlement.net == points(0, 2 * (45 + 41), 0)


def test_going_out_by_melding_the_last_card_needs_no_discard() -> None:
    deal = rummy("7H 8H 9H 2C 2S 2H TH", stock="JH")
    for action in ["draw stock", "meld 2C 2S 2H", "meld 7H 8H 9H TH JH"]:
        deal.apply(action)
    assert deal.is_over and len(deal.hands(1)) == 0
    assert deal.discard_pile == tuple(parse_card_list("4D"))
    assert deal.settlement is not None and deal.settlement.outcome == "rummy"


def test_no_double_after_melding_on_an_earlier_turn() -> None:
    deal = rummy("7H 8H 9H 2C 2D 2S KD", stock="QS KS AH TH")
    turns = [
        ["draw stock", "meld 7H 8H 9H", "discard QS"],
        ["draw stock", "discard KS"],
        ["draw stock", "discard AH"],
        ["draw stock", "layoff TH 0", "meld 2C 2D 2S", "discard KD"],
    ]
    for turn in turns:
        for action in turn:
            deal.apply(action)
    assert deal.settlement is not None and deal.settlement.outcome == "out"
    assert deal.settlement.net == points(0, 45 + 41, 0)


def test_lay_off_shows_who_laid_each_card() -> None:
    deal = rummy("7H 8H 9H 2C 2D 2S KD")
    for action in ["draw stock", "meld 7H 8H 9H", "discard KD", "draw stock"]:
        deal.apply(action)
    assert "layoff 6H 0" in legal(deal)
    deal.apply("layoff 6H 0")
    assert str(deal.table[0].meld) == "6H 7H 8H 9H"
    assert deal.table[0].laid_by == (2, 1, 1, 1) and deal.table[0].owner == 1
    refused(deal, "layoff 5S 0", "action.layoff_no_fit")
    refused(deal, "layoff 5S 3", "action.no_such_meld")


def test_taken_discard_may_not_be_the_only_card_left() -> None:
    deal = rummy("7H 8H 9H 2C 2D 2S TH", upcard="KS", stock="QD")
    for action in ["draw discard", "meld 7H 8H 9H", "meld 2C 2D 2S"]:
        deal.apply(action)
    assert deal.hands(1) == CardSet("TH KS")
    assert "layoff TH 0" not in legal(deal)
    refused(deal, "layoff TH 0", "action.taken_discard_last")
    refused(deal, "discard KS", "action.taken_discard_back")
    assert legal(deal) == {"undo", "discard TH"}


def test_undo_takes_back_melds_one_by_one_then_the_discard_draw() -> None:
    deal = rummy("7H 8H 9H 2C 2D 2S TH", upcard="KS", stock="QD")
    start = snapshot(deal)
    for action in ["draw discard", "meld 7H 8H 9H", "layoff TH 0"]:
        deal.apply(action)
    assert str(deal.table[0].meld) == "7H 8H 9H TH"
    deal.apply("undo")
    assert str(deal.table[0].meld) == "7H 8H 9H" and "TH" in str(deal.hands(1))
    deal.apply("undo")
    assert deal.table == () and len(deal.hands(1)) == 8
    deal.apply("undo")
    assert deal.phase is Phase.DRAW and str(deal.discard_pile[-1]) == "KS"
    assert snapshot(deal)[:6] == start[:6]
    refused(deal, "undo", "action.nothing_to_undo")
    deal.apply("draw stock")
    refused(deal, "undo", "action.stock_draw_final")
    deal.apply("meld 7H 8H 9H")
    deal.apply("undo")
    refused(deal, "undo", "action.stock_draw_final")


def test_cards_taken_back_by_undo_are_public() -> None:
    deal = rummy("7H 8H 9H 2C 2D 2S TH", stock="QD")
    deal.apply("draw stock")
    deal.apply("meld 7H 8H 9H")
    deal.apply("undo")
    assert deal.observe(0).known_cards[1] == CardSet("7H 8H 9H")


def test_automatic_recycle_keeps_the_top_card_and_the_second_time_is_a_draw() -> None:
    deal = new_deal("rummy", 2, seed=4)
    draw_and_throw_back(deal, len(deal.stock))
    # The stock ran out; the recycle happened when the next turn started.
    assert deal.observe(None).exhaustions == 1
    assert deal.phase is Phase.DRAW and len(deal.discard_pile) == 1
    replay = Deal.from_deck("rummy", 2, 0, deal.deck)
    for _, action in deal.history[:-1]:
        replay.apply(action)
    pile_before = (*replay.discard_pile, deal.discard_pile[-1])
    assert deal.discard_pile == pile_before[-1:]
    # Turned over: the pile's bottom card (the first upcard) is the new top.
    assert deal.stock == pile_before[:-1]
    assert deal.stock[0] == deal.deck[20]
    assert deal.observe(0).public_stock == deal.stock
    draw_and_throw_back(deal, len(deal.stock))
    assert deal.is_over and deal.end_reason == "exhausted"
    assert deal.settlement is not None and deal.settlement.outcome == "draw"
    assert all(n == 0 for n in deal.settlement.net)


def test_cap_of_120_turns_is_a_draw() -> None:
    deal = new_deal("rummy", 2, seed=4, reuse_limit=100)
    draw_and_throw_back(deal, len(deal.stock))
    while not deal.is_over:
        draw_and_throw_back(deal, len(deal.stock))
    assert deal.end_reason == "cap" and deal.turn == 121
    assert deal.settlement is not None and deal.settlement.outcome == "draw"
