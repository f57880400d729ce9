"""What a run publishes: a frozen :class:`Snapshot` per generation, and the full history.

Arrays in a snapshot are read-only and never modified after publication, so a consumer may
hold them without copying. The :class:`History` keeps one row of statistics per generation,
whether or not anyone looked at that generation's snapshot.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from engine.encodings import ENCODINGS, Genomes, queens_of
from engine.solutions import KNOWN_TOTALS

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]


def read_only(array: npt.NDArray[Any]) -> npt.NDArray[Any]:
    """Mark an array read-only and return it."""
    array.flags.writeable = False
    return array


@dataclass(frozen=True)
class GenerationStats:
    """One generation's statistics: a row of the history."""

    generation: int
    evaluations: int
    elapsed: float
    best_fitness: float
    mean_fitness: float
    worst_fitness: float
    best_conflicts: int
    mean_conflicts: float
    unique_fraction: float
    entropy: float


STAT_COLUMNS: Final = tuple(f.name for f in fields(GenerationStats))


class History:
    """Per-generation statistics of a run, in columns, with no generation missing."""

    def __init__(self, rows: dict[str, list[float]] | None = None) -> None:
        self._columns: dict[str, list[float]] = {name: [] for name in STAT_COLUMNS}
        if rows is not None:
            for name in STAT_COLUMNS:
                self._columns[name] = list(rows[name])

    def append(self, stats: GenerationStats) -> None:
        """Add one generation's row."""
        for name in STAT_COLUMNS:
            self._columns[name].append(getattr(stats, name))

    def __len__(self) -> int:
        return len(self._columns["generation"])

    def column(self, name: str, start: int = 0) -> FloatArray:
        """One statistic over the generations from ``start`` on, as a new array."""
        return np.asarray(self._columns[name][start:], dtype=np.float64)

    def row(self, index: int) -> GenerationStats:
        """The statistics of one generation (``-1`` for the last)."""
        values = {name: self._columns[name][index] for name in STAT_COLUMNS}
        return GenerationStats(**values)  # type: ignore[arg-type]

    def to_dict(self) -> dict[str, list[float]]:
        """The columns as plain lists (copies), for JSON or a checkpoint."""
        return {name: list(values) for name, values in self._columns.items()}


@dataclass(frozen=True)
class Snapshot:
    """The state of a run after one generation. Immutable; its arrays are read-only.

    Attributes:
        stats: The generation's statistics (also the last row of the history).
        n: The board size.
        encoding: The encoding's name.
        seed: The seed of the run.
        max_fitness: The fitness of a solution under this run's shape.
        population: ``(P, N)`` genomes.
        fitness: ``(P,)`` fitness, higher is better.
        conflicts: ``(P,)`` attacking pairs.
        best_index: Row of the best individual (highest fitness, then fewest conflicts).
        stop_reason: Which stop rule fired, or ``None`` while the run goes on.
        solutions: ``(S, N)`` every distinct solution met so far, rows by column, in the order
            found (the same read-only array until a new one is found).
        fundamental_solutions: How many symmetry classes those solutions cover.
    """

    stats: GenerationStats
    n: int
    encoding: str
    seed: int
    max_fitness: float
    population: Genomes
    fitness: FloatArray
    conflicts: IntArray
    best_index: int
    stop_reason: str | None
    solutions: Genomes
    fundamental_solutions: int

    @property
    def generation(self) -> int:
        """Generations done (0: the initial population)."""
        return self.stats.generation

    @property
    def evaluations(self) -> int:
        """Fitness evaluations so far."""
        return self.stats.evaluations

    @property
    def elapsed(self) -> float:
        """Seconds of computing so far."""
        return self.stats.elapsed

    @property
    def best(self) -> Genomes:
        """The best genome (a read-only row of the population)."""
        return np.asarray(self.population[self.best_index], dtype=np.int64)

    @property
    def best_conflicts(self) -> int:
        """Conflicts of the best individual."""
        return int(self.conflicts[self.best_index])

    @property
    def solved(self) -> bool:
        """Whether the best individual has no conflicts."""
        return self.best_conflicts == 0

    @property
    def finished(self) -> bool:
        """Whether a stop rule has fired."""
        return self.stop_reason is not None

    @property
    def solutions_text(self) -> str:
        """``found 57 / 92 (11 / 12 fundamental)`` where the totals are known, else ``found K``."""
        known = KNOWN_TOTALS.get(self.n)
        found = self.solutions.shape[0]
        if known is None:
            return f"found {found}"
        return f"found {found} / {known[0]} ({self.fundamental_solutions} / {known[1]} fundamental)"

    def queens(self, index: int | None = None) -> list[tuple[int, int]]:
        """(row, column) of each queen of an individual (the best by default), 0-based."""
        genome = self.best if index is None else self.population[index]
        return queens_of(genome, ENCODINGS[self.encoding], self.n)
