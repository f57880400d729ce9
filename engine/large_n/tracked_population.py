"""The population's diagonal counts, kept from one generation to the next and updated in place.

A generation of the default config makes P children, each a copy of a parent (or, for one
couple in ten, a crossed child) moved by one swap; about half of them get in. Counting every
child's diagonals again, gathering every queen's counts to find the attacked ones, sorting
every column for the entropy and hashing every genome are each a pass over ``(P, N)``; at
N = 16,384 they were most of a generation. Here the counts, the attacked queens, the hashes and
the sorted columns of the population are kept, and a generation only:

- reads a copy's counts in its parent's row (a copy *is* its parent until it moves);
- counts the few crossed children afresh (:func:`engine.large_n.row_lines.count_children`);
- for each child that gets in, takes over the kept row of a board that left (its parent's,
  if the parent died) and moves there the queens in which the two boards differ
  (:mod:`engine.large_n.row_changes`): a copy's swap in its parent's row, a dozen queens or so in a
  long run's rows, which descend from few ancestors. A board far from the one it replaces
  (early in a run) has its parent's row, or its own fresh count, written whole instead, then
  its swap. A queen's "attacked" can only change where one of its lines goes from one queen
  to two or back, and the queen alone on a line is found from the sum of the columns on it
  (kept modulo 2**16 where the columns fit: a lone column is still exact);
- updates the hashes by the swap's change and re-sorts only the columns whose values changed.

Every number is the one the full computation gives (the counts are exact integers; the hashes
are the same sums modulo 2**64; the entropy is :func:`engine.genomes.diversity.column_entropy`'s,
from the same run lengths), so a run is the same bit for bit with or without this, with one proviso:
two boards are compared gene by gene only in the blocks of 64 whose hashes differ. A block that
differs by one gene or a swap always changes its hash (:mod:`engine.large_n.row_changes`); one that
differs in several keeps it with a chance of about 2**-48, and its kept counts would then be
wrong. A whole run at N = 16,384 (seed 0, 7,254 generations) meets 2.4 million blocks that
differ (counted): about one run in 10**8 could meet a collision. Comparing every block of the
rows followed instead made a generation 1.8 times as long (measured in one process,
alternated, N = 16,384, generations 1,500-2,300).

Slots: the kept rows are addressed by slot, not by the population's row: a survivor keeps its
slot from one generation to the next, so nothing moves but the rows that change."""

from __future__ import annotations

from typing import Final

import numpy as np

from engine.arrays import BoolArray, Genomes, HashArray, IntArray
from engine.genomes.diversity import column_runs, entropy_from_runs, sorts_columns
from engine.genomes.uniqueness import hash_weights
from engine.large_n.row_changes import Relocations, gene_changes, joined, relocate, swap_relocations
from engine.large_n.row_lines import (
    HASH_BLOCK,
    Moves,
    RowLines,
    attacked_blocks,
    block_hashes,
    column_dtype,
    column_sums,
    count_dtype,
    count_rows,
)

TRACKED_BYTES: Final = 64 * 2**20
"""The kept counts may take up to this much memory; beyond it a generation counts afresh."""

SMALLEST_N: Final = 2048
"""Boards below this size are counted afresh: there a whole count costs less than the extra
bookkeeping (the numpy calls, not the data, are most of a small generation). Default config,
seed 0, whole runs: 15% slower kept at N = 1,024, 18% faster at N = 2,048."""


def tracked_bytes(size: int, n: int) -> int:
    """Memory the kept counts, column sums, attacked queens and sorted columns take."""
    lines = 2 * (2 * n - 1)
    counts = size * lines * np.dtype(count_dtype(n)).itemsize
    sums = size * lines * np.dtype(column_dtype(n)).itemsize
    return counts + sums + size * n + size * n * 8


