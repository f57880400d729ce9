"""The live run's last generations, kept in memory for an unrecorded run's ancestry.

No Textual here. The engine thread hands every generation it steps to :meth:`LineageRing.observe`
(the runner's ``after_step``); the ring keeps the newest snapshots, each with its lineage,
within :data:`RING_BYTES` of arrays and :data:`RING_GENERATIONS` generations (whichever is
reached first; never fewer than :data:`RING_LEAST`). A snapshot is the run's own: keeping it
copies nothing, and the engine never changes its arrays. An ancestry read from the ring stops
at the oldest generation kept; a recorded run's whole line is in the store.
"""

from __future__ import annotations

import threading
from collections import deque
from typing import Final

import numpy as np

from engine import GeneticAlgorithm, Snapshot

RING_BYTES: Final = 64 * 2**20
"""Bytes of arrays the ring keeps at most (an estimate: populations, fitness, conflicts, the
crossover's children)."""
RING_GENERATIONS: Final = 5_000
"""Generations the ring keeps at most."""
RING_LEAST: Final = 2
"""Generations the ring keeps whatever their size: the newest and its parents'."""


def snapshot_bytes(snapshot: Snapshot) -> int:
    """About how many bytes of arrays a kept snapshot holds on to: its population, fitness and
    conflicts, and its lineage's crossover children (about one population more). The
    population before is the snapshot before's own, counted there."""
    population = int(snapshot.population.nbytes)
    return 2 * population + int(snapshot.fitness.nbytes) + int(snapshot.conflicts.nbytes)


class LineageRing:
    """The newest snapshots of the run being stepped, oldest first, within a memory budget.

    Args:
        budget: Bytes of arrays kept at most (see :func:`snapshot_bytes`).
        generations: Generations kept at most.
    """

    def __init__(self, budget: int = RING_BYTES, generations: int = RING_GENERATIONS) -> None:
        self.budget = budget
        self.limit = generations
        self._lock = threading.Lock()
        self._algorithm: GeneticAlgorithm | None = None
        self._kept: deque[tuple[Snapshot, int]] = deque()
        self._bytes = 0

    def observe(self, algorithm: GeneticAlgorithm, snapshot: Snapshot) -> None:
        """The engine stepped ``algorithm`` to ``snapshot`` (from the engine thread). Another
        run, or a generation that does not follow the last kept, starts the ring again."""
        size = snapshot_bytes(snapshot)
        with self._lock:
            kept = self._kept
            follows = kept and kept[-1][0].generation + 1 == snapshot.generation
            if algorithm is not self._algorithm or not follows:
                self._algorithm = algorithm
                kept.clear()
                self._bytes = 0
            kept.append((snapshot, size))
            self._bytes += size
            while len(kept) > RING_LEAST and (self._bytes > self.budget or len(kept) > self.limit):
                self._bytes -= kept.popleft()[1]

    def clear(self) -> None:
        """Forget every kept generation."""
        with self._lock:
            self._algorithm = None
            self._kept.clear()
            self._bytes = 0

    @property
    def span(self) -> tuple[int, int] | None:
        """The oldest and the newest generation kept (``None``: none)."""
        with self._lock:
            if not self._kept:
                return None
            return self._kept[0][0].generation, self._kept[-1][0].generation

    @property
    def kept_bytes(self) -> int:
        """Bytes of arrays kept (see :func:`snapshot_bytes`)."""
        with self._lock:
            return self._bytes

    def __len__(self) -> int:
        with self._lock:
            return len(self._kept)

    def at(self, generation: int, same_as: Snapshot | None = None) -> Snapshot | None:
        """The kept snapshot of ``generation``; with ``same_as`` (a snapshot of this run at
        the same or a later generation, say a replayed one), only if the ring holds that very
        generation of that run (its population is compared)."""
        with self._lock:
            kept = self._kept
            if not kept:
                return None
            first = kept[0][0].generation
            offset = generation - first
            if not 0 <= offset < len(kept):
                return None
            found = kept[offset][0]
            if same_as is not None:
                check = same_as.generation - first
                if not 0 <= check < len(kept):
                    return None
                mine = kept[check][0]
                if mine is not same_as and not np.array_equal(mine.population, same_as.population):
                    return None
            return found
