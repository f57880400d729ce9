"""Mutation: a ``(K, N)`` array of children in, a new ``(K, N)`` array out.

Every operator takes the children, the run's ``rng`` and a :class:`MutationSettings`, and never
modifies its input. Permutation operators (swaps, inversion, scramble) keep permutations;
``random-reset`` is for the ``integer`` and ``squares`` encodings; ``conflict`` fits all three.
"""

from __future__ import annotations

from typing import NamedTuple, Protocol

import numpy as np

from engine.arrays import BoolArray, Genomes, IntArray
from engine.genomes.conflicts import (
    BoardLines,
    board_lines,
    conflicts_from_sums,
    line_indices,
    own_line_sums,
    swap_change,
    with_known_conflicts,
)
from engine.genomes.encodings import Encoding, random_integers
from engine.operators.conflict_draws import ConflictDraws, attacked_queens, draw_conflict_moves


class MutationSettings(NamedTuple):
    """What a mutation operator may need beyond the children.

    Attributes:
        rate: The mutation rate. Per gene for ``swap-gene`` and ``random-reset``; per child for
            the others.
        n: The board size.
        encoding: How the genes are read.
        gene_rate: ``shuffle-indexes`` only: the chance of each gene of a chosen child to swap.
        candidates: ``conflict`` only: how many moves are tried; the best one is kept.
    """

    rate: float
    n: int
    encoding: Encoding
    gene_rate: float
    candidates: int


class Mutation(Protocol):
    """The shape every mutation operator has."""

    def __call__(
        self, genomes: Genomes, rng: np.random.Generator, settings: MutationSettings
    ) -> Genomes: ...


def _chosen(count: int, rate: float, rng: np.random.Generator) -> BoolArray:
    """Which of ``count`` children mutate, each with probability ``rate``."""
    return rng.random(count) < rate


def _swap_genes_in_order(genomes: Genomes, mutate: BoolArray, rng: np.random.Generator) -> Genomes:
    """Swap every marked gene with another position (never itself), left to right.

    A child's swaps happen in gene order, as in the sequential originals; swaps of different
    children are independent, so round ``t`` applies the ``t``-th swap of every child at once.
    """
    n = genomes.shape[1]
    if n < 2:
        return genomes.copy()
    partner = random_integers(rng, 0, n - 1, genomes.shape)
    partner += partner >= np.arange(n)[None, :]
    result = genomes.copy()
    order = np.cumsum(mutate, axis=1) - 1
    for round_number in range(int(mutate.sum(axis=1).max(initial=0))):
        rows, position = np.nonzero(mutate & (order == round_number))
        other = partner[rows, position]
        first, second = result[rows, position], result[rows, other]
        result[rows, position], result[rows, other] = second, first
    return result


def swap_gene_mutation(
    genomes: Genomes, rng: np.random.Generator, settings: MutationSettings
) -> Genomes:
    """CodeProject 2011: each gene, with probability ``rate``, swaps with another position."""
    return _swap_genes_in_order(genomes, rng.random(genomes.shape) < settings.rate, rng)


def shuffle_indexes_mutation(
    genomes: Genomes, rng: np.random.Generator, settings: MutationSettings
) -> Genomes:
    """DEAP's ``mutShuffleIndexes``: a child mutates with probability ``rate``; then each of its
    genes, with probability ``gene_rate``, swaps with another position."""
    chosen = _chosen(genomes.shape[0], settings.rate, rng)
    genes = rng.random(genomes.shape) < settings.gene_rate
    return _swap_genes_in_order(genomes, genes & chosen[:, None], rng)


def swap_mutation(
    genomes: Genomes, rng: np.random.Generator, settings: MutationSettings
) -> Genomes:
    """queens_AI: a child mutates with probability ``rate`` by swapping two random positions.

    The two positions are drawn independently, as queens_AI does, so they can coincide.
    """
    count, n = genomes.shape
    chosen = _chosen(count, settings.rate, rng)
    first = random_integers(rng, 0, n, count)
    second = random_integers(rng, 0, n, count)
    rows = np.nonzero(chosen)[0]
    result = genomes.copy()
    result[rows, first[rows]] = genomes[rows, second[rows]]
    result[rows, second[rows]] = genomes[rows, first[rows]]
    return result


