"""The terminal's words for ``n`` (decline) in gin: passing the first
up-card in the offer, and, under gin-openspiel's ``wall_knock``, passing at
the wall (the discard only for a knock; the pass draws the deal) - never
"decline the discard (stock empty)", since gin's stock is never empty. The
help lists what ``n`` does in the game being played."""

from __future__ import annotations

import io

from rich.console import Console

from deal_helpers import draw_and_throw_back
from pyrummy.cli.play.view import help_view, moves_view, state_view
from pyrummy.core.deal import Deal, Phase, new_deal
from pyrummy.core.rules import find_rules

OPENSPIEL = find_rules("gin-openspiel")
SEAT_1 = "AS 2S 3S 4H 5H 6H 7D 7S 7C 9C"
SEAT_0 = "AD 2D 3D 4C 5C 6C 8S 9S TS 2C"


def keys(deal: Deal) -> str:
    seat = deal.current_seat
    assert seat is not None
    return moves_view(deal.legal_actions(), deal.observe(seat), deal.rules).plain


def test_n_passes_the_offered_up_card() -> None:
    deal = new_deal(OPENSPIEL, hands=[SEAT_0, SEAT_1], upcard="QH", stock="KD", seed=1)
    assert deal.phase is Phase.OFFER
    text = keys(deal)
    assert "[n] pass the up-card" in text and "stock empty" not in text


def test_n_at_the_wall_passes_and_draws_the_deal() -> None:
    deal = new_deal(OPENSPIEL, hands=[SEAT_0, SEAT_1], upcard="QH", stock="KD", seed=1)
    deal.apply("pass")
    deal.apply("pass")
    draw_and_throw_back(deal, 40)
    assert deal.phase is Phase.DECLINE and len(deal.stock) == 2
    text = keys(deal)
    assert "[n] pass: the deal is drawn (take the discard only to knock)" in text
    assert "decline the discard" not in text


def test_an_empty_stock_still_declines_the_discard() -> None:
    deal = new_deal("basic", 2, seed=6)
    draw_and_throw_back(deal, len(deal.stock))
    assert deal.phase is Phase.DECLINE and not deal.stock
    assert "[n] decline the discard" in keys(deal)


def test_the_help_says_what_n_does_in_each_game() -> None:
    openspiel = help_view(OPENSPIEL).plain
    assert "pass the first up-card" in openspiel
    assert "pass at the wall (2 cards left): the deal is drawn" in openspiel
    assert "stock empty" not in openspiel
    standard = help_view(find_rules("gin-standard")).plain
    assert "pass the first up-card" in standard and "wall" not in standard
    assert "decline" not in help_view(find_rules("gin")).plain
    assert "decline the discard (stock empty)" in help_view(find_rules("basic")).plain


def test_a_taken_card_may_go_back_under_discard_taken() -> None:
    deal = new_deal(OPENSPIEL, hands=[SEAT_0, SEAT_1], upcard="QH", stock="KD", seed=1)
    deal.apply("draw discard")
    seat = deal.current_seat
    assert seat is not None
    out = io.StringIO()
    Console(file=out, width=120, color_system=None).print(
        state_view(deal.observe(seat), ["You", "Bot"], deal.rules)
    )
    text = out.getvalue()
    assert "taken from the discard pile (thrown back twice running, the deal is drawn)" in text
    assert "you may not discard it" not in text
