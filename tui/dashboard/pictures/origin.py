"""Where an inspected individual came from: its parents, its operator, where each queen came from.

No Textual here. :func:`origin_of` reads a snapshot's :class:`~engine.lineage.lineage.Lineage`: the
individual's kind and operator, its parents in generation ``g - 1`` (index, fitness and
conflicts, from the lineage's copy of that generation as published), and for each of its queens
the parent it came from: a gene equal to the first parent's gene at the same position came from
the first parent, equal to the second's from the second, equal to both's from both; a gene the
mutation (or the local search) changed is *moved*; a crossed child's gene that is at neither
parent's position (a permutation crossover's repair puts it there) came from neither.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

import numpy as np
import numpy.typing as npt

from engine import Snapshot
from engine.lineage.lineage import COPY, CROSSED, KIND, KIND_NAMES, MOSTLY_SECOND, MUTATED, NEW

FROM_NEITHER: Final = 0
"""Queen origin: from no parent's same position (a new individual, a crossover's repair)."""
FROM_FIRST: Final = 1
"""Queen origin: the first parent's gene at that position."""
FROM_SECOND: Final = 2
"""Queen origin: the second parent's gene at that position."""
FROM_BOTH: Final = 3
"""Queen origin: both parents had that gene at that position."""
MOVED: Final = 4
"""Queen origin: the mutation (or the local search) changed that gene."""
ORIGIN_NAMES: Final = ("neither", "parent 1", "parent 2", "both", "moved")
"""The queen origins' names, by origin."""
ORIGIN_COLOURS: Final = ("", "#5fd7ff", "#ff87d7", "#e4e4e4", "#d78700")
"""The colour of a queen by origin, on the board and in its key (none: the queen colour)."""


@dataclass(frozen=True)
class Parent:
    """One parent of an inspected individual, in generation ``g - 1``.

    Attributes:
        index: Its index in that generation's population.
        fitness: Its fitness.
        conflicts: Its attacking pairs.
        main: Whether it gave the child most of its queens (the first on a tie).
    """

    index: int
    fitness: float
    conflicts: int
    main: bool


@dataclass(frozen=True)
class Origin:
    """Where one individual of generation ``generation`` came from.

    Attributes:
        generation: The individual's generation.
        index: Its index in that population.
        kind: ``new``, ``survivor``, ``copy`` or ``crossed``.
        operator: How it was made, for people (``crossed (pmx), mutated: 2 queens moved``).
        parents: Its parents in generation ``generation - 1``, the first parent first (none
            for a new individual).
        queens: ``(N,)`` each queen's origin (:data:`FROM_FIRST` ... :data:`MOVED`).
        moved: How many queens the mutation moved.
    """

    generation: int
    index: int
    kind: str
    operator: str
    parents: tuple[Parent, ...]
    queens: npt.NDArray[np.int8]
    moved: int

    @property
    def main_parent(self) -> Parent | None:
        """The parent that gave most of the queens (``None`` for a new individual)."""
        return next((parent for parent in self.parents if parent.main), None)

    @property
    def other_parent(self) -> Parent | None:
        """The parent that is not the main one (``None`` unless crossed)."""
        return next((parent for parent in self.parents if not parent.main), None)

    def counts(self) -> dict[str, int]:
        """Queens by origin name, those with at least one."""
        counted = np.bincount(self.queens, minlength=len(ORIGIN_NAMES))
        return {
            name: int(count) for name, count in zip(ORIGIN_NAMES, counted, strict=True) if count
        }


def origin_of(snapshot: Snapshot, index: int) -> Origin | None:
    """Where individual ``index`` of ``snapshot`` came from (``None``: the run keeps no
    lineage for that generation, e.g. a run restored from a keyframe at that generation)."""
    lineage = snapshot.lineage
    if lineage is None:
        return None
    flags = int(lineage.flags[index])
    kind = flags & KIND
    first, second = (int(parent) for parent in lineage.parents[index])
    # By position, not index: a couple may be one individual twice.
    second_is_main = bool(flags & MOSTLY_SECOND)
    genome = np.asarray(snapshot.population[index])
    moved = np.asarray(lineage.moved[index], dtype=bool)
    queens = np.full(genome.shape[0], FROM_NEITHER, dtype=np.int8)
    parents: list[Parent] = []
    if kind != NEW and first >= 0:
        before = np.asarray(lineage.unmutated[index])
        previous = lineage.previous
        from_first = before == previous[first]
        from_second = before == previous[second] if second >= 0 else np.zeros_like(from_first)
        queens[from_first] = FROM_FIRST
        queens[from_second] = FROM_SECOND
        queens[from_first & from_second] = FROM_BOTH
        for parent, main in ((first, not second_is_main), (second, second_is_main)):
            if parent >= 0:
                parents.append(
                    Parent(
                        index=parent,
                        fitness=float(lineage.previous_fitness[parent]),
                        conflicts=int(lineage.previous_conflicts[parent]),
                        main=main,
                    )
                )
    queens[moved] = MOVED
    moved_count = int(moved.sum())
    return Origin(
        generation=snapshot.generation,
        index=index,
        kind=KIND_NAMES[kind],
        operator=_operator_text(kind, flags, lineage.operators.crossover, moved_count),
        parents=tuple(parents),
        queens=queens,
        moved=moved_count,
    )


def _operator_text(kind: int, flags: int, crossover: str, moved: int) -> str:
    """``crossed (pmx), mutated: 2 queens moved``, ``copy``, ``survivor``, ``new``."""
    made = f"crossed ({crossover})" if kind == CROSSED else KIND_NAMES[kind]
    if kind in (COPY, CROSSED) and flags & MUTATED:
        return f"{made}, mutated: {moved} queen{'s' if moved != 1 else ''} moved"
    return made
