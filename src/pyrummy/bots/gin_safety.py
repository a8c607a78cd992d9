"""Gin: how likely a face-up discard is to be taken into a meld by the opponent.

A two-player gin opponent takes the top discard chiefly when it completes a
meld in its hand (OpenSpiel's simple bot does exactly that), and a fed meld
both lowers its deadwood and brings its knock closer. The risk of a card is
estimated on sampled opponent hands consistent with what this seat saw:
the cards the opponent is known to hold (taken discards) plus unseen cards.
A sample in which a top discard the opponent passed over (drew from the
stock instead) would have completed a meld is unlikely, and weighs
:data:`PASS_LIKELIHOOD`. A card completes a meld when the sampled hand holds
two more of its rank, or two suit neighbours that make a run with it.

Anytime: ``samples`` bounds the work (a few microseconds a sample); nothing
here reads a clock.
"""

from __future__ import annotations

import random
from collections.abc import Iterable

from pyrummy.core.actions import ActionKind
from pyrummy.core.cards import RANKS_IN_SUIT, SUIT_BITS, Card, card_number
from pyrummy.core.observation import Observation
from pyrummy.core.patterns import RANK_ACROSS_SUITS, WITHOUT_CARD

#: Likelihood of a sampled hand in which a passed-over card completes a meld.
PASS_LIKELIHOOD = 0.1
#: Sampled opponent hands per decision.
DEFAULT_SAMPLES = 160


def completes_meld(card_index: int, hand: int) -> bool:
    """Does ``hand`` (a mask) hold two cards that make a set or a run with this card?

    Ace low: no run wraps around the king.

    >>> from pyrummy.core.cards import RANKS_IN_SUIT, SUIT_BITS, Card, card_number
    >>> hand = Card("7H").bit | Card("7S").bit
    >>> completes_meld(Card("7D").index, hand), completes_meld(Card("8H").index, hand)
    (True, False)
    >>> completes_meld(Card("8H").index, Card("9H").bit | Card("TH").bit)
    True
    """
    suit, rank = divmod(card_index, RANKS_IN_SUIT)
    # Two other cards of its rank make a set.
    if (hand & RANK_ACROSS_SUITS[rank] & WITHOUT_CARD[card_index]).bit_count() >= 2:
        return True
    pattern = hand >> card_number(0, suit) & SUIT_BITS  # the ranks held in its suit

    def held(r: int) -> bool:
        return 0 <= r < RANKS_IN_SUIT and bool(pattern >> r & 1)

    below, above = held(rank - 1), held(rank + 1)
    return (below and (above or held(rank - 2))) or (above and held(rank + 2))


def passed_over(observation: Observation, seat: int) -> list[int]:
    """Indices of the top discards ``seat`` drew from the stock over (the first up-card unseen)."""
    pile: list[int | None] = [None]
    passed: list[int] = []
    for actor, action in observation.history:
        kind = action.kind
        if kind is ActionKind.DISCARD:
            pile.append(action.cards[0].index)
        elif kind is ActionKind.DRAW_DISCARD:
            if pile:
                pile.pop()
        elif kind is ActionKind.DRAW_STOCK or kind is ActionKind.DECLINE:
            top = pile[-1] if pile else None
            if actor == seat and top is not None:
                passed.append(top)
    return passed


def take_risks(
    observation: Observation,
    cards: Iterable[Card],
    rng: random.Random,
    samples: int = DEFAULT_SAMPLES,
) -> dict[Card, float]:
    """Per card, the weighted share of sampled opponent hands it completes a meld in.

    Two players only (gin); with more seats, or nothing to sample, every risk is 0.
    """
    wanted = list(cards)
    me = observation.seat
    if me is None or observation.players != 2 or samples <= 0:
        return dict.fromkeys(wanted, 0.0)
    opponent = 1 - me
    known = observation.known_cards[opponent].mask
    missing = observation.hand_sizes[opponent] - known.bit_count()
    pool = [card.index for card in observation.unseen_cards()]
    if missing < 0 or missing > len(pool):
        return dict.fromkeys(wanted, 0.0)
    passes = [p for p in passed_over(observation, opponent) if not known >> p & 1]
    totals = dict.fromkeys(wanted, 0.0)
    weight_total = 0.0
    for _ in range(samples):
        hand = known
        for index in rng.sample(pool, missing):
            hand |= 1 << index
        weight = 1.0
        for index in passes:
            if not hand >> index & 1 and completes_meld(index, hand):
                weight *= PASS_LIKELIHOOD
        weight_total += weight
        for card in wanted:
            if completes_meld(card.index, hand):
                totals[card] += weight
    if weight_total <= 0:
        return dict.fromkeys(wanted, 0.0)
    return {card: total / weight_total for card, total in totals.items()}
