"""The rating scale: points a person reads, and the model's ``mu`` and ``sigma``.

The model (:mod:`pyrummy.ratings.model`) keeps a skill ``mu`` with its
uncertainty ``sigma`` in openskill's units (a performance spread ``BETA`` of
25/6). People read *points*, an Elo-like scale fixed by two choices:

* **the gap means what an Elo gap means**: between two players whose ratings
  are well known, a gap of ``D`` points is a ``1 / (1 + 10^(-D/400))``
  chance for the higher one to finish ahead in a two-player match (200
  points: 76%, 400 points: 91%), the arena's ladders' scale
  (:data:`ELO_SCALE`);
* **the Easy bot (``simple``) is 1000 in every game**, as on the arena's
  ladders, so "1000" means "as strong as Easy" on every server.

In the Plackett-Luce model two players ``i`` and ``j`` finish in that order
with chance ``1 / (1 + exp(-(mu_i - mu_j) / c))``, ``c = sqrt(2·BETA²)``
for well-known ratings: one unit of ``mu`` is ``ELO_SCALE / c`` points.

>>> round(points_of(MU_AT_ANCHOR)), round(points_of(mu_of(1200.0)), 6)
(1000, 1200.0)
>>> round(POINTS_PER_MU, 2)
29.48
"""

from __future__ import annotations

import math
from typing import Final

#: Elo points per unit of logistic strength (as ``pyrummy.arena.rating``).
ELO_SCALE: Final = 400.0 / math.log(10.0)
#: openskill's performance spread (its default, 25/6).
BETA: Final = 25.0 / 6.0
#: The ``mu`` that reads as :data:`ANCHOR_POINTS` (openskill's default mean).
MU_AT_ANCHOR: Final = 25.0
#: The points of the Easy bot, which fixes the scale in every game.
ANCHOR_POINTS: Final = 1000.0
#: The bot held at :data:`ANCHOR_POINTS`.
ANCHOR_BOT: Final = "simple"
#: Points per unit of ``mu``.
POINTS_PER_MU: Final = ELO_SCALE / math.sqrt(2.0 * BETA * BETA)


def points_of(mu: float) -> float:
    """``mu`` in rating points."""
    return ANCHOR_POINTS + (mu - MU_AT_ANCHOR) * POINTS_PER_MU


def mu_of(points: float) -> float:
    """Rating points as the model's ``mu``."""
    return MU_AT_ANCHOR + (points - ANCHOR_POINTS) / POINTS_PER_MU


def sigma_of(points_error: float) -> float:
    """A standard error in points as the model's ``sigma``."""
    return points_error / POINTS_PER_MU
