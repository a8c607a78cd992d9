"""The draw phases: take the top of the stock or of the discard pile, or
(the stock empty) take the discard or decline it.

Each phase's legal actions, the reasons a draw is refused, and what each
draw does, side by side. What declining does is the family's
(:meth:`FamilyPolicy.on_decline <pyrummy.core.families.FamilyPolicy.on_decline>`):
knock and gin end the deal; the melding games draw on, from a stock
rebuilt from the pile when ``stock_refill="on_decline"``.
:meth:`Deal.legal_actions <pyrummy.core.deal.Deal.legal_actions>` inlines
:func:`legal_actions` (tests check the two agree).
"""

from __future__ import annotations

from pyrummy.core.actions import Action, ActionKind
from pyrummy.core.deal.state import DealState
from pyrummy.core.deal.tables import (
    DECLINE_BOTH,
    DECLINE_ONLY,
    DRAW_BOTH,
    DRAW_STOCK_ONLY,
    PHASE_DRAW,
)
from pyrummy.core.deal.turns import finish, pass_offer, rebuild_stock
from pyrummy.core.messages import Message
from pyrummy.core.patterns import CARD_BITS
from pyrummy.core.phases import EndReason, Phase

__all__ = [
    "decline",
    "draw_discard",
    "draw_stock",
    "legal_actions",
    "problem",
    "wall_knock_possible",
]


def legal_actions(deal: DealState) -> tuple[Action, ...]:
    """The draw phase: the stock, and the pile if it has a card (not once
    both players passed the first up-card); the decline and offer phases:
    the pile's card, or declining (passing) it; at the wall (``wall_knock``)
    the pile's card only if the player could knock with it."""
    if deal.phase is PHASE_DRAW:
        return DRAW_BOTH if deal._pile and not deal._stock_only else DRAW_STOCK_ONLY
    if deal._at_wall:
        return DECLINE_BOTH if wall_knock_possible(deal) else DECLINE_ONLY
    return DECLINE_BOTH if deal._pile else DECLINE_ONLY


def wall_knock_possible(deal: DealState) -> bool:
    """At the wall: could the seat to play knock after taking the pile's top
    card (with that card as the knock card only under ``discard_taken``)?"""
    top = deal._pile[-1]
    hand = deal._hands[deal._seat] | CARD_BITS[top]
    options = hand if deal._taken_free else hand & ~CARD_BITS[top]
    return bool(deal._policy.knock_cards(hand, options, deal._knock_rules))


def problem(deal: DealState, action: Action) -> Message | None:
    """Why a draw or a decline is refused, if it is."""
    kind = action.kind
    phase = deal.phase
    if deal._at_wall and phase is Phase.DECLINE and kind is not ActionKind.DECLINE:
        if kind is ActionKind.DRAW_STOCK or not wall_knock_possible(deal):
            return Message.of("action.wall_knock_only")
        return None
    if kind is ActionKind.DRAW_STOCK:
        if phase is Phase.DECLINE:
            return Message.of("action.stock_empty")
        if phase is Phase.OFFER:
            return Message.of("action.offer_pending")
        if phase is not Phase.DRAW:
            return drew_already(deal)
        return None
    if kind is ActionKind.DRAW_DISCARD:
        if phase not in (Phase.DRAW, Phase.DECLINE, Phase.OFFER):
            return drew_already(deal)
        if deal._stock_only and phase is Phase.DRAW:
            return Message.of("action.offer_passed")
        return Message.of("action.discard_empty") if not deal._pile else None
    if phase in (Phase.DECLINE, Phase.OFFER):
        return None
    return Message.of("action.decline_not_allowed")


def drew_already(deal: DealState) -> Message:
    """The refusal of a draw after the turn's draw (or the starter's extra card)."""
    if deal._drawn is None and deal.rules.starter_extra_card and deal.turn == 1:
        return Message.of("action.no_draw_first_turn")
    return Message.of("action.already_drew")


def draw_stock(deal: DealState, seat: int) -> None:
    """``seat`` takes the stock's top card (final: it cannot be undone)."""
    card = deal._stock.pop()
    deal._hands[seat] |= CARD_BITS[card]
    if deal._stock_public:
        deal._public[seat] |= CARD_BITS[card]
    deal._drawn = card
    deal._undo.clear()
    deal._stock_only = False
    deal.phase = deal._play_phase


def draw_discard(deal: DealState, seat: int) -> None:
    """``seat`` takes the pile's top card (public, and undoable); the draw
    that reaches ``rules.pile_draw_limit`` ends the deal drawn instead."""
    limit = deal._pile_limit
    if limit and deal.phase is PHASE_DRAW and deal._pile_draws + 1 >= limit:
        finish(deal, EndReason.PILE_LIMIT, deal._policy.nobody_out)
        return
    card = deal._pile.pop()
    bit = CARD_BITS[card]
    deal._hands[seat] |= bit
    deal._public[seat] |= bit
    deal._taken_held[seat] |= bit
    deal._drawn = deal._taken = card
    deal._undo.append(("draw", card))
    deal.phase = deal._play_phase


def decline(deal: DealState, seat: int) -> None:
    """``seat`` declines the discard at an empty stock: the deal ends, or the
    same seat draws (from a stock rebuilt from the pile if the family says so).
    Passing the first up-card (the offer phase) offers it to the next seat;
    passing at the wall (``wall_knock``) ends the deal drawn."""
    if deal.phase is Phase.OFFER:
        pass_offer(deal, seat)
        return
    if deal._at_wall:
        finish(deal, EndReason.WALL, "draw")
        return
    policy = deal._policy
    effect = policy.on_decline(deal.rules)
    if effect == "end":
        finish(deal, EndReason.DECLINE, policy.nobody_out)
        return
    if effect == "rebuild_and_draw" and not rebuild_stock(deal):
        return
    if not deal._stock:
        finish(deal, EndReason.EXHAUSTED, "no_winner")
        return
    draw_stock(deal, seat)
