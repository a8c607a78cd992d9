"""The hard bot: Monte Carlo over the seat's next draws, on common random numbers.

The medium bot looks one stock card ahead. The hard bot looks several ahead:
at the draw and at the give-back it samples ``rollouts`` sequences of its
next ``horizon`` stock cards from the cards it cannot see (each sequence a
determinization of the hidden stock order), and plays each sequence out
"solitaire" for every candidate: draw the next card, give back the card
leaving the least deadwood. A candidate's score is the mean deadwood over
those turns (in gin a sequence stops at the first turn the hand may knock:
the sooner and the lower, the better), plus the medium bot's feeding cost.
Every candidate is scored on the same sequences (common random numbers), so
the comparison sees the same luck; a rollout is a handful of solver calls on
int masks (microseconds), so hundreds fit in a few milliseconds.

* **Draw:** the top discard (then the best give-back) against a stock draw.
* **Give-back:** the ``candidates`` best discards by the medium bot's cost.
* **Knock** (knock rummy, gin): the medium bot's expected-settlement rule
  on ``knock_samples`` consistent re-deals (``observation.sample_deal``).
* **Melding games:** the medium bot's melds, lay-offs and its holding out
  for going rummy; discards searched as above.

Budget: ``rollouts`` sequences per decision (deterministic for a seed), or,
when ``rollouts`` is None, as many as fit in ``time_budget`` seconds (at most
:data:`MAX_ROLLOUTS`; the count then depends on the machine and its load).
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence

from pyrummy.bots.base import (
    GIVE_BACK_KINDS,
    BotError,
    first_of_kind,
    is_draw_decision,
    of_kind,
    require_actions,
)
from pyrummy.bots.hand import cards_of, give_back_order, values_of
from pyrummy.bots.lookahead import unseen_mask
from pyrummy.bots.medium import MediumBot
from pyrummy.core.actions import Action, ActionKind
from pyrummy.core.observation import Observation
from pyrummy.core.rules import Rules, find_rules
from pyrummy.core.solver import best_discards_of_mask, deadwood_of_mask

DEFAULT_TIME_BUDGET = 0.5
#: Give-back cards searched (the best by the medium bot's cost).
DEFAULT_CANDIDATES = 5
#: Re-deals behind a knock decision (the medium bot's rule).
DEFAULT_KNOCK_SAMPLES = 64
#: Stock cards each sequence looks ahead.
DEFAULT_HORIZON = 5
#: Sequences sampled on a time budget stop here: more change nothing measurable.
MAX_ROLLOUTS = 2000


class HardBot:
    """Medium's knocks and melds; draws and give-backs searched over sampled draws.

    ``time_budget`` (seconds, default 0.5) or ``rollouts`` (sampled draw
    sequences per decision; when given, the budget is ignored and play is
    deterministic for a seed); ``candidates``: give-backs searched;
    ``horizon``: draws each sequence looks ahead; ``knock_samples``:
    re-deals behind a knock decision.

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
        horizon: int = DEFAULT_HORIZON,
        knock_samples: int = DEFAULT_KNOCK_SAMPLES,
    ) -> None:
        if rollouts is not None and rollouts < 1:
            raise BotError(f"rollouts must be at least 1, not {rollouts}")
        if rollouts is None and (time_budget is None or time_budget <= 0):
            raise BotError("the hard bot needs a positive time_budget or a rollouts count")
        if candidates < 1:
            raise BotError(f"candidates must be at least 1, not {candidates}")
        if horizon < 1:
            raise BotError(f"horizon must be at least 1, not {horizon}")
        self.rng = random.Random(seed)
        self.rollouts = rollouts
        self.time_budget = None if rollouts is not None else time_budget
        self.candidates = candidates
        self.horizon = horizon
        self.guide = MediumBot(seed, samples=knock_samples)
        #: Sequences searched at the last decision (0 when it was trivial).
        self.last_rollouts = 0

    # -- the interface ----------------------------------------------------------
    def choose(self, observation: Observation, legal_actions: Sequence[Action]) -> Action:
        require_actions(legal_actions)
        self.last_rollouts = 0
        if len(legal_actions) == 1:
            return legal_actions[0]
        rules = find_rules(observation.rules)
        if is_draw_decision(legal_actions):
            return self.choose_draw(observation, legal_actions, rules)
        table_play = self.guide.choose_table_play(observation, legal_actions, rules)
        if table_play is not None:
            return table_play
        give_backs = of_kind(legal_actions, *GIVE_BACK_KINDS)
        if not give_backs:
            others = [a for a in legal_actions if a.kind is not ActionKind.UNDO]
            return (others or list(legal_actions))[0]
        preferred = self.guide.choose_give_back(observation, give_backs, rules)
        if preferred.kind is ActionKind.KNOCK:
            return preferred
        return self.choose_discard(observation, give_backs, preferred, rules)

    # -- decisions ----------------------------------------------------------------
    def choose_draw(
        self, observation: Observation, legal_actions: Sequence[Action], rules: Rules
    ) -> Action:
        """Take the top discard when the sampled futures say it beats the stock."""
        preferred = self.guide.choose_draw(observation, legal_actions, rules)
        take = first_of_kind(legal_actions, ActionKind.DRAW_DISCARD)
        stock = first_of_kind(legal_actions, ActionKind.DRAW_STOCK)
        if take is None or stock is None or not observation.discard_pile:
            return preferred
        if rules.family == "melding" and preferred is take:
            return take  # it melds or lays off: the medium bot's reason stands
        hand = observation.hand.mask
        top = observation.discard_pile[-1].bit
        if top >> 52:
            return preferred  # a joker: always worth the medium bot's judgement
        values = values_of(rules)
        taken_hand = hand | top
        _, tied = best_discards_of_mask(taken_hand, rules.ace, keep=top)
        taken_hand &= ~_highest(tied, values)
        sequences = self.sample_sequences(observation, rules)
        if not sequences:
            return preferred
        stop = rules.knock_limit if rules.family == "gin" else -1
        take_cost = stock_cost = 0.0
        for sequence in sequences:
            take_cost += _solitaire(taken_hand, sequence[:-1], rules.ace, values, stop, first=True)
            stock_cost += _solitaire(hand, sequence, rules.ace, values, stop, first=False)
        return take if take_cost < stock_cost else stock

    def choose_discard(
        self,
        observation: Observation,
        give_backs: Sequence[Action],
        preferred: Action,
        rules: Rules,
    ) -> Action:
        """The discard with the least mean deadwood over the sampled futures, plus feeding cost."""
        costs = self.guide.discard_costs(observation, give_backs, rules)
        if len(costs) <= 1:
            return preferred
        ranked = sorted(costs, key=lambda c: (costs[c], [-k for k in give_back_order(c, rules)]))
        shortlist = ranked[: self.candidates]
        sequences = self.sample_sequences(observation, rules)
        if not sequences:
            return preferred
        hand = observation.hand.mask
        values = values_of(rules)
        stop = rules.knock_limit if rules.family == "gin" else -1
        risks = self.guide.feeding_risks(observation, shortlist, rules)
        feed_weight = self.guide.feed_weight(rules)
        scores = {}
        for card in shortlist:
            left = hand & ~card.bit
            total = 0.0
            for sequence in sequences:
                total += _solitaire(left, sequence, rules.ace, values, stop, first=False)
            feed = risks[card] * (feed_weight + values[card.index] / 2)
            scores[card] = total / len(sequences) + feed
        best = min(scores.values())
        card = max(
            (c for c, v in scores.items() if v <= best + 1e-9),
            key=lambda c: give_back_order(c, rules),
        )
        for action in give_backs:
            if action.kind is ActionKind.DISCARD and action.cards[0] == card:
                return action
        return preferred

    # -- sampling -------------------------------------------------------------------
    def sample_sequences(self, observation: Observation, rules: Rules) -> list[list[int]]:
        """Sampled next stock cards (as bits), ``horizon`` long, from the unseen cards."""
        unseen = cards_of(unseen_mask(observation))
        bits = [card.bit for card in unseen]
        length = min(self.horizon, len(bits))
        if length == 0:
            return []
        rng = self.rng
        sequences: list[list[int]] = []
        if self.rollouts is not None:
            sequences = [rng.sample(bits, length) for _ in range(self.rollouts)]
        else:
            deadline = time.perf_counter() + (self.time_budget or 0.0) / 4
            while len(sequences) < MAX_ROLLOUTS and (
                len(sequences) < 8 or time.perf_counter() < deadline
            ):
                sequences.append(rng.sample(bits, length))
        self.last_rollouts = len(sequences)
        return sequences


