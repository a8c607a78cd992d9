"""The hard bot's play of knock rummy: its knock and its give-back search.

Draws are the medium bot's (the ``guide``). A give-back decides the knock
first, by the first of these that applies:

* at the table sizes the learned knock model was fitted for, by that model
  (:mod:`pyrummy.bots.knock_value`);
* once an opponent has passed a chance to knock (given a card back face
  up), by the knock equity (:mod:`pyrummy.bots.knock_equity`): re-deals
  weighed by what the opponents' play says of their hands, knocking now
  settled against the best of several waiting plans. Before any pass there
  is nothing to read, and the guide's re-deals judge the first knock better;
* otherwise by the guide's re-deals.

A discard is the best of the guide's ``candidates`` cheapest by a two-draw
lookahead on common random numbers (:meth:`KnockRummyPlay.choose_discard`).
"""

from __future__ import annotations

from collections.abc import Sequence

from pyrummy.bots.base import GIVE_BACK_KINDS, discard_of, is_draw_decision, of_kind
from pyrummy.bots.hand import best_give_back, cards_of, give_back_order, values_of
from pyrummy.bots.hard_context import KNOCK_CAP, HardContext
from pyrummy.bots.knock_equity import MAX_SAMPLES, THRESHOLD_PRIOR, estimate_knock
from pyrummy.bots.knock_value import KnockValueModel, learned_knock, load_model
from pyrummy.bots.lookahead import best_reply, unseen_mask
from pyrummy.core.actions import Action, ActionKind
from pyrummy.core.observation import Observation
from pyrummy.core.rules import Rules
from pyrummy.core.solver import deadwood_of_mask

#: 3+ players: extra cards an opponent that drew is dealt in the knock
#: equity's re-deals, keeping its best hand (a seat that keeps drawing keeps
#: improving); its first draw is not counted (``SELECTION_AFTER``).
DEFAULT_EQUITY_SELECTION = 3
SELECTION_AFTER = 1
#: Share of the time budget the give-back search may spend, counted from the
#: start of the decision (the knock's share included).
SEARCH_BUDGET_SHARE = 0.8


