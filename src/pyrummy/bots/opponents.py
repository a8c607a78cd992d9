"""What a seat can infer about its opponents from public play.

Two sources, both public and both in any observation (no memory needed):

* **Known cards**: ``known_cards`` — the cards each opponent is known to
  hold, chiefly those it took from the discard pile. A taken card was
  almost always taken to sit in a meld, so its rank and its suit neighbours
  are what that opponent collects.
* **History**, the public list of actions in the observation: what each
  opponent discarded and which top discard each passed over
  (:func:`shunned_cards`). Those cards (and their neighbours) are what the
  opponent does *not* collect.

:func:`feeding_risk` turns both into a 0-1 risk that giving a card to the
next seat hands them a meld.
"""

from __future__ import annotations

from collections.abc import Iterable

from pyrummy.core.actions import ActionKind
from pyrummy.core.cards import Card
from pyrummy.core.observation import Observation

#: Risk that a card feeds an opponent: a card of the same rank as one they
#: took, or next in suit (one apart), two apart in suit.
SAME_RANK_RISK = 0.6
ADJACENT_RISK = 0.6
GAP_RISK = 0.3
#: Factor on the risk when the opponent gave away or passed a card of the
#: same rank (they are not collecting it) or a suit neighbour.
SHUNNED_RANK_FACTOR = 0.4
SHUNNED_NEIGHBOUR_FACTOR = 0.7


def shunned_cards(observation: Observation) -> dict[int, int]:
    """Per seat, the mask of cards it discarded or passed over this deal.

    Read from the public ``history``: a ``discard`` gives the card away; a
    stock draw or a decline passes over the top discard of that moment (the
    last discard not taken since). The first up-card is not in the history,
    and a rebuilt stock empties the pile, so a pass over those is not seen.

    >>> from pyrummy.core.deal import new_deal
    >>> deal = new_deal("knock", players=2, seed=3, dealer=1)
    >>> deal.apply("draw stock")
    >>> given = min(deal.hands(0))
    >>> deal.apply(f"discard {given}")
    >>> deal.apply("draw stock")  # seat 1 passes over it
    >>> shunned = shunned_cards(deal.observe(1))
    >>> shunned[0] == shunned[1] == given.bit
    True
    """
    shunned: dict[int, int] = {}
    pile: list[Card | None] = [None]
    for seat, action in observation.history:
        kind = action.kind
        if kind is ActionKind.DISCARD:
            shunned[seat] = shunned.get(seat, 0) | action.cards[0].bit
            pile.append(action.cards[0])
        elif kind is ActionKind.DRAW_DISCARD:
            if pile:
                pile.pop()
        elif kind is ActionKind.DRAW_STOCK or kind is ActionKind.DECLINE:
            top = pile[-1] if pile else None
            if top is not None:
                shunned[seat] = shunned.get(seat, 0) | top.bit
            if kind is ActionKind.DECLINE:
                pile = [None]
        elif kind is ActionKind.UNDO:
            pile = [None]
    return shunned


def _rank_suit(card: Card) -> tuple[int, int]:
    return card.index % 13, card.index // 13


def feeding_risk(card: Card, collected: Iterable[Card], shunned: int) -> float:
    """Risk (0-1) that ``card`` helps a seat known to hold ``collected``.

    ``shunned`` is the mask of cards that seat gave away or passed over.
    Jokers always help.

    >>> from pyrummy.core.cards import parse_card_list
    >>> feeding_risk(Card("8H"), parse_card_list("8S"), 0)
    0.6
    >>> feeding_risk(Card("8H"), parse_card_list("8S"), Card("8D").bit)
    0.24
    >>> feeding_risk(Card("KC"), parse_card_list("8S"), 0)
    0.0
    """
    if card.is_joker:
        return 1.0
    rank, suit = _rank_suit(card)
    risk = 0.0
    for held in collected:
        if held.is_joker:
            continue
        held_rank, held_suit = _rank_suit(held)
        if held_rank == rank:
            risk = max(risk, SAME_RANK_RISK)
        elif held_suit == suit and abs(held_rank - rank) == 1:
            risk = max(risk, ADJACENT_RISK)
        elif held_suit == suit and abs(held_rank - rank) == 2:
            risk = max(risk, GAP_RISK)
    if risk == 0.0 or not shunned:
        return risk
    same_rank = sum(1 << (13 * s + rank) for s in range(4))
    if shunned & same_rank:
        risk *= SHUNNED_RANK_FACTOR
    neighbours = 0
    for step in (-1, 1):
        if 0 <= rank + step < 13:
            neighbours |= 1 << (13 * suit + rank + step)
    if shunned & neighbours:
        risk *= SHUNNED_NEIGHBOUR_FACTOR
    return round(risk, 6)
