"""Knock Rummy: an opponent model that tells an active seat that passed from a passive one.

Each opponent is one of two types:

* **active**: it knocks when its hand is good enough, as a searching bot
  does. How likely it is to knock with a given deadwood at its ``k``-th turn
  is *learned from records of play*, not assumed:
  ``benchmarks/fit_knock_model.py`` plays the medium bot in self-play,
  records every give-back where it could knock, and fits
  ``P(knock | deadwood d, turn k) = 1 / (1 + exp((d - T_k) / s_k))``
  (:data:`ACTIVE_FIT`, with the share of turns it passed, ``pass_rate``).
* **passive**: it never knocks (or only with very little); it keeps what
  improves its hand, so its hand is the best of the cards it saw.

An opponent that passed ``t`` times is active with the posterior
``p r_1 ... r_t / (p r_1 ... r_t + 1 - p)`` (``r_k`` the fitted pass rate
at turn ``k``, ``p`` :data:`ACTIVE_PRIOR`): a seat that keeps passing looks
passive. The knock equity (:func:`pyrummy.bots.knock_equity.estimate_knock`)
draws each opponent's type from that posterior and its hand from the type:
an active seat's hand is drawn until one passes the fitted knock test
(rejection: it passed with this hand, so a good hand is unlikely), a passive
seat's hand is selected (it kept the best of ``min(t, passive_selection)``
extra cards). In the waiting rollouts an active seat knocks at ``T_k`` or
less, a passive one never.

>>> model = OpponentModel()
>>> round(model.active_posterior(0), 3) == ACTIVE_PRIOR
True
>>> model.active_posterior(3) < model.active_posterior(1) < ACTIVE_PRIOR
True
>>> model.knock_chance(0, 1) > 0.9 > 0.1 > model.knock_chance(60, 1)
True
"""

from __future__ import annotations

import math
from dataclasses import dataclass


@dataclass(frozen=True)
class KnockFit:
    """An active seat at one turn: it knocks with deadwood ``d`` with chance
    ``1 / (1 + exp((d - threshold) / scale))``; it passed ``pass_rate`` of
    the turns in the records."""

    threshold: float
    scale: float
    pass_rate: float


#: Fitted by ``benchmarks/fit_knock_model.py --players 4 --deals 1500 --seed 11``
#: (the medium bot in self-play, 4 players); one row per turn 1,
#: 2, 3, the last row for turn 4 and later; decisions recorded per row.
ACTIVE_FIT: tuple[KnockFit, ...] = (
    KnockFit(36.0, 2.5, 0.53),  # 2,954 decisions: at 30 or less it knocked 95%, 41+ never
    KnockFit(32.0, 3.5, 0.66),  # 278
    KnockFit(30.0, 1.5, 0.74),  # 62
    KnockFit(29.0, 1.0, 0.69),  # 26
)
#: Prior chance that an opponent is active.
ACTIVE_PRIOR = 0.5
#: Extra cards a passive seat that drew ``t`` times keeps the best of
#: (``min(t, passive_selection)``).
PASSIVE_SELECTION = 3
#: Hands drawn at most for an active seat until one passes the knock test.
ACTIVE_TRIES = 12


@dataclass(frozen=True)
class OpponentModel:
    """The two-type opponent model (see the module's docstring)."""

    fits: tuple[KnockFit, ...] = ACTIVE_FIT
    active_prior: float = ACTIVE_PRIOR
    passive_selection: int = PASSIVE_SELECTION
    active_selection: int = 0
    tries: int = ACTIVE_TRIES

    def fit_at(self, turn: int) -> KnockFit:
        """The active fit at the seat's ``turn``-th turn (1 the first)."""
        return self.fits[max(0, min(turn, len(self.fits)) - 1)]

    def knock_chance(self, deadwood: int, turn: int) -> float:
        """Chance that an active seat knocks with ``deadwood`` at its ``turn``-th turn."""
        fit = self.fit_at(turn)
        return 1.0 / (1.0 + math.exp(max(-50.0, min(50.0, (deadwood - fit.threshold) / fit.scale))))

    def knock_threshold(self, turn: int) -> int:
        """Deadwood at or below which an active seat knocks in a rollout."""
        return math.floor(self.fit_at(turn).threshold)

    def active_posterior(self, passes: int) -> float:
        """Chance that a seat that passed its first ``passes`` turns is active."""
        likelihood = 1.0
        for turn in range(1, passes + 1):
            likelihood *= self.fit_at(turn).pass_rate
        active = self.active_prior * likelihood
        passive = 1.0 - self.active_prior
        return active / (active + passive) if active + passive > 0 else 0.0
