"""The Vargha-Delaney A12 effect size and its conventional size words.

A12 of ``x`` over ``y`` is the probability that a value drawn from ``x`` is larger than one
drawn from ``y``, ties counting half: U / (n1 n2). 0.5 is no effect. Vargha and Delaney (2000)
call an effect negligible below 0.56 (or above 0.44), small below 0.64, medium below 0.71, and
large from there, read on ``max(A12, 1 - A12)``.
"""

from __future__ import annotations

from typing import Final

import numpy as np
import numpy.typing as npt

from tui.lab.statistics.rank_test import average_ranks

FloatArray = npt.NDArray[np.float64]

SIZE_THRESHOLDS: Final = ((0.56, "negligible"), (0.64, "small"), (0.71, "medium"))
"""Below each threshold of ``max(A12, 1 - A12)``, the word; from 0.71, ``large``."""


def vargha_delaney_a12(x: FloatArray, y: FloatArray) -> float:
    """P(X > Y) + P(X = Y) / 2 over the pairs of the two samples (0.5 when either is empty)."""
    n1, n2 = int(x.size), int(y.size)
    if n1 == 0 or n2 == 0:
        return 0.5
    ranks, _ = average_ranks(np.concatenate([x, y]))
    u1 = float(ranks[:n1].sum() - n1 * (n1 + 1) / 2)
    return u1 / (n1 * n2)


def effect_size_word(a12: float) -> str:
    """``negligible``, ``small``, ``medium`` or ``large``."""
    distance = round(max(a12, 1 - a12), 12)  # 0.56 is small, not 0.5599999...
    for threshold, word in SIZE_THRESHOLDS:
        if distance < threshold:
            return word
    return "large"