class KnockRummyPlay:
    """Knock rummy: the guide's draws, the knock by model or equity, searched discards."""

    def __init__(self, context: HardContext) -> None:
        self.context = context

    def choose(
        self, observation: Observation, legal_actions: Sequence[Action], rules: Rules
    ) -> Action:
        guide = self.context.guide
        if is_draw_decision(legal_actions):
            return guide.choose_draw(observation, legal_actions, rules)
        give_backs = of_kind(legal_actions, *GIVE_BACK_KINDS)
        if not give_backs:
            return guide.choose(observation, legal_actions)
        model = self.value_model_at(observation.players)
        if model is not None:
            return self.learned_give_back(observation, give_backs, rules, model)
        if _an_opponent_passed(observation):
            return self.equity_give_back(observation, give_backs, rules)
        preferred = guide.choose_give_back(observation, give_backs, rules)
        if preferred.kind is ActionKind.KNOCK:
            return preferred
        return self.choose_discard(observation, give_backs, preferred, rules)

    # -- the knock ----------------------------------------------------------------
    def value_model_at(self, players: int) -> KnockValueModel | None:
        """The learned knock model if it decides knocks at this table size (``knock_value``)."""
        use = self.context.config.knock_value
        if use is False:
            return None
        model = load_model(self.context.config.knock_value_weights)
        if use or players in model.players:
            return model
        return None

    def learned_give_back(
        self,
        observation: Observation,
        give_backs: Sequence[Action],
        rules: Rules,
        model: KnockValueModel,
    ) -> Action:
        """Knock when the learned model says it gains, else the searched discard."""
        started = self.context.clock()
        knock = learned_knock(observation, give_backs, rules, model)
        if knock is not None:
            return knock
        return self._searched_discard(observation, give_backs, rules, started)

    def equity_give_back(
        self, observation: Observation, give_backs: Sequence[Action], rules: Rules
    ) -> Action:
        """Knock with the least-deadwood card when the knock equity says so, else discard.

        Gin-like certainty first: a knock with no deadwood, or with nothing
        else to give back, is taken. At 3+ players the equity knocks only
        when knocking now is expected to win, as the medium bot does (a loss
        shared among several seats is still a loss).
        """
        context = self.context
        started = context.clock()
        hand = observation.hand.mask
        left = {a.cards[0]: deadwood_of_mask(hand & ~a.cards[0].bit, rules.ace) for a in give_backs}
        least, card = best_give_back(left, rules)
        knock = next(
            (a for a in give_backs if a.kind is ActionKind.KNOCK and a.cards[0] == card), None
        )
        discards = [a for a in give_backs if a.kind is ActionKind.DISCARD]
        if knock is not None and (least == 0 or not discards):
            return knock
        if knock is not None and least <= KNOCK_CAP:
            on_budget = context.config.knock_budget is not None
            estimate = estimate_knock(
                observation,
                rules,
                card.bit,
                context.rng,
                context.knock_deadline(started),
                context.clock,
                max_samples=MAX_SAMPLES if on_budget else context.config.equity_samples,
                selection=self.selection_at(observation.players),
                selection_after=SELECTION_AFTER,
                selection_up_to=THRESHOLD_PRIOR[0][0],
                model=None,
            )
            context.last_knock_samples = estimate.samples
            gains = estimate.now > 0 or observation.players == 2
            if estimate.now >= estimate.later and gains:
                return knock
        return self._searched_discard(observation, discards, rules, started)

    def selection_at(self, players: int) -> int:
        """``equity_selection`` at this table size (its default when None)."""
        selection = self.context.config.equity_selection
        if selection is not None:
            return selection
        return DEFAULT_EQUITY_SELECTION if players > 2 else 0

    # -- the give-back search -------------------------------------------------------
    def _searched_discard(
        self, observation: Observation, discards: Sequence[Action], rules: Rules, started: float
    ) -> Action:
        preferred = self.context.guide.choose_give_back(observation, discards, rules)
        return self.choose_discard(observation, discards, preferred, rules, started)

    def choose_discard(
        self,
        observation: Observation,
        give_backs: Sequence[Action],
        preferred: Action,
        rules: Rules,
        started: float | None = None,
    ) -> Action:
        """The shortlisted discard with the best two-draw outlook plus feeding cost.

        The shortlist is the guide's ``candidates`` cheapest discards. Each
        sampled next stock card (``rollouts`` of them on fixed work, the same
        for every candidate; every unseen card on a budget) is followed by the
        best of the three least-deadwood give-backs by the one-draw outlook,
        and averaged; the guide's feeding cost is added. On a time budget the
        search stops at :data:`SEARCH_BUDGET_SHARE` of it, counted from
        ``started`` (the start of the whole decision, the knock included).
        """
        context = self.context
        config = context.config
        guide = context.guide
        costs = guide.discard_costs(observation, give_backs, rules)
        if len(costs) <= 1:
            return preferred
        ranked = sorted(costs, key=lambda c: (costs[c], [-k for k in give_back_order(c, rules)]))
        shortlist = ranked[: config.candidates]
        unseen = unseen_mask(observation)
        draws = [card.bit for card in cards_of(unseen)]
        if not draws:
            return preferred
        if config.rollouts is not None:
            draws = [context.rng.choice(draws) for _ in range(config.rollouts)]
        deadline = None
        if config.budget is not None:
            begun = context.clock() if started is None else started
            deadline = begun + config.budget * SEARCH_BUDGET_SHARE
        hand = observation.hand.mask
        risks = guide.feeding_risks(observation, shortlist, rules)
        feed_weight = guide.feed_weight(rules)
        totals = dict.fromkeys(shortlist, 0.0)
        done = 0
        for bit in draws:
            rest = unseen & ~bit
            for card in shortlist:
                totals[card] += best_reply(hand & ~card.bit | bit, rest, rules.ace)
            done += 1
            if deadline is not None and context.clock() > deadline:
                break
        context.last_rollouts = done
        card_values = values_of(rules)
        scores = {
            card: totals[card] / done + risks[card] * (feed_weight + card_values[card.index] / 2)
            for card in shortlist
        }
        choice = best_give_back(scores, rules, slack=1e-9)[1]
        return discard_of(give_backs, choice) or preferred


def _an_opponent_passed(observation: Observation) -> bool:
    """Has another seat given a card back face up (passed a chance to knock)?"""
    return any(
        seat != observation.seat and action.kind is ActionKind.DISCARD
        for seat, action in observation.history
    )
