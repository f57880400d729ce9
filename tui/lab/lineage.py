"""An individual's ancestry: its line back to generation 0, one ancestor a generation.

At each generation the line follows the parent that gave the individual most of its queens
(the first parent on a tie; a copy's or a survivor's only parent), and lists the other parent
beside it. Each ancestor comes with its genome, fitness, conflicts and how it was made.

Where the generations come from is a :class:`GenerationSource`: the snapshots of a run held in
memory (:class:`SnapshotSource`), or a recorded run (:mod:`tui.lab.recorded_lineage`). The line
itself needs only each generation's *family* (parents and flags, as a run's record keeps them);
genomes are read from a few snapshots only: a survivor has its parent's genome, so only where
the line was made by crossing or copying are the populations on both sides needed.

:func:`best_descent` answers NetLogo's question: how often is the best of generation X + 1
the offspring of the best of generation X?
"""

from __future__ import annotations

from collections.abc import Collection, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple, Protocol

import numpy as np
import numpy.typing as npt

from engine import Snapshot
from engine.lineage.lineage import (
    COPY,
    CROSSED,
    FROM_BEST,
    KIND,
    MOSTLY_SECOND,
    NEW,
    SURVIVOR,
    Lineage,
)


class FamilyRow(NamedTuple):
    """Where one individual came from: its parents in the generation before (``-1``: none)
    and its flag byte (:mod:`engine.lineage.lineage`; :data:`~engine.lineage.lineage.MUTATED` may be
    absent)."""

    first: int
    second: int
    flags: int


class Family(Protocol):
    """Who one generation's individuals came from."""

    @property
    def best(self) -> int:
        """The generation's best individual."""
        ...

    def row(self, index: int) -> tuple[int, int, int]:
        """Individual ``index``'s ``(first parent, second parent, flags)``."""
        ...


class ArrayFamily:
    """A family held as arrays (a live lineage's, or one re-stepped).

    Args:
        parents: ``(P, 2)`` parents' indices, ``-1`` for none.
        flags: ``(P,)`` flag bytes.
        best: The generation's best individual.
    """

    def __init__(self, parents: npt.NDArray[np.int64], flags: npt.NDArray[np.uint8], best: int):
        self._parents = parents
        self._flags = flags
        self.best = best

    @classmethod
    def of(cls, lineage: Lineage) -> ArrayFamily:
        """The family a lineage describes, without :data:`~engine.lineage.lineage.MUTATED` (as a
        record keeps it)."""
        return cls(lineage.parents, lineage.origin_flags, lineage.best_index)

    def row(self, index: int) -> tuple[int, int, int]:
        """Individual ``index``'s parents and flags."""
        first, second = self._parents[index]
        return int(first), int(second), int(self._flags[index])


class Stretch(Protocol):
    """Consecutive generations, ``high`` down to ``low``, in each of which every individual
    survived in its own place (a run's record keeps them so)."""

    @property
    def high(self) -> int:
        """The newest generation of the stretch."""
        ...

    @property
    def low(self) -> int:
        """The oldest generation of the stretch."""
        ...

    @property
    def carried(self) -> int:
        """The generations whose best is the best of the generation before, carried over."""
        ...


Piece = tuple[int, Family] | Stretch
"""What a source gives, newest first: one generation's family, or a stretch in place."""


class GenerationSource(Protocol):
    """The generations of one run, as an ancestry reads them."""

    def families(self, top: int) -> Iterator[Piece]:
        """Generations ``top``, ``top - 1``, ..., 1, in that order: a ``(generation,
        family)`` each, or :class:`Stretch` es of them."""
        ...

    def snapshots(
        self, generations: Collection[int], lineage: Collection[int]
    ) -> Mapping[int, Snapshot]:
        """The snapshots of some generations; those of ``lineage`` (some of them) with their
        lineage, the others with or without."""
        ...


