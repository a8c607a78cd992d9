"""The medium bot: the simple bot plus a model of its opponents and one draw ahead.

* **One draw ahead** (:mod:`pyrummy.bots.lookahead`). A discard's cost is
  the mean least deadwood after the next stock card, over the cards it
  cannot see, not the deadwood now: it keeps ``QD KD`` (waiting on JD) and
  gives back a lone JH that leaves the same deadwood. In knock rummy and gin
  it takes the top discard when that completes a meld or leaves less
  deadwood than a stock card would on average.
* **Going out at once** (melding games with ``going_rummy``, e.g. rummy,
  where it doubles the score): it keeps its melds in hand, laying nothing
  down, until it can go out in one turn, unless an opponent is down to a
  few cards (then it melds as the simple bot does, to cut its count).
* **Feeding.** Before discarding face up it weighs each card's deadwood cost
  against the risk that the next seat (the only one who can take it) wants
  it: cards of a rank that seat took from the pile, or next to one in suit,
  unless that seat was seen giving such cards away or passing them over
  (:mod:`pyrummy.bots.opponents`). In the melding games a card that fits a
  meld on the table is also risky.
* **When to knock** (knock rummy and gin). It re-deals the hidden cards
  consistently with what it knows (``sampling.sample_deal``), settles
  the opponents' hands against its own and compares the expected outcome of
  knocking now with that of playing one more round (the others play the
  simple bot's way and may knock first) and knocking next turn. It knocks
  when knocking now is worth more (in knock rummy: and is expected to win);
  in gin only when the knock is legal, and a gin hand always goes down.

Everything else (melding-game draws, melds and lay-offs once it melds) is
the simple bot's. Decisions take well under a millisecond except the knock
(24 re-deals), which is anytime: it stops re-dealing once ``time_budget``
(0.25 s) is spent, after a minimum of 8, and decides on what it has.
It keeps no memory: everything it infers is in the observation (the public
history included), so a fresh bot can take over in the middle of a deal.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterable, Sequence

from pyrummy.bots.base import BotError, sample_or_none, seat_of
from pyrummy.bots.gin_safety import PASS_LIKELIHOOD, passed_over
from pyrummy.bots.gin_safety import completes_meld as completes_meld_mask
from pyrummy.bots.hand import (
    best_give_back,
    completes_meld,
    deadwood,
    give_back_order,
    values_of,
)
from pyrummy.bots.lookahead import (
    best_after_taking,
    draw_outlook,
    expected_after_draw,
    unseen_mask,
)
from pyrummy.bots.opponents import feeding_risk, shunned_cards
from pyrummy.bots.simple import SimpleBot
from pyrummy.core.actions import Action, ActionKind
from pyrummy.core.cards import Card, CardSet
from pyrummy.core.deal import Deal
from pyrummy.core.ledger import Transfer
from pyrummy.core.melds import layoff_targets
from pyrummy.core.observation import Observation
from pyrummy.core.rules import Rules
from pyrummy.core.settlement import knock_transfers, settle
from pyrummy.core.solver import best_discards_of_mask, deadwood_of_mask

#: Deadwood a fed card is taken to be worth to the opponent who takes it.
DEFAULT_FEED_WEIGHT = 8.0
#: Per family where it differs. Gin: measured, avoiding feeds cost more than it
#: saved once discards weigh the next draw (1000 duplicate pairs against simple).
FEED_WEIGHT_BY_FAMILY = {"gin": 0.0}
#: Risk that a card fitting a table meld is taken to be laid off (melding games).
TABLE_FIT_RISK = 0.5
#: Deadwood above which knocking is not even weighed (saves the sampling).
DEFAULT_KNOCK_CAP = 60
#: Re-deals sampled for one knock decision.
DEFAULT_SAMPLES = 24
#: Seconds a knock decision may spend (``time_budget``): 24 re-deals take a few
#: milliseconds, so the budget only binds on a starved machine.
DEFAULT_TIME_BUDGET = 0.25
#: Re-deals a knock decision makes even when its budget is spent.
MIN_KNOCK_SAMPLES = 8
#: Deadwood by which taking the top discard must beat the expected stock draw.
DEFAULT_TAKE_MARGIN = 0.0
#: Weight of the expected gain of the next draw in a discard's cost (1: all of it).
DEFAULT_POTENTIAL_WEIGHT = 1.0
#: Melding games with a going-rummy bonus: melds stay in hand while every
#: opponent holds at least this many cards; by table size (measured, rummy).
HOLD_UNTIL_TWO_PLAYERS = 4
HOLD_UNTIL_MORE_PLAYERS = 3


def net_for(transfers: Iterable[Transfer], seat: int) -> float:
    """What ``seat`` gains (negative: loses) in these transfers."""
    total = 0.0
    for transfer in transfers:
        if transfer.payee == seat:
            total += float(transfer.amount)
        if transfer.payer == seat:
            total -= float(transfer.amount)
    return total


def on_last_pass(observation: Observation, rules: Rules) -> bool:
    """Whether the deal ends with nobody out the next time the stock runs out."""
    if rules.stock_end == "block":
        return True
    return rules.stock_end == "reuse_limit" and observation.exhaustions >= rules.reuse_limit - 1


class MediumBot(SimpleBot):
    """Simple play, plus opponent modelling for discards and knocks.

    ``samples``: re-deals per knock decision (0: never knocks in knock rummy
    short of a rum, always in gin when allowed). ``feed_weight``: deadwood a
    sure feed counts for. ``knock_cap``: deadwood above which a knock is not
    weighed. ``opponent_knock_per_card``: how early the others are taken to
    knock (deadwood per card; default the simple bot's threshold).
    ``require_gain``: knock rummy knocks only when expected to win.
    ``lookahead``: discards and draws weigh the next stock card (knock rummy,
    gin; discards also in the melding games); ``potential_weight``: how much
    of that expected gain counts; ``take_margin``: deadwood by which taking
    the top discard must beat the expected stock draw. ``hold_for_rummy``
    and ``hold_until``: keep melds in hand for the going-rummy bonus while
    every opponent holds that many cards (default 4 at two players, 3 at
    more); ``hold_release`` (off by default): stop holding on the stock's
    last pass (the next time it runs out the deal ends with nobody out) once
    it holds this many cards or fewer (measured in
    ``benchmarks/rummy_holding.py``: releasing loses, so it stays off).
    ``out_bonus``: melding games, deadwood a discard is worth per unit
    of chance that the next draw completes the hand (0 for medium; the hard
    bot sets it). ``time_budget`` (default 0.25 s): seconds a knock decision
    may spend (anytime: it stops sampling when ``clock`` passes it, after
    :data:`MIN_KNOCK_SAMPLES`, and decides on the re-deals so far); None: all
    ``samples``; ``knock_budget``, when given, overrides it (the hard bot
    gives its guide a share of its own budget). ``infer_passes``
    (gin): weigh each knock re-deal by how well it explains the opponent's
    play (:func:`pass_likelihood`).

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
        feed_weight: float | None = None,
        knock_cap: int = DEFAULT_KNOCK_CAP,
        opponent_knock_per_card: float | None = None,
        require_gain: bool = True,
        lookahead: bool = True,
        take_margin: float = DEFAULT_TAKE_MARGIN,
        potential_weight: float = DEFAULT_POTENTIAL_WEIGHT,
        hold_for_rummy: bool = True,
        hold_until: int | None = None,
        hold_release: int | None = None,
        out_bonus: float = 0.0,
        time_budget: float | None = DEFAULT_TIME_BUDGET,
        knock_budget: float | None = None,
        infer_passes: bool = False,
        clock: Callable[[], float] = time.perf_counter,
    ) -> None:
        super().__init__(seed)
        if time_budget is not None and time_budget < 0:
            raise BotError(f"time_budget must not be negative, not {time_budget}")
        self.rng = random.Random(seed)
        self.samples = samples
        self.feed_weight_option = feed_weight
        self.knock_cap = knock_cap
        self.require_gain = require_gain
        self.lookahead = lookahead
        self.take_margin = take_margin
        self.potential_weight = potential_weight
        self.hold_for_rummy = hold_for_rummy
        self.hold_until = hold_until
        self.hold_release = hold_release
        self.out_bonus = out_bonus
        self.time_budget = time_budget
        self.knock_budget = knock_budget if knock_budget is not None else time_budget
        self.infer_passes = infer_passes
        self.clock = clock
        #: Re-deals behind the last knock decision.
        self.last_knock_samples = 0
        # How the others are taken to play while it weighs waiting a round.
        self._rollout_policy = SimpleBot(knock_per_card=opponent_knock_per_card)

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

    def feed_weight(self, rules: Rules) -> float:
        """Deadwood a sure feed counts for under these rules."""
        if self.feed_weight_option is not None:
            return self.feed_weight_option
        return FEED_WEIGHT_BY_FAMILY.get(rules.family, DEFAULT_FEED_WEIGHT)

    def discard_costs(
        self, observation: Observation, give_backs: Sequence[Action], rules: Rules
    ) -> dict[Card, float]:
        """Deadwood left after each face-up discard plus the weighted feeding risk."""
        hand = observation.hand.mask
        cards = {a.cards[0] for a in give_backs if a.kind is ActionKind.DISCARD}
        risks = self.feeding_risks(observation, cards, rules)
        values = values_of(rules)
        feed_weight = self.feed_weight(rules)
        if self.lookahead:
            unseen = unseen_mask(observation)
            weight = self.potential_weight
            kept = {}
            for card in cards:
                left = hand & ~card.bit
                now = deadwood(left, rules)
                if rules.family == "melding" and self.out_bonus:
                    mean, reach = draw_outlook(left, unseen, rules.ace, 0)
                    mean -= self.out_bonus * reach
                else:
                    mean = expected_after_draw(left, unseen, rules.ace)
                kept[card] = now - weight * (now - mean)
        else:
            kept = {card: float(deadwood(hand & ~card.bit, rules)) for card in cards}
        return {
            card: kept[card] + risks[card] * (feed_weight + values[card.index] / 2)
            for card in cards
        }

    # -- melding ----------------------------------------------------------------
    def choose_table_play(
        self, observation: Observation, legal_actions: Sequence[Action], rules: Rules
    ) -> Action | None:
        """The simple bot's melds and lay-offs, unless holding out for going rummy."""
        if self.holds_melds(observation, rules):
            return None
        return super().choose_table_play(observation, legal_actions, rules)

    def holds_melds(self, observation: Observation, rules: Rules) -> bool:
        """Keep melds in hand to go out at once (the going-rummy bonus)?

        Only while this seat has put nothing down, cannot go out this turn,
        and every opponent still holds ``hold_until`` cards or more (a seat
        close to out would catch the held melds in hand).
        """
        if rules.family != "melding" or rules.going_rummy == "none" or not self.hold_for_rummy:
            return False
        seat = seat_of(observation)
        if observation.melded[seat]:
            return False
        hold_until = self.hold_until
        if hold_until is None:
            two = observation.players == 2
            hold_until = HOLD_UNTIL_TWO_PLAYERS if two else HOLD_UNTIL_MORE_PLAYERS
        others = [n for s, n in enumerate(observation.hand_sizes) if s != seat]
        if min(others) < hold_until:
            return False
        release = self.hold_release
        # On the last pass a deal nobody goes out of scores nothing.
        if (
            release is not None
            and observation.stock_count <= release
            and on_last_pass(observation, rules)
        ):
            return False
        return not self.can_go_out(observation, rules)

    @staticmethod
    def can_go_out(observation: Observation, rules: Rules) -> bool:
        """Every card but one (or all) fits a meld in hand or a meld on the table."""
        hand = observation.hand.mask
        melds = [t.meld for t in observation.table]
        if melds:
            for card in observation.hand:
                if layoff_targets(card, melds, rules):
                    hand &= ~card.bit
        if not hand or deadwood(hand, rules) == 0:
            return True
        keep = observation.taken_discard.bit if observation.taken_discard is not None else 0
        if not hand & ~keep:
            return False
        return best_discards_of_mask(hand, rules.ace, keep=keep)[0] == 0

    # -- drawing ----------------------------------------------------------------
    def choose_draw(
        self, observation: Observation, legal_actions: Sequence[Action], rules: Rules
    ) -> Action:
        """Knock rummy and gin: take the top discard when it beats the expected stock card.

        Taking is worth it when it completes a meld, or when the least
        deadwood after taking it is lower (by ``take_margin``) than the mean
        least deadwood after a stock draw. Otherwise (and in the melding
        games) the simple bot's rule.
        """
        take = next((a for a in legal_actions if a.kind is ActionKind.DRAW_DISCARD), None)
        stock = next((a for a in legal_actions if a.kind is ActionKind.DRAW_STOCK), None)
        if (
            not self.lookahead
            or rules.family == "melding"
            or take is None
            or stock is None
            or not observation.discard_pile
        ):
            return super().choose_draw(observation, legal_actions, rules)
        hand = observation.hand.mask
        top = observation.discard_pile[-1]
        if completes_meld(hand, top, rules) or top.is_joker:
            return take
        taken = best_after_taking(hand, top.bit, rules.ace)
        unseen = unseen_mask(observation)
        if not unseen:
            return take if taken < deadwood(hand, rules) else stock
        total = 0
        count = 0
        cards = unseen
        while cards:
            low = cards & -cards
            cards ^= low
            total += best_discards_of_mask(hand | low, rules.ace)[0]
            count += 1
        return take if taken + self.take_margin < total / count else stock

    def choose_give_back(
        self, observation: Observation, give_backs: Sequence[Action], rules: Rules
    ) -> Action:
        hand = observation.hand.mask
        left = {a.cards[0]: deadwood(hand & ~a.cards[0].bit, rules) for a in give_backs}
        least, knock_card = best_give_back(left, rules)
        knock = _find(give_backs, ActionKind.KNOCK, knock_card)
        if knock is not None and self.should_knock_with(observation, give_backs, rules, least):
            return knock
        costs = self.discard_costs(observation, give_backs, rules)
        if not costs:
            return knock if knock is not None else give_backs[0]
        card = best_give_back(costs, rules, slack=1e-9)[1]
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
        """Knock when knocking now is expected to be worth more than waiting a round.

        Gin: only weighed when the knock is legal (deadwood 10 or less), and a
        gin hand always goes down. Knock rummy: also only when knocking now is
        expected to win.
        """
        if deadwood_left == 0:
            return True
        if self.samples <= 0:
            return rules.family == "gin"
        if rules.family == "knock" and deadwood_left > self.knock_cap:
            return False
        now, later = self.knock_values(observation, give_backs, rules, deadwood_left)
        if rules.family == "knock" and self.require_gain:
            return now > 0 and now >= later
        return now >= later

    def knock_values(
        self,
        observation: Observation,
        give_backs: Sequence[Action],
        rules: Rules,
        deadwood_left: int,
    ) -> tuple[float, float]:
        """Mean outcome for this seat of knocking now, and of waiting one round.

        Both are averaged over ``samples`` consistent re-deals; the outcome is
        the seat's net minus the others' mean net. The card is the
        least-deadwood give-back (face down now, face up when waiting).
        """
        me = seat_of(observation)
        hand = observation.hand.mask
        left = {a.cards[0]: deadwood(hand & ~a.cards[0].bit, rules) for a in give_backs}
        tied = [a for a in give_backs if left[a.cards[0]] == deadwood_left]
        knock_card = max((a.cards[0] for a in tied), key=lambda c: give_back_order(c, rules))
        waiting = [a for a in tied if a.kind is ActionKind.DISCARD]
        now_total = later_total = weight_total = 0.0
        done = 0
        infer = self.infer_passes and rules.family == "gin" and observation.players == 2
        passes = passed_over(observation, 1 - me) if infer else []
        passed_knock = infer and _passed_knock(observation, 1 - me)
        deadline = None if self.knock_budget is None else self.clock() + self.knock_budget
        for _ in range(self.samples):
            if deadline is not None and done >= MIN_KNOCK_SAMPLES and self.clock() > deadline:
                break
            deal = sample_or_none(observation, self.rng)
            if deal is None:
                break
            done += 1
            hands = [deal.hands(seat).mask for seat in range(deal.players)]
            weight = pass_likelihood(hands[1 - me], passes, passed_knock, rules) if infer else 1.0
            weight_total += weight
            hands[me] = hand & ~knock_card.bit
            now_total += weight * _knock_outcome(hands, me, rules)
            if not waiting:
                later_total = float("-inf")
                continue
            discard = max(waiting, key=lambda a: give_back_order(a.cards[0], rules))
            later_total += weight * self._value_of_waiting(deal, discard, me, rules)
        self.last_knock_samples = done
        if done == 0 or weight_total <= 0:
            return 0.0, 0.0
        return now_total / weight_total, later_total / weight_total

    def _value_of_waiting(self, deal: Deal, discard: Action, me: int, rules: Rules) -> float:
        """Play one round the simple way, then knock at the next turn if allowed."""
        policy = self._rollout_policy
        deal.apply(discard)
        while not deal.is_over and deal.current_seat != me:
            seat = deal.current_seat
            assert seat is not None
            deal.apply(policy.choose(deal.observe(seat), deal.legal_actions()))
        actions = deal.legal_actions()
        if not deal.is_over and any(
            a.kind is ActionKind.DRAW_STOCK or a.kind is ActionKind.DRAW_DISCARD for a in actions
        ):
            deal.apply(policy.choose(deal.observe(me), actions))
        if deal.is_over:
            settlement = deal.settlement
            assert settlement is not None
            return relative_outcome([float(x) for x in settlement.net], me)
        hand = deal.hands(me).mask
        best = min(
            (deadwood(hand & ~(1 << i), rules), i)
            for i in range(hand.bit_length())
            if hand >> i & 1
        )
        if rules.family == "gin" and best[0] > rules.knock_limit:
            return 0.0  # no knock yet: the deal goes on, even as far as anyone can tell
        hands = [deal.hands(seat).mask for seat in range(deal.players)]
        hands[me] = hand & ~(1 << best[1])
        return _knock_outcome(hands, me, rules)


