"""The hard bot: determinized Monte Carlo search over the hidden cards.

At a decision that matters — where to draw from, which card to give back,
whether to knock — it repeats, within its budget:

1. re-deal the cards it cannot see, consistently with everything it knows
   (``observation.sample_deal``): the other hands and the stock order;
2. for every candidate action, play the deal out from there with a fast
   rollout policy (the simple bot for every seat, so the outcomes reward
   what works against sensible play);
3. score the end for its own seat: the settlement net minus the mean net of
   the others (zero-sum games: the net itself, ranked the same way).

Every candidate is tried on the same re-deals (common random numbers), so the
comparison sees the same luck. It picks the best mean; ties go to the medium
bot's own choice, which it also uses for melds and lay-offs and to keep the
give-back candidates to the few most promising.

Budget: ``rollouts`` re-deals per decision (deterministic for a seed), or,
when ``rollouts`` is None, as many as fit in ``time_budget`` seconds.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence

from pyrummy.bots.base import (
    GIVE_BACK_KINDS,
    BotError,
    is_draw_decision,
    of_kind,
    require_actions,
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
#: Re-deals behind the knock-rummy knock decision (the medium bot's rule).
DEFAULT_KNOCK_SAMPLES = 64
#: A rollout longer than this many actions is scored from the hands left.
ROLLOUT_STEP_LIMIT = 600


class HardBot:
    """Search over consistent re-deals with simple-bot rollouts.

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
        rollout_knock_threshold: int | None = None,
        knock_by_search: bool = False,
        knock_samples: int = DEFAULT_KNOCK_SAMPLES,
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
        self.guide = MediumBot(seed, samples=knock_samples)
        self._policy = SimpleBot(knock_threshold=rollout_knock_threshold)
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
        if rules.family == "knock" and not self.knock_by_search:
            # Knock rummy: whether to knock is the medium bot's expected-settlement
            # rule (rollouts with a fixed-threshold policy judge it worse); the
            # search picks the card to give back.
            guided = self.guide.choose_give_back(observation, give_backs, rules)
            if guided.kind is ActionKind.KNOCK:
                return guided
            give_backs = [a for a in give_backs if a.kind is ActionKind.DISCARD] or give_backs
        candidates = self.give_back_candidates(observation, give_backs, rules)
        return self.search(observation, candidates, rules)

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
        """The candidate with the best mean rollout outcome (the first among ties)."""
        if len(candidates) == 1:
            return candidates[0]
        me = seat_of(observation)
        totals = [0.0] * len(candidates)
        started = time.perf_counter()
        done = 0
        while True:
            base = observation.sample_deal(self.rng)
            for index, action in enumerate(candidates):
                deal = base if index == len(candidates) - 1 else base.clone()
                deal.apply(action)
                totals[index] += self.rollout(deal, me, rules)
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
        best = max(range(len(candidates)), key=lambda i: (totals[i], -i))
        return candidates[best]

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
