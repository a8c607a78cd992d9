"""Turns starting and the deal ending: the stock's end, the turn cap, the result.

A turn starts with a draw, or (the stock empty) with the choice to take the
discard or decline it; the family says whether an empty stock is rebuilt
from the pile first (:meth:`FamilyPolicy.refills_at_turn_start
<pyrummy.core.families.FamilyPolicy.refills_at_turn_start>`), and
``rules.stock_end`` how often it may be. A deal ends by :func:`finish`,
and is settled only when its result is first asked for (:func:`settlement`):
random play and search often never ask.
"""

from __future__ import annotations

import random

from pyrummy.core.cards import CardSet
from pyrummy.core.deal.state import DealState
from pyrummy.core.deal.tables import PHASE_DECLINE, PHASE_DRAW, PHASE_OFFER, PHASE_OVER
from pyrummy.core.phases import EndReason
from pyrummy.core.settlement import (
    Settlement,
    settle,
    settle_draw,
    settle_going_out,
    settle_no_winner,
)
from pyrummy.core.shuffle import PORTABLE_SHUFFLE, portable_shuffle, refill_seed

__all__ = [
    "end_by_cap",
    "finish",
    "go_out",
    "pass_offer",
    "rebuild_stock",
    "settlement",
    "start_turn",
    "stock_ends_deal",
]


def start_turn(deal: DealState, seat: int, first: bool = False) -> None:
    """``seat``'s turn starts: its phase follows from the stock (or the deal ends)."""
    deal._seat = seat
    deal.turn = turn = deal.turn + 1
    deal._drawn = deal._taken = None
    if deal._undo:
        deal._undo.clear()
    deal._melds_turn = 0
    deal._undos_turn = 0
    deal._played_turn = False
    rules = deal.rules
    if turn > rules.turn_cap:
        end_by_cap(deal)
    elif first and rules.starter_extra_card:
        deal.phase = deal._play_phase
    elif first and rules.up_card_offer:
        deal.phase = PHASE_OFFER
    elif deal._stock:
        deal.phase = PHASE_DRAW
    elif deal._policy.refills_at_turn_start(rules):
        if rebuild_stock(deal):
            deal.phase = PHASE_DRAW if deal._stock else PHASE_DECLINE
    else:
        deal.phase = PHASE_DECLINE


def offer_turn(deal: DealState) -> bool:
    """Is the first up-card offered this turn (standard gin's offer: turn 1,
    and turn 2 after the non-dealer's pass, until every seat has passed)?"""
    passes = deal._offer_passes
    return deal.rules.up_card_offer and deal.turn == passes + 1 and passes < deal.players


def pass_offer(deal: DealState, seat: int) -> None:
    """``seat`` passes the first up-card (docs/rules/gin-standard.md §2): it is
    offered to the next seat; once every seat has passed, the non-dealer
    (the first to be offered it) draws from the stock, and only from it."""
    deal._offer_passes = passes = deal._offer_passes + 1
    start_turn(deal, (seat + 1) % deal.players)
    if deal.is_over:  # pragma: no cover - the turn cap is at least 4
        return
    if passes < deal.players:
        deal.phase = PHASE_OFFER
    else:
        deal._stock_only = True


def stock_ends_deal(deal: DealState) -> bool:
    """Has the stock run out for the last time (``rules.stock_end``)?"""
    rules = deal.rules
    if rules.stock_end == "block":
        return True
    return rules.stock_end == "reuse_limit" and deal._exhaustions >= rules.reuse_limit


def rebuild_stock(deal: DealState) -> bool:
    """The stock ran out: count it, and turn the discard pile over as the new
    stock (docs/rules/rummy.md §8, basic.md §1), or end the deal exhausted
    when the preset allows no more. False when the deal has ended."""
    deal._exhaustions += 1
    if stock_ends_deal(deal):
        finish(deal, EndReason.EXHAUSTED, "no_winner")
        return False
    rules = deal.rules
    pile = deal._pile
    keep = pile[-1:] if rules.recycle_keeps_top else []
    recycled = pile[:-1] if keep else pile[:]
    # Turned face down, the pile's bottom card becomes the stock's top.
    stock = recycled[::-1]
    shuffled = rules.stock_end == "shuffle"
    if shuffled:
        if deal._rng is None and deal.shuffle == PORTABLE_SHUFFLE:
            # The documented shuffle (docs/fair-deals.md), seeded from the
            # deck and the rebuild's number: whoever holds the revealed deck
            # recomputes the rebuilt stock. The pile turned face down is the
            # list, the new stock's top first (the top is the end of _stock).
            order = recycled[:]
            portable_shuffle(order, refill_seed(deal.deck, deal._exhaustions))
            stock = order[::-1]
        else:
            # The older deals' way (python-mt), kept so that their records
            # replay as they were played; a sampled deal (a bot's search)
            # brings its own generator.
            if deal._rng is None:
                # Seeded from the deck, so that a replay shuffles the same way.
                deal._rng = random.Random("pyrummy-refill " + " ".join(map(str, deal.deck)))
            deal._rng.shuffle(stock)
    deal._stock = stock
    deal._pile = keep
    deal._stock_recycled = True
    deal._stock_public = not shuffled
    return True


def end_by_cap(deal: DealState) -> None:
    """The turn cap is reached: the deal ends with nobody out."""
    finish(deal, EndReason.CAP, deal._policy.nobody_out)


def go_out(deal: DealState, seat: int) -> None:
    """``seat`` has no card left: the deal ends, won (going rummy if it is
    the seat's first time putting cards down)."""
    went_rummy = not deal._played[seat]
    deal._played[seat] = True
    finish(deal, EndReason.OUT, "out", seat, went_rummy)


def finish(
    deal: DealState, reason: EndReason, how: str, seat: int | None = None, went_rummy: bool = False
) -> None:
    """The deal ends: ``how`` it is settled (``out``, or the family's
    :data:`~pyrummy.core.families.NobodyOut`), by whom, with going rummy."""
    deal._pending = (how, seat, went_rummy)
    deal.phase = PHASE_OVER
    deal.is_over = True
    deal._end = reason
    deal._undo.clear()


def settlement(deal: DealState) -> Settlement | None:
    """The deal's result (None until it is over), settled when first asked for."""
    result = deal._settlement
    if result is None and deal._pending is not None:
        result = deal._settlement = _settle_now(deal, *deal._pending)
    return result


def _settle_now(deal: DealState, how: str, seat: int | None, went_rummy: bool) -> Settlement:
    hands = [CardSet(mask) for mask in deal._hands]
    rules = deal.rules
    if how == "showdown" or how == "big_gin":
        return settle(hands, seat, rules, big_gin=how == "big_gin", up_card=deal._up_card)
    if how == "draw":
        return settle_draw(hands, rules)
    if how == "no_winner":
        return settle_no_winner(hands, rules)
    assert seat is not None
    return settle_going_out(seat, hands, rules, went_rummy)