class SnapshotSource:
    """The generations of a run held in memory: ``snapshots[g]`` is generation ``g``'s, with
    its lineage (as a run stepped with lineage publishes them)."""

    def __init__(self, snapshots: Sequence[Snapshot]) -> None:
        self._snapshots = snapshots

    def families(self, top: int) -> Iterator[Piece]:
        """The families of generations ``top`` down to 1, one at a time."""
        for generation in range(top, 0, -1):
            yield generation, ArrayFamily.of(_lineage_of(self._snapshots[generation]))

    def snapshots(
        self, generations: Collection[int], lineage: Collection[int]
    ) -> Mapping[int, Snapshot]:
        """The snapshots of those generations (each with its lineage)."""
        return {generation: self._snapshots[generation] for generation in generations}


def _lineage_of(snapshot: Snapshot) -> Lineage:
    if snapshot.lineage is None:
        raise ValueError(f"generation {snapshot.generation} has no lineage")
    return snapshot.lineage


class Ancestor(NamedTuple):
    """One generation of an individual's line (a named tuple: a long run's line has one for
    each of its generations).

    Attributes:
        generation: The generation.
        individual: The ancestor's index in that generation's population.
        genome: Its genes.
        fitness: Its fitness.
        conflicts: Its attacking pairs.
        operator: How it was made: ``new``, ``survivor``, ``copy`` or the crossover's name,
            with ``+ mutation`` when the mutation changed it.
        parents: Its parents' indices in the generation before (none, one or two).
        followed: The parent the line goes on with (``None`` where the line ends).
        other: The parent not followed, when it had two.
    """

    generation: int
    individual: int
    genome: tuple[int, ...]
    fitness: float
    conflicts: int
    operator: str
    parents: tuple[int, ...]
    followed: int | None
    other: int | None

    def to_dict(self) -> dict[str, Any]:
        """Plain values, for JSON."""
        return {
            "generation": self.generation,
            "index": self.individual,
            "genome": list(self.genome),
            "fitness": self.fitness,
            "conflicts": self.conflicts,
            "operator": self.operator,
            "parents": list(self.parents),
            "followed": self.followed,
            "other": self.other,
        }


class _Step(NamedTuple):
    generation: int
    individual: int
    first: int
    second: int
    flags: int

    @property
    def kind(self) -> int:
        return self.flags & KIND

    @property
    def followed(self) -> int:
        return self.second if self.flags & MOSTLY_SECOND else self.first


class _Stay(NamedTuple):
    """A stretch of generations, ``high`` down to ``low``, the line at one index all along:
    one survivor of itself a generation."""

    high: int
    low: int
    individual: int


class Trace(NamedTuple):
    """An individual's ancestry and, over the same generations, how often a best descends
    from the best before it."""

    ancestors: list[Ancestor]
    descent: BestDescent


def trace(source: GenerationSource, generation: int, index: int, *, descent: bool = True) -> Trace:
    """Individual ``index`` of ``generation`` and its ancestors, one a generation, back to
    generation 0 (or to the newcomer of the harvest the line started from); with ``descent``,
    also :func:`best_descent` over generations 1 to ``generation``, read in the same pass.

    Args:
        source: The run's generations.
        generation: The generation of the individual.
        index: Its index in that population.
        descent: Count the bests that descend from the best before (else the count is 0).

    Returns:
        The individual first, then its ancestors generation by generation; and the count.
    """
    steps: list[_Step | _Stay] = []
    counted = BestDescent(0, 0, 0)
    at = index
    for piece in source.families(generation):
        if at < 0 and not descent:
            break
        if isinstance(piece, tuple):
            now, family = piece
            if at >= 0:
                step = _Step(now, at, *family.row(at))
                steps.append(step)
                at = step.followed
            if descent:
                counted = counted.counting(family)
            continue
        if at >= 0:  # nobody moved: the line stays at ``at`` all through the stretch
            steps.append(_Stay(piece.high, piece.low, at))
        if descent:
            counted = counted.in_place(piece)
    if at >= 0:
        steps.append(_Step(0, at, -1, -1, NEW))
    return Trace(_ancestors(source, generation, index, steps), counted)


def ancestry(source: GenerationSource, generation: int, index: int) -> list[Ancestor]:
    """Individual ``index`` of ``generation`` and its ancestors (see :func:`trace`)."""
    return trace(source, generation, index, descent=False).ancestors


