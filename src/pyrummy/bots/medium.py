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
the simple bot's, which it holds (:attr:`MediumBot.simple`) rather than
inherits. Decisions take well under a millisecond except the knock
(24 re-deals), which is anytime: it stops re-dealing once ``time_budget``
(0.25 s) is spent, after a minimum of 8, and decides on what it has.
It keeps no memory: everything it infers is in the observation (the public
history included), so a fresh bot can take over in the middle of a deal.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Final

from pyrummy.bots.base import (
    GIVE_BACK_KINDS,
    BotError,
    any_but_undo,
    big_gin_of,
    configured,
    first_of_kind,
    is_draw_decision,
    of_kind,
    require_actions,
    sample_or_none,
    seat_of,
)
from pyrummy.bots.family import traits_of
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
from pyrummy.core.rules import Family, Rules, find_rules
from pyrummy.core.settlement import knock_transfers, settle
from pyrummy.core.solver import best_discards_of_mask

#: Deadwood a fed card is taken to be worth to the opponent who takes it, by
#: family. Gin: none, because once a discard weighs the next draw, avoiding
#: feeds costs more than it saves.
FEED_WEIGHTS: Final[dict[Family, float]] = {"knock": 8.0, "gin": 0.0, "melding": 8.0}
#: Risk that a card fitting a table meld is taken to be laid off (melding games).
TABLE_FIT_RISK = 0.5
#: Deadwood above which a knock rummy knock is not even weighed (saves the sampling).
DEFAULT_KNOCK_CAP = 60
#: Re-deals sampled for one knock decision.
DEFAULT_SAMPLES = 24
#: Seconds a knock decision may spend (``time_budget``): 24 re-deals take a few
#: milliseconds, so the budget only binds on a starved machine.
DEFAULT_TIME_BUDGET = 0.25
#: Re-deals a knock decision makes even when its budget is spent.
MIN_KNOCK_SAMPLES = 8
#: Melding games with a going-rummy bonus: melds stay in hand while every
#: opponent holds at least this many cards, by table size.
HOLD_UNTIL_TWO_PLAYERS = 4
HOLD_UNTIL_MORE_PLAYERS = 3


@dataclass(frozen=True)
class MediumConfig:
    """The medium bot's settings.

    ``samples``: re-deals per knock decision (0: never knocks in knock rummy
    short of a rum, always in gin when allowed).
    ``knock_cap``: knock rummy, deadwood above which a knock is not weighed.
    ``require_gain``: knock rummy knocks only when expected to win.
    ``out_bonus``: melding games, deadwood a discard is worth per unit of
    chance that the next draw completes the hand (0 for medium; the hard bot
    sets it). ``time_budget``: seconds a knock decision may spend (anytime:
    it stops sampling when the clock passes it, after
    :data:`MIN_KNOCK_SAMPLES`, and decides on the re-deals so far); None:
    all ``samples``.
    """

    samples: int = DEFAULT_SAMPLES
    knock_cap: int = DEFAULT_KNOCK_CAP
    require_gain: bool = True
    out_bonus: float = 0.0
    time_budget: float | None = DEFAULT_TIME_BUDGET

    def __post_init__(self) -> None:
        if self.time_budget is not None and self.time_budget < 0:
            raise BotError(f"time_budget must not be negative, not {self.time_budget}")


def net_for(transfers: Iterable[Transfer], seat: int) -> float:
    """What ``seat`` gains (negative: loses) in these transfers."""
    total = 0.0
    for transfer in transfers:
        if transfer.payee == seat:
            total += float(transfer.amount)
        if transfer.payer == seat:
            total -= float(transfer.amount)
    return total


