"""Where each individual of a generation came from: its :class:`Lineage`.

For every individual of generation ``g``: how it got there (carried over from ``g - 1``, made by
crossing two parents of ``g - 1``, an uncrossed copy of one, or new: the initial population and
the harvest's newcomers), its parents' indices in generation ``g - 1``, the crossover's draws that
made it, and which of its genes the mutation changed (the local search's swaps count as
mutation).

The algorithm notes what it decides anyway, as it goes (:class:`engine.lineage.births.Births`): the
couples, which
of them crossed, the generator's state before the crossover, the children as the crossover
made them, which children passed the uniqueness filter and the threshold, the survivors and
the newcomers. Those are references to arrays the run made and never changes again: noting
them draws no random number and copies nothing, so a run with its lineage is the run without,
bit for bit. The rest is worked out from them when first asked for, vectorized over the
population, and kept: a generation nobody asks about pays a few assignments for its lineage.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cached_property
from typing import Any, Final, NamedTuple, Protocol

import numpy as np
import numpy.typing as npt

from engine.arrays import BoolArray, FlagArray, FloatArray, Genomes, IntArray
from engine.lineage.origins import COPY as COPY
from engine.lineage.origins import CROSSED as CROSSED
from engine.lineage.origins import NEW as NEW
from engine.lineage.origins import SURVIVOR as SURVIVOR
from engine.lineage.origins import (
    NotedBirths,
    Origins,
    child_rows,
    in_place,
    in_place_bytes,
    origins_of,
    second_parents,
)
from engine.operators.crossover import CROSSOVER_PARTS, CrossoverDraws

KIND: Final = 0b11
"""The bits of a flag byte that hold the kind."""
MUTATED: Final = 0b100
"""Flag: the mutation (or the local search) changed at least one gene of the child."""
MOSTLY_SECOND: Final = 0b1000
"""Flag: the second parent gave the child more of its queens than the first did (a queen is
given where the child's gene equals the parent's gene at the same position)."""
BEST: Final = 0b1_0000
"""Flag: the generation's best individual (the snapshot's ``best_index``)."""
FROM_BEST: Final = 0b10_0000
"""Flag: one of its parents was the best individual of the generation before."""
KIND_NAMES: Final = ("new", "survivor", "copy", "crossed")
"""The kinds' names, by kind."""


class Operators(NamedTuple):
    """What made the children, for describing them.

    Attributes:
        crossover: The crossover's config name.
        mutation: The mutation's config name.
        local_search: Whether the local search improved the children after the mutation.
    """

    crossover: str
    mutation: str
    local_search: bool


class NotedGeneration(NotedBirths, Protocol):
    """What a lineage reads of what its generation noted (:class:`engine.lineage.births.Births`)."""

    generator: tuple[type[np.random.BitGenerator], Mapping[str, Any]] | None
    evaluated_fitness: FloatArray | None

    def made_by_crossover(self, previous: Genomes) -> tuple[Genomes, ...]:
        """The crossed children as the crossover made them."""
        ...


def _read_only(array: npt.NDArray[Any]) -> npt.NDArray[Any]:
    array.setflags(write=False)
    return array


def rows_differ(first: Genomes, second: Genomes) -> BoolArray:
    """Per row, whether two ``(K, N)`` arrays differ anywhere."""
    return np.asarray(np.not_equal(first, second).any(axis=1), dtype=bool)


