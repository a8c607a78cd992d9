"""One-step lookahead on deadwood: what the next draw from the stock may bring.

A hand is worth more than its deadwood says when many unseen cards would
lower it: ``7H 8H`` waits on two cards, ``KS`` on none. These helpers average,
over the cards the seat cannot see (each equally likely to be its next stock
card), the least deadwood after drawing that card and giving back the worst
one; never more than the deadwood now, since a useless card goes straight
back. They run on int masks with the solver's fast path (about a microsecond
a hand), so a whole discard choice costs well under a millisecond.

>>> from pyrummy.core.cards import CardSet
>>> unseen = CardSet("6H 9H TH KD 2C 3D").mask
>>> round(expected_after_draw(CardSet("7H 8H KS").mask, unseen, "low"), 2)
14.17
>>> round(expected_after_draw(CardSet("7H 8H 3S").mask, unseen, "low"), 2)
10.17
"""

from __future__ import annotations

from pyrummy.core.observation import Observation
from pyrummy.core.solver import best_discards_of_mask, deadwood_of_mask, deadwood_without_each

#: :func:`best_reply`: give-backs tried after a draw (the least deadwood ones).
REPLIES = 3


def unseen_mask(observation: Observation) -> int:
    """The cards the observer cannot place: its possible next stock cards."""
    return observation.unseen_cards().mask


def expected_after_draw(hand: int, unseen: int, ace: str) -> float:
    """Mean least deadwood of ``hand`` after drawing one of ``unseen`` and giving one back.

    The drawn card may go straight back, so each term is at most the
    deadwood now. An empty ``unseen`` gives the deadwood now.
    """
    now = deadwood_of_mask(hand, ace)
    if not unseen:
        return float(now)
    total = 0
    count = 0
    cards = unseen
    while cards:
        low = cards & -cards
        cards ^= low
        count += 1
        after = best_discards_of_mask(hand | low, ace)[0]
        total += after if after < now else now
    return total / count


def draw_outlook(hand: int, unseen: int, ace: str, limit: int) -> tuple[float, float]:
    """Like :func:`expected_after_draw`, with the chance of ending at or below ``limit``.

    >>> from pyrummy.core.cards import CardSet
    >>> unseen = CardSet("6H 9H TH KD").mask
    >>> draw_outlook(CardSet("7H 8H 2S").mask, unseen, "low", 2)
    (8.5, 0.5)
    """
    now = deadwood_of_mask(hand, ace)
    if not unseen:
        return float(now), float(now <= limit)
    total = 0
    reached = 0
    count = 0
    cards = unseen
    while cards:
        low = cards & -cards
        cards ^= low
        count += 1
        after = best_discards_of_mask(hand | low, ace)[0]
        if after > now:
            after = now
        total += after
        if after <= limit:
            reached += 1
    return total / count, reached / count


def best_after_taking(hand: int, card_bit: int, ace: str) -> int:
    """Least deadwood after taking ``card_bit`` and giving back another card.

    >>> from pyrummy.core.cards import CardSet, Card
    >>> best_after_taking(CardSet("7H 8H KS").mask, Card("9H").bit, "low")
    0
    """
    return best_discards_of_mask(hand | card_bit, ace, keep=card_bit)[0]


def best_reply(hand: int, unseen: int, ace: str, keep: int = 0) -> float:
    """After a draw: the best one-draw outlook over the few least-deadwood give-backs.

    Cards in ``keep`` (a discard just taken) are not given back.
    """
    without = deadwood_without_each(hand, ace)
    allowed = [index for index in without if not keep >> index & 1]
    tried = sorted(allowed, key=lambda index: (without[index], -index))[:REPLIES]
    return min(expected_after_draw(hand & ~(1 << index), unseen, ace) for index in tried)
