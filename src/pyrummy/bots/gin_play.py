"""Gin: the hard bot's discard score, the medium bot's cost plus what the next draw may reach.

The medium bot gives back the card whose hand has the least mean deadwood
after the next stock card. In gin that mean misses two thresholds that
decide a hand: deadwood 0 (gin: 25 bonus, no lay-offs, no undercut) and
the knock limit (the first to knock usually wins the race against an
opponent who knocks as soon as it may). :func:`reach_chances` counts, over
the cards the seat cannot see (each equally likely to be its next stock
card), how often the hand left reaches each threshold after that draw;
:func:`gin_discard_scores` subtracts ``reach_bonus`` times the chance of gin
from the medium cost (lower is better).

Pure functions of the observation and the costs: nothing here reads a
clock or draws a random number (about 30 solver calls a card, well under a
millisecond a decision).

>>> from pyrummy.core.cards import CardSet
>>> unseen = CardSet("6H 9H TH KD").mask
>>> reach_chances(CardSet("7H 8H 2S").mask, unseen, "low", 2)  # 6H or 9H, then 2S back: gin
(0.5, 0.5)
"""

from __future__ import annotations

from collections.abc import Mapping

from pyrummy.bots.lookahead import unseen_mask
from pyrummy.core.cards import Card
from pyrummy.core.observation import Observation
from pyrummy.core.rules import Rules
from pyrummy.core.solver import best_discards_of_mask, deadwood_of_mask


def reach_chances(hand: int, unseen: int, ace: str, knock_limit: int) -> tuple[float, float]:
    """Chances that the next stock card leaves ``hand`` at gin, and at ``knock_limit`` or less.

    The drawn card may go straight back (then the hand is as it is now).
    An empty ``unseen`` gives the hand as it is.
    """
    now = deadwood_of_mask(hand, ace)
    if not unseen:
        return float(now == 0), float(now <= knock_limit)
    gin = knock = count = 0
    cards = unseen
    while cards:
        low = cards & -cards
        cards ^= low
        count += 1
        after = min(now, best_discards_of_mask(hand | low, ace)[0])
        if after == 0:
            gin += 1
        if after <= knock_limit:
            knock += 1
    return gin / count, knock / count


def gin_discard_scores(
    observation: Observation,
    costs: Mapping[Card, float],
    rules: Rules,
    *,
    reach_bonus: float,
) -> dict[Card, float]:
    """Each discard's cost less the credit for reaching gin on the next draw."""
    if reach_bonus == 0:
        return dict(costs)
    hand = observation.hand.mask
    unseen = unseen_mask(observation)
    scores = {}
    for card, cost in costs.items():
        gin, _ = reach_chances(hand & ~card.bit, unseen, rules.ace, rules.knock_limit)
        scores[card] = cost - reach_bonus * gin
    return scores
