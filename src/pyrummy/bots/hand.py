"""Hand arithmetic the bots share, on plain int card masks.

Every question a bot asks about its hand comes down to the least deadwood of
some set of cards; these helpers ask the solver in one place, on the int fast
path, and break ties the same way everywhere (highest value, then highest
rank, then card number) so the bots stay deterministic.

>>> from pyrummy.core.cards import CardSet, Card
>>> from pyrummy.core.rules import find_rules
>>> knock = find_rules("knock")
>>> hand = CardSet("7H 8H 9H KS 2C").mask
>>> completes_meld(hand, Card("TH"), knock), completes_meld(hand, Card("KD"), knock)
(True, False)
>>> least_deadwood_give_back(hand | Card("QD").bit, hand | Card("QD").bit, knock)
(12, Card('KS'))
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import TypeVar

from pyrummy.core.cards import ALL_CARDS, Card
from pyrummy.core.rules import Rules
from pyrummy.core.solver import deadwood_of_mask
from pyrummy.core.values import value_table

#: What a give-back is scored by: deadwood left (int) or an expected cost.
Score = TypeVar("Score", int, float)


@lru_cache(maxsize=64)
def values_of(rules: Rules) -> tuple[int, ...]:
    """The value of each card number under these rules."""
    return value_table(rules)


def deadwood(mask: int, rules: Rules) -> int:
    """Least deadwood of the cards in ``mask``."""
    return deadwood_of_mask(mask, rules.ace)


def cards_of(mask: int) -> list[Card]:
    """The cards of a mask, in card order."""
    cards = []
    while mask:
        low = mask & -mask
        cards.append(ALL_CARDS[low.bit_length() - 1])
        mask ^= low
    return cards


def completes_meld(hand: int, card: Card, rules: Rules) -> bool:
    """True when ``card`` would sit in a meld of the best arrangement of hand + card.

    Measured as: adding the card lowers the deadwood below "hand plus the card
    as dead weight", so the card is matched in every best arrangement.
    """
    before = deadwood(hand, rules)
    after = deadwood(hand | card.bit, rules)
    return after < before + values_of(rules)[card.index]


def give_back_order(card: Card, rules: Rules) -> tuple[int, int, int]:
    """Sort key among equally good give-backs: highest value, then rank, then card number.

    Between a king and a queen (both 10) the king goes: it fits fewer runs.
    """
    return (values_of(rules)[card.index], card.index % 13, card.index)


def best_give_back(
    left: Mapping[Card, Score], rules: Rules, slack: float = 0
) -> tuple[Score, Card]:
    """The least score among give-backs scored by what they leave (deadwood, a
    cost), and the card to give back: among those within ``slack`` of it, the
    first by :func:`give_back_order` (the one tie-break every bot uses).

    >>> from pyrummy.core.rules import find_rules
    >>> best_give_back({Card("QD"): 12, Card("KS"): 12, Card("2C"): 20}, find_rules("knock"))
    (12, Card('KS'))
    """
    least = min(left.values())
    card = max(
        (c for c, score in left.items() if score <= least + slack),
        key=lambda c: give_back_order(c, rules),
    )
    return least, card


def deadwood_after_each(hand: int, candidates: int, rules: Rules) -> dict[Card, int]:
    """Deadwood left after giving back each candidate card."""
    return {card: deadwood(hand & ~card.bit, rules) for card in cards_of(candidates & hand)}


def least_deadwood_give_back(hand: int, candidates: int, rules: Rules) -> tuple[int, Card]:
    """The give-back leaving the least deadwood (highest value among ties).

    ``candidates`` are the cards that may be given back (a non-empty part of
    ``hand``).
    """
    after = deadwood_after_each(hand, candidates, rules)
    return best_give_back(after, rules)
