"""The statistics that judge a tournament: a mean and its confidence interval.

The quantile of Student's t comes from ``scipy.stats``, the tournament
extra's statistics library.

>>> e = mean_ci([1.0, 2.0, 3.0, 4.0, 5.0])
>>> e.mean, round(e.half_width, 4), round(e.low, 4)
(3.0, 1.9632, 1.0368)
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass

from scipy import stats as scipy_stats


@dataclass(frozen=True)
class Estimate:
    """A sample mean with its two-sided confidence interval (Student t).

    With fewer than two values the interval is unknown: ``half_width`` is NaN.
    """

    mean: float
    half_width: float
    count: int
    stdev: float
    confidence: float = 0.95

    @property
    def low(self) -> float:
        return self.mean - self.half_width

    @property
    def high(self) -> float:
        return self.mean + self.half_width

    @property
    def excludes_zero(self) -> bool:
        """True when the interval lies wholly above or below 0 (a clear result)."""
        return not math.isnan(self.half_width) and (self.low > 0 or self.high < 0)

    def to_dict(self) -> dict[str, object]:
        known = not math.isnan(self.half_width)
        return {
            "mean": self.mean,
            "ci_low": self.low if known else None,
            "ci_high": self.high if known else None,
            "half_width": self.half_width if known else None,
            "stdev": self.stdev if self.count > 1 else None,
            "n": self.count,
            "confidence": self.confidence,
        }


def student_t_quantile(p: float, dof: float) -> float:
    """The ``p`` quantile of Student's t with ``dof`` degrees of freedom.

    >>> round(student_t_quantile(0.975, 4), 4)
    2.7764
    """
    if not 0.0 < p < 1.0:
        raise ValueError(f"p must be in (0, 1), got {p}")
    if not dof > 0:
        raise ValueError(f"degrees of freedom must be positive, got {dof}")
    return float(scipy_stats.t.ppf(p, dof))


def mean_ci(values: Sequence[float], confidence: float = 0.95) -> Estimate:
    """Mean of ``values`` and its ``confidence`` interval (Student t, n - 1 dof)."""
    if not values:
        raise ValueError("no values")
    if not 0.0 < confidence < 1.0:
        raise ValueError(f"confidence must be in (0, 1), got {confidence}")
    count = len(values)
    mean = statistics.fmean(values)
    if count < 2:
        return Estimate(mean, math.nan, count, math.nan, confidence)
    stdev = statistics.stdev(values)
    quantile = student_t_quantile(0.5 + confidence / 2.0, count - 1)
    return Estimate(mean, quantile * stdev / math.sqrt(count), count, stdev, confidence)
