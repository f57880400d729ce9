"""The population's diagonal counts, kept from one generation to the next and updated in place.

A generation of the default config makes P children, each a copy of a parent (or, for one
couple in ten, a crossed child) moved by one swap; about half of them get in. Counting every
child's diagonals again, gathering every queen's counts to find the attacked ones, sorting
every column for the entropy and hashing every genome are each a pass over ``(P, N)``; at
N = 16,384 they were most of a generation. Here the counts, the attacked queens, the hashes and
the sorted columns of the population are kept, and a generation only:

- reads a copy's counts in its parent's row (a copy *is* its parent until it moves);
- counts the few crossed children afresh (:func:`count_rows`);
- for each child that gets in, copies its parent's row (unless the parent died and the row can
  be taken over) and applies the swap: four lines lose a queen and four gain one. A queen's
  "attacked" can only change where one of its lines goes from one queen to two or back, and
  the queen alone on a line is found from the sum of the columns on it (kept modulo 2**16
  where the columns fit: a lone column is still exact);
- updates the hashes by the swap's change and re-sorts only the columns whose values changed.

Every number is the one the full computation gives (the counts are exact integers; the hashes
are the same sums modulo 2**64; the entropy is :func:`engine.diversity.column_entropy`'s, from
the same run lengths), so a run is the same bit for bit with or without this.

Slots: the kept rows are addressed by slot, not by the population's row: a survivor keeps its
slot from one generation to the next, so nothing moves but the rows that change.
"""

from __future__ import annotations

from typing import Any, Final, NamedTuple

import numpy as np
import numpy.typing as npt

from engine.diversity import column_runs, entropy_from_runs, sorts_columns
from engine.encodings import Genomes
from engine.uniqueness import hash_weights

IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]
HashArray = npt.NDArray[np.uint64]

TRACKED_BYTES: Final = 64 * 2**20
"""The kept counts may take up to this much memory; beyond it a generation counts afresh."""

SMALLEST_N: Final = 2048
"""Boards below this size are counted afresh: there a whole count costs less than the extra
bookkeeping (the numpy calls, not the data, are most of a small generation). Default config,
seed 0, whole runs: 15% slower kept at N = 1,024, 18% faster at N = 2,048."""


def count_dtype(n: int) -> type[np.signedinteger[Any]]:
    """The narrowest signed integer that holds any line count of an N board (at most N)."""
    return np.int16 if n < 2**15 else np.int32


def column_dtype(n: int) -> type[np.unsignedinteger[Any]]:
    """The narrowest unsigned integer that holds any column (and, modulo its range, sums of
    columns)."""
    return np.uint16 if n <= 2**16 else np.uint32


def tracked_bytes(size: int, n: int) -> int:
    """Memory the kept counts, column sums, attacked queens and sorted columns take."""
    lines = 2 * (2 * n - 1)
    counts = size * lines * np.dtype(count_dtype(n)).itemsize
    sums = size * lines * np.dtype(column_dtype(n)).itemsize
    return counts + sums + size * n + size * n * 8


class RowLines(NamedTuple):
    """The lines of a batch of permutation boards, one row per board.

    Attributes:
        counts: ``(K, 2L)``: queens on each diagonal (``row - column + N - 1``, first ``L``)
            and anti-diagonal (``row + column``, next ``L``), ``L = 2N - 1``.
        sums: ``(K, 2L)``: the sum of the columns of the queens on each of those lines, modulo the
            range of its type (exact where one queen is alone).
        attacked: ``(K, N)``: whether the queen of each column shares a diagonal.
    """

    counts: npt.NDArray[Any]
    sums: npt.NDArray[Any]
    attacked: BoolArray


def _cells(genomes: Genomes, n: int) -> tuple[IntArray, IntArray]:
    """Each queen's diagonal and anti-diagonal cell in a ``(K, 2L)`` table, as flat indices."""
    lines = 2 * n - 1
    column = np.arange(n, dtype=np.int64)
    base = (np.arange(genomes.shape[0], dtype=np.int64) * (2 * lines))[:, None]
    return genomes + (base + (n - 1) - column), genomes + (base + lines + column)