class Lineage:
    """Where each individual of one generation came from. Read-only; worked out on first use.

    Generation 0 (and the first generation of a run resumed from a checkpoint at generation 0)
    has no parents: every individual is :data:`NEW`.

    Args:
        generation: The generation described.
        population: Its ``(P, N)`` genomes (read-only, as published).
        best_index: Its best individual.
        operators: The operators that made the children.
        births: What the generation noted; ``None`` for generation 0.
        previous: Generation ``g - 1``'s population (read-only), with ``births``.
        previous_fitness: Generation ``g - 1``'s fitness (read-only), with ``births``.
        previous_conflicts: Generation ``g - 1``'s conflicts (read-only), with ``births``.
        previous_best: Generation ``g - 1``'s best individual, with ``births``.
    """

    def __init__(
        self,
        *,
        generation: int,
        population: Genomes,
        best_index: int,
        operators: Operators,
        births: NotedGeneration | None = None,
        previous: Genomes | None = None,
        previous_fitness: FloatArray | None = None,
        previous_conflicts: IntArray | None = None,
        previous_best: int = -1,
    ) -> None:
        self.generation = generation
        self.operators = operators
        self._population = population
        self._best = best_index
        self._births = births
        self._previous = previous if previous is not None else population[:0]
        self._previous_fitness = (
            previous_fitness if previous_fitness is not None else np.zeros(0, dtype=np.float64)
        )
        self._previous_conflicts = (
            previous_conflicts if previous_conflicts is not None else np.zeros(0, dtype=np.int64)
        )
        self._previous_best = previous_best
        self._kept_origins: Origins | None = None
        self._kept_kind_flags: FlagArray | None = None

    @property
    def size(self) -> int:
        """Individuals in the generation (``P``)."""
        return int(self._population.shape[0])

    @property
    def best_index(self) -> int:
        """The generation's best individual (the snapshot's ``best_index``)."""
        return self._best

    @property
    def births(self) -> NotedGeneration | None:
        """What the generation noted about its children, all of them, also those that did
        not get in (``None`` for generation 0)."""
        return self._births

    @cached_property
    def made_by_crossover(self) -> tuple[Genomes, ...]:
        """The crossed children as the crossover made them, before the mutation
        (:meth:`engine.lineage.births.Births.made_by_crossover`; none for generation 0)."""
        if self._births is None:
            return ()
        return self._births.made_by_crossover(self._previous)

    @property
    def previous(self) -> Genomes:
        """Generation ``g - 1``'s ``(P', N)`` genomes, the parents' rows (read-only; no rows for
        generation 0)."""
        return self._previous

    @property
    def previous_fitness(self) -> FloatArray:
        """Generation ``g - 1``'s fitness, by row of :attr:`previous` (read-only)."""
        return self._previous_fitness

    @property
    def previous_conflicts(self) -> IntArray:
        """Generation ``g - 1``'s conflicts, by row of :attr:`previous` (read-only)."""
        return self._previous_conflicts

    @property
    def previous_best(self) -> int:
        """The best individual of the generation before (``-1`` for generation 0)."""
        return self._previous_best

    @property
    def all_in_place(self) -> bool:
        """Whether every individual is a survivor at its parent's own index (no child got in,
        nobody moved): the commonest generation of a long run, which a record keeps in a few
        bytes. Costs one comparison of the survivors' indices."""
        births = self._births
        if births is None or births.newcomers is not None:
            return False
        survivors, size = births.survivors, self._previous.shape[0]
        if survivors.shape[0] != size or (size and int(survivors[-1]) != size - 1):
            return False  # (the last survivor's place tells most generations with children)
        if survivors.dtype == np.int64:  # as bytes: a copy and a memcmp, a tenth of the time
            return survivors.tobytes() == in_place_bytes(size)
        return bool((survivors == in_place(size)).all())

    @property
    def _origins(self) -> Origins:
        # Kept by hand, not a cached_property: asked for every generation by the recorder,
        # whose first look at a cached_property takes a lock.
        origins = self._kept_origins
        if origins is None:
            origins = self._kept_origins = origins_of(
                self._births, self._previous.shape[0], self.size
            )
        return origins

    @cached_property
    def _second(self) -> IntArray:
        return second_parents(self._origins, self.size)

    @cached_property
    def _child(self) -> IntArray:
        """Each individual's index among the generation's children, ``-1`` for the others."""
        return child_rows(self._births, self._previous.shape[0], self.size)

    @cached_property
    def _crossed_rows(self) -> tuple[IntArray, IntArray]:
        """Per individual: its couple's row among the crossing couples (its draws' row), and
        its row among the crossover's children (first children, then second); ``-1`` for
        those not crossed."""
        origins, births = self._origins, self._births
        if births is None or not origins.crossed.shape[0]:
            return self._second, self._second
        crossed = self._second >= 0
        at = self._child.clip(0)
        couple = at if births.children_per_couple == 1 else at >> 1
        # The crossing couples are in increasing order (the draws' order).
        draw_row = np.where(crossed, np.searchsorted(births.crossing, couple), -1)
        if births.children_per_couple == 1:
            return draw_row, draw_row
        second_children = (at & 1) * births.crossing.shape[0]
        return draw_row, np.where(crossed, draw_row + second_children, -1)

    @cached_property
    def parents(self) -> IntArray:
        """``(P, 2)`` each individual's parents' indices in generation ``g - 1``, ``-1`` for
        none: a crossed child's two parents (the crossover's first parent first), a copy's or
        a survivor's one, and none for the new ones. Read-only."""
        parents = np.empty((self.size, 2), dtype=np.int64)
        parents[:, 0], parents[:, 1] = self._origins.first, self._second
        return _read_only(parents)

    @property
    def first_parents(self) -> IntArray:
        """``(P,)`` column 0 of :attr:`parents` (read-only), without building the pair."""
        return _read_only(self._origins.first)

    @property
    def second_parents(self) -> IntArray:
        """``(P,)`` column 1 of :attr:`parents` (read-only), without building the pair."""
        return _read_only(self._second)

    @property
    def crossed_second_parents(self) -> IntArray:
        """The second parents of the crossed children, in the order of their indices (the
        non-negative entries of :attr:`second_parents`, without building those). Read-only."""
        return _read_only(self._origins.crossed_parents[1])

    @property
    def kind_flags(self) -> FlagArray:
        """``(P,)`` the kind and :data:`MOSTLY_SECOND` of each individual: what a run's record
        keeps every generation (:data:`BEST` and :data:`FROM_BEST` follow from the best
        indices). Only the crossed children's genes are compared, so this costs a few
        whole-array operations (kept by hand, as :attr:`_origins`). Read-only."""
        if self._kept_kind_flags is not None:
            return self._kept_kind_flags
        origins = self._origins
        crossed = origins.crossed
        if not crossed.shape[0]:
            flags = origins.kinds
        else:
            flags = origins.kinds.copy()
            # Both parents' rows in one gather, compared with the children in one pass.
            rows = self._previous.take(origins.crossed_parents, axis=0)
            given = (rows == self._population.take(crossed, axis=0)).sum(axis=2)
            flags[crossed] = np.where(given[1] > given[0], CROSSED | MOSTLY_SECOND, CROSSED)
        self._kept_kind_flags = flags = _read_only(flags)
        return flags

    @cached_property
    def origin_flags(self) -> FlagArray:
        """``(P,)`` the flag bytes without :data:`MUTATED`: :attr:`kind_flags` with
        :data:`BEST` and :data:`FROM_BEST`. Read-only."""
        origins, best = self._origins, self._previous_best
        flags = self.kind_flags.copy()
        flags[self._best] |= BEST
        if best >= 0:
            from_best = origins.first == best
            crossed, seconds = origins.crossed, origins.crossed_parents[1]
            if crossed.shape[0]:  # a second parent is only a crossed child's
                from_best[crossed] |= seconds == best
            # In place where marked: one pass, no gather and scatter of the marked bytes.
            np.bitwise_or(flags, np.uint8(FROM_BEST), out=flags, where=from_best)
        return _read_only(flags)

    @cached_property
    def flags(self) -> FlagArray:
        """``(P,)`` one byte per individual: its kind (:data:`KIND` bits) and the flags
        :data:`MUTATED`, :data:`MOSTLY_SECOND`, :data:`BEST`, :data:`FROM_BEST`.

        :data:`MUTATED` compares every child that got in with itself before the mutation,
        gene by gene: several times the cost of :attr:`origin_flags`. Read-only.
        """
        flags = self.origin_flags.copy()
        children = np.flatnonzero(self._child >= 0)
        if children.shape[0]:
            before = self._unmutated_rows(children)
            changed = rows_differ(before, self._population.take(children, axis=0))
            flags[children[changed]] |= MUTATED
        return _read_only(flags)

    @property
    def kinds(self) -> FlagArray:
        """``(P,)`` each individual's kind: :data:`NEW`, :data:`SURVIVOR`, :data:`COPY` or
        :data:`CROSSED`."""
        return np.asarray(self.flags & KIND, dtype=np.uint8)

    @property
    def mutated(self) -> BoolArray:
        """``(P,)`` whether the mutation (or the local search) changed the individual."""
        return np.asarray(self.flags & MUTATED != 0, dtype=bool)

    def _unmutated_rows(self, rows: IntArray) -> Genomes:
        """Some individuals as they were before the mutation (new array)."""
        origins = self._origins
        if self._births is None:  # no parents: everyone is as they were made
            return self._population.take(rows, axis=0)
        before = self._previous.take(origins.first[rows].clip(0), axis=0)
        made = self._crossed_rows[1][rows]
        crossed = np.flatnonzero(made >= 0)
        if crossed.shape[0]:
            births = self._births
            assert births is not None  # only children have a row among the crossed
            made_by_crossover = self.made_by_crossover
            made_children = (
                np.concatenate(made_by_crossover)
                if len(made_by_crossover) > 1
                else made_by_crossover[0]
            )
            before[crossed] = made_children.take(made[crossed], axis=0)
        new = np.flatnonzero(origins.kinds[rows] == NEW)
        if new.shape[0]:
            before[new] = self._population.take(rows[new], axis=0)
        return before

    @cached_property
    def unmutated(self) -> Genomes:
        """``(P, N)`` each individual before the mutation: a crossed child as the crossover
        made it, a copy as its parent, a survivor or a new one as it is. Read-only."""
        return _read_only(self._unmutated_rows(np.arange(self.size)))

    @cached_property
    def moved(self) -> BoolArray:
        """``(P, N)`` the positions whose gene the mutation (or the local search) changed.
        Read-only."""
        return _read_only(np.asarray(self.unmutated != self._population, dtype=bool))

    @cached_property
    def draws(self) -> CrossoverDraws:
        """Per individual, the crossover's draws that made it (see :class:`CrossoverDraws`):
        ``low``, ``high`` are ``-1`` and ``coins`` all false for those not crossed.

        The draws are drawn again from the generator's state noted before the crossover, on
        a generator of the lineage's own: the run's generator is not touched. Read-only.
        """
        n = self._population.shape[1]
        births = self._births
        parts = CROSSOVER_PARTS.get(self.operators.crossover)
        count = 0 if births is None else births.crossing.shape[0]
        if births is None or births.generator is None or parts is None or count == 0:
            none = np.full(self.size, -1, dtype=np.int64)
            return CrossoverDraws(
                _read_only(none),
                _read_only(none.copy()),
                _read_only(np.zeros((self.size, 0), bool)),
            )
        kind, state = births.generator
        bit_generator = kind()
        bit_generator.state = state
        drawn = parts.draw(count, n, np.random.Generator(bit_generator))
        couple = self._crossed_rows[0]
        crossed = couple >= 0
        at = couple.clip(0)
        low = np.where(crossed, drawn.low.take(at), -1)
        high = np.where(crossed, drawn.high.take(at), -1)
        coins = drawn.coins.take(at, axis=0) & crossed[:, None]
        return CrossoverDraws(_read_only(low), _read_only(high), _read_only(coins))

    def main_parent(self, index: int) -> int:
        """The parent that gave individual ``index`` most of its queens (the first on a tie;
        a copy's or a survivor's only parent), ``-1`` for a new one."""
        first, second = (int(value) for value in self.parents[index])
        return second if self.flags[index] & MOSTLY_SECOND else first

    def operator(self, index: int) -> str:
        """How individual ``index`` was made, for people: ``new``, ``survivor``, ``copy``, or
        the crossover's name; with ``+ mutation`` when the mutation changed it."""
        flags = int(self.flags[index])
        kind = flags & KIND
        made = self.operators.crossover if kind == CROSSED else KIND_NAMES[kind]
        if not flags & MUTATED:
            return made
        mutation = self.operators.mutation
        if self.operators.local_search:
            mutation += " + local search"
        return f"{made} + {mutation}"