class MediumBot:
    """Simple play, plus opponent modelling for discards and knocks.

    Options are :class:`MediumConfig`'s fields, given as a config or by name;
    ``clock`` is what the knock's time budget is read from (injected in tests).

    >>> bot = MediumBot(seed=1, samples=8)
    >>> bot.name, bot.config.samples
    ('medium', 8)
    """

    name = "medium"

    def __init__(
        self,
        seed: int | None = None,
        config: MediumConfig | None = None,
        *,
        clock: Callable[[], float] = time.perf_counter,
        **options: object,
    ) -> None:
        self.config = configured(config or MediumConfig(), options, self.name)
        self.rng = random.Random(seed)
        self.clock = clock
        #: The simple bot's play, for what the medium bot does alike, and for
        #: the others' turns while it weighs waiting a round.
        self.simple = SimpleBot(seed)
        #: Re-deals behind the last knock decision.
        self.last_knock_samples = 0

    # -- the interface ------------------------------------------------------------
    def choose(self, observation: Observation, legal_actions: Sequence[Action]) -> Action:
        require_actions(legal_actions)
        if len(legal_actions) == 1:
            return legal_actions[0]
        big_gin = big_gin_of(legal_actions)
        if big_gin is not None:
            return big_gin
        rules = find_rules(observation.rules)
        if is_draw_decision(legal_actions):
            return self.choose_draw(observation, legal_actions, rules)
        if not self.holds_melds(observation, rules):
            table_play = self.simple.choose_table_play(observation, legal_actions, rules)
            if table_play is not None:
                return table_play
        give_backs = of_kind(legal_actions, *GIVE_BACK_KINDS)
        if give_backs:
            return self.choose_give_back(observation, give_backs, rules)
        return any_but_undo(legal_actions)

    # -- discards ---------------------------------------------------------------
    def feeding_risks(
        self, observation: Observation, cards: Iterable[Card], rules: Rules
    ) -> dict[Card, float]:
        """Risk that each card helps the next seat, who may take it."""
        following = (seat_of(observation) + 1) % observation.players
        collected = observation.known_cards[following]
        shunned = shunned_cards(observation).get(following, 0)
        melds = [t.meld for t in observation.table] if traits_of(rules).melds_on_table else []
        risks = {}
        for card in cards:
            risk = feeding_risk(card, collected, shunned)
            if melds and layoff_targets(card, melds, rules):
                risk = max(risk, TABLE_FIT_RISK)
            risks[card] = risk
        return risks

    def feed_weight(self, rules: Rules) -> float:
        """Deadwood a sure feed counts for under these rules (:data:`FEED_WEIGHTS`)."""
        return FEED_WEIGHTS[rules.family]

    def discard_costs(
        self, observation: Observation, give_backs: Sequence[Action], rules: Rules
    ) -> dict[Card, float]:
        """Expected deadwood after the next draw for each face-up discard, plus the feeding risk.

        In the melding games with an ``out_bonus``, a discard is also worth
        that much per unit of chance that the next draw completes the hand.
        """
        hand = observation.hand.mask
        cards = {a.cards[0] for a in give_backs if a.kind is ActionKind.DISCARD}
        risks = self.feeding_risks(observation, cards, rules)
        values = values_of(rules)
        feed_weight = self.feed_weight(rules)
        out_bonus = self.config.out_bonus if traits_of(rules).melds_on_table else 0.0
        unseen = unseen_mask(observation)
        kept = {}
        for card in cards:
            left = hand & ~card.bit
            if out_bonus:
                mean, reach = draw_outlook(left, unseen, rules.ace, 0)
                kept[card] = mean - out_bonus * reach
            else:
                kept[card] = expected_after_draw(left, unseen, rules.ace)
        return {
            card: kept[card] + risks[card] * (feed_weight + values[card.index] / 2)
            for card in cards
        }

    # -- melding ----------------------------------------------------------------
    def holds_melds(self, observation: Observation, rules: Rules) -> bool:
        """Keep melds in hand to go out at once (the going-rummy bonus)?

        Only in the melding games with such a bonus, while this seat has put
        nothing down, cannot go out this turn, and every opponent still holds
        :data:`HOLD_UNTIL_TWO_PLAYERS` (``HOLD_UNTIL_MORE_PLAYERS``) cards
        or more: a seat close to out would catch the held melds in hand.
        """
        if not traits_of(rules).melds_on_table or rules.going_rummy == "none":
            return False
        seat = seat_of(observation)
        if observation.melded[seat]:
            return False
        two = observation.players == 2
        hold_until = HOLD_UNTIL_TWO_PLAYERS if two else HOLD_UNTIL_MORE_PLAYERS
        others = [n for s, n in enumerate(observation.hand_sizes) if s != seat]
        if min(others) < hold_until:
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
        deadwood after taking it is lower than the mean least deadwood after
        a stock draw. Otherwise (and in the melding games, where a card's
        worth also lies in lay-offs) the simple bot's rule.
        """
        take = first_of_kind(legal_actions, ActionKind.DRAW_DISCARD)
        stock = first_of_kind(legal_actions, ActionKind.DRAW_STOCK)
        if (
            traits_of(rules).melds_on_table
            or take is None
            or stock is None
            or not observation.discard_pile
        ):
            return self.simple.choose_draw(observation, legal_actions, rules)
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
        return take if taken < total / count else stock

    def choose_give_back(
        self, observation: Observation, give_backs: Sequence[Action], rules: Rules
    ) -> Action:
        """The knock when it is worth more than waiting, else the cheapest discard."""
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

        Gin: only weighed when the knock is offered (deadwood 10 or less), and
        a gin hand always goes down. Knock rummy: not weighed above
        ``knock_cap``, and (``require_gain``) only when knocking now is
        expected to win.
        """
        if deadwood_left == 0:
            return True
        open_knock = traits_of(rules).knock_open
        if self.config.samples <= 0:
            return not open_knock
        if open_knock and deadwood_left > self.config.knock_cap:
            return False
        now, later = self.knock_values(observation, give_backs, rules, deadwood_left)
        if open_knock and self.config.require_gain:
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
        now_total = later_total = 0.0
        done = 0
        budget = self.config.time_budget
        deadline = None if budget is None else self.clock() + budget
        for _ in range(self.config.samples):
            if deadline is not None and done >= MIN_KNOCK_SAMPLES and self.clock() > deadline:
                break
            deal = sample_or_none(observation, self.rng)
            if deal is None:
                break
            done += 1
            hands = [deal.hands(seat).mask for seat in range(deal.players)]
            hands[me] = hand & ~knock_card.bit
            now_total += knock_outcome(hands, me, rules)
            if not waiting:
                later_total = float("-inf")
                continue
            discard = max(waiting, key=lambda a: give_back_order(a.cards[0], rules))
            later_total += self._value_of_waiting(deal, discard, me, rules)
        self.last_knock_samples = done
        if done == 0:
            return 0.0, 0.0
        return now_total / done, later_total / done

    def _value_of_waiting(self, deal: Deal, discard: Action, me: int, rules: Rules) -> float:
        """Play one round the simple way, then knock at the next turn if allowed."""
        policy = self.simple
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
        if traits_of(rules).knock_limited and best[0] > rules.knock_limit:
            return 0.0  # no knock yet: the deal goes on, even as far as anyone can tell
        hands = [deal.hands(seat).mask for seat in range(deal.players)]
        hands[me] = hand & ~(1 << best[1])
        return knock_outcome(hands, me, rules)


