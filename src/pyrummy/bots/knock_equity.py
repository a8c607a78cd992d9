"""Knock rummy: the expected settlement of knocking now against waiting a round.

Anytime by construction: it draws re-deals of the hidden cards one at a time
and stops when the clock passes the deadline (or at ``max_samples``), so a
decision never runs much past its budget however slow the machine; the
clock is injected, so a test can count the samples a budget buys.

Each sample is a consistent re-deal on int masks (the solver's fast path,
microseconds a hand): every opponent gets the cards it is known to hold plus
unseen cards, and a **knock threshold** drawn from a prior over the ways
people play (always knock, knock at 40, 20, 10, 5, never). The sample is then
weighed by how well it explains what each opponent was seen to do:

* an opponent whose last turn ended face up passed a knock chance with the
  hand it holds now, so its deadwood was above its threshold (a sample where
  it was not gets weight :data:`KNOCK_PASS_LIKELIHOOD`);
* an opponent that drew from the stock over a top discard that completes a
  meld in its sampled hand is unlikely (:data:`MELD_PASS_LIKELIHOOD`).

So the opponent model is learned from the public history of the deal: a
seat that passed a knock with a hand of 25 is an aggressive knocker only if
its hand was bad, and a seat that keeps passing looks passive, and waiting
against it is worth more.

Knocking now is settled exactly (``knock_transfers`` on the deadwoods).
Waiting plays up to :data:`HORIZON` rounds on the same sample: each seat
takes the top discard if that lowers its deadwood, else the next stock card,
and gives back its least-deadwood card; an opponent knocks when at or below
its threshold; this seat follows each of the :data:`WAIT_PLANS` (knock at
the next turn, or once at or below 15, 10, 6, 3) and waiting is worth the
best plan's mean.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from pyrummy.bots.knock_model import OpponentModel
from pyrummy.bots.medium import net_for, relative_outcome
from pyrummy.core.actions import ActionKind
from pyrummy.core.observation import Observation
from pyrummy.core.rules import Rules
from pyrummy.core.settlement import knock_transfers
from pyrummy.core.solver import best_discards_of_mask, deadwood_of_mask

#: Prior over the opponents' knock thresholds (deadwood at or below which they
#: knock; a large number: always; -1: never), with weights.
THRESHOLD_PRIOR: tuple[tuple[int, float], ...] = (
    (1_000, 0.30),
    (40, 0.10),
    (20, 0.15),
    (10, 0.20),
    (5, 0.15),
    (-1, 0.10),
)
#: Likelihood that a seat passes a knock at or below its threshold.
KNOCK_PASS_LIKELIHOOD = 0.05
#: Likelihood that a seat draws from the stock over a card completing a meld.
MELD_PASS_LIKELIHOOD = 0.3
#: Samples drawn at least (even past the deadline) and at most.
MIN_SAMPLES = 16
MAX_SAMPLES = 6_000

#: Rounds a waiting plan looks ahead.
HORIZON = 5
#: The waiting plans: knock at the first later turn with this much deadwood
#: or less (the first, 1,000: at the next turn).
WAIT_PLANS: tuple[int, ...] = (1_000, 15, 10, 6, 3)

#: A source of seconds (``time.perf_counter``); tests inject a fake one.
Clock = Callable[[], float]


@dataclass(frozen=True)
class KnockEstimate:
    """Weighted mean outcome of knocking now and of waiting a round, over ``samples``."""

    now: float
    later: float
    samples: int


@dataclass(frozen=True)
class _Seen:
    """What the history says about one opponent."""

    seat: int
    known: int
    passed_knock: bool
    passed_over: int  # the top discard it last drew from the stock over (a bit, or 0)
    draws: int  # cards it drew since the deal (from the stock or the pile)


def _history_of_opponents(observation: Observation, me: int) -> list[_Seen]:
    last_kind: dict[int, ActionKind] = {}
    passed_over: dict[int, int] = {}
    draws: dict[int, int] = {}
    # The first up-card is not in the history: a pass over it goes unseen.
    pile: list[int] = [0]
    for seat, action in observation.history:
        kind = action.kind
        last_kind[seat] = kind
        if kind is ActionKind.DRAW_DISCARD or kind is ActionKind.DRAW_STOCK:
            draws[seat] = draws.get(seat, 0) + 1
        if kind is ActionKind.DISCARD:
            pile.append(action.cards[0].bit)
        elif kind is ActionKind.DRAW_DISCARD:
            if pile:
                pile.pop()
            passed_over[seat] = 0
        elif kind is ActionKind.DRAW_STOCK:
            passed_over[seat] = pile[-1] if pile else 0
    seen = []
    for seat in range(observation.players):
        if seat == me:
            continue
        seen.append(
            _Seen(
                seat=seat,
                known=observation.known_cards[seat].mask,
                passed_knock=last_kind.get(seat) is ActionKind.DISCARD,
                passed_over=passed_over.get(seat, 0),
                draws=draws.get(seat, 0),
            )
        )
    return seen


@lru_cache(maxsize=65_536)
def _outcome(deadwoods: tuple[int, ...], knocker: int, me: int, rules: Rules) -> float:
    transfers = knock_transfers(list(deadwoods), knocker, rules)[0]
    net = [net_for(transfers, seat) for seat in range(len(deadwoods))]
    return relative_outcome(net, me)


def _give_back(hand: int, ace: str, keep: int = 0) -> tuple[int, int]:
    """(least deadwood after giving one card back, the bit of the card given back)."""
    left, options = best_discards_of_mask(hand, ace, keep=keep)
    # The highest card among the ties (the one worth most as deadwood).
    return left, 1 << (options.bit_length() - 1)


def _draw(hand: int, top: int, stock_card: int, ace: str) -> tuple[int, int, bool]:
    """Take the top discard if it lowers the deadwood, else the stock card.

    Returns the hand after the draw, the card kept back from discarding, and
    whether the stock card was used.
    """
    if top:
        taken, _ = best_discards_of_mask(hand | top, ace, keep=top)
        if taken < deadwood_of_mask(hand, ace):
            return hand | top, top, False
    return hand | stock_card, 0, True


def _extras(
    opponents: Sequence[_Seen], selection: int, selection_after: int, spare: int
) -> list[int]:
    """Cards dealt to each opponent beyond its hand size (``min(draws - after,
    selection)``), cut down in seat order to what the unseen cards can spare."""
    extras = []
    for opponent in opponents:
        extra = max(0, min(opponent.draws - selection_after, selection, spare))
        spare -= extra
        extras.append(extra)
    return extras


def _select_hand(mask: int, known: int, extra: int, ace: str) -> int:
    """``mask`` less ``extra`` cards, each the least-deadwood give-back (a
    greedy pick; ``known`` cards stay): a hand its owner improved by keeping
    the better of what it drew."""
    for _ in range(extra):
        _, options = best_discards_of_mask(mask, ace, keep=known)
        mask &= ~(1 << (options.bit_length() - 1))
    return mask


def _sample_threshold(rng: random.Random) -> int:
    pick = rng.random()
    for threshold, weight in THRESHOLD_PRIOR:
        pick -= weight
        if pick <= 0:
            return threshold
    return THRESHOLD_PRIOR[-1][0]


def _meld_pass_weight(opponent: _Seen, mask: int, ace: str) -> float:
    """:data:`MELD_PASS_LIKELIHOOD` when the top discard the opponent drew over
    would have completed a meld in ``mask`` (or cut its deadwood by more than 5)."""
    top = opponent.passed_over
    if top and not mask & top:
        taken, _ = best_discards_of_mask(mask | top, ace, keep=top)
        if taken == 0 or taken < deadwood_of_mask(mask, ace) - 5:
            return MELD_PASS_LIKELIHOOD
    return 1.0


def _modelled_redeal(
    model: OpponentModel,
    opponents: Sequence[_Seen],
    missing: Sequence[int],
    pool: Sequence[int],
    draws_wanted: int,
    players: int,
    ace: str,
    rng: random.Random,
) -> tuple[list[int], list[tuple[int, ...]], float, list[int]]:
    """One re-deal by the two-type opponent model: hands, per-round knock
    thresholds, the sample's weight and the stock cards (bits) to draw from.

    Each opponent's type is drawn from its posterior after its passes; an
    active seat that passed is dealt hands until one passes the fitted knock
    test (at most ``model.tries``; else the least likely to knock of them), a
    passive seat keeps the best hand of ``min(draws, passive_selection)``
    extra cards.
    """
    hands = [0] * players
    thresholds: list[tuple[int, ...]] = [(-1,) * HORIZON] * players
    weight = 1.0
    free = list(pool)
    spare = len(free) - sum(missing)
    for opponent, count in zip(opponents, missing, strict=True):
        active = rng.random() < model.active_posterior(opponent.draws)
        selection = model.active_selection if active else model.passive_selection
        extra = max(0, min(opponent.draws, selection, spare))
        spare -= extra
        best_mask, best_chance = 0, 2.0
        tries = model.tries if active and opponent.passed_knock else 1
        for _ in range(tries):
            mask = opponent.known
            picked = rng.sample(range(len(free)), count + extra) if count + extra else []
            for position in picked:
                mask |= 1 << free[position]
            if extra:
                mask = _select_hand(mask, opponent.known, extra, ace)
            if tries == 1:
                best_mask = mask
                break
            chance = model.knock_chance(deadwood_of_mask(mask, ace), opponent.draws)
            if chance < best_chance:
                best_mask, best_chance = mask, chance
            if rng.random() >= chance:  # it passes with this hand
                best_mask = mask
                break
        hands[opponent.seat] = best_mask
        free = [index for index in free if not best_mask >> index & 1]
        if active:
            turn = opponent.draws + 1
            thresholds[opponent.seat] = tuple(
                model.knock_threshold(turn + step) for step in range(HORIZON)
            )
        weight *= _meld_pass_weight(opponent, best_mask, ace)
    stock_count = min(draws_wanted, len(free))
    stock = [1 << index for index in rng.sample(free, stock_count)]
    return hands, thresholds, weight, stock


def _prior_redeal(
    opponents: Sequence[_Seen],
    missing: Sequence[int],
    extras: Sequence[int],
    chosen: Sequence[int],
    players: int,
    selection_up_to: int,
    ace: str,
    rng: random.Random,
) -> tuple[list[int], list[tuple[int, ...]], float, list[int]]:
    """One re-deal by the threshold prior from the unseen cards ``chosen`` (in order).

    Each opponent draws a knock threshold and gets its known cards plus its
    share of ``chosen`` (``extras`` more, keeping the best, when selected);
    the rest is the stock. Returns the hands (this seat's left 0), the
    thresholds, the weight by how well the re-deal explains the opponents'
    play, and the stock (bits).
    """
    hands = [0] * players
    thresholds = [(0,) * HORIZON] * players
    weight = 1.0
    cursor = 0
    for opponent, count, extra in zip(opponents, missing, extras, strict=True):
        threshold = _sample_threshold(rng)
        thresholds[opponent.seat] = (threshold,) * HORIZON
        # Only a passive seat's hand is selected (``selection_up_to``): an
        # active seat that passed with a good hand would have knocked.
        selected = extra if threshold <= selection_up_to else 0
        mask = opponent.known
        for index in chosen[cursor : cursor + count + selected]:
            mask |= 1 << index
        cursor += count + extra
        if selected:
            mask = _select_hand(mask, opponent.known, selected, ace)
        hands[opponent.seat] = mask
        if opponent.passed_knock and deadwood_of_mask(mask, ace) <= threshold:
            weight *= KNOCK_PASS_LIKELIHOOD
        weight *= _meld_pass_weight(opponent, mask, ace)
    stock = [1 << index for index in chosen[cursor:]]
    return hands, thresholds, weight, stock


def estimate_knock(
    observation: Observation,
    rules: Rules,
    knock_card: int,
    rng: random.Random,
    deadline: float,
    clock: Clock = time.perf_counter,
    *,
    min_samples: int = MIN_SAMPLES,
    max_samples: int = MAX_SAMPLES,
    selection: int = 0,
    selection_after: int = 0,
    selection_up_to: int = THRESHOLD_PRIOR[0][0],
    model: OpponentModel | None = None,
) -> KnockEstimate:
    """Weighted mean outcome for this seat of knocking now with ``knock_card``
    (a bit) and of discarding it face up and knocking after one round.

    Samples until ``clock()`` passes ``deadline`` (checked after each sample,
    at least ``min_samples``) or ``max_samples`` are done.

    ``selection``: an opponent that drew ``t`` times since the deal kept what
    improved its hand, so it is dealt ``min(t, selection)`` unseen cards more
    than it holds and keeps the least-deadwood hand of them (its known cards
    kept); 0 deals it a plain random hand. The first
    ``selection_after`` draws do not count (``t - selection_after`` instead).
    Only an opponent whose sampled knock threshold is at most
    ``selection_up_to`` (default: every one) is selected.

    ``model``: re-deal by the two-type :class:`~pyrummy.bots.knock_model.OpponentModel`
    instead (the threshold prior and ``selection*`` are then not used).
    """
    me = observation.seat
    assert me is not None
    ace = rules.ace
    players = observation.players
    hand = observation.hand.mask & ~knock_card
    my_deadwood = deadwood_of_mask(hand, ace)
    opponents = _history_of_opponents(observation, me)
    pool = [card.index for card in observation.unseen_cards()]
    missing = [observation.hand_sizes[o.seat] - o.known.bit_count() for o in opponents]
    needed = sum(missing)
    spare = len(pool) - needed
    extras = _extras(opponents, selection, selection_after, spare)
    needed += sum(extras)
    spare -= sum(extras)
    draws_wanted = min(players * HORIZON, spare)
    order = [(me + step) % players for step in range(1, players)]
    now_total = weight_total = 0.0
    later_totals = [0.0] * len(WAIT_PLANS)

    def _add_sample(
        hands: list[int], thresholds: Sequence[Sequence[int]], weight: float, stock: list[int]
    ) -> None:
        nonlocal now_total, weight_total
        deadwoods = tuple(
            deadwood_of_mask(h, ace) if s != me else my_deadwood for s, h in enumerate(hands)
        )
        now = _outcome(deadwoods, me, me, rules)
        later = _wait_outcomes(hands, thresholds, order, knock_card, stock, me, ace, rules)
        now_total += weight * now
        for index, value in enumerate(later):
            later_totals[index] += weight * value
        weight_total += weight

    done = 0
    while done < max_samples:
        if done >= min_samples and clock() > deadline:
            break
        done += 1
        if model is not None:
            hands, thresholds, weight, stock = _modelled_redeal(
                model, opponents, missing, pool, draws_wanted, players, ace, rng
            )
            hands[me] = hand
            _add_sample(hands, thresholds, weight, stock)
            continue
        chosen = rng.sample(pool, needed + draws_wanted)
        hands, thresholds, weight, stock = _prior_redeal(
            opponents, missing, extras, chosen, players, selection_up_to, ace, rng
        )
        hands[me] = hand
        _add_sample(hands, thresholds, weight, stock)
    if weight_total <= 0:
        return KnockEstimate(0.0, 0.0, done)
    return KnockEstimate(now_total / weight_total, max(later_totals) / weight_total, done)


def _wait_outcomes(
    hands: list[int],
    thresholds: Sequence[Sequence[int]],
    order: Sequence[int],
    discard: int,
    stock: list[int],
    me: int,
    ace: str,
    rules: Rules,
) -> list[float]:
    """This seat's outcome of waiting, per plan of :data:`WAIT_PLANS`.

    The play up to this seat's knock does not depend on when it knocks, so
    one trajectory of :data:`HORIZON` rounds serves every plan (``thresholds``:
    per seat, its knock threshold in each round; -1 never): plan ``t``
    knocks at the first later turn with deadwood ``t`` or less (at the last
    round in any case), unless an opponent knocks first.
    """
    hands = list(hands)
    top = discard
    next_stock = 0
    results: list[float | None] = [None] * len(WAIT_PLANS)
    for round_number in range(HORIZON):
        for seat in order:
            if next_stock >= len(stock):
                break
            held, keep, used = _draw(hands[seat], top, stock[next_stock], ace)
            if used:
                next_stock += 1
            left, given = _give_back(held, ace, keep)
            hands[seat] = held & ~given
            threshold = thresholds[seat][round_number]
            if threshold >= 0 and left <= threshold:
                value = _outcome(_deadwoods(hands, ace), seat, me, rules)
                return [value if r is None else r for r in results]
            top = given
        last = round_number == HORIZON - 1 or next_stock >= len(stock)
        if next_stock < len(stock):
            held, keep, used = _draw(hands[me], top, stock[next_stock], ace)
            if used:
                next_stock += 1
            mine, given = _give_back(held, ace, keep)
            hands[me] = held & ~given
            top = given
        else:
            mine = deadwood_of_mask(hands[me], ace)
        knocking: float | None = None
        for index, plan in enumerate(WAIT_PLANS):
            if results[index] is None and (last or mine <= plan):
                if knocking is None:
                    knocking = _outcome(_deadwoods(hands, ace), me, me, rules)
                results[index] = knocking
        if all(r is not None for r in results):
            break
    value = _outcome(_deadwoods(hands, ace), me, me, rules)
    return [value if r is None else r for r in results]


def _deadwoods(hands: Sequence[int], ace: str) -> tuple[int, ...]:
    return tuple(deadwood_of_mask(h, ace) for h in hands)
