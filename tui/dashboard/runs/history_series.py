"""The run's history as plain lists for the charts, read incrementally and thinned to a width.

No Textual here: the repaint code feeds these lists to the widgets. The lists stay bounded
however long the run: past :data:`SERIES_LIMIT` rows, only every other generation of the
grid kept so far is kept (the chart shows a few hundred points anyway), and the newest
generation is always there, so the chart's line ends where the run is.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterator, Sequence
from typing import Final, Protocol

import numpy as np
import numpy.typing as npt

from engine import Snapshot

SERIES: Final = (
    "generation",
    "evaluations",
    "best_fitness",
    "mean_fitness",
    "worst_fitness",
    "best_conflicts",
    "mean_conflicts",
)
"""History columns the charts read."""
SERIES_DIVERSITY: Final = "entropy"
"""The diversity column the chart shows beside fitness."""
SERIES_LIMIT: Final = 4096
"""Rows the series keeps at most (the chart and sparklines draw 240 points)."""
_VERSIONS: Final[Iterator[int]] = itertools.count(1)
"""Versions unique across every series: a new series is never taken for one drawn already."""


class HistoryRows(Protocol):
    """A history that gives the rows from a generation on (:meth:`engine.History.since`)."""

    def since(
        self, generation: int, names: Sequence[str]
    ) -> dict[str, npt.NDArray[np.float64]]: ...


def thinned(values: list[float], limit: int) -> list[float]:
    """Every k-th value (and the last) so that at most about ``limit`` remain."""
    if len(values) <= limit:
        return values
    step = math.ceil(len(values) / limit)
    kept = values[::step]
    if (len(values) - 1) % step:
        kept.append(values[-1])
    return kept


class HistorySeries:
    """The run's history as plain lists, read incrementally, at most ``limit`` rows.

    Only the generations added since the last read are converted, so a long run costs the UI
    the same per frame as a short one. Reads stop at the generation of a published snapshot,
    so a row the engine thread is still appending is never half read. The rows kept are the
    generations that are multiples of :attr:`stride` (1 until the limit is passed, then
    doubled each time it is passed again), and the newest.

    Args:
        limit: Rows kept at most.
    """

    def __init__(self, limit: int = SERIES_LIMIT) -> None:
        self.columns: dict[str, list[float]] = {name: [] for name in (*SERIES, SERIES_DIVERSITY)}
        self.limit = limit
        self.stride = 1
        """Generations between two rows kept (the newest row aside)."""
        self.version = next(_VERSIONS)
        """Changes whenever the rows do (the chart redraws when it differs from the drawn)."""
        self._next = 0
        self._tail = False  # the last row is the newest generation, off the stride's grid

    def __len__(self) -> int:
        return len(self.columns["generation"])

    def update(self, history: HistoryRows, snapshot: Snapshot) -> None:
        """Read the rows after the last read, up to and including ``snapshot``'s generation."""
        stop = snapshot.generation + 1
        if stop <= self._next:
            return
        rows = history.since(self._next, tuple(self.columns))
        generations = rows["generation"]
        count = int(np.searchsorted(generations, stop))
        if count == 0:
            return
        self._drop_tail()
        on_grid = generations[:count].astype(np.int64) % self.stride == 0
        for name, values in self.columns.items():
            values.extend(rows[name][:count][on_grid].tolist())
        if not on_grid[-1]:
            for name, values in self.columns.items():
                values.append(float(rows[name][count - 1]))
            self._tail = True
        self._next = int(generations[count - 1]) + 1
        while len(self) > self.limit:
            self._widen()
        self.version = next(_VERSIONS)

    def _drop_tail(self) -> None:
        if self._tail:
            for values in self.columns.values():
                values.pop()
            self._tail = False

    def _widen(self) -> None:
        """Double the stride: keep every other generation of the grid (and the newest)."""
        newest = {name: values[-1] for name, values in self.columns.items()}
        self._drop_tail()
        self.stride *= 2
        keep = [int(g) % self.stride == 0 for g in self.columns["generation"]]
        for name, values in self.columns.items():
            self.columns[name] = [value for value, kept in zip(values, keep, strict=True) if kept]
        if (
            not self.columns["generation"]
            or self.columns["generation"][-1] != (newest["generation"])
        ):
            for name, values in self.columns.items():
                values.append(newest[name])
            self._tail = True