def count_rows(genomes: Genomes, n: int, *, sums: bool = True) -> RowLines:
    """Count the diagonals of a ``(K, N)`` batch of permutations from scratch.

    Without ``sums``, :attr:`RowLines.sums` is left empty (``(K, 0)``): the crossed children
    need them only if they get in (see :func:`column_sums`).
    """
    size, lines = genomes.shape[0], 2 * n - 1
    down, up = _cells(genomes, n)
    counts_type = count_dtype(n)
    counts = np.zeros(size * 2 * lines, dtype=counts_type)
    for cells in (down, up):
        np.add.at(counts, cells.ravel(), counts_type(1))
    attacked = counts.take(down) > 1
    attacked |= counts.take(up) > 1
    kept_sums = column_sums(genomes, n) if sums else np.zeros((size, 0), dtype=column_dtype(n))
    return RowLines(counts.reshape(size, 2 * lines), kept_sums, attacked)


def column_sums(genomes: Genomes, n: int) -> npt.NDArray[Any]:
    """:attr:`RowLines.sums` of a ``(K, N)`` batch of permutations."""
    size, lines = genomes.shape[0], 2 * n - 1
    columns_type = column_dtype(n)
    sums = np.zeros(size * 2 * lines, dtype=columns_type)
    columns = np.broadcast_to(np.arange(n, dtype=columns_type), genomes.shape).ravel()
    for cells in _cells(genomes, n):
        np.add.at(sums, cells.ravel(), columns)
    return sums.reshape(size, 2 * lines)


