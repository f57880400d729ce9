"""What a run publishes: a frozen :class:`Snapshot` per generation, and the full history.

Arrays in a snapshot are read-only and never modified after publication, so a consumer may
hold them without copying. The :class:`History` keeps one row of statistics per generation,
whether or not anyone looked at that generation's snapshot.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final, NamedTuple

import numpy as np
import numpy.typing as npt

from engine.arrays import FloatArray, Genomes, IntArray
from engine.genomes.encodings import ENCODINGS, queens_of
from engine.solutions.archive import KNOWN_TOTALS

if TYPE_CHECKING:
    from engine.lineage.lineage import Lineage
    from engine.operators.selection_pressure import SelectionPressure


def read_only(array: npt.NDArray[Any]) -> npt.NDArray[Any]:
    """Mark an array read-only and return it."""
    array.flags.writeable = False
    return array


class GenerationStats(NamedTuple):
    """One generation's statistics: a row of the history.

    A named tuple rather than a dataclass: one is made every generation, and the class itself
    is made at every start-up of every command.
    """

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


STAT_COLUMNS: Final = GenerationStats._fields

INTEGER_COLUMNS: Final = ("generation", "evaluations", "best_conflicts")
"""Columns held as int64; the others are float64."""

_STORED: Final = np.dtype(
    [(name, np.int64 if name in INTEGER_COLUMNS else np.float64) for name in STAT_COLUMNS[1:]]
)
"""One history row as stored: the generation is implied by the row's position."""

_FIRST_CHUNK: Final = 16
_LARGEST_CHUNK: Final = 4096