def _random_segments(count: int, n: int, rng: np.random.Generator) -> tuple[Genomes, Genomes]:
    """Random inclusive segments ``[low, high]`` of each child."""
    ends = np.sort(random_integers(rng, 0, n, (count, 2)), axis=1)
    return ends[:, 0], ends[:, 1]


def inversion_mutation(
    genomes: Genomes, rng: np.random.Generator, settings: MutationSettings
) -> Genomes:
    """A child mutates with probability ``rate`` by reversing a random segment."""
    count, n = genomes.shape
    chosen = _chosen(count, settings.rate, rng)
    low, high = _random_segments(count, n, rng)
    positions = np.arange(n)[None, :]
    inside = chosen[:, None] & (positions >= low[:, None]) & (positions <= high[:, None])
    source = np.where(inside, low[:, None] + high[:, None] - positions, positions)
    return np.take_along_axis(genomes, source, axis=1)


def scramble_mutation(
    genomes: Genomes, rng: np.random.Generator, settings: MutationSettings
) -> Genomes:
    """A child mutates with probability ``rate`` by shuffling a random segment."""
    count, n = genomes.shape
    chosen = _chosen(count, settings.rate, rng)
    low, high = _random_segments(count, n, rng)
    positions = np.arange(n)[None, :]
    inside = chosen[:, None] & (positions >= low[:, None]) & (positions <= high[:, None])
    # Inside the segment a position's sort key is a random point of [low, high + 1): sorting
    # shuffles the segment and leaves every other position where it is.
    span = (high - low + 1)[:, None]
    keys = np.where(inside, low[:, None] + rng.random(genomes.shape) * span, positions)
    return np.take_along_axis(genomes, np.argsort(keys, axis=1, kind="stable"), axis=1)


def random_reset_mutation(
    genomes: Genomes, rng: np.random.Generator, settings: MutationSettings
) -> Genomes:
    """Each gene, with probability ``rate``, takes a new random value (integer and squares)."""
    values = settings.encoding.gene_values(settings.n)
    reset = rng.random(genomes.shape) < settings.rate
    fresh = random_integers(rng, 0, values, genomes.shape)
    return np.where(reset, fresh, genomes)


def reset_one_mutation(
    genomes: Genomes, rng: np.random.Generator, settings: MutationSettings
) -> Genomes:
    """Sheppard: a child mutates with probability ``rate``: one random gene, a random value.

    The new value may equal the old one, as in Sheppard's code.
    """
    count, n = genomes.shape
    chosen = _chosen(count, settings.rate, rng)
    position = random_integers(rng, 0, n, count)
    value = random_integers(rng, 0, settings.encoding.gene_values(settings.n), count)
    rows = np.flatnonzero(chosen)
    result = genomes.copy()
    result[rows, position[rows]] = value[rows]
    return result


def conflict_mutation(
    genomes: Genomes, rng: np.random.Generator, settings: MutationSettings
) -> Genomes:
    """Conflict-directed: move a queen under attack to the best of a few candidate places.

    See :func:`conflict_mutation_counted`, which this is without the line counts.
    """
    return conflict_mutation_counted(genomes, rng, settings)[0]