def relative_outcome(net: Sequence[float], seat: int) -> float:
    """The seat's net minus the mean net of the others (higher is better).

    >>> relative_outcome([10.0, 0.0, 4.0], 0)
    8.0
    """
    others = [x for s, x in enumerate(net) if s != seat]
    return net[seat] - sum(others) / len(others)


def _gin_outcome(hands: Sequence[int], knocker: int, rules: Rules) -> float:
    """Gin: the full settlement, lay-offs and bonuses included."""
    settlement = settle([CardSet(h) for h in hands], knocker, rules)
    return relative_outcome([float(x) for x in settlement.net], knocker)


def _knock_rummy_outcome(hands: Sequence[int], knocker: int, rules: Rules) -> float:
    """Knock rummy: the transfers by deadwood (no lay-offs)."""
    deadwoods = [deadwood(h, rules) for h in hands]
    transfers = knock_transfers(deadwoods, knocker, rules)[0]
    return relative_outcome([net_for(transfers, s) for s in range(len(hands))], knocker)


#: How a knock settles, by the families that knock.
_KNOCK_OUTCOMES: Final[dict[Family, Callable[[Sequence[int], int, Rules], float]]] = {
    "gin": _gin_outcome,
    "knock": _knock_rummy_outcome,
}


def knock_outcome(hands: Sequence[int], knocker: int, rules: Rules) -> float:
    """The knocker's relative outcome if these hands (knock card removed) go down."""
    return _KNOCK_OUTCOMES[rules.family](hands, knocker, rules)


def _find(actions: Sequence[Action], kind: ActionKind, card: Card) -> Action | None:
    for action in actions:
        if action.kind is kind and action.cards[0] == card:
            return action
    return None
