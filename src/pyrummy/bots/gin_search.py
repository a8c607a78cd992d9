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
noisy than the means. Anytime: at most ``samples`` re-deals, stopping once
``clock()`` passes ``deadline`` (after :data:`MIN_SAMPLES`).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from pyrummy.bots.gin_hold import (
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
from pyrummy.core.solver import best_discards_of_mask

#: Re-deals a search makes even when its deadline has passed.
MIN_SAMPLES = 4
#: This seat's plan in the play-outs: knock at the next legal chance.
_KNOCK_AT_NEXT_CHANCE = 1


@dataclass(frozen=True)
class SearchValues:
    """Mean points for this seat of each choice (keyed by card index, or 'take'/'stock')."""

    values: dict[int, float]
    samples: int


def discard_values(
    observation: Observation,
    candidates: Sequence[int],
    rules: Rules,
    rng: random.Random,
    *,
    samples: int,
    deadline: float = float("inf"),
    clock: Callable[[], float] | None = None,
    pass_likelihood: float = DEFAULT_PASS_LIKELIHOOD,
    selection: int = DEFAULT_SELECTION,
) -> SearchValues:
    """Each candidate discard (a card index of the 11-card hand) played out to the hand's end."""
    play = Play(rules)
    redeals = Redeals(
        observation, rules, rng, play, pass_likelihood=pass_likelihood, selection=selection
    )
    if not redeals.usable or not candidates:
        return SearchValues({}, 0)
    hand = observation.hand.mask
    totals = dict.fromkeys(candidates, 0.0)
    weight_total = 0.0
    done = 0
    while done < samples:
        if clock is not None and done >= MIN_SAMPLES and clock() > deadline:
            break
        theirs, stock, weight = redeals.draw()
        done += 1
        weight_total += weight
        for card in candidates:
            up = 1 << card
            totals[card] += weight * play.play_out(
                hand & ~up, theirs, up, list(stock), _KNOCK_AT_NEXT_CHANCE, 0
            )
    if done == 0 or weight_total <= 0:
        return SearchValues({}, done)
    return SearchValues({c: t / weight_total for c, t in totals.items()}, done)


#: Keys of :func:`draw_values`.
TAKE = 1
STOCK = 0


def draw_values(
    observation: Observation,
    up_card: int,
    rules: Rules,
    rng: random.Random,
    *,
    samples: int,
    deadline: float = float("inf"),
    clock: Callable[[], float] | None = None,
    pass_likelihood: float = DEFAULT_PASS_LIKELIHOOD,
    selection: int = DEFAULT_SELECTION,
) -> SearchValues:
    """Taking the up-card (``up_card``, an index) against drawing from the stock, played out.

    After either draw this seat gives back the fast policy's card (never the
    card just taken) and knocks if it may; then the opponent moves.
    """
    play = Play(rules)
    redeals = Redeals(
        observation, rules, rng, play, pass_likelihood=pass_likelihood, selection=selection
    )
    if not redeals.usable:
        return SearchValues({}, 0)
    hand = observation.hand.mask
    up = 1 << up_card
    totals = {TAKE: 0.0, STOCK: 0.0}
    weight_total = 0.0
    done = 0
    while done < samples:
        if clock is not None and done >= MIN_SAMPLES and clock() > deadline:
            break
        theirs, stock, weight = redeals.draw()
        if len(stock) <= rules.wall_cards:
            break
        done += 1
        weight_total += weight
        totals[TAKE] += weight * _after_draw(play, hand | up, up, theirs, list(stock))
        rest = list(stock)
        drawn = 1 << rest.pop()
        totals[STOCK] += weight * _after_draw(play, hand | drawn, 0, theirs, rest)
    if done == 0 or weight_total <= 0:
        return SearchValues({}, done)
    return SearchValues({k: t / weight_total for k, t in totals.items()}, done)


def _after_draw(play: Play, full: int, taken: int, theirs: int, stock: list[int]) -> float:
    """This seat's points once it holds ``full`` (11 cards; ``taken`` may not go back).

    An up-card passed over goes under the new one, out of play, so the
    stock draw needs no note of it.
    """
    rules = play.rules
    value, tied = best_discards_of_mask(full, play.ace, keep=taken)
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
    *,
    candidates: int,
    samples: int,
    deadline: float = float("inf"),
    clock: Callable[[], float] | None = None,
) -> tuple[Card | None, int]:
    """The discard among the ``candidates`` lowest ``scores`` that plays out best, and re-deals.

    None when there is nothing to choose (one candidate, or no re-deal).
    """
    ranked = sorted(scores, key=lambda card: (scores[card], card.index))[:candidates]
    if len(ranked) <= 1:
        return None, 0
    found = discard_values(
        observation,
        [card.index for card in ranked],
        rules,
        rng,
        samples=samples,
        deadline=deadline,
        clock=clock,
    )
    if not found.values:
        return None, found.samples
    # The first of the ranked cards among the best: ties keep the heuristic's order.
    best = max(found.values.values())
    choice = next(card for card in ranked if found.values[card.index] >= best - 1e-9)
    return choice, found.samples
