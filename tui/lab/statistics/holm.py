"""Holm's step-down correction: p-values that can be read together at one level.

With m tests, the smallest p-value is multiplied by m, the next by m - 1, and so on; each
adjusted value is at least the one before it (step-down) and at most 1. Rejecting where the
adjusted value is below 5% keeps the chance of any false rejection at 5%, whatever the tests'
dependence (Holm, 1979), and is never less powerful than Bonferroni's.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np


def holm_adjusted(p_values: Sequence[float]) -> list[float]:
    """Holm-adjusted p-values, in the order given.

    Args:
        p_values: Raw p-values between 0 and 1.

    Returns:
        The adjusted values (an empty list for none).
    """
    raw = np.asarray(p_values, dtype=np.float64)
    m = raw.size
    if m == 0:
        return []
    order = np.argsort(raw, kind="mergesort")
    scaled = raw[order] * (m - np.arange(m))
    stepped = np.minimum(1.0, np.maximum.accumulate(scaled))
    adjusted = np.empty(m, dtype=np.float64)
    adjusted[order] = stepped
    return [float(value) for value in adjusted]
