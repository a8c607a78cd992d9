"""Gin: reading the opponent's earlier turns, not only its last.

A gin player keeps the cards that go into its melds: a card it gave back,
or an up-card it drew from the stock over, did not meet two cards of a meld
in its hand then. A re-deal whose opponent hand *now* holds two such
partners of one of those cards (two of its rank, or two neighbours of its
suit) is less likely: the partners must have come later.
:class:`pyrummy.bots.gin_hold.Redeals` weighs such a re-deal
``earlier_likelihood`` for each card it contradicts (1: not read). The last
turn is read more sharply there already (:func:`pyrummy.bots.gin_hold.last_give_back`),
so it is left out here. Both read the opponent's turns by :func:`give_backs`.

Pure bit arithmetic on card masks (a card's index is ``suit * 13 + rank``,
ace low: gin runs do not wrap).

>>> from pyrummy.core.cards import CardSet
>>> hand = CardSet("8H TH 2S 2D KC").mask
>>> contradicted(hand, CardSet("9H").mask | CardSet("2C").mask | CardSet("QC").mask)
2
"""

from __future__ import annotations

from dataclasses import dataclass

from pyrummy.core.actions import ActionKind
from pyrummy.core.observation import Observation

_RANKS = 13
_ALL_RANKS = (1 << _RANKS) - 1


def _partners(hand: int, index: int) -> bool:
    """Does ``hand`` hold two cards that make a meld with card ``index``?"""
    rank = index % _RANKS
    suit_base = index - rank
    same_rank = 0
    for suit in range(4):
        same_rank += hand >> (suit * _RANKS + rank) & 1
    if same_rank - (hand >> index & 1) >= 2:
        return True
    suit = (hand >> suit_base) & _ALL_RANKS

    def has(r: int) -> bool:
        return 0 <= r < _RANKS and bool(suit >> r & 1)

    return (
        (has(rank - 1) and has(rank + 1))
        or (has(rank - 2) and has(rank - 1))
        or (has(rank + 1) and has(rank + 2))
    )


def contradicted(hand: int, cards: int) -> int:
    """How many of ``cards`` meet two meld partners in ``hand``."""
    count = 0
    while cards:
        bit = cards & -cards
        cards ^= bit
        count += _partners(hand, bit.bit_length() - 1)
    return count


@dataclass(frozen=True)
class GiveBack:
    """A seat's turn that ended in a give-back: the card, and what it drew.

    ``taken``: the up-card it drew (a mask; it could not give it back), 0
    after a stock draw; ``passed``: the up-card it drew from the stock over
    (an index; -1 when it took the up-card or the up-card is not known).
    """

    card: int
    taken: int
    passed: int


def give_backs(observation: Observation, seat: int) -> tuple[list[GiveBack], bool]:
    """``seat``'s turns that ended in a give-back, in order, and whether its
    last action was one (the pile followed through the history)."""
    pile: list[int] = []
    given = 0
    turns: list[GiveBack] = []
    last_gave_back = False
    taken = 0
    passed = -1
    for actor, action in observation.history:
        kind = action.kind
        if actor == seat:
            last_gave_back = False
        if kind is ActionKind.DISCARD:
            card = action.cards[0]
            pile.append(card.index)
            given |= card.bit
            if actor == seat:
                turns.append(GiveBack(card.index, taken, passed))
                last_gave_back = True
        elif kind is ActionKind.DRAW_DISCARD:
            if pile:
                top = 1 << pile.pop()
            else:  # the first up-card: the one card it is known to hold that nobody gave back
                top = observation.known_cards[seat].mask & ~given
                top = top if top.bit_count() == 1 else 0
            if actor == seat:
                taken, passed = top, -1
        elif kind is ActionKind.DRAW_STOCK and actor == seat:
            taken, passed = 0, pile[-1] if pile else -1
    return turns, last_gave_back


def earlier_refusals(observation: Observation, seat: int) -> int:
    """A mask of the cards ``seat`` gave back or drew from the stock over, before its last turn.

    Each turn of ``seat`` (a draw, then a give-back) adds the up-card it drew
    over (the top of the pile when it drew from the stock) and the card it
    gave back; the cards of its last turn are left out.
    """
    refused = 0
    for turn in give_backs(observation, seat)[0][:-1]:
        refused |= 1 << turn.card
        if turn.passed >= 0:
            refused |= 1 << turn.passed
    return refused & ~observation.known_cards[seat].mask