def _ancestors(
    source: GenerationSource, generation: int, index: int, steps: list[_Step | _Stay]
) -> list[Ancestor]:
    """The steps of a line with their genomes, fitness, conflicts and operators.

    Genes are read only where the line was made (a copy or a crossed child): there the
    generation itself (for how it was made) and the one before (the parent's genes) are
    needed; a survivor has its parent's genes.
    """
    made = {
        step.generation
        for step in steps
        if isinstance(step, _Step) and step.kind in (COPY, CROSSED)
    }
    snapshots = source.snapshots({generation, *made, *(g - 1 for g in made)}, made)
    genome, fitness, conflicts = _individual(snapshots[generation], index)
    ancestors: list[Ancestor] = []
    for step in steps:
        if isinstance(step, _Stay):
            at = step.individual
            parents: tuple[int, ...] = (at,)
            ancestors += [
                Ancestor(g, at, genome, fitness, conflicts, "survivor", parents, at, None)
                for g in range(step.high, step.low - 1, -1)
            ]
            continue
        kind = step.kind
        parents = tuple(parent for parent in (step.first, step.second) if parent >= 0)
        followed = step.followed if step.followed >= 0 else None
        if kind in (COPY, CROSSED):
            operator = _lineage_of(snapshots[step.generation]).operator(step.individual)
        else:
            operator = "survivor" if kind == SURVIVOR else "new"
        other = step.first if step.flags & MOSTLY_SECOND else step.second
        ancestors.append(
            Ancestor(
                generation=step.generation,
                individual=step.individual,
                genome=genome,
                fitness=fitness,
                conflicts=conflicts,
                operator=operator,
                parents=parents,
                followed=followed,
                other=other if kind == CROSSED else None,
            )
        )
        if followed is not None and kind != SURVIVOR:
            # Made here: the parent's genes are the generation before's.
            genome, fitness, conflicts = _individual(snapshots[step.generation - 1], followed)
    return ancestors


def _individual(snapshot: Snapshot, index: int) -> tuple[tuple[int, ...], float, int]:
    """An individual's genome, fitness and conflicts."""
    genome = tuple(int(gene) for gene in snapshot.population[index])
    return genome, float(snapshot.fitness[index]), int(snapshot.conflicts[index])


@dataclass(frozen=True)
class BestDescent:
    """How often a generation's best descends from the best of the generation before.

    Attributes:
        generations: Generations looked at (1 to the last: each has a generation before).
        from_best: Those whose best has the previous best as a parent (itself carried over
            included).
        bred: Those whose best is a child (copy or crossed) of the previous best.
    """

    generations: int
    from_best: int
    bred: int

    def in_place(self, stretch: Stretch) -> BestDescent:
        """These counts with a stretch of generations in which everyone survived in place:
        a best whose parent was the best before is the best before, carried over."""
        count = stretch.high - stretch.low + 1
        return BestDescent(self.generations + count, self.from_best + stretch.carried, self.bred)

    def counting(self, family: Family) -> BestDescent:
        """These counts with one more generation's."""
        _, _, flags = family.row(family.best)
        if not flags & FROM_BEST:
            return BestDescent(self.generations + 1, self.from_best, self.bred)
        bred = (flags & KIND) in (COPY, CROSSED)
        return BestDescent(self.generations + 1, self.from_best + 1, self.bred + bred)

    @property
    def share(self) -> float:
        """``from_best / generations`` (0 without generations)."""
        return self.from_best / self.generations if self.generations else 0.0

    @property
    def bred_share(self) -> float:
        """``bred / generations`` (0 without generations)."""
        return self.bred / self.generations if self.generations else 0.0


def best_descent(source: GenerationSource, top: int) -> BestDescent:
    """NetLogo's question over generations 1 to ``top``: how often is the best of generation
    X + 1 the offspring of the best of generation X?

    The best of a generation is the snapshot's ``best_index`` (highest fitness, then fewest
    conflicts, then the first).
    """
    counted = BestDescent(0, 0, 0)
    for piece in source.families(top):
        counted = (
            counted.counting(piece[1]) if isinstance(piece, tuple) else counted.in_place(piece)
        )
    return counted
