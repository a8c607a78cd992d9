"""The hard bot: determinized Monte Carlo search over the hidden cards.

At a decision that matters — where to draw from, which card to give back,
whether to knock (gin) — it repeats, within its budget:

1. re-deal the cards it cannot see, consistently with everything it knows
   (``observation.sample_deal``): the other hands and the stock order;
2. for every candidate action, play the deal out from there with a fast
   rollout policy (the simple bot for every seat; in knock rummy knocking
   at about 3.5 deadwood per card, as bots weighing the expected settlement
   do);
3. score the end for its own seat: the settlement net minus the mean net of
   the others.

Every candidate is tried on the same re-deals (common random numbers), so the
comparison sees the same luck. The medium bot's choice is the default: another
candidate replaces it only when its mean outcome is better by more than
``confidence`` standard errors of the paired differences. Measured: with a
few dozen rollouts, taking the plain best mean played worse than the medium
bot (noise picks worse cards); gated, it plays at least as well.

The candidates are the medium bot's choice, the few best give-backs by its
cost (deadwood plus feeding risk) and the best knock. In knock rummy the
knock itself is the medium bot's expected-settlement rule (with more
samples): searched with threshold rollouts it did no better. Melds and
lay-offs are the simple bot's; a draw where the top discard cannot matter
(no shared rank, nothing within two in its suit, no joker) is instant.

Budget: ``rollouts`` re-deals per decision (deterministic for a seed), or,
when ``rollouts`` is None, as many as fit in ``time_budget`` seconds (the
count then depends on the machine and its load).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence

from pyrummy.bots.base import (
    GIVE_BACK_KINDS,
    BotError,
    is_draw_decision,
    of_kind,
    require_actions,
    sample_or_none,
    seat_of,
)
from pyrummy.bots.hand import deadwood, give_back_order, hand_value_of
from pyrummy.bots.medium import MediumBot
from pyrummy.bots.simple import SimpleBot
from pyrummy.core.actions import Action, ActionKind
from pyrummy.core.deal import Deal
from pyrummy.core.observation import Observation
from pyrummy.core.rules import Rules, find_rules

DEFAULT_TIME_BUDGET = 0.5
#: Give-back cards searched (the best by the medium bot's cost), plus the knock.
DEFAULT_CANDIDATES = 4
#: Standard errors by which a candidate must beat the medium bot's choice.
DEFAULT_CONFIDENCE = 1.0
#: Re-deals behind the knock-rummy knock decision (the medium bot's rule).
DEFAULT_KNOCK_SAMPLES = 64
#: Knock rummy rollouts knock at this much deadwood per card held: bots that
#: weigh the expected settlement (medium, hard) knock that early.
DEFAULT_ROLLOUT_KNOCK_PER_CARD = 3.5
#: A rollout longer than this many actions is scored from the hands left.
ROLLOUT_STEP_LIMIT = 600


class HardBot:
    """Search over consistent re-deals with simple-bot rollouts.

    ``time_budget`` (seconds, default 0.5) or ``rollouts`` (re-deals; when
    given, the budget is ignored and play is deterministic for a seed);
    ``candidates``: give-backs searched besides the knock; ``confidence``:
    standard errors needed to overrule the medium bot's choice;
    ``knock_samples``: re-deals behind a knock-rummy knock;
    ``knock_by_search``: search that knock too; ``rollout_knock_per_card``:
    knock-rummy rollouts knock at this deadwood per card.

    >>> bot = HardBot(seed=7, rollouts=10)
    >>> bot.name, bot.rollouts, bot.time_budget
    ('hard', 10, None)
    """

    name = "hard"

    def __init__(
        self,
        seed: int | None = None,
        *,
        time_budget: float | None = DEFAULT_TIME_BUDGET,
        rollouts: int | None = None,
        candidates: int = DEFAULT_CANDIDATES,
        rollout_knock_per_card: float | None = DEFAULT_ROLLOUT_KNOCK_PER_CARD,
        knock_by_search: bool = False,
        knock_samples: int = DEFAULT_KNOCK_SAMPLES,
        confidence: float = DEFAULT_CONFIDENCE,
    ) -> None:
        if rollouts is not None and rollouts < 1:
            raise BotError(f"rollouts must be at least 1, not {rollouts}")
        if rollouts is None and (time_budget is None or time_budget <= 0):
            raise BotError("the hard bot needs a positive time_budget or a rollouts count")
        if candidates < 1:
            raise BotError(f"candidates must be at least 1, not {candidates}")
        self.rng = random.Random(seed)
        self.rollouts = rollouts
        self.time_budget = None if rollouts is not None else time_budget
        self.candidates = candidates
        self.knock_by_search = knock_by_search
        self.confidence = confidence
        self.guide = MediumBot(
            seed, samples=knock_samples, opponent_knock_per_card=rollout_knock_per_card
        )
        self._policy = SimpleBot(knock_per_card=rollout_knock_per_card)
        #: Re-deals searched at the last decision (0 when it was trivial).
        self.last_rollouts = 0

    # -- the interface ----------------------------------------------------------
    def choose(self, observation: Observation, legal_actions: Sequence[Action]) -> Action:
        require_actions(legal_actions)
        self.last_rollouts = 0
        return self._decide(observation, legal_actions)

    def _decide(self, observation: Observation, legal_actions: Sequence[Action]) -> Action:
        if len(legal_actions) == 1:
            return legal_actions[0]
        rules = find_rules(observation.rules)
        if is_draw_decision(legal_actions):
            preferred = self.guide.choose_draw(observation, legal_actions, rules)
            if preferred.kind is not ActionKind.DRAW_DISCARD and not _discard_is_in_question(
                observation, legal_actions
            ):
                return preferred
            draws = [a for a in legal_actions if a.kind is not ActionKind.UNDO]
            return self.search(observation, _preferred_first(preferred, draws), rules)
        table_play = self.guide.choose_table_play(observation, legal_actions, rules)
        if table_play is not None:
            return table_play
        give_backs = of_kind(legal_actions, *GIVE_BACK_KINDS)
        if not give_backs:
            return legal_actions[0]
        # The medium bot's choice is the default; the search must show another
        # candidate is better. In knock rummy its knock (an expected-settlement
        # rule) stands: rollouts with a fixed-threshold policy judge it worse.
        preferred = self.guide.choose_give_back(observation, give_backs, rules)
        if preferred.kind is ActionKind.KNOCK and rules.family == "knock":
            if not self.knock_by_search:
                return preferred
        elif rules.family == "knock" and not self.knock_by_search:
            give_backs = [a for a in give_backs if a.kind is ActionKind.DISCARD] or give_backs
        candidates = self.give_back_candidates(observation, give_backs, rules)
        return self.search(observation, _preferred_first(preferred, candidates), rules)

    # -- candidates -----------------------------------------------------------------
    def give_back_candidates(
        self, observation: Observation, give_backs: Sequence[Action], rules: Rules
    ) -> list[Action]:
        """The most promising discards by the medium bot's cost, and the best knock."""
        costs = self.guide.discard_costs(observation, give_backs, rules)
        ranked = sorted(costs, key=lambda c: (costs[c], [-k for k in give_back_order(c, rules)]))
        chosen = [
            a
            for card in ranked[: self.candidates]
            for a in give_backs
            if a.kind is ActionKind.DISCARD and a.cards[0] == card
        ]
        knocks = [a for a in give_backs if a.kind is ActionKind.KNOCK]
        if knocks:
            hand = observation.hand.mask
            chosen.insert(
                0,
                min(
                    knocks,
                    key=lambda a: (
                        deadwood(hand & ~a.cards[0].bit, rules),
                        [-k for k in give_back_order(a.cards[0], rules)],
                    ),
                ),
            )
        return chosen or list(give_backs)

    # -- the search -------------------------------------------------------------------
    def search(
        self, observation: Observation, candidates: Sequence[Action], rules: Rules
    ) -> Action:
        """The first candidate, unless another has a clearly better mean rollout outcome.

        The first candidate is the medium bot's choice. Another replaces it
        only when its mean outcome beats it by more than ``confidence``
        standard errors of the paired differences (same re-deals): with few
        rollouts, noise would otherwise pick a worse card than the heuristic.
        """
        if len(candidates) == 1:
            return candidates[0]
        me = seat_of(observation)
        outcomes: list[list[float]] = [[] for _ in candidates]
        started = time.perf_counter()
        done = 0
        while True:
            base = sample_or_none(observation, self.rng)
            if base is None:
                break
            for index, action in enumerate(candidates):
                deal = base if index == len(candidates) - 1 else base.clone()
                deal.apply(action)
                outcomes[index].append(self.rollout(deal, me, rules))
            done += 1
            if self.rollouts is not None:
                if done >= self.rollouts:
                    break
            else:
                # Stop when one more re-deal, at the mean pace so far, would overrun.
                elapsed = time.perf_counter() - started
                if elapsed * (done + 1) / done > (self.time_budget or 0.0):
                    break
        self.last_rollouts = done
        if done == 0:
            return candidates[0]
        return candidates[_significantly_best(outcomes, self.confidence)]

    def rollout(self, deal: Deal, me: int, rules: Rules) -> float:
        """Play the deal out with the simple policy; the outcome for seat ``me``."""
        policy = self._policy
        steps = 0
        while not deal.is_over and steps < ROLLOUT_STEP_LIMIT:
            seat = deal.current_seat
            assert seat is not None
            deal.apply(policy.choose(deal.observe(seat), deal.legal_actions()))
            steps += 1
        if deal.is_over and deal.settlement is not None:
            net = [float(x) for x in deal.settlement.net]
        else:
            net = [-float(_hand_count(deal, seat, rules)) for seat in range(deal.players)]
        others = [x for seat, x in enumerate(net) if seat != me]
        return net[me] - sum(others) / len(others)


