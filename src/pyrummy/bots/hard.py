"""The hard bot: the medium bot's play, searched deeper where that pays.

Each family of rules has its own play, composed into the bot by family:

* **Knock rummy** (:class:`~pyrummy.bots.hard_knock.KnockRummyPlay`): the
  knock by the expected settlement over re-deals
  (:mod:`pyrummy.bots.knock_equity`) once an opponent has passed a chance
  to knock, before that by the medium bot's re-deals; at the table sizes the
  learned knock model was fitted for, by that model
  (:mod:`pyrummy.bots.knock_value`). Discards by a two-draw lookahead on
  common random numbers.
* **Gin** (:class:`~pyrummy.bots.hard_gin.GinPlay`): every knock but gin
  weighed against playing on by play-outs on re-deals
  (:mod:`pyrummy.bots.gin_hold`); discards credited for reaching gin on the
  next draw (:mod:`pyrummy.bots.gin_play`) and chosen among the best few by
  play-outs to the hand's end (:mod:`pyrummy.bots.gin_search`).
* **Melding games** (:class:`MeldingPlay`): the medium bot's play, its
  discards also weighing the chance that the next draw completes the hand:
  when everybody holds out for going rummy, a deal is a race to a complete
  hand.

Draws are the medium bot's. The work is either fixed (``rollouts``: the same
decisions for the same seed on any machine) or anytime within
``time_budget`` seconds a decision: the knock takes up to
:data:`~pyrummy.bots.hard_context.KNOCK_BUDGET_SHARE` of it, the searches stop by their share, counted
from the start of the decision. What each setting was measured to gain is in
``benchmarks/results/bots.md``.
"""

from __future__ import annotations

import random
import time
from collections.abc import Mapping, Sequence
from typing import Protocol

from pyrummy.bots.base import big_gin_of, configured, require_actions
from pyrummy.bots.hard_context import HardConfig, HardContext
from pyrummy.bots.hard_gin import GinPlay
from pyrummy.bots.hard_knock import KnockRummyPlay
from pyrummy.bots.knock_equity import Clock
from pyrummy.bots.medium import MediumBot, MediumConfig
from pyrummy.core.actions import Action
from pyrummy.core.observation import Observation
from pyrummy.core.rules import Family, Rules, find_rules

#: Melding games: deadwood a discard is worth per unit of chance that the next
#: draw completes the hand (going out at once, for the going-rummy bonus).
MELDING_OUT_BONUS = 200.0


class FamilyPlay(Protocol):
    """One family's play: a choice among at least two legal actions."""

    def choose(
        self, observation: Observation, legal_actions: Sequence[Action], rules: Rules
    ) -> Action: ...


class MeldingPlay:
    """The melding games: a medium bot's play (by default one reaching for a complete hand)."""

    def __init__(self, bot: MediumBot) -> None:
        self.bot = bot

    @classmethod
    def reaching(cls, seed: int | None, clock: Clock) -> MeldingPlay:
        """The medium bot whose discards weigh :data:`MELDING_OUT_BONUS` per chance of going out."""
        return cls(MediumBot(seed, MediumConfig(out_bonus=MELDING_OUT_BONUS), clock=clock))

    def choose(
        self, observation: Observation, legal_actions: Sequence[Action], rules: Rules
    ) -> Action:
        return self.bot.choose(observation, legal_actions)


class HardBot:
    """Deeper search on top of the medium bot's play, composed by family of rules.

    Options are :class:`HardConfig`'s fields, given as a config or by name;
    ``clock`` is what the budgets are read from (injected in tests).

    >>> bot = HardBot(seed=7, rollouts=10)
    >>> bot.name, bot.config.rollouts, bot.config.budget
    ('hard', 10, None)
    """

    name = "hard"

    def __init__(
        self,
        seed: int | None = None,
        config: HardConfig | None = None,
        *,
        clock: Clock = time.perf_counter,
        **options: object,
    ) -> None:
        self.config = configured(config or HardConfig(), options, self.name)
        guide = MediumBot(seed, self.config.guide(), clock=clock)
        self.context = HardContext(self.config, random.Random(seed), clock, guide)
        self.plays: Mapping[Family, FamilyPlay] = {
            "knock": KnockRummyPlay(self.context),
            "gin": GinPlay(self.context),
            "melding": MeldingPlay.reaching(seed, clock),
        }

    @property
    def guide(self) -> MediumBot:
        """The medium bot each decision starts from."""
        return self.context.guide

    @property
    def last_rollouts(self) -> int:
        """Sampled draws or re-deals searched at the last decision (0: none)."""
        return self.context.last_rollouts

    @property
    def last_knock_samples(self) -> int:
        """Re-deals behind the last knock decision (0: none)."""
        return self.context.last_knock_samples

    def choose(self, observation: Observation, legal_actions: Sequence[Action]) -> Action:
        require_actions(legal_actions)
        self.context.last_rollouts = self.context.last_knock_samples = 0
        if len(legal_actions) == 1:
            return legal_actions[0]
        big_gin = big_gin_of(legal_actions)
        if big_gin is not None:
            return big_gin
        rules = find_rules(observation.rules)
        return self.plays[rules.family].choose(observation, legal_actions, rules)
