"""The medium bot: the simple bot plus a model of its opponents.

* **Feeding.** Before discarding face up it weighs each card's deadwood cost
  against the risk that the next seat (the only one who can take it) wants
  it: cards of a rank that seat took from the pile, or next to one in suit,
  unless that seat was seen giving such cards away or passing them over
  (:mod:`pyrummy.bots.opponents`). In the melding games a card that fits a
  meld on the table is also risky.
* **When to knock** (knock rummy). It re-deals the hidden cards consistently
  with what it knows (``observation.sample_deal``), solves the opponents'
  hands and compares the expected settlement of knocking now with that of
  playing one more round (the others play the simple bot's way and may
  knock first) and knocking next turn. It knocks when knocking now is worth
  more, and is expected to win.

Everything else (drawing, melding, lay-offs, gin knocks) is the simple bot's.
It keeps no memory: everything it infers is in the observation (the public
history included), so a fresh bot can take over in the middle of a deal.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence

from pyrummy.bots.base import seat_of
from pyrummy.bots.hand import deadwood, give_back_order, values_of
from pyrummy.bots.opponents import feeding_risk, shunned_cards
from pyrummy.bots.simple import SimpleBot
from pyrummy.core.actions import Action, ActionKind
from pyrummy.core.cards import Card
from pyrummy.core.deal import Deal
from pyrummy.core.ledger import Transfer
from pyrummy.core.melds import layoff_targets
from pyrummy.core.observation import Observation
from pyrummy.core.rules import Rules
from pyrummy.core.settlement import knock_transfers

#: Deadwood a fed card is taken to be worth to the opponent who takes it.
DEFAULT_FEED_WEIGHT = 8.0
#: Risk that a card fitting a table meld is taken to be laid off (melding games).
TABLE_FIT_RISK = 0.5
#: Deadwood above which knocking is not even weighed (saves the sampling).
DEFAULT_KNOCK_CAP = 60
#: Re-deals sampled for one knock decision.
DEFAULT_SAMPLES = 24


def net_for(transfers: Iterable[Transfer], seat: int) -> float:
    """What ``seat`` gains (negative: loses) in these transfers."""
    total = 0.0
    for transfer in transfers:
        if transfer.payee == seat:
            total += float(transfer.amount)
        if transfer.payer == seat:
            total -= float(transfer.amount)
    return total


class MediumBot(SimpleBot):
    """Simple play, plus opponent modelling for discards and knocks.

    >>> bot = MediumBot(seed=1, samples=8)
    >>> bot.name, bot.samples
    ('medium', 8)
    """

    name = "medium"

    def __init__(
        self,
        seed: int | None = None,
        *,
        samples: int = DEFAULT_SAMPLES,
        feed_weight: float = DEFAULT_FEED_WEIGHT,
        knock_cap: int = DEFAULT_KNOCK_CAP,
    ) -> None:
        super().__init__(seed)
        self.rng = random.Random(seed)
        self.samples = samples
        self.feed_weight = feed_weight
        self.knock_cap = knock_cap
        self._rollout_policy = SimpleBot()

    # -- discards ---------------------------------------------------------------
    def feeding_risks(
        self, observation: Observation, cards: Iterable[Card], rules: Rules
    ) -> dict[Card, float]:
        """Risk that each card helps the next seat, who may take it."""
        following = (seat_of(observation) + 1) % observation.players
        collected = observation.known_cards[following]
        shunned = shunned_cards(observation).get(following, 0)
        melds = [t.meld for t in observation.table]
        risks = {}
        for card in cards:
            risk = feeding_risk(card, collected, shunned)
            if melds and rules.family == "melding" and layoff_targets(card, melds, rules):
                risk = max(risk, TABLE_FIT_RISK)
            risks[card] = risk
        return risks

    def discard_costs(
        self, observation: Observation, give_backs: Sequence[Action], rules: Rules
    ) -> dict[Card, float]:
        """Deadwood left after each face-up discard plus the weighted feeding risk."""
        hand = observation.hand.mask
        cards = {a.cards[0] for a in give_backs if a.kind is ActionKind.DISCARD}
        risks = self.feeding_risks(observation, cards, rules)
        values = values_of(rules)
        return {
            card: deadwood(hand & ~card.bit, rules)
            + risks[card] * (self.feed_weight + values[card.index] / 2)
            for card in cards
        }

    def choose_give_back(
        self, observation: Observation, give_backs: Sequence[Action], rules: Rules
    ) -> Action:
        hand = observation.hand.mask
        left = {a.cards[0]: deadwood(hand & ~a.cards[0].bit, rules) for a in give_backs}
        least = min(left.values())
        knock_card = max(
            (c for c, d in left.items() if d == least), key=lambda c: give_back_order(c, rules)
        )
        knock = _find(give_backs, ActionKind.KNOCK, knock_card)
        if knock is not None and self.should_knock_with(observation, give_backs, rules, least):
            return knock
        costs = self.discard_costs(observation, give_backs, rules)
        if not costs:
            return knock if knock is not None else give_backs[0]
        cheapest = min(costs.values())
        card = max(
            (c for c, v in costs.items() if v <= cheapest + 1e-9),
            key=lambda c: give_back_order(c, rules),
        )
        found = _find(give_backs, ActionKind.DISCARD, card)
        return found if found is not None else give_backs[0]

    # -- knocking ---------------------------------------------------------------
    def should_knock_with(
        self,
        observation: Observation,
        give_backs: Sequence[Action],
        rules: Rules,
        deadwood_left: int,
    ) -> bool:
        """Gin: whenever allowed. Knock rummy: when knocking now is worth more."""
        if rules.family != "knock":
            return self.should_knock(observation, rules, deadwood_left)
        if deadwood_left == 0:
            return True
        if deadwood_left > self.knock_cap or self.samples <= 0:
            return False
        now, later = self.knock_values(observation, give_backs, rules, deadwood_left)
        return now > 0 and now >= later

    def knock_values(
        self,
        observation: Observation,
        give_backs: Sequence[Action],
        rules: Rules,
        deadwood_left: int,
    ) -> tuple[float, float]:
        """Mean settlement for this seat of knocking now, and of knocking next turn.

        Both are averaged over ``samples`` consistent re-deals. The give-back
        compared is the least-deadwood card, face up when waiting.
        """
        me = seat_of(observation)
        hand = observation.hand.mask
        left = {a.cards[0]: deadwood(hand & ~a.cards[0].bit, rules) for a in give_backs}
        waiting_discards = [
            a
            for a in give_backs
            if a.kind is ActionKind.DISCARD and left[a.cards[0]] == deadwood_left
        ]
        now_total = later_total = 0.0
        for _ in range(self.samples):
            deal = observation.sample_deal(self.rng)
            deadwoods = _deadwoods(deal, rules)
            deadwoods[me] = deadwood_left
            now_total += net_for(knock_transfers(deadwoods, me, rules)[0], me)
            if not waiting_discards:
                later_total = float("-inf")
                continue
            discard = max(waiting_discards, key=lambda a: give_back_order(a.cards[0], rules))
            later_total += self._value_of_waiting(deal, discard, me, rules)
        return now_total / self.samples, later_total / self.samples

    def _value_of_waiting(self, deal: Deal, discard: Action, me: int, rules: Rules) -> float:
        """Play one round with the simple policy, then knock at the next turn."""
        policy = self._rollout_policy
        deal.apply(discard)
        while not deal.is_over and deal.current_seat != me:
            seat = deal.current_seat
            assert seat is not None
            deal.apply(policy.choose(deal.observe(seat), deal.legal_actions()))
        if deal.is_over:
            settlement = deal.settlement
            assert settlement is not None
            return float(settlement.net[me])
        # Draw the simple way, then knock with the best give-back.
        actions = deal.legal_actions()
        if any(
            a.kind is ActionKind.DRAW_STOCK or a.kind is ActionKind.DRAW_DISCARD for a in actions
        ):
            deal.apply(policy.choose(deal.observe(me), actions))
        if deal.is_over:
            settlement = deal.settlement
            assert settlement is not None
            return float(settlement.net[me])
        deadwoods = _deadwoods(deal, rules)
        hand = deal.observe(me).hand.mask
        deadwoods[me] = min(
            deadwood(hand & ~(1 << i), rules) for i in range(hand.bit_length()) if hand >> i & 1
        )
        return net_for(knock_transfers(deadwoods, me, rules)[0], me)


def _deadwoods(deal: Deal, rules: Rules) -> list[int]:
    return [deadwood(deal.observe(seat).hand.mask, rules) for seat in range(deal.players)]


def _find(actions: Sequence[Action], kind: ActionKind, card: Card) -> Action | None:
    for action in actions:
        if action.kind is kind and action.cards[0] == card:
            return action
    return None
