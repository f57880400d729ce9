"""What one generation decided about its children, noted by the algorithm as it goes.

:class:`Births` keeps references to what the generation made (the couples, which crossed, the
generator's state before the crossover, the children as it made them, which passed the filters,
the survivors, the newcomers) and builds the generation's :class:`~engine.lineage.lineage.Lineage`
from them when it is published. A run without lineage notes nothing (:data:`UNNOTED`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

import numpy as np

from engine.arrays import BoolArray, FloatArray, Genomes, IntArray
from engine.lineage.lineage import Lineage, Operators
from engine.operators.registry import crossover_of

_NO_PAIRS: Final = np.zeros((0, 2), dtype=np.int64)
_NO_PAIRS.flags.writeable = False
_NO_INDICES: Final = np.zeros(0, dtype=np.int64)
_NO_INDICES.flags.writeable = False


class Births:
    """What one generation decided about its children, noted by the algorithm as it goes.

    Each ``note_*`` keeps references; nothing is copied or drawn.

    Args:
        operators: The operators that made the children.
        previous_best: The best individual of the generation the parents are in.
        first: The births of generation 0, which has no parents.
    """

    # What nothing was noted about yet (shared, never changed: a note replaces it).
    pairs: IntArray = _NO_PAIRS
    crossing: IntArray = _NO_INDICES
    children_per_couple: int = 2
    wanted: int = 0
    generator: tuple[type[np.random.BitGenerator], Mapping[str, Any]] | None = None
    crossed: tuple[Genomes, ...] = ()
    crossed_in_place: bool = False
    unique: BoolArray | None = None
    evaluated_fitness: FloatArray | None = None
    passed: BoolArray | None = None
    survivors: IntArray = _NO_INDICES
    newcomers: IntArray | None = None

    def __init__(
        self, operators: Operators, previous_best: int = -1, *, first: bool = False
    ) -> None:
        self.operators = operators
        self.previous_best = previous_best
        self.first = first

    def note_couples(
        self, pairs: IntArray, crossing: IntArray, children_per_couple: int, wanted: int
    ) -> None:
        """The couples (rows of parents' indices), which of them cross, and the children made:
        couple ``k``'s children are the first ``wanted`` of rows ``k * children_per_couple``."""
        self.pairs, self.crossing = pairs, crossing
        self.children_per_couple, self.wanted = children_per_couple, wanted

    def cross(
        self, crossover: str, first: Genomes, second: Genomes, rng: np.random.Generator
    ) -> tuple[Genomes, Genomes]:
        """The crossover of that name (a built-in or a plug-in, see
        :mod:`engine.operators.registry`) on the couples,
        noting the generator's state before it draws (read, not advanced) and the children as
        it made them (the run never changes those arrays afterwards): its first children, and
        its second ones when a couple has two children."""
        bit_generator = rng.bit_generator
        self.generator = (type(bit_generator), bit_generator.state)
        made = crossover_of(crossover)(first, second, rng)
        self.crossed = made[: self.children_per_couple]
        return made

    def note_crossed_in_place(self, rng: np.random.Generator) -> None:
        """The children were crossed where they are, and then mutated there: their crossover
        is not kept but made again when asked for (:meth:`made_by_crossover`), from the
        generator's state noted here, before it draws."""
        bit_generator = rng.bit_generator
        self.generator = (type(bit_generator), bit_generator.state)
        self.crossed, self.crossed_in_place = (), True

    def made_by_crossover(self, previous: Genomes) -> tuple[Genomes, ...]:
        """The crossed children as the crossover made them (see :meth:`cross`): the first
        ones, and the second ones when a couple has two; made again from ``previous`` (the
        parents' generation) when they were crossed in place."""
        if not self.crossed_in_place or self.generator is None:
            return self.crossed
        kind, state = self.generator
        bit_generator = kind()
        bit_generator.state = state
        first = previous.take(self.pairs[self.crossing, 0], axis=0)
        second = previous.take(self.pairs[self.crossing, 1], axis=0)
        made = crossover_of(self.operators.crossover)(
            first, second, np.random.Generator(bit_generator)
        )
        return made[: self.children_per_couple]

    def note_unique(self, kept: BoolArray) -> None:
        """Which children were never seen before (the others were dropped)."""
        self.unique = kept

    def note_evaluated(self, fitness: FloatArray) -> None:
        """The fitness of the children that remained after the uniqueness filter, as
        evaluated (before the threshold, if any)."""
        self.evaluated_fitness = fitness

    def note_passed(self, passed: BoolArray) -> None:
        """Which of the remaining children passed the threshold."""
        self.passed = passed

    def note_survivors(self, survivors: IntArray) -> None:
        """The survivors: indices in ``[parents; children that remain]``."""
        self.survivors = survivors

    def note_newcomers(self, rows: IntArray) -> None:
        """The rows the harvest gave to newcomers."""
        self.newcomers = rows

    def lineage(
        self,
        generation: int,
        population: Genomes,
        best_index: int,
        previous: Genomes,
        previous_fitness: FloatArray,
        previous_conflicts: IntArray,
    ) -> Lineage | None:
        """The lineage of the generation these births made.

        Args:
            generation: The generation.
            population: Its population, as published (read-only).
            best_index: Its best individual.
            previous: The population of the generation before (read-only).
            previous_fitness: Its fitness (read-only).
            previous_conflicts: Its conflicts (read-only).
        """
        if self.first:
            return Lineage(
                generation=generation,
                population=population,
                best_index=best_index,
                operators=self.operators,
            )
        return Lineage(
            generation=generation,
            population=population,
            best_index=best_index,
            operators=self.operators,
            births=self,
            previous=previous,
            previous_fitness=previous_fitness,
            previous_conflicts=previous_conflicts,
            previous_best=self.previous_best,
        )


class Unnoted(Births):
    """Births of a run without lineage: nothing is noted."""

    def note_couples(
        self, pairs: IntArray, crossing: IntArray, children_per_couple: int, wanted: int
    ) -> None:
        """Nothing to note."""

    def cross(
        self, crossover: str, first: Genomes, second: Genomes, rng: np.random.Generator
    ) -> tuple[Genomes, Genomes]:
        """The crossover of that name on the couples, nothing noted."""
        return crossover_of(crossover)(first, second, rng)

    def note_crossed_in_place(self, rng: np.random.Generator) -> None:
        """Nothing to note."""

    def note_unique(self, kept: BoolArray) -> None:
        """Nothing to note."""

    def note_evaluated(self, fitness: FloatArray) -> None:
        """Nothing to note."""

    def note_passed(self, passed: BoolArray) -> None:
        """Nothing to note."""

    def note_survivors(self, survivors: IntArray) -> None:
        """Nothing to note."""

    def note_newcomers(self, rows: IntArray) -> None:
        """Nothing to note."""

    def lineage(
        self,
        generation: int,
        population: Genomes,
        best_index: int,
        previous: Genomes,
        previous_fitness: FloatArray,
        previous_conflicts: IntArray,
    ) -> Lineage | None:
        """None: nothing was noted."""
        return None


UNNOTED: Final = Unnoted(Operators("", "", local_search=False))
"""The births of every generation of a run without lineage."""
