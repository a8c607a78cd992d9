"""Ratings from duplicate boards: a Bradley-Terry fit with Fisher intervals.

Each board is one game between its pair: the entrant with more points over
the two deals wins it (score 1), an exact tie scores 0.5 each. The
Bradley-Terry model says entrant ``i`` beats ``j`` with probability
``1 / (1 + exp(s_j - s_i))``; the strengths ``s`` are fitted by maximum
likelihood (``scipy.optimize.minimize``, L-BFGS-B on the exact gradient),
a tie counting as half a win and half a loss. Like BayesElo, every pair
that met is given one *virtual tie* (``prior_ties``): without it a bot that
won every board would have an infinite rating.

Ratings are on the Elo scale (``400 / ln 10`` per unit of strength: a
200-point gap is a 76% expected score) and *anchored*: the anchor entrant
is fixed at its rating (``simple`` at 1000 by default), and each interval
is ``rating ± z·se``, the standard errors from the inverse of the Fisher
information of the other strengths at the fit. An interval thus says how
well an entrant is placed *relative to the anchor*.

>>> games = [(0, 1, 1.0)] * 30 + [(0, 1, 0.0)] * 10 + [(1, 2, 1.0)] * 30 + [(1, 2, 0.0)] * 10
>>> fit = fit_ratings(3, games, anchor=1, anchor_rating=1000.0)
>>> [round(r) for r in fit.ratings]
[1185, 1000, 815]
>>> fit.low[1] == fit.high[1] == 1000.0
True
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

import numpy as np
from scipy import optimize, stats

#: Elo points per unit of Bradley-Terry strength.
ELO_SCALE: Final = 400.0 / math.log(10.0)


@dataclass(frozen=True)
class Ratings:
    """Fitted ratings (Elo scale) with their intervals, one per entrant."""

    ratings: tuple[float, ...]
    low: tuple[float, ...]
    high: tuple[float, ...]
    standard_errors: tuple[float, ...]
    anchor: int
    confidence: float

    def expected_score(self, i: int, j: int) -> float:
        """The fitted chance that ``i`` wins a board against ``j``."""
        return float(1.0 / (1.0 + 10.0 ** ((self.ratings[j] - self.ratings[i]) / 400.0)))


def fit_ratings(
    entrants: int,
    games: Sequence[tuple[int, int, float]],
    *,
    anchor: int = 0,
    anchor_rating: float = 1000.0,
    prior_ties: float = 1.0,
    confidence: float = 0.95,
) -> Ratings:
    """Fit Bradley-Terry strengths to ``games``: ``(i, j, score of i)`` with
    scores 1, 0.5 or 0 (see the module docstring)."""
    if entrants < 2:
        raise ValueError("ratings need at least 2 entrants")
    if not 0 <= anchor < entrants:
        raise ValueError(f"anchor: an entrant 0-{entrants - 1}, not {anchor}")
    wins = np.zeros((entrants, entrants))  # wins[i, j]: points i scored against j
    for i, j, score in games:
        if i == j or not (0 <= i < entrants and 0 <= j < entrants):
            raise ValueError(f"a game between {i} and {j}")
        if score not in (0.0, 0.5, 1.0):
            raise ValueError(f"a game's score is 0, 0.5 or 1, not {score}")
        wins[i, j] += score
        wins[j, i] += 1.0 - score
    met = (wins + wins.T) > 0
    wins = wins + np.where(met, prior_ties / 2.0, 0.0)
    played = wins + wins.T
    free = [k for k in range(entrants) if k != anchor]

    def strengths(x: np.ndarray) -> np.ndarray:
        s = np.zeros(entrants)
        s[free] = x
        return s

    def objective(x: np.ndarray) -> tuple[float, np.ndarray]:
        s = strengths(x)
        diff = s[:, None] - s[None, :]
        # -log P(i beats j) = log(1 + exp(s_j - s_i)), computed stably
        loss = float(np.sum(wins * np.logaddexp(0.0, -diff)))
        p = 1.0 / (1.0 + np.exp(-diff))
        gradient = -np.sum(wins * (1.0 - p), axis=1) + np.sum(wins.T * (1.0 - p.T), axis=1)
        # d/ds_i: -sum_j w_ij (1 - p_ij) + sum_j w_ji (1 - p_ji)
        return loss, gradient[free]

    result = optimize.minimize(
        objective, np.zeros(len(free)), jac=True, method="L-BFGS-B", options={"maxiter": 1000}
    )
    s = strengths(result.x)
    diff = s[:, None] - s[None, :]
    p = 1.0 / (1.0 + np.exp(-diff))
    weight = played * p * (1.0 - p)  # symmetric: games i-j times p(1-p)
    information = np.diag(weight.sum(axis=1)) - weight
    reduced = information[np.ix_(free, free)]
    covariance = np.linalg.pinv(reduced)
    errors = np.zeros(entrants)
    errors[free] = np.sqrt(np.clip(np.diag(covariance), 0.0, None))
    z = float(stats.norm.ppf(0.5 + confidence / 2.0))
    ratings = anchor_rating + ELO_SCALE * s
    half = z * ELO_SCALE * errors
    # An entrant cut off from the anchor (no chain of games to it) has no rating.
    reachable = _connected(met, anchor)
    return Ratings(
        ratings=tuple(float(r) if reachable[k] else math.nan for k, r in enumerate(ratings)),
        low=tuple(
            float(r - h) if reachable[k] else math.nan
            for k, (r, h) in enumerate(zip(ratings, half, strict=True))
        ),
        high=tuple(
            float(r + h) if reachable[k] else math.nan
            for k, (r, h) in enumerate(zip(ratings, half, strict=True))
        ),
        standard_errors=tuple(float(ELO_SCALE * e) for e in errors),
        anchor=anchor,
        confidence=confidence,
    )


def _connected(met: np.ndarray, start: int) -> list[bool]:
    seen = [False] * len(met)
    seen[start] = True
    stack = [start]
    while stack:
        k = stack.pop()
        for other in np.flatnonzero(met[k]):
            if not seen[other]:
                seen[other] = True
                stack.append(int(other))
    return seen
