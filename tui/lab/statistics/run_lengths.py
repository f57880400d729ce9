"""Runs as censored samples, and their run-length distributions.

A run that found no solution has no time to solution: it was stopped at its budget. For the
rank test it counts as censored there: slower than every solved run of any row, and tied with
every other unsolved run (``math.inf`` stands for "not solved within the budget"). Dropping
unsolved runs would make a configuration that rarely solves look fast; giving them the budget as
their value would make budgets that differ between rows part of the comparison.

A run-length distribution is the share of a row's runs (solved or not) solved by each
evaluation (or generation, or second): a step from 0 that stops at the success rate.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

FloatArray = npt.NDArray[np.float64]

CENSORED: float = math.inf
"""The value of a run that was not solved within its budget."""


def censored_sample(results: Iterable[Mapping[str, Any]], metric: str) -> FloatArray:
    """``metric`` to solution for each run; :data:`CENSORED` for each unsolved run.

    Args:
        results: The runs' results (``solved`` and the metric in each).
        metric: ``evaluations``, ``generations`` or ``seconds``.
    """
    return np.array(
        [float(result[metric]) if result["solved"] else CENSORED for result in results],
        dtype=np.float64,
    )


def solved_values(sample: FloatArray) -> FloatArray:
    """The solved runs' values of a censored sample, sorted."""
    return np.sort(sample[np.isfinite(sample)])


def share_solved_by(sample: FloatArray, points: Sequence[float] | FloatArray) -> FloatArray:
    """The share of all runs of ``sample`` solved at or before each of ``points`` (0 when empty).

    Args:
        sample: A censored sample (:func:`censored_sample`).
        points: Where to read the distribution.
    """
    at = np.asarray(points, dtype=np.float64)
    if sample.size == 0:
        return np.zeros(at.shape, dtype=np.float64)
    solved = solved_values(sample)
    counts = np.searchsorted(solved, at, side="right")
    return np.asarray(counts / sample.size, dtype=np.float64)


def distribution_steps(sample: FloatArray) -> tuple[FloatArray, FloatArray]:
    """The run-length distribution as steps: the distinct solved values and the share of all
    runs solved at or before each (empty arrays when no run was solved)."""
    solved = solved_values(sample)
    if solved.size == 0:
        return np.zeros(0), np.zeros(0)
    values = np.unique(solved)
    return values, share_solved_by(sample, values)
