"""The card each ``draw discard`` of a deal took, for the Moves list.

A move's text says ``draw discard`` without the card, yet the card was face
up on the pile when it was taken: everybody saw it, so naming it hides
nothing. The server knows it by replaying the deal from its deck (a stock
shuffled from the pile is seeded from the deck, so the replay is the same
deal) and reading the pile's top before each such move. A deal with no deck
(one dealt by hand from a position) has no replay: its list stays empty and
the page says "took from the discard pile" without a card. A ``draw
discard`` that ends the deal instead (gin's ``pile_draw_limit``: the card
stays on the pile) took nothing and is given no card.

:class:`PileTakes` follows a deal that is still being played, applying
only the moves made since it was last asked.
"""

from __future__ import annotations

from pyrummy.core.actions import ActionKind
from pyrummy.core.deal import Deal
from pyrummy.core.phases import EndReason


class PileTakes:
    """The cards taken from the pile so far in one deal, kept up to date.

    >>> from pyrummy.core.deal import new_deal
    >>> deal = new_deal("gin", 2, seed=3)
    >>> up = deal.discard_pile[-1]
    >>> deal.apply("draw discard")
    >>> PileTakes(deal).update(deal) == [str(up)]
    True
    """

    __slots__ = ("_applied", "_deal", "_replay", "_taken")

    def __init__(self, deal: Deal) -> None:
        self._deal = deal
        self._taken: list[str] = []
        self._applied = 0
        self._replay: Deal | None = None
        if deal.deck:
            self._replay = Deal.from_deck(
                deal.rules,
                deal.players,
                deal.dealer,
                deal.deck,
                deal.deal_number,
                shuffle=deal.shuffle,
            )

    def follows(self, deal: Deal) -> bool:
        """Whether this is ``deal``'s list (a new deal needs a new one)."""
        return deal is self._deal and len(deal.history) >= self._applied

    def update(self, deal: Deal) -> list[str]:
        """The cards taken from the pile in ``deal`` so far, in the order taken."""
        replay = self._replay
        if replay is None:
            return self._taken
        for seat, action in deal.history[self._applied :]:
            top = replay.discard_pile[-1] if action.kind is ActionKind.DRAW_DISCARD else None
            try:
                replay.apply(action, seat)
            except ValueError:
                # Not the deal the deck makes (cannot happen for a dealt deal): name no more cards.
                self._replay = None
                break
            if top is not None and replay.end_reason is not EndReason.PILE_LIMIT:
                self._taken.append(str(top))
        self._applied = len(deal.history)
        return self._taken


def pile_takes(deal: Deal) -> list[str]:
    """The cards taken from the pile in a whole ``deal``, in the order taken."""
    return PileTakes(deal).update(deal)