def conflict_mutation_counted(
    genomes: Genomes,
    rng: np.random.Generator,
    settings: MutationSettings,
    *,
    in_place: bool = False,
    reuse: BoardLines | None = None,
    known: IntArray | None = None,
    recount: bool = True,
) -> tuple[Genomes, BoardLines]:
    """Conflict-directed mutation that also returns the children's line counts.

    A child mutates with probability ``rate``. One of its attacked queens (any queen if none is
    attacked) is picked at random and ``candidates`` moves are tried: swaps with another column
    for a permutation, a new row for ``integer``, a new square for ``squares``. The move that
    leaves the fewest conflicts is made, even when it makes things worse: the survivors decide.
    Each move is scored exactly from the line counts, without re-evaluating the child, and
    the counts are then updated for the moves made, so the caller can score the children
    without counting their lines again.

    With ``in_place``, the moves are made in ``genomes`` itself and it is returned: for a
    caller that owns the children (the algorithm's are a fresh array), which saves a copy of
    the whole batch (a ``genomes`` that is not C-contiguous is copied all the same: the moves
    index the genes as one flat array). ``reuse``: line counts the caller no longer needs
    (those this returned a generation ago), whose arrays are overwritten (see
    :func:`engine.genomes.conflicts.board_lines`).
    ``known``: the conflicts of ``genomes`` where the caller knows them (a child that is a copy
    of its parent), ``-1`` elsewhere; only the others are summed from the counts. Without
    ``recount``, the returned counts are left as they were *before* the moves (only their
    conflicts are the children's): for a caller that reads nothing but the conflicts, which
    saves updating them. The draws and the children are the same either way.
    """
    count, n = genomes.shape
    encoding = settings.encoding
    lines = board_lines(genomes, n, encoding, reuse=reuse)
    if n < 2 or count == 0:
        return (genomes if in_place else genomes.copy()), lines
    if not genomes.flags.c_contiguous:  # the moves below index the genes as one flat array
        genomes, in_place = np.ascontiguousarray(genomes), True
    values = encoding.gene_values(n)
    draws = draw_conflict_moves(rng, count, values, settings.rate, settings.candidates)
    line_sums = own_line_sums(lines)
    queen = attacked_queens(line_sums > len(lines.sizes), draws.queen)
    if encoding.is_permutation:
        tried = _tried_swaps(genomes, lines, line_sums, queen, draws)
    else:
        tried = _tried_moves(genomes, lines, queen, draws, encoding)
    best = _best_moves(draws.mutates, tried.change)
    conflicts = _conflicts_after(lines, line_sums, known, tried.change, best)
    result = genomes if in_place else genomes.copy()
    _make_moves(result, tried, best)
    if recount:
        lines = _recount_moved(lines, result, _moved_genes(tried, queen, best), n, encoding)
    return result, with_known_conflicts(lines, conflicts)


class _Tried(NamedTuple):
    """Each child's candidate moves of one queen, scored.

    Attributes:
        change: ``(K, C)`` each move's exact change in conflicts.
        queen_at: ``(K,)`` the moving queen's flat position among the genes.
        new_genes: ``(K, C)`` the gene it would take (read before any move is made).
        partners: ``(K, C)`` for a swap, the column whose queen takes its gene; else ``None``.
        queen_genes: ``(K,)`` for a swap, the moving queen's gene; else ``None``.
    """

    change: IntArray
    queen_at: IntArray
    new_genes: IntArray
    partners: IntArray | None
    queen_genes: IntArray | None


def _tried_swaps(
    genomes: Genomes, lines: BoardLines, line_sums: IntArray, queen: IntArray, draws: ConflictDraws
) -> _Tried:
    """A permutation's moves: the queen swaps rows with each candidate column's queen."""
    count, n = genomes.shape
    rows_of = np.arange(count)
    row_starts = rows_of * n
    queen_at = row_starts + queen  # flat positions: a flat take is numpy's cheapest gather
    partner = draws.past(queen)
    partner_at = partner + row_starts[:, None]
    genes = genomes.reshape(-1)
    queen_genes, partner_genes = genes.take(queen_at), genes.take(partner_at)
    # The swap's exact change in a few whole-array operations: the generic _conflict_change
    # gives the same numbers with several times the calls, which is most of a generation's
    # cost at small N. The queens on the two queens' own lines were summed for the attacked
    # test already.
    on_lines = line_sums.reshape(-1)
    change = swap_change(
        lines,
        rows_of[:, None],
        queen[:, None],
        queen_genes[:, None],
        partner,
        partner_genes,
        sharing=(on_lines.take(partner_at), on_lines.take(queen_at)[:, None]),
    )
    return _Tried(change, queen_at, partner_genes, partner, queen_genes)