#: Gin, ``infer_passes``: likelihood of a re-deal in which the opponent ended
#: its last turn face up with a hand it could have knocked with.
KNOCK_PASS_LIKELIHOOD = 0.2


def pass_likelihood(hand: int, passes: Sequence[int], passed_knock: bool, rules: Rules) -> float:
    """How well a sampled opponent hand (a mask) explains its play, 0-1.

    A gin player usually knocks when it may, and usually takes a top discard
    that completes a meld: a hand that could have knocked at its last
    discard, or that a passed-over card would complete, is less likely.
    """
    weight = 1.0
    if passed_knock and deadwood_of_mask(hand, rules.ace) <= rules.knock_limit:
        weight *= KNOCK_PASS_LIKELIHOOD
    for index in passes:
        if not hand >> index & 1 and completes_meld_mask(index, hand):
            weight *= PASS_LIKELIHOOD
    return weight


def _passed_knock(observation: Observation, seat: int) -> bool:
    """Did ``seat``'s last action give a card back face up (not a knock)?"""
    for actor, action in reversed(observation.history):
        if actor == seat:
            return action.kind is ActionKind.DISCARD
    return False


def relative_outcome(net: Sequence[float], seat: int) -> float:
    """The seat's net minus the mean net of the others (higher is better).

    >>> relative_outcome([10.0, 0.0, 4.0], 0)
    8.0
    """
    others = [x for s, x in enumerate(net) if s != seat]
    return net[seat] - sum(others) / len(others)


def _knock_outcome(hands: Sequence[int], knocker: int, rules: Rules) -> float:
    """The knocker's relative outcome if these hands (knock card removed) go down."""
    if rules.family == "gin":
        settlement = settle([CardSet(h) for h in hands], knocker, rules)
        return relative_outcome([float(x) for x in settlement.net], knocker)
    deadwoods = [deadwood(h, rules) for h in hands]
    transfers = knock_transfers(deadwoods, knocker, rules)[0]
    return relative_outcome([net_for(transfers, s) for s in range(len(hands))], knocker)


def _find(actions: Sequence[Action], kind: ActionKind, card: Card) -> Action | None:
    for action in actions:
        if action.kind is kind and action.cards[0] == card:
            return action
    return None
