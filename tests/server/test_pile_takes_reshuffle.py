"""The server's tracker of the cards taken from the pile replays a deal from
its deck with the deal's shuffle, so a stock rebuilt by the portable shuffle
(``stock_end=shuffle``) is rebuilt the same way there: it names a card taken
after the rebuild. (Rebuilt otherwise, its replay would hold other cards,
refuse the discards and name nothing.)"""

from __future__ import annotations

from deal_helpers import draw_and_throw_back
from pyrummy.core.deal import new_deal
from pyrummy.core.phases import Phase
from pyrummy.core.shuffle import PORTABLE_SHUFFLE
from pyrummy.server.pile_takes import PileTakes


def test_a_take_after_a_portable_rebuild_is_named() -> None:
    deal = new_deal("basic", 2, seed=6, stock_end="shuffle", shuffle=PORTABLE_SHUFFLE)
    tracker = PileTakes(deal)
    draw_and_throw_back(deal, len(deal.stock))
    assert deal.phase is Phase.DECLINE
    seat = deal.current_seat
    assert seat is not None
    before = deal.hands(seat)
    deal.apply("decline")  # the pile, shuffled, is the new stock; its top is drawn
    (drawn,) = deal.hands(seat) - before
    deal.apply(f"discard {drawn}")
    draw_and_throw_back(deal, 3)
    top = deal.discard_pile[-1]
    deal.apply("draw discard")
    assert tracker.update(deal) == [str(top)]
