"""Where a kept row of the population and the row that replaces it differ, and that difference
applied to the row's kept lines.

A row of :class:`engine.large_n.tracked_population.TrackedPopulation` whose board leaves the
population
is taken over by one that comes in. The two are often nearly the same board: the population
of a long run descends from few ancestors (default config, N = 16,384, generation 1,500: two
rows differ in 12 genes at the median, of 16,384), and a copy that replaces its own parent
differs from it by its swap. Moving those few queens in the kept row is then much less work
than writing a whole row of counts, column sums and attacked queens.

Rows are compared by block hashes first (:func:`engine.large_n.row_lines.block_hashes`), gene by
gene only in the blocks whose hashes differ; a block whose hash agrees is taken to hold the
same genes, as the re-sort of the entropy's columns takes it. A block that differs in one gene,
or by a swap, always changes its hash (one gene: an odd weight times a difference below 2**64;
a swap: two positions' weights in one block differ by a number with at most 19 factors of 2
up to N = 65,536, as checked, and the genes by less than 2**16, so the change is never a
multiple of 2**64), and one that differs in several shares it with a chance of about 2**-48.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from engine.arrays import BoolArray, Genomes, IntArray
from engine.large_n.row_lines import HASH_BLOCK, RowLines, block_cells


class Relocations(NamedTuple):
    """Queens that change rows in kept rows: in kept row ``slots[k]`` (whose board is row
    ``rows[k]`` of the next population), the queen of column ``columns[k]`` goes from row
    ``old_genes[k]`` to row ``new_genes[k]``. All ``(M,)``; a column appears at most once
    per kept row."""

    slots: IntArray
    rows: IntArray
    columns: IntArray
    old_genes: IntArray
    new_genes: IntArray


class GeneChanges(NamedTuple):
    """The genes in which pairs of rows differ: pair ``pairs[k]`` holds ``old_genes[k]`` in
    its first row's column ``columns[k]``, ``new_genes[k]`` in its second's. All ``(M,)``."""

    pairs: IntArray
    columns: IntArray
    old_genes: IntArray
    new_genes: IntArray


def gene_changes(
    before: Genomes,
    gone: IntArray,
    after: Genomes,
    incoming: IntArray,
    differ: BoolArray,
) -> GeneChanges:
    """The genes in which row ``before[gone[k]]`` and row ``after[incoming[k]]`` differ, for
    each pair ``k``, looked for only in the blocks of 64 columns ``differ[k]`` marks (where
    the pair's block hashes differ; a block left out is taken to be the same)."""
    pair, block = np.nonzero(differ)
    old_genes, inside = block_cells(before, gone.take(pair), block)
    new_genes, _ = block_cells(after, incoming.take(pair), block)
    changed = old_genes != new_genes
    changed &= inside
    at = changed.reshape(-1).nonzero()[0]
    which = at // HASH_BLOCK
    return GeneChanges(
        pair.take(which),
        block.take(which) * HASH_BLOCK + at % HASH_BLOCK,
        old_genes.reshape(-1).take(at),
        new_genes.reshape(-1).take(at),
    )


def relocate(
    lines: RowLines, attacked_blocks: IntArray, moving: Relocations, after: Genomes
) -> None:
    """Move the queens ``moving`` in the kept ``lines`` and ``attacked_blocks``, in place.

    Each queen leaves its old diagonal and anti-diagonal (one queen and its column fewer on
    each) and joins its new ones. A queen's "attacked" flag can change only where one of its
    lines goes from one queen to more or back, and then it is the queen alone there, before or
    after: its column is the line's column sum (exact for a lone queen). Those queens and the
    ones that moved get their flags again from the counts after every move, read in
    ``after`` (the boards the kept rows become).
    """
    slots, rows, columns, old_genes, new_genes = moving
    n = lines.attacked.shape[1]
    width = lines.counts.shape[1]
    half = width // 2
    counts, sums = lines.counts.reshape(-1), lines.sums.reshape(-1)
    down, up = slots * width + (n - 1) - columns, slots * width + half + columns
    # The lines left (first half) and joined (second half); one update each for counts and
    # sums (a column fewer is its complement added: unsigned sums wrap, as they are kept).
    touched = np.concatenate([down + old_genes, up + old_genes, down + new_genes, up + new_genes])
    steps = np.ones(touched.shape[0], dtype=counts.dtype)
    steps[: touched.shape[0] // 2] = -1
    column = columns.astype(sums.dtype)
    both_columns = np.concatenate([-column, -column, column, column])
    before_counts, before_sums = counts.take(touched), sums.take(touched)
    np.add.at(counts, touched, steps)
    np.add.at(sums, touched, both_columns)
    after_counts, after_sums = counts.take(touched), sums.take(touched)
    alone_before, alone_after = before_counts == 1, after_counts == 1
    four_slots = np.concatenate((slots, slots, slots, slots))
    four_rows = np.concatenate((rows, rows, rows, rows))
    columns_seen = np.concatenate(
        [
            before_sums[alone_before].astype(np.int64),
            after_sums[alone_after].astype(np.int64),
            columns,
        ]
    )
    in_slots = np.concatenate([four_slots[alone_before], four_slots[alone_after], slots])
    in_rows = np.concatenate([four_rows[alone_before], four_rows[alone_after], rows])
    # Each queen once (a queen may be seen on several lines): its block count follows.
    at, first = np.unique(in_slots * n + columns_seen, return_index=True)
    in_slots, in_rows, columns_seen = in_slots[first], in_rows[first], columns_seen[first]
    genes = after.reshape(-1).take(in_rows * n + columns_seen)
    base = in_slots * width
    attacked = counts.take(base + (n - 1) + genes - columns_seen) > 1
    attacked |= counts.take(base + half + genes + columns_seen) > 1
    flags = lines.attacked.reshape(-1)
    change = attacked.view(np.int8).astype(np.int64) - flags.take(at).view(np.int8)
    blocks = attacked_blocks.shape[1]
    np.add.at(attacked_blocks.reshape(-1), in_slots * blocks + columns_seen // HASH_BLOCK, change)
    flags[at] = attacked


def swap_relocations(
    slots: IntArray,
    rows: IntArray,
    queen: IntArray,
    other: IntArray,
    queen_gene: IntArray,
    other_gene: IntArray,
) -> Relocations:
    """The two queens of each swap (see :class:`engine.large_n.row_lines.Moves`) as relocations."""
    return Relocations(
        np.concatenate([slots, slots]),
        np.concatenate([rows, rows]),
        np.concatenate([queen, other]),
        np.concatenate([queen_gene, other_gene]),
        np.concatenate([other_gene, queen_gene]),
    )


def joined(parts: list[Relocations]) -> Relocations:
    """Several batches of relocations as one."""
    return Relocations(*(np.concatenate(field) for field in zip(*parts, strict=True)))
