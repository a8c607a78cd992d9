"""A seat's view of a deal: the :class:`~pyrummy.core.observation.Observation`
built from the deal's full state.

Visibility follows who owns a card, never the phase: the seat's own hand,
every public fact, and once the deal is over every hand and the knock card
(see :mod:`pyrummy.core.observation` for what each field holds).
"""

from __future__ import annotations

from collections.abc import Callable

from pyrummy.core.actions import Action
from pyrummy.core.cards import ALL_CARDS, Card, CardSet
from pyrummy.core.deal.state import DealState
from pyrummy.core.deal.turns import settlement
from pyrummy.core.deal.undo import public_undo
from pyrummy.core.errors import RummyError
from pyrummy.core.observation import Observation

__all__ = ["observe"]


def _cards(mask: int) -> tuple[Card, ...]:
    return tuple(CardSet(mask)) if mask else ()


def observe(
    deal: DealState, seat: int | None, legal_actions: Callable[[], list[Action]]
) -> Observation:
    """``seat``'s view of ``deal`` (None: a spectator); ``legal_actions`` lists
    the deal's legal actions, asked for only when ``seat`` is to play."""
    if seat is not None and (
        isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < deal.players
    ):
        raise RummyError(f"seat must be 0-{deal.players - 1} or None, not {seat!r}")
    over = deal.is_over
    to_play = None if over else deal._seat
    own = deal._hands[seat] if seat is not None else 0
    taken = deal._taken if to_play is not None else None
    cards = ALL_CARDS.__getitem__
    fields = {
        "seat": seat,
        "rules": deal._knock_rules,
        "players": deal.players,
        "dealer": deal.dealer,
        "deal_number": deal.deal_number,
        "phase": deal.phase,
        "current_seat": to_play,
        "turn": deal.turn,
        "hand": CardSet(own),
        "hand_sizes": tuple(mask.bit_count() for mask in deal._hands),
        "stock_count": len(deal._stock),
        "discard_pile": tuple(map(cards, deal._pile)),
        "table": tuple(deal._table),
        "taken_discards": tuple(_cards(mask) for mask in deal._taken_held),
        "known_cards": tuple(CardSet(mask) for mask in deal._public),
        "drawn_card": (
            cards(deal._drawn)
            if deal._drawn is not None and seat is not None and seat == to_play
            else None
        ),
        "taken_discard": None if taken is None else cards(taken),
        "melded": tuple(
            before or (deal._played_turn and other == to_play)
            for other, before in enumerate(deal._played)
        ),
        "exhaustions": deal._exhaustions,
        "public_stock": (
            tuple(ALL_CARDS[i] for i in reversed(deal._stock)) if deal._stock_public else None
        ),
        "recycled_stock": deal._stock_recycled,
        "history": tuple(deal.history),
        "legal_actions": (tuple(legal_actions()) if seat is not None and seat == to_play else ()),
        "is_over": over,
        "revealed_hands": tuple(CardSet(m) for m in deal._hands) if over else None,
        "knock_card": (
            ALL_CARDS[deal._knock_card] if over and deal._knock_card is not None else None
        ),
        "settlement": settlement(deal) if over else None,
        "melds_this_turn": deal._melds_turn,
        "undos_this_turn": deal._undos_turn,
        "undo_entries": public_undo(deal),
        "end_reason": deal._end,
        "scores": None,
        "up_card": None if deal._up_card is None else cards(deal._up_card),
        "offer_passes": deal._offer_passes,
    }
    # Every field is set here, so the frozen dataclass's __init__ (one
    # object.__setattr__ per field: a third of the time of a view that
    # bots build at every step of their rollouts) is skipped.
    view = object.__new__(Observation)
    view.__dict__.update(fields)
    return view
