"""Gin: the draw and the discard chosen by play-outs on re-deals.

Against an opponent that knocks as soon as it may, a gin hand is a race,
and a one-draw outlook (the medium bot's discard cost) does not see the
race: how soon either side can knock, what an up-card gives the opponent,
what high cards cost when the other side knocks first. :func:`discard_values`
and :func:`draw_values` play the rest of the hand out instead, on the
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
    highest_value,
    knock_net,
)
from pyrummy.core.cards import Card
from pyrummy.core.observation import Observation
from pyrummy.core.rules import Rules
from pyrummy.core.solver import deadwood_of_mask, deadwood_without_each
from pyrummy.core.suit_tables import card_values

#: Re-deals a search makes even when its deadline has passed.
MIN_SAMPLES = 4
#: This seat's plan in the play-outs: knock at the next legal chance.
_KNOCK_AT_NEXT_CHANCE = 1
#: This seat's plan in the play-outs: hold out for gin while the stock is long (``Budget.wait_stock``).
_HOLD_FOR_GIN = 2


@dataclass(frozen=True)
class SearchValues:
    """Mean points for this seat of each choice (keyed by card index, or :data:`TAKE`/:data:`STOCK`).

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
    #: This seat's plan in the play-outs: hold out for gin while the stock
    #: holds this many cards or more, then knock at the next chance (0: knock
    #: at the first chance throughout), as hard holds a knock for gin.
    wait_stock: int = 0


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
    plan = _HOLD_FOR_GIN if budget.wait_stock else _KNOCK_AT_NEXT_CHANCE
    for theirs, stock, weight in _redeals(observation, rules, rng, play, budget):
        points = [
            float(
                play.play_out(
                    hand & ~(1 << card), theirs, 1 << card, list(stock), plan, budget.wait_stock
                )
            )
            for card in candidates
        ]
        paired.add(weight, points)
    return paired.result()


#: Key of :func:`draw_values`: take the up-card.
TAKE = 1
#: Key of :func:`draw_values`: draw from the stock.
STOCK = 0


def draw_values(
    observation: Observation,
    up_card: int,
    rules: Rules,
    rng: random.Random,
    budget: Budget,
) -> SearchValues:
    """Taking the up-card (``up_card``, an index) against drawing from the stock, played out.

    After either draw this seat gives back the fast policy's card (never the
    card just taken) and knocks if it may; then the opponent moves.
    """
    play = Play(rules)
    hand = observation.hand.mask
    up = 1 << up_card
    paired = _Paired([STOCK, TAKE])
    for theirs, stock, weight in _redeals(observation, rules, rng, play, budget):
        if len(stock) <= rules.wall_cards:
            break
        taken = _after_draw(play, hand | up, up, theirs, list(stock))
        rest = list(stock)
        drawn = 1 << rest.pop()
        paired.add(weight, [_after_draw(play, hand | drawn, 0, theirs, rest), taken])
    return paired.result()


def _after_draw(play: Play, full: int, taken: int, theirs: int, stock: list[int]) -> float:
    """This seat's points once it holds ``full`` (11 cards; ``taken`` may not go back).

    An up-card passed over goes under the new one, out of play, so the
    stock draw needs no note of it.
    """
    rules = play.rules
    value, tied = play.best_discards(full, taken)
    card = 1 << highest_value(tied, play.values)
    mine = full & ~card
    if value <= rules.knock_limit:
        return knock_net(mine, theirs, rules, play.arrangements)
    return play.play_out(mine, theirs, card, stock, _KNOCK_AT_NEXT_CHANCE, 0)


def searched_discard(
    observation: Observation,
    scores: Mapping[Card, float],
    rules: Rules,
    rng: random.Random,
    budget: Budget,
    *,
    candidates: int,
    margin: float = 0.0,
    high: bool = False,
) -> tuple[Card | None, int]:
    """The discard among the ``candidates`` lowest ``scores`` that plays out best, and re-deals.

    Another card than the lowest-scored one only when it plays out better
    by more than ``margin`` standard errors (paired on the same re-deals).
    None when there is nothing to choose (one candidate, or no re-deal).
    ``high``: the highest-valued card outside the melds is a candidate too
    (the race: what it costs if the opponent knocks first).
    """
    ranked = sorted(scores, key=lambda card: (scores[card], card.index))[:candidates]
    if high:
        top = highest_deadwood(observation.hand.mask, [card.index for card in scores], rules)
        ranked += [card for card in scores if card.index == top and card not in ranked]
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


def highest_deadwood(hand: int, cards: Sequence[int], rules: Rules) -> int:
    """The highest-valued of ``cards`` (indices) outside the melds of a least-deadwood ``hand`` (-1: none).

    A card is outside them when giving it back lowers the deadwood by its value.
    """
    values = card_values(rules.ace)
    now = deadwood_of_mask(hand, rules.ace)
    without = deadwood_without_each(hand, rules.ace)
    loose = 0
    for index in cards:
        if without[index] == now - values[index]:
            loose |= 1 << index
    return highest_value(loose, values) if loose else -1
