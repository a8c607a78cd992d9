"""The hard bot's settings, and what each family's play of one hard bot shares.

:class:`HardConfig` is the frozen set of the hard bot's settings;
:class:`HardContext` the state its family plays
(:mod:`pyrummy.bots.hard_knock`, :mod:`pyrummy.bots.hard_gin`) work with.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from pyrummy.bots.base import BotError
from pyrummy.bots.knock_equity import Clock
from pyrummy.bots.medium import MediumBot, MediumConfig

#: Seconds per decision (every search stops by 80% of it: a p95 of 0.25 s by construction).
DEFAULT_TIME_BUDGET = 0.25
#: Share of the time budget a knock decision may spend.
KNOCK_BUDGET_SHARE = 0.3
#: Knock rummy: deadwood above which the guide does not weigh a knock.
KNOCK_CAP = 80


@dataclass(frozen=True)
class HardConfig:
    """The hard bot's settings.

    The work: ``time_budget`` (seconds a decision) or ``rollouts`` (when
    given, the budget is ignored and every search does a fixed amount of
    work, so play is the same for a seed on any machine).

    Knock rummy: ``candidates``, the give-backs the two-draw lookahead
    searches (``rollouts`` sampled draws each on fixed work);
    ``knock_samples``, the guide's re-deals behind a knock before an
    opponent has passed; ``equity_samples``, the knock equity's re-deals on
    fixed work; ``equity_selection``, cards more an opponent that drew is
    re-dealt to keep the best of (None: 3 at 3+ players, 0 at 2);
    ``knock_value``, decide the knock by the learned model (None: at the
    table sizes it was fitted for; True: always; False: never), with the
    shipped weights or those in the file ``knock_value_weights``.

    Gin: ``gin_reach_bonus``, deadwood a discard is worth per unit of chance
    that the next draw makes gin (0: the guide's discard, unsearched);
    ``gin_hold_samples``, re-deals behind a knock-or-hold decision on fixed
    work (0: the guide's knock); ``gin_search_samples``, re-deals behind the
    searched discard (0: off), which overrules the one-draw choice only by
    ``gin_search_margin`` paired standard errors.
    """

    time_budget: float | None = DEFAULT_TIME_BUDGET
    rollouts: int | None = None
    candidates: int = 4
    knock_samples: int = 128
    equity_samples: int = 400
    equity_selection: int | None = None
    knock_value: bool | None = None
    knock_value_weights: str | None = None
    gin_reach_bonus: float = 40.0
    gin_hold_samples: int = 200
    gin_search_samples: int = 256
    gin_search_margin: float = 0.5

    def __post_init__(self) -> None:
        if self.rollouts is not None and self.rollouts < 1:
            raise BotError(f"rollouts must be at least 1, not {self.rollouts}")
        if self.rollouts is None and (self.time_budget is None or self.time_budget <= 0):
            raise BotError("the hard bot needs a positive time_budget or a rollouts count")
        if self.candidates < 1:
            raise BotError(f"candidates must be at least 1, not {self.candidates}")
        if self.gin_hold_samples < 0:
            raise BotError(f"gin_hold_samples must not be negative, not {self.gin_hold_samples}")
        if self.gin_search_samples < 0:
            raise BotError("gin_search_samples must not be negative")

    @property
    def budget(self) -> float | None:
        """Seconds a decision may spend; None when ``rollouts`` fixes the work."""
        return None if self.rollouts is not None else self.time_budget

    @property
    def knock_budget(self) -> float | None:
        """Seconds a knock decision may spend; None when ``rollouts`` fixes the work."""
        budget = self.budget
        return None if budget is None else budget * KNOCK_BUDGET_SHARE

    def guide(self) -> MediumConfig:
        """The guide's settings: the medium bot, weighing knocks on this bot's budget."""
        return MediumConfig(
            samples=self.knock_samples,
            require_gain=False,
            knock_cap=KNOCK_CAP,
            time_budget=self.knock_budget,
        )


@dataclass
class HardContext:
    """What each family's play of one hard bot shares.

    Its settings, its one seeded random generator, the clock its budgets are
    read from, the medium bot it starts every decision from (``guide``), and
    what the last decision searched (read by tests and benchmarks).
    """

    config: HardConfig
    rng: random.Random
    clock: Clock
    guide: MediumBot
    #: Sampled draws or re-deals searched at the last decision (0: none).
    last_rollouts: int = 0
    #: Re-deals behind the last knock decision (0: none).
    last_knock_samples: int = 0

    def knock_deadline(self, started: float) -> float:
        """When a knock decision begun at ``started`` must stop (never on fixed work)."""
        budget = self.config.knock_budget
        return started + budget if budget is not None else float("inf")