def _tried_moves(
    genomes: Genomes, lines: BoardLines, queen: IntArray, draws: ConflictDraws, encoding: Encoding
) -> _Tried:
    """The other encodings' moves: the queen takes each candidate row (``integer``) or square
    (``squares``)."""
    count, n = genomes.shape
    rows_of = np.arange(count)
    rows, columns = encoding.decode(genomes, n)
    new_gene = draws.past(genomes[rows_of, queen])
    if encoding.name == "squares":
        new_rows, new_columns = new_gene // n, new_gene % n
    else:
        new_rows, new_columns = new_gene, np.broadcast_to(queen[:, None], new_gene.shape)
    old_rows = np.broadcast_to(rows[rows_of, queen][:, None], new_gene.shape)
    old_columns = np.broadcast_to(columns[rows_of, queen][:, None], new_gene.shape)
    moved = ((old_rows, old_columns, new_rows, new_columns),)
    change = _conflict_change(lines, moved, n, encoding)
    return _Tried(change, rows_of * n + queen, new_gene, None, None)


class _Best(NamedTuple):
    """The move each mutating child makes.

    Attributes:
        targets: The children that mutate.
        at: ``targets`` as an index: a slice when every child mutates (rate 1), since indexing
            by every row gathers all the same.
        picked: Each target's first best candidate, as a flat index into ``(K, C)``.
    """

    targets: IntArray
    at: slice | IntArray
    picked: IntArray


def _best_moves(mutates: BoolArray, change: IntArray) -> _Best:
    """Each mutating child's move that leaves the fewest conflicts, even when it is worse."""
    count, tries = change.shape
    best = change.argmin(axis=1)
    targets = mutates.nonzero()[0]
    at: slice | IntArray = slice(None) if targets.size == count else targets
    return _Best(targets, at, targets * tries + best[at])


def _conflicts_after(
    lines: BoardLines, line_sums: IntArray, known: IntArray | None, change: IntArray, best: _Best
) -> IntArray:
    """The children's conflicts after their moves: those before (``known`` where it is not
    ``-1``, else summed from the counts) plus each move's change."""
    if known is None:
        conflicts = lines.conflicts.copy()
    else:
        conflicts = np.array(known, dtype=np.int64)
        unknown = (conflicts < 0).nonzero()[0]
        conflicts[unknown] = conflicts_from_sums(line_sums.take(unknown, axis=0), len(lines.sizes))
    conflicts[best.at] += change.reshape(-1).take(best.picked)
    return conflicts


def _make_moves(result: Genomes, tried: _Tried, best: _Best) -> None:
    """Make the picked moves in ``result`` (C-contiguous), from genes read before any move."""
    genes = result.reshape(-1)
    genes[tried.queen_at[best.at]] = tried.new_genes.reshape(-1).take(best.picked)
    if tried.partners is not None and tried.queen_genes is not None:
        other = tried.partners.reshape(-1).take(best.picked)
        genes[best.targets * result.shape[1] + other] = tried.queen_genes[best.at]


def _moved_genes(tried: _Tried, queen: IntArray, best: _Best) -> tuple[IntArray, IntArray]:
    """``(children, positions)`` of every gene the moves changed."""
    if tried.partners is None:
        return best.targets, queen[best.at]
    other = tried.partners.reshape(-1).take(best.picked)
    targets = best.targets
    return np.concatenate([targets, targets]), np.concatenate([queen[best.at], other])