def row_conflicts(counts: npt.NDArray[Any], n: int) -> IntArray:
    """Attacking pairs of each row of :attr:`RowLines.counts`: ``sum of k(k-1)/2``."""
    squares = np.einsum("ij,ij->i", counts, counts, dtype=np.int64)
    return np.asarray((squares - 2 * n) // 2, dtype=np.int64)


HASH_BLOCK: Final = 64
"""Genes per block hash: two rows whose block hashes agree hold the same genes there."""


def block_hashes(genomes: Genomes, n: int) -> HashArray:
    """``(K, ceil(N / 64))``: per row, the hash of :func:`engine.uniqueness.row_hashes` summed
    over each block of 64 positions (modulo 2**64); their sum is the row's hash.

    A block's hash changes whenever one of its genes does (the weights are odd), and two blocks
    that differ in several genes share a hash with a chance of about 2**-48 at most: the rows
    of two generations are compared block by block, and gene by gene only where a block's
    hash moved.
    """
    blocks = -(-n // HASH_BLOCK)
    weights = np.zeros(blocks * HASH_BLOCK, dtype=np.uint64)
    weights[:n] = hash_weights(n)
    padded = np.zeros((genomes.shape[0], blocks * HASH_BLOCK), dtype=np.uint64)
    padded[:, :n] = genomes
    return np.asarray(
        np.einsum(
            "ijk,jk->ij",
            padded.reshape(-1, blocks, HASH_BLOCK),
            weights.reshape(blocks, HASH_BLOCK),
        ),
        dtype=np.uint64,
    )


def attacked_blocks(attacked: BoolArray) -> IntArray:
    """``(K, ceil(N / 64))``: attacked queens per block of 64 columns of each row, so that a
    row's r-th attacked queen is found in one block instead of a scan of the row."""
    size, n = attacked.shape
    blocks = -(-n // HASH_BLOCK)
    padded = np.zeros((size, blocks * HASH_BLOCK), dtype=bool)
    padded[:, :n] = attacked
    return np.asarray(
        np.count_nonzero(padded.reshape(size, blocks, HASH_BLOCK), axis=2), dtype=np.int64
    )


class Moves(NamedTuple):
    """One swap per board: the queen in column ``queen`` (row ``queen_gene``) and the one in
    column ``other`` (row ``other_gene``) trade rows. All ``(M,)``."""

    queen: IntArray
    other: IntArray
    queen_gene: IntArray
    other_gene: IntArray


def swap_changes(
    counts: npt.NDArray[Any],
    board: IntArray,
    queen: IntArray,
    queen_gene: IntArray,
    partner: IntArray,
    partner_gene: IntArray,
) -> IntArray:
    """Exact change in attacking pairs of each candidate swap, from kept counts.

    The formula of :func:`engine.conflicts.swap_change` (the same numbers), on a ``(K, 2L)``
    table of counts, summed in int64 (the counts may be int16). ``board`` is the row of
    ``counts`` each candidate reads; the arrays broadcast.
    """
    flat = counts.reshape(-1)
    lines = counts.shape[1] // 2
    n = (lines + 1) // 2
    down_base = board * (2 * lines) + (n - 1)
    up_base = board * (2 * lines) + lines
    queen_down, partner_down = (
        (down_base - queen) + partner_gene,
        (down_base + queen_gene) - partner,
    )
    queen_up, partner_up = (up_base + queen) + partner_gene, (up_base + queen_gene) + partner
    change: IntArray = flat.take(queen_down).astype(np.int64)
    change += flat.take(partner_down)
    change += flat.take(queen_up)
    change += flat.take(partner_up)
    change -= flat.take((down_base + partner_gene) - partner)
    change -= flat.take((up_base + partner_gene) + partner)
    change -= flat.take((down_base + queen_gene) - queen)
    change -= flat.take((up_base + queen_gene) + queen)
    change += 4
    same_diagonal = (queen_up == partner_up) | (queen_down == partner_down)
    change += same_diagonal
    change += same_diagonal
    return change


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
        """:func:`engine.diversity.unique_fraction` of the population, from the kept hashes."""
        hashes = np.sort(self.blocks.sum(axis=1, dtype=np.uint64))
        distinct = 1 + int(np.count_nonzero(hashes[1:] != hashes[:-1]))
        return float(distinct / self.size)

    def entropy(self) -> float | None:
        """:func:`engine.diversity.column_entropy` of the population, or ``None`` where that
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
        from_parent = source >= 0
        source_slot = np.where(from_parent, self.slot_of.take(source.clip(0)), -1)
        # A copy whose parent died takes over the parent's slot (the first such copy only);
        # every other child that got in is copied into a dead parent's slot no child claims.
        claiming = np.zeros(child_rows.shape[0], dtype=bool)
        orphans = np.flatnonzero(from_parent & ~alive[source_slot.clip(0)])
        _, first = np.unique(source_slot.take(orphans), return_index=True)
        claiming[orphans[first]] = True
        free = np.ones(size, dtype=bool)
        free[kept_slots] = False
        free[source_slot[claiming]] = False
        slot = np.where(claiming, source_slot, -1)
        copied = np.flatnonzero(~claiming)
        slot[copied] = np.flatnonzero(free)
        lines = self.lines
        for child in copied.tolist():
            target = int(slot[child])
            if from_parent[child]:
                origin = int(source_slot[child])
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
        moving = np.flatnonzero(moved.take(children))
        if moving.shape[0]:
            swaps = Moves(*(part.take(children.take(moving)) for part in moves))
            self._move(slot.take(moving), child_rows.take(moving), swaps, after)
        slot_of = np.empty(size, dtype=np.int64)
        slot_of[kept_rows] = kept_slots
        slot_of[child_rows] = slot
        self.slot_of = slot_of
        old_blocks = self.blocks
        self._rehash(
            survivors, kept_rows, child_rows, children, source, crossed_genomes, moves, moved
        )
        self._resort(before, after, survivors, kept_rows, child_rows, old_blocks)
        return True

    def _move(self, slots: IntArray, rows: IntArray, swaps: Moves, after: Genomes) -> None:
        """Apply one swap in each of ``slots`` (distinct), whose boards are ``after[rows]``."""
        n, lines = self.n, self.lines
        width = lines.counts.shape[1]
        half = width // 2
        counts, sums = lines.counts.reshape(-1), lines.sums.reshape(-1)
        i, j, a, b = swaps
        down, up = slots * width + (n - 1), slots * width + half
        old = np.concatenate([down + a - i, down + b - j, up + a + i, up + b + j])
        new = np.concatenate([down + b - i, down + a - j, up + b + i, up + a + j])
        columns = np.concatenate([i, j, i, j]).astype(sums.dtype)
        touched = np.concatenate([old, new])
        before_counts, before_sums = counts.take(touched), sums.take(touched)
        one = counts.dtype.type(1)
        np.subtract.at(counts, old, one)
        np.add.at(counts, new, one)
        np.subtract.at(sums, old, columns)
        np.add.at(sums, new, columns)
        after_counts, after_sums = counts.take(touched), sums.take(touched)
        # A queen's attacked flag changes only where one of its lines goes from one queen to
        # more or back: it is the one alone there, before or after. The two movers anyway.
        alone_before, alone_after = before_counts == 1, after_counts == 1
        eight_slots, eight_rows = np.tile(slots, 8), np.tile(rows, 8)
        columns_seen = np.concatenate(
            [
                before_sums[alone_before].astype(np.int64),
                after_sums[alone_after].astype(np.int64),
                i,
                j,
            ]
        )
        in_slots = np.concatenate(
            [eight_slots[alone_before], eight_slots[alone_after], slots, slots]
        )
        in_rows = np.concatenate([eight_rows[alone_before], eight_rows[alone_after], rows, rows])
        # Each queen once (a queen may be seen on several lines): its block count follows.
        at, first = np.unique(in_slots * n + columns_seen, return_index=True)
        in_slots, in_rows, columns_seen = in_slots[first], in_rows[first], columns_seen[first]
        genes = after.reshape(-1).take(in_rows * n + columns_seen)
        base = in_slots * width
        attacked = counts.take(base + (n - 1) + genes - columns_seen) > 1
        attacked |= counts.take(base + half + genes + columns_seen) > 1
        flags = lines.attacked.reshape(-1)
        change = attacked.view(np.int8).astype(np.int64) - flags.take(at).view(np.int8)
        np.add.at(self.attacked_blocks, (in_slots, columns_seen // HASH_BLOCK), change)
        flags[at] = attacked

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

    def _resort(
        self,
        before: Genomes,
        after: Genomes,
        survivors: IntArray,
        kept_rows: IntArray,
        child_rows: IntArray,
        old_blocks: HashArray,
    ) -> None:
        """Sort again the columns whose values changed, and update the run lengths.

        Each dead row is paired with an incoming one: a column where every pair agrees holds
        the same values as before. Any pairing is right; close pairs leave fewer columns to
        sort (:func:`_closest_pairs`). Pairs are compared by block hashes, and gene by gene
        only in the blocks whose hashes differ.
        """
        if self._sorted is None or not child_rows.shape[0]:
            return
        dead = np.ones(before.shape[0], dtype=bool)
        dead[survivors.take(kept_rows)] = False
        gone = np.flatnonzero(dead)
        gone_blocks = old_blocks.take(gone, axis=0)
        child_rows = child_rows.take(_closest_pairs(gone_blocks, self.blocks.take(child_rows, 0)))
        pair, block = np.nonzero(gone_blocks != self.blocks.take(child_rows, axis=0))
        if not pair.shape[0]:
            return
        n = self.n
        columns = (block * HASH_BLOCK)[:, None] + np.arange(HASH_BLOCK)
        inside = columns < n
        columns = np.where(inside, columns, 0)
        old_genes = before.reshape(-1).take(gone.take(pair)[:, None] * n + columns)
        new_genes = after.reshape(-1).take(child_rows.take(pair)[:, None] * n + columns)
        differ = (old_genes != new_genes) & inside
        changed = np.unique(columns[differ])
        if not changed.shape[0]:
            return
        old = self._sorted.take(changed, axis=0)
        new = np.ascontiguousarray(after[:, changed].T)
        new.sort(axis=1)
        minimum = self.size + 1
        self._runs -= np.bincount(column_runs(old), minlength=minimum)
        self._runs += np.bincount(column_runs(new), minlength=minimum)
        self._sorted[changed] = new


CLOSEST_PAIRS: Final = 64
"""Rows replaced in a generation up to which they are paired closest first (the pairing
compares every dead row with every incoming one, and picks one pair at a time); beyond, in
order."""


def _closest_pairs(gone: HashArray, incoming: HashArray) -> IntArray:
    """For each dead row in turn, the incoming row (not taken yet) with the fewest block
    hashes apart from it: a greedy pairing, so that a child that replaces its own parent, or
    a row much like it, is compared with that row. Returns the incoming rows' order."""
    if gone.shape[0] > CLOSEST_PAIRS:
        return np.arange(incoming.shape[0], dtype=np.int64)
    apart = np.count_nonzero(gone[:, None, :] != incoming[None, :, :], axis=2)
    taken = np.zeros(incoming.shape[0], dtype=bool)
    order = np.empty(gone.shape[0], dtype=np.int64)
    most = np.iinfo(np.int64).max
    for row in range(gone.shape[0]):
        choice = int(np.where(taken, most, apart[row]).argmin())
        order[row], taken[choice] = choice, True
    return order
