"""The discard phase (knock, gin) and the discard that ends every turn.

After the draw a knock or gin player discards face up or knocks: the
discards are the hand's cards (never the discard just taken), the knocks
are the family's (:meth:`FamilyPolicy.knock_cards
<pyrummy.core.families.FamilyPolicy.knock_cards>`, under the rules in force:
Oklahoma's knock limit), and with ``big_gin_bonus`` an 11-card hand with no
deadwood may go out without a discard (``big gin``). A discard ends the turn
in every family: it goes out (melding: the last card), meets the wall
(gin), or passes the turn on.
:meth:`Deal.legal_actions <pyrummy.core.deal.Deal.legal_actions>` inlines
:func:`legal_actions` and :meth:`Deal.apply <pyrummy.core.deal.Deal.apply>`
calls :func:`discard` first of all (tests check the inlined list against
this one).
"""

from __future__ import annotations

from pyrummy.core.actions import BIG_GIN, UNDO, Action, ActionKind
from pyrummy.core.cards import Card
from pyrummy.core.deal.state import DealState
from pyrummy.core.deal.tables import (
    DISCARD_TABLES,
    KNOCK_TABLES,
    PHASE_DECLINE,
    PHASE_DRAW,
    card_actions,
)
from pyrummy.core.deal.turns import finish, go_out, offer_turn, start_turn
from pyrummy.core.messages import Message
from pyrummy.core.patterns import WITHOUT_CARD
from pyrummy.core.phases import EndReason
from pyrummy.core.solver import deadwood_of_mask

__all__ = [
    "big_gin",
    "big_gin_problem",
    "discard",
    "discard_allowed",
    "knock",
    "legal_actions",
    "openspiel_count",
    "problem",
]


def legal_actions(deal: DealState) -> tuple[Action, ...]:
    """Undo (if any), the discards, then the family's knocks; at the wall
    (``wall_knock``: the discard was taken to knock) the knocks only."""
    hand = deal._hands[deal._seat]
    taken = deal._taken
    options = hand if taken is None or deal._taken_free else hand & WITHOUT_CARD[taken]
    listed: tuple[Action, ...] = (UNDO,) if deal._undo else ()
    if deal._at_wall:
        knocks = deal._policy.knock_cards(hand, options, deal._knock_rules)
        return listed + card_actions(KNOCK_TABLES, knocks)
    listed += card_actions(DISCARD_TABLES, options)
    knocks = deal._policy.knock_cards(hand, options, deal._knock_rules)
    if knocks:
        listed += card_actions(KNOCK_TABLES, knocks)
        if deal._space.big_gin_number >= 0 and not deadwood_of_mask(hand):
            listed += (BIG_GIN,)
    return listed


def discard_allowed(deal: DealState, hand: int) -> bool:
    """May the seat to play discard now? All-seven deals: once going down
    this turn, only the last card goes."""
    return not (deal._all_seven and deal._played_turn and hand.bit_count() != 1)


def problem(deal: DealState, kind: ActionKind, card: Card) -> Message | None:
    """Why discarding or knocking with ``card`` (in the hand) is refused, if it is."""
    hand = deal._hands[deal._seat]
    taken_back = deal._taken == card.index and not deal._taken_free
    if kind is ActionKind.DISCARD:
        if deal._at_wall:
            return Message.of("action.wall_knock_only")
        if taken_back:
            return Message.of("action.taken_discard_back", card=card.pretty())
        if not discard_allowed(deal, hand):
            return Message.of("action.all_seven")
        return None
    if taken_back:
        return Message.of("action.taken_discard_knock", card=card.pretty())
    return deal._policy.knock_problem(hand, card.index, deal._knock_rules)


def big_gin_problem(deal: DealState) -> Message | None:
    """Why going out with big gin is refused, if it is."""
    if deal._space.big_gin_number < 0:
        return Message.of("action.no_big_gin")
    if deadwood_of_mask(deal._hands[deal._seat]):
        return Message.of("action.big_gin_unmelded")
    return None


def discard(deal: DealState, seat: int, card: int) -> None:
    """``seat`` discards card number ``card``: the turn (or the deal) ends.

    OpenSpiel's options: under ``discard_taken`` the second discard running
    of a card taken that turn ends the deal drawn; under ``pile_draw_limit``
    the turn's draw from the pile (not the first up-card's offer) counts;
    under ``wall_knock`` the wall gives the next seat the discard to knock with.
    """
    without = WITHOUT_CARD[card]
    hands = deal._hands
    hand = hands[seat] = hands[seat] & without
    public = deal._public
    if public[seat] >> card & 1:  # taken discards are a part of the public cards
        public[seat] &= without
        deal._taken_held[seat] &= without
    deal._pile.append(card)
    if not hand and deal._policy.out_by_discard:
        go_out(deal, seat)
        return
    if (deal._taken_free or deal._pile_limit) and openspiel_count(deal, card):
        return
    if len(deal._stock) <= deal._wall_stock:
        if deal._wall_knock:
            start_turn(deal, (seat + 1) % deal.players)
            if not deal.is_over:
                deal.phase = PHASE_DECLINE
                deal._at_wall = True
            return
        finish(deal, EndReason.WALL, "draw")
        return
    if deal._played_turn:
        deal._played[seat] = True
    seat += 1
    if seat == deal.players:
        seat = 0
    turn = deal.turn + 1
    if turn > deal.rules.turn_cap or not deal._stock:
        start_turn(deal, seat)
        return
    # start_turn's usual case inlined (after every discard but the last).
    deal._seat = seat
    deal.turn = turn
    deal._drawn = deal._taken = None
    if deal._undo:
        deal._undo.clear()
    deal._melds_turn = deal._undos_turn = 0
    deal._played_turn = False
    deal.phase = PHASE_DRAW


def openspiel_count(deal: DealState, card: int) -> bool:
    """What a discard of card number ``card`` counts under OpenSpiel's options:
    a card taken that turn thrown back (``discard_taken``: the second running
    ends the deal drawn, and then this is True), a draw from the pile
    (``pile_draw_limit``)."""
    if deal._taken_free:
        thrown_back = card == deal._taken
        if thrown_back and deal._thrown_back:
            finish(deal, EndReason.THROWN_BACK, "draw")
            return True
        deal._thrown_back = thrown_back
    if deal._pile_limit and deal._taken is not None and not offer_turn(deal):
        deal._pile_draws += 1
    return False


def knock(deal: DealState, seat: int, card: int) -> None:
    """``seat`` knocks, giving back card number ``card``: the showdown."""
    deal._hands[seat] &= ~(1 << card)
    deal._knock_card = card
    finish(deal, EndReason.KNOCK, "showdown", seat)


def big_gin(deal: DealState, seat: int) -> None:
    """``seat`` goes out with big gin: all 11 cards melded, no discard."""
    finish(deal, EndReason.KNOCK, "big_gin", seat)
