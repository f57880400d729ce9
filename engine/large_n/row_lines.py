"""The diagonal counts, column sums, attacked queens and block hashes of a batch of permutation
boards, one row per board, counted from scratch, and the change one swap makes in them.

:mod:`engine.large_n.tracked_population` keeps these for the population from one generation to the
next; :mod:`engine.large_n.tracked_generation` counts the crossed children with them and reads the
kept rows to pick each child's swap.
"""

from __future__ import annotations

from typing import Any, Final, NamedTuple

import numpy as np
import numpy.typing as npt

from engine.arrays import BoolArray, Genomes, HashArray, IntArray
from engine.genomes.uniqueness import hash_weights


def count_dtype(n: int) -> type[np.signedinteger[Any]]:
    """The narrowest signed integer that holds any line count of an N board (at most N)."""
    return np.int16 if n < 2**15 else np.int32


def column_dtype(n: int) -> type[np.unsignedinteger[Any]]:
    """The narrowest unsigned integer that holds any column (and, modulo its range, sums of
    columns)."""
    return np.uint16 if n <= 2**16 else np.uint32


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
    down, up = np.subtract(genomes, column, dtype=np.int64), np.add(genomes, column, dtype=np.int64)
    down += base + (n - 1)
    up += base + lines
    return down, up


def count_rows(genomes: Genomes, n: int) -> RowLines:
    """Count the diagonals of a ``(K, N)`` batch of permutations from scratch."""
    counts, seen = _counts(genomes, n)
    return RowLines(counts, column_sums(genomes, n), _attacked(seen))


def count_children(genomes: Genomes, n: int) -> tuple[RowLines, IntArray]:
    """:func:`count_rows` of the crossed children, without their column sums (left empty,
    ``(K, 0)``: they are counted only for those that get in, see :func:`column_sums`), and
    their attacking pairs. A queen on a line of ``k`` sees ``k - 1`` others there: a row's
    sum of what its queens see on both their lines is twice its attacking pairs."""
    counts, (down, up) = _counts(genomes, n)
    seen = down.sum(axis=1, dtype=np.int64) + up.sum(axis=1, dtype=np.int64)
    empty = np.zeros((genomes.shape[0], 0), dtype=column_dtype(n))
    return RowLines(counts, empty, _attacked((down, up))), (seen - 2 * n) // 2


def _counts(genomes: Genomes, n: int) -> tuple[npt.NDArray[Any], tuple[Any, Any]]:
    """``(K, 2L)`` line counts of a batch of permutations, and per queen the count of its
    diagonal and of its anti-diagonal (``(K, N)`` each)."""
    size, lines = genomes.shape[0], 2 * n - 1
    down, up = _cells(genomes, n)
    counts_type = count_dtype(n)
    counts = np.zeros(size * 2 * lines, dtype=counts_type)
    for cells in (down, up):
        np.add.at(counts, cells.ravel(), counts_type(1))
    return counts.reshape(size, 2 * lines), (counts.take(down), counts.take(up))


def _attacked(seen: tuple[Any, Any]) -> BoolArray:
    """Whether each queen shares a line, from the counts of its two lines."""
    down, up = seen
    attacked: BoolArray = down > 1
    attacked |= up > 1
    return attacked


def column_sums(genomes: Genomes, n: int) -> npt.NDArray[Any]:
    """:attr:`RowLines.sums` of a ``(K, N)`` batch of permutations."""
    size, lines = genomes.shape[0], 2 * n - 1
    columns_type = column_dtype(n)
    sums = np.zeros(size * 2 * lines, dtype=columns_type)
    columns = np.broadcast_to(np.arange(n, dtype=columns_type), genomes.shape).ravel()
    for cells in _cells(genomes, n):
        np.add.at(sums, cells.ravel(), columns)
    return sums.reshape(size, 2 * lines)


HASH_BLOCK: Final = 64
"""Genes per block hash: two rows whose block hashes agree hold the same genes there."""


def block_cells(
    table: npt.NDArray[Any], rows: IntArray, blocks: IntArray
) -> tuple[npt.NDArray[Any], BoolArray]:
    """``(K, 64)``: the cells of block ``blocks[k]`` (columns ``64 * b`` to ``64 * b + 63``)
    of row ``rows[k]`` of a ``(P, N)`` table, and which of them are on the board (where N is
    not a multiple of 64 the last block is short: its missing cells read as column 0's).
    Whole blocks are copied where the rows split into them: several times faster than a
    cell-by-cell gather (400 blocks of int64 genes: 15 us against 565 us)."""
    n = table.shape[1]
    if n % HASH_BLOCK == 0 and table.flags.c_contiguous:
        split = table.reshape(table.shape[0], n // HASH_BLOCK, HASH_BLOCK)
        return split[rows, blocks], np.ones((1, HASH_BLOCK), dtype=bool)
    columns = (blocks * HASH_BLOCK)[:, None] + np.arange(HASH_BLOCK)
    inside = columns < n
    columns = np.where(inside, columns, 0)
    return table.reshape(-1).take(rows[:, None] * n + columns), inside


def block_hashes(genomes: Genomes, n: int) -> HashArray:
    """``(K, ceil(N / 64))``: per row, the hash of :func:`engine.genomes.uniqueness.row_hashes`
    summed over each block of 64 positions (modulo 2**64); their sum is the row's hash.

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

    The formula of :func:`engine.genomes.conflicts.swap_change` (the same numbers), on a ``(K, 2L)``
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
