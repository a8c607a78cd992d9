"""Basic and Block Rummy (RULES.md §5, §6): house rules and the stock's end."""

from __future__ import annotations

from deal_helpers import draw_and_throw_back, legal, refused
from pyrummy.core.cards import CardSet
from pyrummy.core.deal import Deal, Phase, new_deal
from pyrummy.core.rules import find_rules
from pyrummy.core.settlement import settle_no_winner

SEAT0 = "6H AC 3C 5C 7C 9C JC QC KC 4D"


def basic(seat1: str, stock: str = "TH", upcard: str = "KD", **options: object) -> Deal:
    rules = find_rules("basic", **options)
    return new_deal(rules, hands=[SEAT0, seat1], upcard=upcard, stock=stock, seed=1)


ONE_PER_TURN = "7H 8H 9H 2C 2D 2S 3S 3H 3D JH"


def test_one_meld_per_turn_lay_offs_unlimited() -> None:
    deal = basic(ONE_PER_TURN)
    deal.apply("draw stock")
    deal.apply("meld 2C 2D 2S")
    assert not any(a.startswith("meld") for a in legal(deal))
    refused(deal, "meld 3S 3H 3D", "action.one_meld_per_turn")
    deal.apply("undo")
    assert "meld 3S 3H 3D" in legal(deal)


def test_multiple_melds_option() -> None:
    deal = basic(ONE_PER_TURN, multiple_melds=True)
    for action in ["draw stock", "meld 2C 2D 2S", "meld 3S 3H 3D", "meld 7H 8H 9H TH JH"]:
        deal.apply(action)
    assert deal.is_over and deal.settlement is not None
    assert deal.settlement.outcome == "out" and deal.settlement.winners == (1,)


def test_last_discard_required_keeps_a_card_to_discard() -> None:
    deal = basic(ONE_PER_TURN, multiple_melds=True, last_discard_required=True)
    for action in ["draw stock", "meld 2C 2D 2S", "meld 3S 3H 3D"]:
        deal.apply(action)
    assert "meld 7H 8H 9H TH JH" not in legal(deal)
    refused(deal, "meld 7H 8H 9H TH JH", "action.must_discard_out")
    deal.apply("meld 7H 8H 9H TH")
    refused(deal, "layoff JH 2", "action.must_discard_out")
    deal.apply("discard JH")
    assert deal.is_over and deal.settlement is not None and deal.settlement.winners == (1,)


def test_layoff_after_own_meld_option() -> None:
    for option, allowed in ((False, True), (True, False)):
        deal = basic(ONE_PER_TURN, stock="TH 5H", layoff_after_own_meld=option)
        for action in ["draw stock", "meld 7H 8H 9H", "discard TH", "draw stock"]:
            deal.apply(action)
        assert ("layoff 6H 0" in legal(deal)) is allowed
        if not allowed:
            refused(deal, "layoff 6H 0", "action.layoff_before_meld")


def test_turn_over_when_the_next_player_declines_the_discard() -> None:
    deal = new_deal("basic", 2, seed=6)
    draw_and_throw_back(deal, len(deal.stock))
    assert deal.phase is Phase.DECLINE
    assert legal(deal) == {"draw discard", "decline"}
    pile = deal.discard_pile
    seat = deal.current_seat
    assert seat is not None
    before = deal.hands(seat)
    deal.apply("decline")
    # The whole pile, turned over: its bottom card (the first upcard) is drawn.
    assert deal.hands(seat) - before == CardSet([pile[0]]) and pile[0] == deal.deck[20]
    assert deal.stock == pile[1:] and deal.discard_pile == ()
    assert deal.observe(None).phase is Phase.MELD and deal.observe(None).exhaustions == 1
    assert deal.observe(1 - seat).public_stock == deal.stock
    assert pile[0] in deal.observe(1 - seat).known_cards[seat]


def test_taking_the_discard_at_an_empty_stock_plays_on() -> None:
    deal = new_deal("basic", 2, seed=6)
    draw_and_throw_back(deal, len(deal.stock))
    deal.apply("draw discard")
    assert deal.phase is Phase.MELD and not deal.stock


def test_shuffle_option_is_reproduced_by_replay() -> None:
    deal = new_deal("basic", 2, seed=6, stock_end="shuffle")
    draw_and_throw_back(deal, len(deal.stock))
    pile = deal.discard_pile
    seat = deal.current_seat
    assert seat is not None
    before = deal.hands(seat)
    deal.apply("decline")
    (drawn,) = deal.hands(seat) - before
    assert sorted((drawn, *deal.stock)) == sorted(pile)
    assert deal.observe(0).public_stock is None and deal.observe(0).recycled_stock
    replay = Deal.from_deck(deal.rules, 2, 0, deal.deck)
    for _, action in deal.history:
        replay.apply(action)
    assert replay.stock == deal.stock
    assert deal.stock != pile[1:]


def test_reuse_limit_ends_the_deal_with_no_winner() -> None:
    deal = new_deal("basic", 2, seed=6, stock_end="reuse_limit", reuse_limit=2)
    draw_and_throw_back(deal, len(deal.stock))
    deal.apply("decline")
    seat = deal.current_seat
    assert seat is not None
    deal.apply(f"discard {next(iter(deal.hands(seat)))}")
    draw_and_throw_back(deal, len(deal.stock))
    assert deal.phase is Phase.DECLINE
    hands = [deal.hands(s) for s in range(2)]
    deal.apply("decline")
    assert deal.is_over and deal.end_reason == "exhausted"
    # Seed 004: «Если игра заканчивается без выхода, все игроки считают
    # ценность карт, оставшихся в их руках. Победителем становится игрок с
    # наименьшим количеством очков…» -- not a 0-0 draw.
    assert deal.settlement is not None and deal.settlement.outcome == "block"
    assert deal.settlement.net == settle_no_winner(hands, deal.rules).net
    values = deal.settlement.counts
    low = min(values)
    assert max(deal.settlement.net) == sum(values) - low * len(values) > 0


def test_block_ends_at_the_first_decline_and_the_lowest_hand_collects() -> None:
    deal = new_deal("block", 2, seed=6)
    draw_and_throw_back(deal, len(deal.stock))
    hands = [deal.hands(s) for s in range(2)]
    deal.apply("decline")
    assert deal.is_over and deal.settlement is not None
    assert deal.settlement.outcome == "block"
    assert deal.settlement.net == settle_no_winner(hands, "block").net


def test_going_rummy_plus10_option() -> None:
    seat0_value = 6 + 1 + 3 + 5 + 7 + 9 + 10 + 10 + 10 + 4
    for option, bonus in (("none", 0), ("double", seat0_value), ("plus10", 10)):
        deal = basic(ONE_PER_TURN, multiple_melds=True, going_rummy=option)
        for action in ["draw stock", "meld 2C 2D 2S", "meld 3S 3H 3D", "meld 7H 8H 9H TH JH"]:
            deal.apply(action)
        assert deal.settlement is not None
        assert deal.settlement.net[1] == seat0_value + bonus