class History:
    """Per-generation statistics of a run, in typed columns, with no generation missing.

    Rows live in chunks of a structured numpy array (int64 for counts, float64 for the rest,
    72 bytes a row; the generation is implied by the position). Chunks double in size up to
    4,096 rows (or ``limit``) and are never moved once written, so a reader in another thread
    can read the rows published so far while the run appends. With a limit, at most about
    ``3 * limit`` rows' worth of chunks are held, and old chunks are let go as the run goes
    on: read a limited history from the thread that steps the run (or between steps).

    Indices are positions among the rows *held*, like a list's: ``0`` is the row of
    :attr:`first_generation`, ``-1`` the latest. A whole history (no ``limit``, started at
    generation 0, as every fresh run's is) has index = generation. With ``limit``, only the
    last ``limit`` rows are held; older ones are dropped and :attr:`first_generation` moves on.

    Args:
        rows: Columns to start from, keyed by :data:`STAT_COLUMNS` (lists or arrays of equal
            length, generations consecutive); ``None`` for an empty history.
        limit: Hold at most this many of the latest rows (``None``: all of them).
        first_generation: The generation the first appended row will have, when ``rows`` is
            empty or ``None``.

    Raises:
        ValueError: If ``limit`` is below 1.
    """

    def __init__(
        self,
        rows: Mapping[str, Sequence[float] | npt.NDArray[Any]] | None = None,
        *,
        limit: int | None = None,
        first_generation: int = 0,
    ) -> None:
        if limit is not None and limit < 1:
            raise ValueError(f"limit: {limit!r} is not allowed; a whole number >= 1 or None")
        self.limit = limit
        self._chunks: list[npt.NDArray[np.void]] = []
        self._chunk_starts: list[int] = []
        self._layout: tuple[list[npt.NDArray[np.void]], list[int]] = ([], [])
        """The chunks and their starts as one value, swapped whole: a reader in another
        thread takes both at once (:meth:`since`)."""
        self._start = int(first_generation)
        """Generation of the first row ever appended (held or dropped)."""
        self._count = 0
        """Rows appended since :attr:`_start`, dropped ones included."""
        if rows is not None and len(rows["generation"]):
            generations = np.asarray(rows["generation"], dtype=np.int64)
            self._start = int(generations[0])
            self._extend({name: rows[name] for name in STAT_COLUMNS[1:]}, len(generations))

    def _extend(self, columns: Mapping[str, Any], count: int) -> None:
        block = np.empty(count, dtype=_STORED)
        for name in STAT_COLUMNS[1:]:
            block[name] = np.asarray(columns[name])
        keep = count if self.limit is None else min(count, self.limit)
        self._add_chunk(max(keep, _FIRST_CHUNK), block[count - keep :], self._count + count - keep)
        self._count += count
        self._drop_old()

    def _add_chunk(self, size: int, rows: npt.NDArray[np.void], first_index: int) -> None:
        chunk = np.zeros(size, dtype=_STORED)
        chunk[: rows.shape[0]] = rows
        self._chunks = [*self._chunks, chunk]
        self._chunk_starts = [*self._chunk_starts, first_index]
        self._layout = (self._chunks, self._chunk_starts)

    def _drop_old(self) -> None:
        """Forget the chunks that hold only rows older than the last ``limit``."""
        if self.limit is None:
            return
        oldest = self._count - self.limit
        drop = 0
        while drop + 1 < len(self._chunks) and self._chunk_starts[drop + 1] <= oldest:
            drop += 1
        if drop:
            # New lists: a reader holding the old ones still reads valid chunks.
            self._chunks = self._chunks[drop:]
            self._chunk_starts = self._chunk_starts[drop:]
            self._layout = (self._chunks, self._chunk_starts)

    def append(self, stats: GenerationStats) -> None:
        """Add the next generation's row.

        Raises:
            ValueError: If ``stats`` is not the generation after the last one.
        """
        if self._count == 0 and not self._chunks:
            self._start = stats.generation
        expected = self._start + self._count
        if stats.generation != expected:
            raise ValueError(f"history: generation {stats.generation} appended, {expected} due")
        if self._chunks:
            last, first_index = self._chunks[-1], self._chunk_starts[-1]
            used = self._count - first_index
        if not self._chunks or used == last.shape[0]:
            largest = _LARGEST_CHUNK if self.limit is None else max(_FIRST_CHUNK, self.limit)
            size = (
                _FIRST_CHUNK
                if not self._chunks
                else min(2 * last.shape[0], largest, _LARGEST_CHUNK)
            )
            self._add_chunk(size, np.empty(0, dtype=_STORED), self._count)
            last, used = self._chunks[-1], 0
        last[used] = tuple(getattr(stats, name) for name in STAT_COLUMNS[1:])
        # Published after the row is written: a reader never sees a half-written row.
        self._count += 1
        self._drop_old()

    @property
    def first_generation(self) -> int:
        """The generation of the first row held (index 0)."""
        if self.limit is None:
            return self._start
        return self._start + max(0, self._count - self.limit)

    def __len__(self) -> int:
        """Rows held."""
        held = self._count if self.limit is None else min(self._count, self.limit)
        return held

    def _held_slice(self, name: str, start: int) -> npt.NDArray[Any]:
        """Column ``name`` (stored) of the held rows from index ``start``, as a new array."""
        count = self._count  # read before the chunks: those rows are all written
        chunks, starts = self._chunks, self._chunk_starts
        held = count if self.limit is None else min(count, self.limit)
        first = count - held
        begin = first + range(held)[start:].start
        pieces = []
        for chunk, chunk_start in zip(chunks, starts, strict=True):
            low = max(begin, chunk_start) - chunk_start
            high = min(count, chunk_start + chunk.shape[0]) - chunk_start
            if high > low:
                pieces.append(chunk[name][low:high])
        dtype = np.int64 if name in INTEGER_COLUMNS else np.float64
        return np.concatenate(pieces) if pieces else np.empty(0, dtype=dtype)

    def column(self, name: str, start: int = 0) -> FloatArray:
        """One statistic over the held rows from index ``start`` on, as a new float64 array.

        Args:
            name: One of :data:`STAT_COLUMNS`.
            start: An index among the held rows (negative: from the end), as in a list slice.
        """
        if name == "generation":
            count = self._count
            held = count if self.limit is None else min(count, self.limit)
            positions = np.arange(held)[start:]
            return np.asarray(positions + (self._start + count - held), dtype=np.float64)
        if name not in STAT_COLUMNS:
            raise KeyError(name)
        return np.asarray(self._held_slice(name, start), dtype=np.float64)

    def since(self, generation: int, names: Sequence[str]) -> dict[str, FloatArray]:
        """Columns ``names`` of the rows from ``generation`` on, as float64 arrays, with the
        ``generation`` of each row: safe to call from another thread while the run appends
        (and lets old rows go). Rows already let go are left out: the ``generation`` column
        says which rows came."""
        count = self._count  # before the chunks: the rows below it are written in them
        chunks, starts = self._layout
        held_from = starts[0] if starts else count
        begin = min(count, max(generation - self._start, held_from, 0))
        result: dict[str, FloatArray] = {
            "generation": np.arange(begin, count, dtype=np.float64) + self._start
        }
        for name in names:
            if name == "generation":
                continue
            if name not in STAT_COLUMNS:
                raise KeyError(name)
            pieces = []
            for chunk, chunk_start in zip(chunks, starts, strict=True):
                low = max(begin, chunk_start) - chunk_start
                high = min(count, chunk_start + chunk.shape[0]) - chunk_start
                if high > low:
                    pieces.append(chunk[name][low:high])
            joined = np.concatenate(pieces) if pieces else np.empty(0)
            result[name] = np.asarray(joined, dtype=np.float64)
        return result

    def integers(self, name: str, start: int = 0) -> IntArray:
        """A count column (:data:`INTEGER_COLUMNS`) as int64, exact at any size."""
        if name == "generation":
            return np.asarray(self.column(name, start), dtype=np.int64)
        if name not in INTEGER_COLUMNS:
            raise KeyError(name)
        return np.asarray(self._held_slice(name, start), dtype=np.int64)

    def row(self, index: int) -> GenerationStats:
        """The statistics of one held row (``-1`` for the last).

        Raises:
            IndexError: If no row is held at ``index``.
        """
        count = self._count
        held = count if self.limit is None else min(count, self.limit)
        try:
            position = range(count - held, count)[index]
        except IndexError:
            raise IndexError(f"history: no row at index {index} ({held} held)") from None
        chunks, starts = self._chunks, self._chunk_starts
        chunk_index = int(np.searchsorted(starts, position, side="right")) - 1
        stored = chunks[chunk_index][position - starts[chunk_index]]
        values: dict[str, Any] = {"generation": self._start + position}
        for name in STAT_COLUMNS[1:]:
            value = stored[name]
            values[name] = int(value) if name in INTEGER_COLUMNS else float(value)
        return GenerationStats(**values)

    def arrays(self) -> dict[str, npt.NDArray[Any]]:
        """The held columns as new typed arrays (int64 counts, float64 the rest)."""
        result: dict[str, npt.NDArray[Any]] = {"generation": self.integers("generation")}
        for name in STAT_COLUMNS[1:]:
            result[name] = self._held_slice(name, 0).copy()
        return result

    def to_dict(self) -> dict[str, list[float]]:
        """The held columns as plain lists (ints for counts), for JSON or a checkpoint."""
        return {name: values.tolist() for name, values in self.arrays().items()}

    def nbytes(self) -> int:
        """Bytes held by the chunks (what the history costs in memory, overheads aside)."""
        return sum(chunk.nbytes for chunk in self._chunks)


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
        lineage: Where each individual came from (its parents in the generation before, how
            it was made), or ``None`` when unknown: a run without lineage, or the first
            generation of a run resumed from a checkpoint (past generation 0).
        selection: How hard the selection that picked this generation's parents (from
            generation ``g - 1``) pressed, beside its expectation; ``None`` for generation 0
            and for the generation a run is restored at (its selection is not kept).
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
    lineage: Lineage | None = None
    selection: SelectionPressure | None = None

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
