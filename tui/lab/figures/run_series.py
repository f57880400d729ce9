"""A run's statistics as a figure draws them: at most :data:`PLOT_POINTS` generations.

Read from the store in chunks, or taken from a live run's history, and thinned evenly (the
first and last generations always in), so a run of millions of generations draws in bounded
memory and time.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Final

import numpy as np
import numpy.typing as npt

if TYPE_CHECKING:
    from tui.lab.store import RunStore

PLOT_POINTS: Final = 4000
"""Generations a run's figure draws at most."""

PLOT_COLUMNS: Final = (
    "evaluations",
    "best_conflicts",
    "mean_conflicts",
    "entropy",
    "unique_fraction",
)
"""The statistics the figure draws."""

READ_CHUNK: Final = 65536
"""Generations read from the store at a time."""


def _step(last: int) -> int:
    """Every how many generations one is kept, for a run whose last generation is ``last``."""
    return max(1, -(-(last + 1) // PLOT_POINTS))


def thinned_stats(store: RunStore, run_id: int, last: int) -> dict[str, list[float]]:
    """A recorded run's :data:`PLOT_COLUMNS` at no more than :data:`PLOT_POINTS` generations."""
    step = _step(last)
    kept: dict[str, list[float]] = {name: [] for name in PLOT_COLUMNS}
    for start in range(0, last + 1, READ_CHUNK):
        columns = store.stats(run_id, start, start + READ_CHUNK)
        generations = columns["generation"]
        picked = (generations % step == 0) | (generations == last)
        for name in PLOT_COLUMNS:
            kept[name] += columns[name][picked].tolist()
    return kept


def thinned_history(
    column: Callable[[str], npt.NDArray[np.float64]], count: int
) -> dict[str, list[float]]:
    """A live run's :data:`PLOT_COLUMNS`, thinned the same way.

    Args:
        column: The history's column by name (one value per generation, in order).
        count: How many generations the history holds.
    """
    if count <= 0:
        return {name: [] for name in PLOT_COLUMNS}
    picked = np.arange(0, count, _step(count - 1))
    if picked[-1] != count - 1:
        picked = np.append(picked, count - 1)
    return {name: np.asarray(column(name))[picked].tolist() for name in PLOT_COLUMNS}
