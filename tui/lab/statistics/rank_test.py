"""The two-sided Mann-Whitney U test, large-sample (normal) form, with the tie correction and
the continuity correction: ``scipy.stats.mannwhitneyu(x, y, method='asymptotic')`` in numpy.

The normal form is used at every sample size rather than the exact distribution, whose tables do
not allow ties, and censored samples (:mod:`~tui.lab.statistics.run_lengths`) tie at the budget
as a rule. Infinite values (the censored ones) rank above every finite one and tie with each
other.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

FloatArray = npt.NDArray[np.float64]


@dataclass(frozen=True)
class RankTest:
    """A Mann-Whitney U test's outcome.

    Attributes:
        u: U of the first sample: pairs (x, y) with x > y, ties counted half.
        p: The two-sided p-value (1 when either sample is empty or every value ties).
    """

    u: float
    p: float


def average_ranks(values: FloatArray) -> tuple[FloatArray, FloatArray]:
    """Ranks from 1, ties given their average rank; and the sizes of the groups of ties."""
    order = np.argsort(values, kind="mergesort")
    ordered = values[order]
    starts = np.flatnonzero(np.r_[True, ordered[1:] != ordered[:-1]])
    sizes = np.diff(np.r_[starts, ordered.size])
    tied_rank = starts + (sizes + 1) / 2.0  # the average of ranks start+1 .. start+size
    ranks = np.empty(values.size, dtype=np.float64)
    ranks[order] = np.repeat(tied_rank, sizes)
    return ranks, sizes.astype(np.float64)


def _normal_survival(z: float) -> float:
    """P(Z > z) for a standard normal Z."""
    return 0.5 * math.erfc(z / math.sqrt(2.0))


def mann_whitney_u(x: FloatArray, y: FloatArray) -> RankTest:
    """The two-sided Mann-Whitney U test of ``x`` against ``y``.

    Args:
        x: The first sample (``math.inf`` allowed: censored values).
        y: The second sample.

    Returns:
        U of ``x`` and the p-value of the normal approximation, tie- and continuity-corrected.
    """
    n1, n2 = int(x.size), int(y.size)
    if n1 == 0 or n2 == 0:
        return RankTest(math.nan, 1.0)
    ranks, ties = average_ranks(np.concatenate([x, y]))
    u1 = float(ranks[:n1].sum() - n1 * (n1 + 1) / 2)
    n = n1 + n2
    mean = n1 * n2 / 2
    tie_term = float((ties**3 - ties).sum())
    variance = n1 * n2 / 12 * ((n + 1) - tie_term / (n * (n - 1))) if n > 1 else 0.0
    if variance <= 0:
        return RankTest(u1, 1.0)
    z = (max(u1, n1 * n2 - u1) - mean - 0.5) / math.sqrt(variance)
    return RankTest(u1, min(1.0, 2 * _normal_survival(z)))
