"""Card values under a preset's rules (deadwood and hand counts).

A = 1 (15 when the ace may be high, docs/rules/common.md §2), 2-10 face value,
J Q K = 10, a joker left in hand 15 (a ruling, docs/rules/rotham.md §1).

>>> from pyrummy.core.cards import parse_cards
>>> from pyrummy.core.rules import find_rules
>>> hand_value(parse_cards("AS KH 7D"), find_rules("knock"))
18
>>> hand_value(parse_cards("AS KH 7D X1"), find_rules("basic", ace="high_or_low"))
47
"""

from __future__ import annotations

from pyrummy.core.cards import JOKER_POINTS, N_STANDARD, Card, CardSet
from pyrummy.core.rules import Rules


def card_value(card: Card, rules: Rules) -> int:
    if card.index >= N_STANDARD:
        return JOKER_POINTS
    rank = card.index % 13
    if rank == 0:
        return rules.ace_points
    return min(rank + 1, 10)


def value_table(rules: Rules) -> tuple[int, ...]:
    """Value of each card number 0-54 under these rules (for fast paths)."""
    return tuple(card_value(Card.from_index(i), rules) for i in range(N_STANDARD + 3))


def hand_value(cards: CardSet, rules: Rules) -> int:
    """Sum of the values of all the cards (the count of a hand left at the end)."""
    return sum(card_value(card, rules) for card in cards)
