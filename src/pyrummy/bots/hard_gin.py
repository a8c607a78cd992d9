"""The hard bot's play of Gin: its knock, its draw and its discard (a part of :class:`~pyrummy.bots.hard.HardBot`).

:class:`GinPlay` holds the hard bot's Gin decisions, each weighing the
medium bot's choice (``guide``) against play-outs on re-deals of the
unseen cards: the knock or hold (:mod:`pyrummy.bots.gin_hold`), the
searched discard and draw (:mod:`pyrummy.bots.gin_search`), the reach and
safety credits of a discard (:mod:`pyrummy.bots.gin_play`,
:mod:`pyrummy.bots.gin_safety`). ``HardBot`` inherits it; the options it
reads are ``HardBot``'s, documented there.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

from pyrummy.bots.base import discard_of, first_of_kind
from pyrummy.bots.gin_hold import hold_values
from pyrummy.bots.gin_play import gin_discard_scores
from pyrummy.bots.gin_safety import take_risks
from pyrummy.bots.gin_search import STOCK, TAKE, Budget, draw_values, searched_discard
from pyrummy.bots.hand import best_give_back, cards_of, completes_meld, give_back_order
from pyrummy.bots.knock_equity import MAX_SAMPLES, Clock
from pyrummy.bots.lookahead import best_reply, unseen_mask
from pyrummy.bots.medium import MediumBot
from pyrummy.core.actions import Action, ActionKind
from pyrummy.core.observation import Observation
from pyrummy.core.rules import Rules
from pyrummy.core.solver import deadwood_of_mask

#: Gin: share of the time budget the searched discard or draw may spend (after the knock's).
GIN_SEARCH_BUDGET_SHARE = 0.5


class GinPlay:
    """The hard bot's Gin decisions; the attributes are ``HardBot``'s options and state."""

    guide: MediumBot
    rng: random.Random
    clock: Clock
    time_budget: float | None
    rollouts: int | None
    knock_budget: float | None
    last_rollouts: int
    last_knock_samples: int
    wait_for_gin: int
    gin_wait_stock: int
    gin_feed_weight: float
    gin_reach_bonus: float
    gin_knock_bonus: float
    gin_hold_samples: int
    gin_hold_selection: int
    gin_hold_pass: float
    gin_hold_discard: float
    gin_hold_earlier: float
    gin_search_samples: int
    gin_search_candidates: int
    gin_search_draws: int
    gin_search_margin: float
    gin_search_high: bool
    gin_search_wait: int

    def gin_search_budget(self, samples: int, started: float | None = None) -> Budget:
        """A searched gin draw's or discard's re-deals, the decision ``started`` then (or now).

        ``samples`` when ``rollouts`` fixes the work; on a time budget no more
        than that, and fewer if its share of the budget, counted from the
        decision's start, runs out first (so a fast machine plays what was
        measured, and a slow one stops in time).
        """
        if self.time_budget is None:
            deadline, clock = math.inf, None
        else:
            begun = self.clock() if started is None else started
            deadline, clock = begun + self.time_budget * GIN_SEARCH_BUDGET_SHARE, self.clock
        return Budget(
            samples,
            deadline,
            clock,
            discard_likelihood=self.gin_hold_discard,
            earlier_likelihood=self.gin_hold_earlier,
            wait_stock=self.gin_search_wait,
        )

    def gin_searched_draw(
        self, observation: Observation, legal_actions: Sequence[Action], rules: Rules
    ) -> Action:
        """Gin: take the up-card or draw from the stock, whichever plays out better."""
        preferred = self.guide.choose_draw(observation, legal_actions, rules)
        take = first_of_kind(legal_actions, ActionKind.DRAW_DISCARD)
        stock = first_of_kind(legal_actions, ActionKind.DRAW_STOCK)
        if take is None or stock is None or not observation.discard_pile:
            return preferred
        found = draw_values(
            observation,
            observation.discard_pile[-1].index,
            rules,
            self.rng,
            self.gin_search_budget(self.gin_search_draws),
        )
        self.last_rollouts = found.samples
        if not found.values:
            return preferred
        gain = found.values[TAKE] - found.values[STOCK]
        if abs(gain) <= self.gin_search_margin * found.errors[TAKE] or gain == 0:
            return preferred
        return take if gain > 0 else stock

    def gin_discard(
        self,
        observation: Observation,
        give_backs: Sequence[Action],
        preferred: Action,
        rules: Rules,
        started: float | None = None,
    ) -> Action:
        """Gin: the medium bot's discard cost, less the reach credits, plus the take risk.

        Reach (:mod:`pyrummy.bots.gin_play`): ``gin_reach_bonus`` times the
        chance that the next draw makes gin, ``gin_knock_bonus`` times the
        chance that it allows a knock; risk (:mod:`pyrummy.bots.gin_safety`):
        ``gin_feed_weight`` times the chance that the opponent takes the card.
        """
        budget = self.gin_search_budget(self.gin_search_samples, started)
        costs = self.guide.discard_costs(observation, give_backs, rules)
        if len(costs) <= 1:
            return preferred
        scores = gin_discard_scores(
            observation,
            costs,
            rules,
            reach_bonus=self.gin_reach_bonus,
            knock_bonus=self.gin_knock_bonus,
        )
        if self.gin_feed_weight > 0:
            risks = take_risks(observation, costs, self.rng)
            scores = {card: v + self.gin_feed_weight * risks[card] for card, v in scores.items()}
        if self.gin_search_samples and observation.players == 2:
            searched, self.last_rollouts = searched_discard(
                observation,
                scores,
                rules,
                self.rng,
                budget,
                candidates=self.gin_search_candidates,
                margin=self.gin_search_margin,
                high=self.gin_search_high,
            )
            if searched is not None:
                return discard_of(give_backs, searched) or preferred
        best = min(scores.values())
        choice = max(
            (c for c, v in scores.items() if v <= best + 1e-9),
            key=lambda c: give_back_order(c, rules),
        )
        return discard_of(give_backs, choice) or preferred

    def gin_hold_knock(
        self, observation: Observation, give_backs: Sequence[Action], rules: Rules, started: float
    ) -> Action | None:
        """Gin: the knock when it beats playing on (:mod:`pyrummy.bots.gin_hold`), else None.

        Gin always goes down; otherwise the least-deadwood knock is weighed on
        ``gin_hold_samples`` re-deals (30% of the budget from ``started`` when
        on a time budget) against playing on.
        """
        knocks = [a for a in give_backs if a.kind is ActionKind.KNOCK]
        if not knocks:
            return None
        hand = observation.hand.mask
        left = {a.cards[0]: deadwood_of_mask(hand & ~a.cards[0].bit, rules.ace) for a in knocks}
        least, card = best_give_back(left, rules)
        knock = next(a for a in knocks if a.cards[0] == card)
        if least == 0 or not any(a.kind is ActionKind.DISCARD for a in give_backs):
            return knock
        budget = self.knock_budget if self.rollouts is None else None
        values = hold_values(
            observation,
            card.index,
            rules,
            self.rng,
            samples=self.gin_hold_samples if budget is None else MAX_SAMPLES,
            wait_stock=self.gin_wait_stock,
            deadline=started + budget if budget is not None else float("inf"),
            clock=self.clock if budget is not None else None,
            pass_likelihood=self.gin_hold_pass,
            selection=self.gin_hold_selection,
            discard_likelihood=self.gin_hold_discard,
            earlier_likelihood=self.gin_hold_earlier,
        )
        self.last_knock_samples = values.samples
        if values.samples == 0 or values.now >= max(values.next, values.gin):
            return knock
        if values.gin > values.next:
            return discard_of(give_backs, card)
        return None

    def gin_knock_or_wait(
        self,
        observation: Observation,
        give_backs: Sequence[Action],
        knock: Action,
        rules: Rules,
    ) -> Action:
        """Gin: hold a knock of ``wait_for_gin`` deadwood or less for gin while the stock is long."""
        if self.wait_for_gin <= 0 or observation.stock_count < self.gin_wait_stock:
            return knock
        left = deadwood_of_mask(observation.hand.mask & ~knock.cards[0].bit, rules.ace)
        if left == 0 or left > self.wait_for_gin:
            return knock
        return discard_of(give_backs, knock.cards[0]) or knock

    def choose_gin_draw(
        self, observation: Observation, legal_actions: Sequence[Action], rules: Rules
    ) -> Action:
        """Gin: take the top discard when its one-draw outlook beats the stock's on average."""
        preferred = self.guide.choose_draw(observation, legal_actions, rules)
        take = first_of_kind(legal_actions, ActionKind.DRAW_DISCARD)
        stock = first_of_kind(legal_actions, ActionKind.DRAW_STOCK)
        if take is None or stock is None or not observation.discard_pile:
            return preferred
        hand = observation.hand.mask
        top = observation.discard_pile[-1].bit
        if completes_meld(hand, observation.discard_pile[-1], rules):
            return take
        unseen = unseen_mask(observation)
        draws = [card.bit for card in cards_of(unseen)]
        if not draws:
            return preferred
        if self.rollouts is not None:
            draws = [self.rng.choice(draws) for _ in range(self.rollouts)]
        taken = best_reply(hand | top, unseen, rules.ace, keep=top)
        total = 0.0
        for bit in draws:
            total += best_reply(hand | bit, unseen & ~bit, rules.ace)
        self.last_rollouts = len(draws)
        return take if taken < total / len(draws) else stock
