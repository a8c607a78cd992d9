"""The hard bot's play of Gin: its knock and its discard.

Draws are the medium bot's (the ``guide``). A give-back:

* **the knock**: gin always goes down; any other legal knock is weighed
  against playing on by :func:`pyrummy.bots.gin_hold.hold_values` (re-deals
  in which the opponent kept the best of what it drew, played out fast on
  card masks), which may also answer "hold the knock card and wait for gin";
* **the discard**: the guide's cost less ``gin_reach_bonus`` times the
  chance that the next draw makes gin (:mod:`pyrummy.bots.gin_play`); among
  the few cheapest, play-outs to the hand's end on the same re-deals
  (:func:`pyrummy.bots.gin_search.searched_discard`) overrule that choice
  only by ``gin_search_margin`` paired standard errors.

Both searches read the opponent's last turn: a re-deal its give-back or a
passed-over up-card does not explain is weighed
:data:`~pyrummy.bots.gin_hold.DEFAULT_DISCARD_LIKELIHOOD`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from pyrummy.bots.base import GIVE_BACK_KINDS, discard_of, is_draw_decision, of_kind
from pyrummy.bots.gin_hold import hold_values
from pyrummy.bots.gin_play import gin_discard_scores
from pyrummy.bots.gin_search import Budget, searched_discard
from pyrummy.bots.hand import best_give_back, give_back_order
from pyrummy.bots.hard_context import HardContext
from pyrummy.bots.knock_equity import MAX_SAMPLES
from pyrummy.core.actions import Action, ActionKind
from pyrummy.core.observation import Observation
from pyrummy.core.rules import Rules
from pyrummy.core.solver import deadwood_of_mask

#: Share of the time budget the searched discard may spend (after the knock's).
GIN_SEARCH_BUDGET_SHARE = 0.5
#: The play-outs of a held knock wait for gin while the stock holds this many cards.
GIN_WAIT_STOCK = 14
#: The discards searched by play-outs (the cheapest by the one-draw cost and reach).
GIN_SEARCH_CANDIDATES = 3


class GinPlay:
    """Gin: the guide's draws, the knock weighed against holding, searched discards."""

    def __init__(self, context: HardContext) -> None:
        self.context = context

    def choose(
        self, observation: Observation, legal_actions: Sequence[Action], rules: Rules
    ) -> Action:
        context = self.context
        guide = context.guide
        if is_draw_decision(legal_actions):
            return guide.choose_draw(observation, legal_actions, rules)
        give_backs = of_kind(legal_actions, *GIVE_BACK_KINDS)
        if not give_backs:
            return guide.choose(observation, legal_actions)
        # The knock's and the discard search's shares of the budget both count from here.
        started = context.clock()
        if context.config.gin_hold_samples and observation.players == 2:
            knock = self.hold_or_knock(observation, give_backs, rules, started)
            if knock is not None:
                return knock
            give_backs = [a for a in give_backs if a.kind is ActionKind.DISCARD] or give_backs
        preferred = guide.choose_give_back(observation, give_backs, rules)
        if preferred.kind is ActionKind.KNOCK or not context.config.gin_reach_bonus:
            return preferred
        return self.choose_discard(observation, give_backs, preferred, rules, started)

    def search_budget(self, samples: int, started: float | None = None) -> Budget:
        """A searched discard's re-deals, the decision ``started`` then (or now).

        ``samples`` on fixed work; on a time budget no more than that, and
        fewer if its share of the budget, counted from the decision's start,
        runs out first (so a fast machine plays what was measured, and a slow
        one stops in time).
        """
        context = self.context
        budget = context.config.budget
        if budget is None:
            return Budget(samples, math.inf, None)
        begun = context.clock() if started is None else started
        return Budget(samples, begun + budget * GIN_SEARCH_BUDGET_SHARE, context.clock)

    def choose_discard(
        self,
        observation: Observation,
        give_backs: Sequence[Action],
        preferred: Action,
        rules: Rules,
        started: float | None = None,
    ) -> Action:
        """The guide's discard cost less the reach credit, searched by play-outs among the best."""
        context = self.context
        config = context.config
        budget = self.search_budget(config.gin_search_samples, started)
        costs = context.guide.discard_costs(observation, give_backs, rules)
        if len(costs) <= 1:
            return preferred
        scores = gin_discard_scores(observation, costs, rules, reach_bonus=config.gin_reach_bonus)
        if config.gin_search_samples and observation.players == 2:
            searched, context.last_rollouts = searched_discard(
                observation,
                scores,
                rules,
                context.rng,
                budget,
                candidates=GIN_SEARCH_CANDIDATES,
                margin=config.gin_search_margin,
            )
            if searched is not None:
                return discard_of(give_backs, searched) or preferred
        best = min(scores.values())
        choice = max(
            (c for c, v in scores.items() if v <= best + 1e-9),
            key=lambda c: give_back_order(c, rules),
        )
        return discard_of(give_backs, choice) or preferred

    def hold_or_knock(
        self, observation: Observation, give_backs: Sequence[Action], rules: Rules, started: float
    ) -> Action | None:
        """The knock when it beats playing on, the knock card held for gin, or None.

        Gin always goes down; otherwise the least-deadwood knock is weighed on
        ``gin_hold_samples`` re-deals (on a time budget, its knock share from
        ``started``) against playing on; None leaves the discard to the rest
        of the decision.
        """
        context = self.context
        knocks = [a for a in give_backs if a.kind is ActionKind.KNOCK]
        if not knocks:
            return None
        hand = observation.hand.mask
        left = {a.cards[0]: deadwood_of_mask(hand & ~a.cards[0].bit, rules.ace) for a in knocks}
        least, card = best_give_back(left, rules)
        knock = next(a for a in knocks if a.cards[0] == card)
        if least == 0 or not any(a.kind is ActionKind.DISCARD for a in give_backs):
            return knock
        on_budget = context.config.knock_budget is not None
        values = hold_values(
            observation,
            card.index,
            rules,
            context.rng,
            samples=MAX_SAMPLES if on_budget else context.config.gin_hold_samples,
            wait_stock=GIN_WAIT_STOCK,
            deadline=context.knock_deadline(started),
            clock=context.clock if on_budget else None,
        )
        context.last_knock_samples = values.samples
        if values.samples == 0 or values.now >= max(values.next, values.gin):
            return knock
        if values.gin > values.next:
            return discard_of(give_backs, card)
        return None