def _hand_count(deal: Deal, seat: int, rules: Rules) -> int:
    """What a hand left in an unfinished rollout is taken to cost."""
    hand = deal.observe(seat).hand.mask
    if rules.family == "melding":
        return hand_value_of(hand, rules)
    return deadwood(hand, rules)


def _significantly_best(outcomes: Sequence[Sequence[float]], confidence: float) -> int:
    """Index of the best mean, if it beats candidate 0 clearly (paired); else 0.

    >>> _significantly_best([[1.0, 2.0, 3.0], [2.0, 3.0, 4.1]], 1.0)
    1
    >>> _significantly_best([[1.0, 5.0, 3.0], [2.0, 3.0, 4.0]], 1.0)
    0
    """
    count = len(outcomes[0])
    means = [sum(values) / count for values in outcomes]
    best = max(range(len(outcomes)), key=lambda i: (means[i], -i))
    if best == 0:
        return 0
    if count < 2:
        return best if confidence <= 0 else 0
    differences = [b - a for a, b in zip(outcomes[0], outcomes[best], strict=True)]
    mean = sum(differences) / count
    variance = sum((d - mean) ** 2 for d in differences) / (count - 1)
    return best if mean > confidence * math.sqrt(variance / count) else 0


def _discard_is_in_question(observation: Observation, legal_actions: Sequence[Action]) -> bool:
    """Whether taking the top discard could matter: the stock is out of reach,
    the card is a joker, or it shares a rank or sits within two in suit of a
    card in hand. Otherwise drawing from the stock is plainly right.
    """
    if not observation.discard_pile:
        return False
    if not any(a.kind is ActionKind.DRAW_STOCK for a in legal_actions):
        return True
    top = observation.discard_pile[-1]
    if top.is_joker:
        return True
    rank, suit = top.index % 13, top.index // 13
    for card in observation.hand:
        if card.is_joker or card.index % 13 == rank:
            return True
        if card.index // 13 == suit and abs(card.index % 13 - rank) <= 2:
            return True
    return False


def _preferred_first(preferred: Action, actions: Sequence[Action]) -> list[Action]:
    return [preferred, *(a for a in actions if a != preferred)]
