"""Gin: reading the opponent's earlier turns, not only its last.

A gin player keeps the cards that go into its melds: a card it gave back,
or an up-card it drew from the stock over, did not meet two cards of a meld
in its hand then. A re-deal whose opponent hand *now* holds two such
partners of one of those cards (two of its rank, or two neighbours of its
suit) is less likely: the partners must have come later.
:class:`pyrummy.bots.gin_hold.Redeals` weighs such a re-deal
``earlier_likelihood`` for each card it contradicts (1: not read). The last
turn is read more sharply there already (:func:`pyrummy.bots.gin_hold.last_give_back`),
so it is left out here.

Pure bit arithmetic on card masks (a card's index is ``suit * 13 + rank``,
ace low: gin runs do not wrap).

>>> from pyrummy.core.cards import CardSet
>>> hand = CardSet("8H TH 2S 2D KC").mask
>>> contradicted(hand, CardSet("9H").mask | CardSet("2C").mask | CardSet("QC").mask)
2
"""

from __future__ import annotations

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


def earlier_refusals(observation: Observation, seat: int) -> int:
    """A mask of the cards ``seat`` gave back or drew from the stock over, before its last turn.

    Each turn of ``seat`` (a draw, then a give-back) adds the up-card it drew
    over (the top of the pile when it drew from the stock) and the card it
    gave back; the cards of its last turn are left out.
    """
    pile: list[int] = []
    turns: list[int] = []
    current = 0
    for actor, action in observation.history:
        kind = action.kind
        if kind is ActionKind.DISCARD:
            pile.append(action.cards[0].index)
            if actor == seat:
                turns.append(current | action.cards[0].bit)
                current = 0
        elif kind is ActionKind.DRAW_DISCARD:
            if pile:
                pile.pop()
            if actor == seat:
                current = 0
        elif kind is ActionKind.DRAW_STOCK and actor == seat:
            current = 1 << pile[-1] if pile else 0
    refused = 0
    for turn in turns[:-1]:
        refused |= turn
    return refused & ~observation.known_cards[seat].mask
