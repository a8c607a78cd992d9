"""The server's tracker of the cards taken from the pile names no card for a
``draw discard`` that ends the deal instead of taking one: gin's
``pile_draw_limit`` (gin-openspiel's OpenSpiel ruling) ends the deal drawn at
that draw, and the card stays on the pile."""

from __future__ import annotations

from pyrummy.core.deal import Deal, Phase, new_deal
from pyrummy.core.phases import EndReason
from pyrummy.server.pile_takes import PileTakes, pile_takes


def discard_other(deal: Deal, taken: object = None) -> None:
    """Discard the first legal discard but the card ``taken`` (a throw-back
    would count towards ``discard_taken``'s end instead)."""
    options = sorted(str(a) for a in deal.legal_actions() if str(a).startswith("discard "))
    deal.apply(next(o for o in options if o != f"discard {taken}"))


def test_the_draw_that_reaches_the_pile_limit_names_no_card() -> None:
    deal = new_deal("gin-openspiel", 2, seed=3, pile_draw_limit=2)
    tracker = PileTakes(deal)
    assert deal.phase is Phase.OFFER
    deal.apply("decline")
    deal.apply("decline")  # both pass the up-card: a stock draw
    deal.apply("draw stock")
    discard_other(deal)
    first = deal.discard_pile[-1]
    deal.apply("draw discard")  # the first draw from the pile
    discard_other(deal, first)
    assert tracker.update(deal) == [str(first)]
    second = deal.discard_pile[-1]
    deal.apply("draw discard")  # the second: the limit, the deal ends drawn
    assert deal.is_over and deal.end_reason is EndReason.PILE_LIMIT
    assert deal.discard_pile[-1] == second  # the card was not taken
    assert tracker.update(deal) == [str(first)]
    assert pile_takes(deal) == [str(first)]