class TrackedPopulation:
    """The kept lines, hashes and sorted columns of a permutation population.

    Args:
        population: ``(P, N)`` permutations.
        n: The board size.
    """

    def __init__(self, population: Genomes, n: int) -> None:
        self.n = n
        self.size = population.shape[0]
        self.lines = count_rows(population, n)
        self.slot_of: IntArray = np.arange(self.size, dtype=np.int64)
        self.blocks: HashArray = block_hashes(population, n)
        self.attacked_blocks: IntArray = attacked_blocks(self.lines.attacked)
        self._sorted: Genomes | None = None
        self._runs: IntArray = np.zeros(0, dtype=np.int64)
        if sorts_columns(self.size, n):
            ordered = np.ascontiguousarray(population.T)
            ordered.sort(axis=1)
            self._sorted = ordered
            self._runs = np.bincount(column_runs(ordered), minlength=self.size + 1)

    def unique_fraction(self) -> float:
        """:func:`engine.genomes.diversity.unique_fraction` of the population, from the kept
        hashes."""
        hashes = np.sort(self.blocks.sum(axis=1, dtype=np.uint64))
        distinct = 1 + int(np.count_nonzero(hashes[1:] != hashes[:-1]))
        return float(distinct / self.size)

    def entropy(self) -> float | None:
        """:func:`engine.genomes.diversity.column_entropy` of the population, or ``None`` where that
        counts cells instead of sorting columns (small boards: the caller computes it)."""
        if self._sorted is None:
            return None
        return entropy_from_runs(self._runs, self.size, self.n)

    def advance(
        self,
        before: Genomes,
        after: Genomes,
        survivors: IntArray,
        sources: IntArray,
        crossed: RowLines,
        crossed_genomes: Genomes,
        moves: Moves,
        moved: BoolArray,
    ) -> bool:
        """Follow the population from ``before`` to ``after`` (the survivors).

        Args:
            before: The population the children came from.
            after: The next population.
            survivors: Its rows' indices in ``[before; children]``.
            sources: Per child, its parent's row in ``before`` for a copy, else
                ``-1 - k`` for row ``k`` of the crossed children.
            crossed: The crossed children's lines, before their moves (their sums may be
                left out: they are counted here for those that get in).
            crossed_genomes: The crossed children, before their moves.
            moves: Per child, the swap it made (read where ``moved``).
            moved: Per child, whether it made its swap.

        Returns:
            False when the survivors cannot be followed (a parent kept twice, or a population
            of another size): the caller then counts ``after`` afresh.
        """
        size = self.size
        if survivors.shape[0] != size:
            return False
        is_child = survivors >= before.shape[0]
        kept_rows = np.flatnonzero(~is_child)
        kept_slots = self.slot_of.take(survivors.take(kept_rows))
        alive = np.zeros(size, dtype=bool)
        alive[kept_slots] = True
        if np.count_nonzero(alive) != kept_rows.shape[0]:
            return False
        child_rows = np.flatnonzero(is_child)
        children = survivors.take(child_rows) - before.shape[0]
        source = sources.take(children)
        old_blocks = self.blocks
        self._rehash(
            survivors, kept_rows, child_rows, children, source, crossed_genomes, moves, moved
        )
        row_of_slot = np.empty(size, dtype=np.int64)
        row_of_slot[self.slot_of] = np.arange(size)
        source_slot = np.where(source >= 0, self.slot_of.take(source.clip(0)), -1)
        slot = self._take_over(alive, source_slot, child_rows, row_of_slot, old_blocks)
        # Each incoming row against the one whose slot it takes: where their genes differ.
        gone = row_of_slot.take(slot)
        differ = old_blocks.take(gone, axis=0) != self.blocks.take(child_rows, axis=0)
        most = int(FOLLOWED_SHARE * self.n)
        near = np.count_nonzero(differ, axis=1) <= most  # each block apart is a gene apart
        if self._sorted is None:  # only the rows that may be followed need comparing
            differ &= near[:, None]
        changes = gene_changes(before, gone, after, child_rows, differ)
        followed = near & (np.bincount(changes.pairs, minlength=child_rows.shape[0]) <= most)
        by_change = followed.take(changes.pairs).nonzero()[0]
        pairs = changes.pairs.take(by_change)
        moving = Relocations(
            slot.take(pairs),
            child_rows.take(pairs),
            changes.columns.take(by_change),
            changes.old_genes.take(by_change),
            changes.new_genes.take(by_change),
        )
        copied = (~followed).nonzero()[0]
        if copied.shape[0]:  # late in a run, seldom
            swaps = self._copy_rows(
                copied,
                slot,
                source_slot,
                source,
                child_rows,
                children,
                crossed,
                crossed_genomes,
                moves,
                moved,
            )
            moving = joined([swaps, moving])
        relocate(self.lines, self.attacked_blocks, moving, after)
        slot_of = np.empty(size, dtype=np.int64)
        slot_of[kept_rows] = kept_slots
        slot_of[child_rows] = slot
        self.slot_of = slot_of
        self._resort(after, changes.columns)
        return True

    def _take_over(
        self,
        alive: BoolArray,
        source_slot: IntArray,
        child_rows: IntArray,
        row_of_slot: IntArray,
        old_blocks: HashArray,
    ) -> IntArray:
        """The slot each incoming row takes over: one of a board that left.

        A copy whose parent died takes the parent's slot (the first such copy only): the two
        differ by the copy's swap. Every other incoming row takes the slot of a board that
        left and that no copy claims, the closest first (:func:`_closest_pairs`).
        """
        from_parent = source_slot >= 0
        claiming = np.zeros(child_rows.shape[0], dtype=bool)
        orphans = np.flatnonzero(from_parent & ~alive[source_slot.clip(0)])
        _, first = np.unique(source_slot.take(orphans), return_index=True)
        claiming[orphans[first]] = True
        free = ~alive
        free[source_slot[claiming]] = False
        slot = np.where(claiming, source_slot, -1)
        others = np.flatnonzero(~claiming)
        free_slots = np.flatnonzero(free)
        if others.shape[0]:
            order = _closest_pairs(
                old_blocks.take(row_of_slot.take(free_slots), axis=0),
                self.blocks.take(child_rows.take(others), axis=0),
            )
            slot[others.take(order)] = free_slots
        return slot

    def _copy_rows(
        self,
        copied: IntArray,
        slot: IntArray,
        source_slot: IntArray,
        source: IntArray,
        child_rows: IntArray,
        children: IntArray,
        crossed: RowLines,
        crossed_genomes: Genomes,
        moves: Moves,
        moved: BoolArray,
    ) -> Relocations:
        """Write the lines of the incoming rows ``copied`` (far from the boards whose slots
        they take) whole into their slots: a copy's from its parent's slot, a crossed child's
        from its count. Returns their swaps, still to be made."""
        lines = self.lines
        for child in copied.tolist():
            target, origin = int(slot[child]), int(source_slot[child])
            if origin == target:
                continue
            if origin >= 0:
                lines.counts[target] = lines.counts[origin]
                lines.sums[target] = lines.sums[origin]
                lines.attacked[target] = lines.attacked[origin]
                self.attacked_blocks[target] = self.attacked_blocks[origin]
            else:
                row = -1 - int(source[child])
                lines.counts[target] = crossed.counts[row]
                lines.sums[target] = column_sums(crossed_genomes[row : row + 1], self.n)[0]
                lines.attacked[target] = crossed.attacked[row]
                self.attacked_blocks[target] = attacked_blocks(crossed.attacked[row : row + 1])[0]
        swapped = copied.compress(moved.take(children.take(copied)))
        queen, other, queen_gene, other_gene = (part.take(children.take(swapped)) for part in moves)
        return swap_relocations(
            slot.take(swapped), child_rows.take(swapped), queen, other, queen_gene, other_gene
        )

    def _rehash(
        self,
        survivors: IntArray,
        kept_rows: IntArray,
        child_rows: IntArray,
        children: IntArray,
        source: IntArray,
        crossed_genomes: Genomes,
        moves: Moves,
        moved: BoolArray,
    ) -> None:
        """The block hashes of the next population: a kept row's, a copy's parent's or a
        crossed child's own, changed by its swap. A hash is ``sum(gene * w)`` modulo 2**64, so
        rows ``a`` (column i) and ``b`` (column j) trading places add ``(b - a) * w_i`` to
        column i's block and ``(a - b) * w_j`` to column j's."""
        blocks = np.empty_like(self.blocks)
        blocks[kept_rows] = self.blocks.take(survivors.take(kept_rows), axis=0)
        from_parent = source >= 0
        child_blocks = np.empty((children.shape[0], blocks.shape[1]), dtype=np.uint64)
        child_blocks[from_parent] = self.blocks.take(source[from_parent], axis=0)
        crossed = np.flatnonzero(~from_parent)
        if crossed.shape[0]:
            rows = crossed_genomes.take(-1 - source.take(crossed), axis=0)
            child_blocks[crossed] = block_hashes(rows, self.n)
        moving = np.flatnonzero(moved.take(children))
        if moving.shape[0]:
            i, j, a, b = (part.take(children.take(moving)) for part in moves)
            weights = hash_weights(self.n)
            # Unsigned arithmetic wraps modulo 2**64, as the hash does.
            step = b.astype(np.uint64) - a.astype(np.uint64)
            np.add.at(child_blocks, (moving, i // HASH_BLOCK), step * weights.take(i))
            np.add.at(
                child_blocks, (moving, j // HASH_BLOCK), (np.uint64(0) - step) * weights.take(j)
            )
        blocks[child_rows] = child_blocks
        self.blocks = blocks

    def _resort(self, after: Genomes, changed: IntArray) -> None:
        """Sort again the columns ``changed`` (any column whose values may have changed: at
        least those where an incoming row and the row whose slot it took differ; a column
        where every such pair agrees holds the same values as before), and update the run
        lengths."""
        if self._sorted is None or not changed.shape[0]:
            return
        marked = np.zeros(self.n, dtype=bool)  # each column once, in order
        marked[changed] = True
        changed = np.flatnonzero(marked)
        old = self._sorted.take(changed, axis=0)
        new = np.ascontiguousarray(after.take(changed, axis=1).T)
        new.sort(axis=1)
        minimum = self.size + 1
        self._runs -= np.bincount(column_runs(old), minlength=minimum)
        self._runs += np.bincount(column_runs(new), minlength=minimum)
        self._sorted[changed] = new


FOLLOWED_SHARE: Final = 1 / 40
"""An incoming row that differs from the row whose slot it takes in up to this share of its
genes is followed by moving those queens in the slot; one further apart has its lines written
whole. Measured at N = 4,096 and 16,384: a row written whole takes as long as moving N / 40
queens (9 ns a column against 0.37 us a queen)."""


CLOSEST_PAIRS: Final = 64
"""Rows replaced in a generation up to which they are paired closest first (the pairing
compares every dead row with every incoming one, and picks one pair at a time); beyond, in
order. (A copy whose parent died takes its parent's row, unpaired.)"""


def _closest_pairs(gone: HashArray, incoming: HashArray) -> IntArray:
    """For each dead row in turn, the incoming row (not taken yet) with the fewest block
    hashes apart from it: a greedy pairing, so that an incoming row takes over the kept row
    of a board much like it (fewer queens to move, fewer columns to sort again). Returns the
    incoming rows' order."""
    if gone.shape[0] > CLOSEST_PAIRS:
        return np.arange(incoming.shape[0], dtype=np.int64)
    apart = np.count_nonzero(gone[:, None, :] != incoming[None, :, :], axis=2)
    # A few dozen rows at most: plain lists cost less than a numpy call a row.
    left = list(range(incoming.shape[0]))
    order = []
    for distances in apart.tolist():
        choice = min(left, key=distances.__getitem__)  # the first of the closest, as argmin
        order.append(choice)
        left.remove(choice)
    return np.array(order, dtype=np.int64)
