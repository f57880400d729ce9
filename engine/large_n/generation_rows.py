"""Where a generation's children are made and its survivors gathered: chosen once per run.

The survivor selection names rows of ``[parents; children]``. Up to
:data:`~engine.genomes.encodings.LARGE_BOARD` queens that union is a scratch array kept from one
generation to the next (a fresh one each time costs more in page faults than in copying): the
children are gathered straight into its lower part and the survivors taken from it at once
(:class:`UnionRows`). On large boards the union is never built: the children get an array of
their own, and the survivors are written over its rows (:class:`LargeBoardRows`, see
:mod:`engine.large_n.survivor_rows`); copying the parents into a union held a fourth copy of the
genes at the run's peak (N = 10^7, P = 4: 160 MB). The next population is the same either way.
"""

from __future__ import annotations

from typing import Final, Protocol

import numpy as np

from engine.arrays import Genomes, IntArray
from engine.genomes.conflicts import BoardLines
from engine.genomes.encodings import LARGE_BOARD
from engine.large_n.survivor_rows import gathered_over_children

KEPT_SCRATCH_BYTES: Final = 32 * 2**20
"""Scratch arrays (the union of parents and children, the line counts) up to this size are kept
from one generation to the next, to be overwritten; larger ones are let go after use."""


def small_enough_to_keep(lines: BoardLines) -> bool:
    """Whether line counts are small enough to keep for the next generation to overwrite
    (:data:`KEPT_SCRATCH_BYTES`)."""
    held = sum(array.nbytes for array in (*lines.cells, *lines.occupancy))
    return held <= KEPT_SCRATCH_BYTES


class GenerationRows(Protocol):
    """Where a run's children live and its survivors are gathered from."""

    def children_slot(self, parents: Genomes, children: int) -> Genomes:
        """An array for ``children`` children of ``parents``, in their dtype (large boards'
        genes are int32, see engine.operators.greedy_start)."""
        ...

    def survivors(self, parents: Genomes, children: Genomes, survivors: IntArray) -> Genomes:
        """Rows ``survivors`` of ``[parents; children]``, as an array of their own."""
        ...

    def let_go(self) -> None:
        """The generation is over: let go of scratch too large to keep for the next one."""
        ...


class UnionRows:
    """Boards under :data:`~engine.genomes.encodings.LARGE_BOARD` queens: the survivors are
    gathered at once from a scratch union of parents and children.

    Args:
        n: The board size.
    """

    def __init__(self, n: int) -> None:
        self.n = n
        self.union: Genomes = np.empty((0, n), dtype=np.int64)

    def children_slot(self, parents: Genomes, children: int) -> Genomes:
        """Rows ``P .. P + children`` of the scratch union."""
        size = parents.shape[0]
        if self.union.shape[0] < size + children or self.union.dtype != parents.dtype:
            self.union = np.empty((size + children, self.n), dtype=parents.dtype)
        return self.union[size : size + children]

    def survivors(self, parents: Genomes, children: Genomes, survivors: IntArray) -> Genomes:
        """Rows ``survivors`` of the union, gathered at once."""
        return self._joined(parents, children).take(survivors, axis=0)

    def _joined(self, parents: Genomes, children: Genomes) -> Genomes:
        """``[parents; children]`` in the scratch union (valid until the next generation).

        Children that share memory with the union were gathered into their slot
        (:meth:`children_slot`, and mutated there); any others (filtered, or made elsewhere)
        are copied.
        """
        size, rows = parents.shape[0], parents.shape[0] + children.shape[0]
        if np.may_share_memory(children, self.union):
            self.union[:size] = parents
            return self.union[:rows]
        if self.union.shape[0] < rows or self.union.dtype != parents.dtype:
            self.union = np.empty((rows, self.n), dtype=parents.dtype)
        return np.concatenate([parents, children], out=self.union[:rows])

    def let_go(self) -> None:
        """Let go of a union over :data:`KEPT_SCRATCH_BYTES`."""
        if self.union.nbytes > KEPT_SCRATCH_BYTES:
            self.union = np.empty((0, self.n), dtype=np.int64)


class LargeBoardRows:
    """Boards of :data:`~engine.genomes.encodings.LARGE_BOARD` queens or more: the children get
    an array of their own, never kept, and the survivors are written over it."""

    def children_slot(self, parents: Genomes, children: int) -> Genomes:
        """A new array, which becomes the next population."""
        return np.empty((children, parents.shape[1]), dtype=parents.dtype)

    def survivors(self, parents: Genomes, children: Genomes, survivors: IntArray) -> Genomes:
        """The survivors over the children's rows when there are as many
        (:mod:`engine.large_n.survivor_rows`), else one by one into a new array."""
        size, n = parents.shape
        if children.shape[0] == survivors.shape[0]:
            return gathered_over_children(parents, children, survivors)
        population = np.empty((survivors.shape[0], n), dtype=parents.dtype)
        for row, survivor in enumerate(survivors.tolist()):
            population[row] = parents[survivor] if survivor < size else children[survivor - size]
        return population

    def let_go(self) -> None:
        """Nothing is kept."""


def rows_for(n: int) -> GenerationRows:
    """Where a run on an ``n`` x ``n`` board makes its children and gathers its survivors."""
    return LargeBoardRows() if n >= LARGE_BOARD else UnionRows(n)
