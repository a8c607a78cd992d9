"""The phases of a deal (the explicit state of :class:`pyrummy.core.deal.Deal`).

>>> Phase.DRAW.value, Phase("over") is Phase.OVER
('draw', True)
"""

from __future__ import annotations

from enum import Enum, StrEnum


class Phase(Enum):
    """Where a deal stands; each phase has its own legal actions.

    - ``DEAL``: the cards are being dealt (never seen from outside: dealing
      is one step).
    - ``DRAW``: the seat to play takes the top card of the stock or of the
      discard pile.
    - ``DECLINE``: the turn starts with the stock empty: take the top discard
      or decline it (what declining does depends on the preset); in gin with
      ``wall_knock``, at the wall: take the discard to knock, or pass.
    - ``OFFER`` (gin with ``up_card_offer``): the first up-card is offered,
      to the non-dealer and then the dealer: take it (``draw discard``) or
      pass (``decline``, also read as ``pass``).
    - ``MELD`` (melding games): after the draw: meld, lay off, exchange a
      joker, undo, and end the turn with a discard (or go out).
    - ``DISCARD`` (knock and gin): after the draw: discard face up or knock.
    - ``OVER``: the deal is settled.
    """

    DEAL = "deal"
    DRAW = "draw"
    DECLINE = "decline"
    MELD = "meld"
    DISCARD = "discard"
    OVER = "over"
    OFFER = "offer"


class EndReason(StrEnum):
    """How a deal ended; each member equals its text form, and ``ONGOING``
    (the empty text, so false) stands for a deal that goes on.

    >>> EndReason.KNOCK == "knock", bool(EndReason.ONGOING)
    (True, False)
    """

    ONGOING = ""
    #: Knock Rummy and Gin: someone knocked.
    KNOCK = "knock"
    #: Melding games: someone went out.
    OUT = "out"
    #: The stock was empty and the player declined the discard.
    DECLINE = "decline"
    #: Melding games: the stock ran out for the last time (reuse limit, block).
    EXHAUSTED = "exhausted"
    #: Gin: two cards left in the stock and nobody knocked.
    WALL = "wall"
    #: The turn cap was reached.
    CAP = "cap"
    #: Gin under ``discard_taken`` (OpenSpiel's): a card taken from the pile
    #: was thrown back a second turn running; the deal is drawn.
    THROWN_BACK = "thrown_back"
    #: Gin under ``pile_draw_limit`` (OpenSpiel's): the limit's draw from the
    #: pile was asked for; the deal is drawn and the card stays on the pile.
    PILE_LIMIT = "pile_limit"

    def __repr__(self) -> str:
        return repr(self.value)