def _recount_moved(
    lines: BoardLines,
    result: Genomes,
    changed: tuple[Genomes, Genomes],
    n: int,
    encoding: Encoding,
) -> BoardLines:
    """The line counts of ``result``, from those before the moves and the genes that changed.

    ``lines`` was made by this module's caller for this call alone, so its arrays are updated in
    place (nobody else holds them); a new object is returned so no cached value goes stale.
    """
    individuals, positions = changed
    genes = result[individuals, positions]
    if encoding.name == "squares":
        rows, columns = genes // n, genes % n
    else:
        rows, columns = genes, positions
    new_lines, _ = line_indices(rows, columns, n, encoding)
    for kind, size in enumerate(lines.sizes):
        old_cells = lines.cells[kind][individuals, positions]
        new_cells = new_lines[kind] + individuals * size
        counts = lines.occupancy[kind]
        one = counts.dtype.type(1)  # the counts' own dtype: numpy's fast path for ufunc.at
        np.subtract.at(counts, old_cells, one)
        np.add.at(counts, new_cells, one)
        lines.cells[kind][individuals, positions] = new_cells
    return BoardLines(cells=lines.cells, occupancy=lines.occupancy, sizes=lines.sizes)


def _conflict_change(
    lines: BoardLines,
    moved: tuple[tuple[Genomes, Genomes, Genomes, Genomes], ...],
    n: int,
    encoding: Encoding,
) -> Genomes:
    """Exact change in attacking pairs when one or two queens move at once.

    Args:
        lines: The line counts of every child.
        moved: Per moving queen, ``(old_row, old_column, new_row, new_column)``, each a
            ``(K, C)`` array over the ``C`` candidate moves.
        n: The board size.
        encoding: Which kinds of lines are counted.

    Returns:
        ``(K, C)``: conflicts after the move minus conflicts before.
    """
    old = [line_indices(r, c, n, encoding)[0] for r, c, _, _ in moved]
    new = [line_indices(r, c, n, encoding)[0] for _, _, r, c in moved]
    change = np.zeros(moved[0][0].shape, dtype=np.int64)
    for kind in range(len(lines.sizes)):
        # Lift the queens off one by one: a queen leaving a line of k loses k - 1 pairs.
        lifted: list[Genomes] = []
        for queen in range(len(moved)):
            here = old[queen][kind]
            already = sum((here == line).astype(np.int64) for line in lifted)
            change -= lines.on_lines(kind, here) - 1 - already
            lifted.append(here)
        # Put them down one by one: a queen joining a line gains a pair per queen on it.
        placed: list[Genomes] = []
        for queen in range(len(moved)):
            there = new[queen][kind]
            gone = sum((there == line).astype(np.int64) for line in lifted)
            back = sum((there == line).astype(np.int64) for line in placed)
            change += lines.on_lines(kind, there) - gone + back
            placed.append(there)
    return change


PERMUTATION_MUTATIONS: dict[str, Mutation] = {
    "swap-gene": swap_gene_mutation,
    "shuffle-indexes": shuffle_indexes_mutation,
    "swap": swap_mutation,
    "inversion": inversion_mutation,
    "scramble": scramble_mutation,
}
"""Mutations that keep permutations. They also run on the other encodings."""

FREE_MUTATIONS: dict[str, Mutation] = {
    "random-reset": random_reset_mutation,
    "reset-one": reset_one_mutation,
}
"""Mutations that may repeat genes: not for the ``permutation`` encoding."""


class CountedMutation(Protocol):
    """A mutation that hands over the line counts of the children it returns."""

    def __call__(
        self,
        genomes: Genomes,
        rng: np.random.Generator,
        settings: MutationSettings,
        *,
        in_place: bool = False,
        reuse: BoardLines | None = None,
        known: IntArray | None = None,
        recount: bool = True,
    ) -> tuple[Genomes, BoardLines]: ...


COUNTED_MUTATIONS: dict[str, CountedMutation] = {"conflict": conflict_mutation_counted}
"""Mutations that count their children's lines anyway: the same operator as in
:data:`MUTATIONS`, with the same draws, plus the counts, which saves the evaluation a count."""

MUTATIONS: dict[str, Mutation] = {
    **PERMUTATION_MUTATIONS,
    **FREE_MUTATIONS,
    "conflict": conflict_mutation,
}
"""Every mutation by its config name."""
