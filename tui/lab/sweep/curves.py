"""Per-generation series of a sweep's runs, as they arrive: a long-form CSV file written line
by line (``queens sweep --curves FILE.csv``), and thinned curves kept for a figure.

Nothing here holds every generation of every run: the CSV gets each run's lines when its result
comes back, and the figure keeps at most :data:`POINTS_PER_RUN` points of at most
:data:`RUNS_PER_ROW` runs per row (the first to arrive); the report says when it kept fewer.
"""

from __future__ import annotations

import csv
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Final

import numpy as np
import numpy.typing as npt

CSV_COLUMNS: Final = (
    "row",
    "seed",
    "generation",
    "evaluations",
    "best",
    "mean",
    "worst",
    "best_conflicts",
    "mean_conflicts",
    "diversity",
    "unique_fraction",
)
"""The CSV's header: ``best``, ``mean`` and ``worst`` are the fitness the config scores,
``diversity`` the population's mean column entropy, normalized to 0..1."""

SERIES_OF_COLUMN: Final = {
    "generation": "generation",
    "evaluations": "evaluations",
    "best": "best_fitness",
    "mean": "mean_fitness",
    "worst": "worst_fitness",
    "best_conflicts": "best_conflicts",
    "mean_conflicts": "mean_conflicts",
    "diversity": "entropy",
    "unique_fraction": "unique_fraction",
}
"""Which series of a task's ``curve`` each CSV column is."""

POINTS_PER_RUN: Final = 256
"""Points of a run's curve kept for a figure at most."""

RUNS_PER_ROW: Final = 1000
"""Runs per row whose curves a figure keeps at most."""

FloatArray = npt.NDArray[np.float64]


class CurveWriter:
    """Writes each run's series to a CSV file as it arrives, one line per generation.

    Args:
        path: The file (created or replaced).
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        self._file: IO[str] = path.open("w", newline="", encoding="utf-8")
        self._writer = csv.writer(self._file, lineterminator="\n")
        self._writer.writerow(CSV_COLUMNS)
        self.lines = 0

    def add(self, row: str, seed: int, curve: Mapping[str, Sequence[float]]) -> None:
        """Write one run's generations."""
        columns = [curve[SERIES_OF_COLUMN[name]] for name in CSV_COLUMNS[2:]]
        for values in zip(*columns, strict=True):
            self._writer.writerow([row, seed, *values])
            self.lines += 1
        self._file.flush()

    def close(self) -> None:
        """Close the file."""
        self._file.close()


@dataclass
class RowCurves:
    """The thinned best-conflicts curves kept of one row's runs.

    Attributes:
        evaluations: One array per run: evaluations at each kept point.
        best_conflicts: The best individual's conflicts at those points.
        dropped: Runs that came after :data:`RUNS_PER_ROW` and were not kept.
    """

    evaluations: list[FloatArray] = field(default_factory=list)
    best_conflicts: list[FloatArray] = field(default_factory=list)
    dropped: int = 0


def thinned(values: Sequence[float], points: int = POINTS_PER_RUN) -> FloatArray:
    """At most ``points`` of ``values``, evenly spread, always with the first and the last."""
    array = np.asarray(values, dtype=np.float64)
    if array.size <= points:
        return array
    picks = np.unique(np.linspace(0, array.size - 1, points).round().astype(np.int64))
    return array[picks]


class CurveKeeper:
    """Keeps each row's thinned curves for a convergence figure, within fixed bounds."""

    def __init__(self) -> None:
        self.rows: dict[str, RowCurves] = {}

    def add(self, fingerprint: str, curve: Mapping[str, Sequence[float]]) -> None:
        """Keep one run's curve (unless its row has :data:`RUNS_PER_ROW` already)."""
        kept = self.rows.setdefault(fingerprint, RowCurves())
        if len(kept.evaluations) >= RUNS_PER_ROW:
            kept.dropped += 1
            return
        kept.evaluations.append(thinned(curve["evaluations"]))
        kept.best_conflicts.append(thinned(curve["best_conflicts"]))

    @property
    def runs(self) -> int:
        """Runs whose curves are kept."""
        return sum(len(row.evaluations) for row in self.rows.values())


def quartile_curves(row: RowCurves, grid: FloatArray) -> tuple[FloatArray, FloatArray, FloatArray]:
    """The 25th, 50th and 75th percentiles over a row's runs of the best conflicts reached by
    each evaluation count of ``grid``.

    A run's value at ``x`` is that of its last kept point at or before ``x`` (its start before
    its first); a run that ended before ``x`` keeps its last value (0 once solved).
    """
    at = np.empty((len(row.evaluations), grid.size), dtype=np.float64)
    for index, (evaluations, conflicts) in enumerate(
        zip(row.evaluations, row.best_conflicts, strict=True)
    ):
        place = np.searchsorted(evaluations, grid, side="right") - 1
        at[index] = conflicts[np.clip(place, 0, conflicts.size - 1)]
    q1, median, q3 = np.percentile(at, [25, 50, 75], axis=0)
    return q1, median, q3
