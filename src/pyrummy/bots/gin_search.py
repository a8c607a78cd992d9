"""Gin: the discard chosen by play-outs on re-deals.

Against an opponent that knocks as soon as it may, a gin hand is a race,
and a one-draw outlook (the medium bot's discard cost) does not see the
race: how soon either side can knock, what an up-card gives the opponent,
what high cards cost when the other side knocks first. :func:`discard_values`
plays the rest of the hand out instead, on the
re-deals of :class:`pyrummy.bots.gin_hold.Redeals` (the opponent kept the
best of what it drew), both seats by the fast mask policy of
:class:`pyrummy.bots.gin_hold.Play`, this seat knocking at its first legal
chance, and average this seat's points. Every choice meets the same
re-deals (common random numbers), so their differences are much less
noisy than the means. Anytime: a :class:`Budget` caps the re-deals at
``samples`` and stops them once ``clock()`` passes ``deadline`` (after
:data:`MIN_SAMPLES`).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field

from pyrummy.bots.gin_hold import (
    DEFAULT_DISCARD_LIKELIHOOD,
    DEFAULT_EARLIER_LIKELIHOOD,
    DEFAULT_PASS_LIKELIHOOD,
    DEFAULT_SELECTION,
    Play,
    Redeals,
)
from pyrummy.core.cards import Card
from pyrummy.core.observation import Observation
from pyrummy.core.rules import Rules

#: Re-deals a search makes even when its deadline has passed.
MIN_SAMPLES = 4
#: This seat's plan in the play-outs: knock at the next legal chance.
_KNOCK_AT_NEXT_CHANCE = 1


@dataclass(frozen=True)
class SearchValues:
    """Mean points for this seat of each choice (keyed by card index, or ``TAKE``/``STOCK``).

    ``errors``: the standard error of each choice's mean less the first
    choice's, on the same re-deals (0 for the first).
    """

    values: dict[int, float]
    samples: int
    errors: dict[int, float] = field(default_factory=dict)


class _Paired:
    """Weighted points of several choices on the same re-deals, and their paired errors."""

    def __init__(self, keys: Sequence[int]) -> None:
        self.keys = list(keys)
        self.rows: list[tuple[float, list[float]]] = []

    def add(self, weight: float, points: list[float]) -> None:
        self.rows.append((weight, points))

    def result(self) -> SearchValues:
        total = sum(w for w, _ in self.rows)
        if not self.rows or total <= 0:
            return SearchValues({}, len(self.rows))
        squares = sum(w * w for w, _ in self.rows)
        effective = total * total / squares
        values: dict[int, float] = {}
        errors: dict[int, float] = {}
        for i, key in enumerate(self.keys):
            values[key] = sum(w * p[i] for w, p in self.rows) / total
            gap = values[key] - sum(w * p[0] for w, p in self.rows) / total
            spread = sum(w * (p[i] - p[0] - gap) ** 2 for w, p in self.rows) / total
            errors[key] = math.sqrt(spread / effective) if effective > 1 else math.inf
        return SearchValues(values, len(self.rows), errors)


@dataclass(frozen=True)
class Budget:
    """The re-deals a search makes, and how they are drawn.

    At most ``samples``; once ``clock()`` passes ``deadline``, no more (after
    :data:`MIN_SAMPLES`). ``pass_likelihood``, ``selection``, ``discard_likelihood`` and
    ``earlier_likelihood`` are those of
    :class:`pyrummy.bots.gin_hold.Redeals`.
    """

    samples: int
    deadline: float = math.inf
    clock: Callable[[], float] | None = None
    pass_likelihood: float = DEFAULT_PASS_LIKELIHOOD
    selection: int = DEFAULT_SELECTION
    discard_likelihood: float = DEFAULT_DISCARD_LIKELIHOOD
    earlier_likelihood: float = DEFAULT_EARLIER_LIKELIHOOD


def _redeals(
    observation: Observation, rules: Rules, rng: random.Random, play: Play, budget: Budget
) -> Iterator[tuple[int, list[int], float]]:
    """The budget's re-deals of what this seat cannot see: (their hand, the stock, weight)."""
    redeals = Redeals(
        observation,
        rules,
        rng,
        play,
        pass_likelihood=budget.pass_likelihood,
        selection=budget.selection,
        discard_likelihood=budget.discard_likelihood,
        earlier_likelihood=budget.earlier_likelihood,
    )
    if not redeals.usable:
        return
    clock = budget.clock
    for done in range(budget.samples):
        if clock is not None and done >= MIN_SAMPLES and clock() > budget.deadline:
            return
        yield redeals.draw()


def discard_values(
    observation: Observation,
    candidates: Sequence[int],
    rules: Rules,
    rng: random.Random,
    budget: Budget,
) -> SearchValues:
    """Each candidate discard (a card index of the 11-card hand) played out to the hand's end."""
    if not candidates:
        return SearchValues({}, 0)
    play = Play(rules)
    hand = observation.hand.mask
    paired = _Paired(candidates)
    for theirs, stock, weight in _redeals(observation, rules, rng, play, budget):
        points = [
            float(
                play.play_out(
                    hand & ~(1 << card), theirs, 1 << card, list(stock), _KNOCK_AT_NEXT_CHANCE, 0
                )
            )
            for card in candidates
        ]
        paired.add(weight, points)
    return paired.result()


def searched_discard(
    observation: Observation,
    scores: Mapping[Card, float],
    rules: Rules,
    rng: random.Random,
    budget: Budget,
    *,
    candidates: int,
    margin: float = 0.0,
) -> tuple[Card | None, int]:
    """The discard among the ``candidates`` lowest ``scores`` that plays out best, and re-deals.

    Another card than the lowest-scored one only when it plays out better
    by more than ``margin`` standard errors (paired on the same re-deals).
    None when there is nothing to choose (one candidate, or no re-deal).
    """
    ranked = sorted(scores, key=lambda card: (scores[card], card.index))[:candidates]
    if len(ranked) <= 1:
        return None, 0
    found = discard_values(observation, [card.index for card in ranked], rules, rng, budget)
    if not found.values:
        return None, found.samples
    values, errors = found.values, found.errors
    clear = [
        c
        for c in ranked[1:]
        if values[c.index] - values[ranked[0].index] > margin * errors[c.index]
    ]
    if not clear:
        return ranked[0], found.samples
    # The first of the ranked cards among the best: ties keep the heuristic's order.
    best = max(values[c.index] for c in clear)
    return next(c for c in clear if values[c.index] >= best - 1e-9), found.samples