def _highest(mask: int, values: Sequence[int]) -> int:
    """The bit of the highest-valued card in ``mask`` (highest card number among ties)."""
    best = 0
    best_key = (-1, -1)
    while mask:
        low = mask & -mask
        mask ^= low
        index = low.bit_length() - 1
        key = (values[index] if index < len(values) else 0, index)
        if key > best_key:
            best, best_key = low, key
    return best


def _solitaire(
    hand: int, sequence: Sequence[int], ace: str, values: Sequence[int], stop: int, first: bool
) -> float:
    """Mean deadwood over the turns of ``sequence``, greedy give-backs.

    ``first``: the hand's own deadwood counts as the first turn (a draw
    already made). Once the deadwood is at or below ``stop`` the hand is
    taken to knock: the remaining turns count that deadwood.
    """
    total = 0
    turns = 0
    current = deadwood_of_mask(hand, ace) if first else None
    if current is not None:
        total += current
        turns += 1
    for bit in sequence:
        if current is not None and current <= stop:
            total += current
            turns += 1
            continue
        value, tied = best_discards_of_mask(hand | bit, ace)
        hand = (hand | bit) & ~_highest(tied, values)
        current = value
        total += value
        turns += 1
    return total / turns if turns else float(deadwood_of_mask(hand, ace))
