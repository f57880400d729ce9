"""A run on record and the series its live run measured, which the recorded past must match."""

from __future__ import annotations

import numpy as np

from engine import Config, GeneticAlgorithm
from tui.dashboard.runs.variation_series import COLUMNS, VariationSeries

RECORDED = Config(n=12, population=20, seed=5, generations=30, stop_when_solved=False)
"""The run on record (its last generation, 30, has a keyframe of its own)."""


def measured_live(config: Config, generations: int | None = None) -> VariationSeries:
    """The live series of a run of ``config`` measured from its start, for ``generations``
    (``None``: to its end)."""
    algorithm = GeneticAlgorithm(config)
    live = VariationSeries()
    live.reset(algorithm)
    live.enabled = True
    while algorithm.has_next() and (
        generations is None or algorithm.snapshot.generation < generations
    ):
        live.observe(algorithm, algorithm.step())
    return live


def rows_of(columns: dict[str, list[float]], generations: list[int]) -> np.ndarray:
    """Those generations' rows, every column, as one array (``nan`` compares equal below)."""
    where = [columns["generation"].index(float(g)) for g in generations]
    return np.array([[columns[name][i] for name in COLUMNS] for i in where])
