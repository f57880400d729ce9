"""A memetic generation's children, mutated and searched one at a time in compiled code.

The numpy path counts every line of every child at once
(:func:`engine.genomes.conflicts.board_lines`:
each queen's cells as int64, the counts, each queen's line sums, the attacked mask), mutates
all children with whole-array operations, then hands the counts to the local search. For 4
children of 10^7 queens that is about 2 GB of arrays and most of a generation's time, for what
is, child by child, one pass over the board. Here each child's lines are counted into one pair
of arrays, reused from child to child (8 bytes a queen, once), its conflict mutation is
made on them, and the min-conflicts search (:func:`engine.compiled.memetic_kernels.min_conflicts`)
continues on the same counts.

The counts are int16 (8 bytes a queen, 80 MB at N = 10^7, where int32 ones were 160 MB at the
run's peak, beside the parents and the children), wide enough for every board met in practice
and checked for each: a board with a line of :data:`MOST_NARROW` queens or more, or with more
than :data:`MOST_NARROW_PAIRS` attacking pairs after its mutation, is counted again in int32.
Below that bound no line can pass 32,767 queens during the search, which only lowers the pairs
(a line of ``k`` queens alone holds ``k (k - 1) / 2`` of them): the same arithmetic, the same
run.

The same run, draw for draw: the conflict mutation's draws (which children mutate, the
attacked queen's draw, the candidate partners) are the ones every road makes
(:func:`engine.operators.conflict_draws.draw_conflict_moves`), then come the search's keys, as
:func:`engine.operators.local_search.local_search` draws them; the kernel makes the mutation's
choice as the numpy operator does (the attacked queen ``floor(draw * attacked)``, else
``floor(draw * N)``, the first best of the candidates, made even when it is worse) from the
same exact swap formula.
"""

from __future__ import annotations

from typing import Any, Final

import numpy as np
import numpy.typing as npt

from engine.arrays import Genomes, IntArray
from engine.compiled.jit import compiled
from engine.compiled.memetic_kernels import (
    SCAN_AHEAD,
    _move,
    _pushed,
    _swap_change,
    ask_for_lines,
    min_conflicts,
)
from engine.genomes.conflicts import BoardLines, with_known_conflicts
from engine.genomes.encodings import Encoding
from engine.genomes.fitness import FitnessShape, Scored, score_lines
from engine.operators.conflict_draws import draw_conflict_moves
from engine.operators.greedy_start import random_keys
from engine.operators.local_search import STALL_PASSES, LocalSearchSettings
from engine.operators.mutation import MutationSettings

Rows = npt.NDArray[np.signedinteger[Any]]
Counts = npt.NDArray[np.signedinteger[Any]]


NARROW_COUNTS: Final = np.int16
"""The line counts' type, for boards whose lines stay under :data:`MOST_NARROW` queens."""

MOST_NARROW: Final = int(np.iinfo(NARROW_COUNTS).max) - 2
"""Boards with a line of this many queens are counted in int32: a mutation's swap may put two
more queens on a line."""

MOST_NARROW_PAIRS: Final = (MOST_NARROW + 2) * (MOST_NARROW + 3) // 2 - 1
"""Boards with more attacking pairs than this after the mutation are searched on int32 counts:
with fewer, no line can hold 32,768 queens (``k (k - 1) / 2`` pairs)."""

NO_LIMIT: Final = 2**62
"""A limit on a line's queens that no board reaches (int32 counts)."""


@compiled
def count_lines(genome: Rows, down: Counts, up: Counts, most: int) -> int:
    """Fill ``down`` and ``up`` with the queens on each diagonal; the attacking pairs, or -1
    if a line has ``most`` queens or more (the counts are then incomplete)."""
    n = genome.shape[0]
    down[:] = 0
    up[:] = 0
    for column in range(n):
        ask_for_lines(genome, down, up, column + SCAN_AHEAD)
        row = genome[column]
        on_down, on_up = row - column + n - 1, row + column
        if down[on_down] >= most or up[on_up] >= most:
            return -1
        down[on_down] += 1
        up[on_up] += 1
    pairs = 0
    for line in range(2 * n - 1):
        on_down, on_up = int(down[line]), int(up[line])
        pairs += on_down * (on_down - 1) // 2 + on_up * (on_up - 1) // 2
    return pairs


@compiled
def _picked_queen(genome: Rows, down: Counts, up: Counts, draw: float, queue: Any) -> int:
    """The attacked queen number ``floor(draw * attacked)``, or ``floor(draw * N)`` if none."""
    n = genome.shape[0]
    attacked = 0
    for column in range(n):
        ask_for_lines(genome, down, up, column + SCAN_AHEAD)
        row = genome[column]
        if down[row - column + n - 1] > 1 or up[row + column] > 1:
            queue = _pushed(queue, attacked, column)
            attacked += 1
    if attacked == 0:
        return int(draw * n)
    return int(queue[int(draw * attacked)])


@compiled
def counted_and_mutated(
    genome: Rows,
    down: Counts,
    up: Counts,
    most: int,
    mutates: bool,
    draw: float,
    partners: IntArray,
) -> int:
    """One child counted and its conflict mutation made; its conflicts after.

    Args:
        genome: The child, changed in place.
        down: ``(2N - 1,)`` scratch for the diagonals' counts (overwritten).
        up: ``(2N - 1,)`` scratch for the anti-diagonals' counts (overwritten).
        most: Queens on a line that the counts cannot hold: at this many, -1 is returned and
            the child is left as it was.
        mutates: Whether the child mutates.
        draw: The mutation's draw in ``[0, 1)`` that picks the attacked queen.
        partners: The mutation's candidate partners, drawn in ``0 .. N - 2``.
    """
    conflicts = count_lines(genome, down, up, most)
    if conflicts < 0 or not mutates:
        return conflicts
    queue = np.empty(16, dtype=np.int32)
    no_cells = np.empty(0, dtype=np.int64)  # the counts suffice: no cells are kept
    queen = _picked_queen(genome, down, up, draw, queue)
    best_change, best_partner = 0, -1
    for k in range(partners.shape[0]):
        partner = int(partners[k])
        partner += partner >= queen
        change = _swap_change(genome, down, up, queen, partner)
        if best_partner < 0 or change < best_change:
            best_change, best_partner = change, partner
    row, partner_row = genome[queen], genome[best_partner]
    _move(genome, down, up, no_cells, no_cells, 0, queen, partner_row)
    _move(genome, down, up, no_cells, no_cells, 0, best_partner, row)
    return conflicts + best_change


@compiled
def searched(
    genome: Rows, down: Counts, up: Counts, conflicts: int, moves: int, candidates: int, key: Any
) -> int:
    """The min-conflicts search on one counted child, in place; its conflicts after.

    Args:
        genome: The child, changed in place.
        down: Its diagonals' counts, kept exact.
        up: Its anti-diagonals' counts, kept exact.
        conflicts: Its attacking pairs.
        moves: The search's budget of swaps.
        candidates: The search's partners per attacked queen.
        key: Where the search's random sequence starts.
    """
    no_cells = np.empty(0, dtype=np.int64)
    left, _ = min_conflicts(
        genome, down, up, no_cells, no_cells, 0, conflicts, moves, candidates, STALL_PASSES, key
    )
    return int(left)


class LineCounts:
    """One board's line counts, int16, and int32 ones made the first time a board needs them.

    Args:
        n: The board size.
    """

    def __init__(self, n: int) -> None:
        self.n = n
        self.narrow = (_lines(n, NARROW_COUNTS), _lines(n, NARROW_COUNTS))
        self._wide: tuple[Counts, Counts] | None = None

    @property
    def wide(self) -> tuple[Counts, Counts]:
        """int32 counts, for the rare board whose lines the narrow ones cannot hold."""
        if self._wide is None:
            self._wide = (_lines(self.n, np.int32), _lines(self.n, np.int32))
        return self._wide

    def conflicts(self, genome: Rows) -> int:
        """The board's attacking pairs."""
        conflicts = count_lines(genome, *self.narrow, MOST_NARROW)
        return conflicts if conflicts >= 0 else count_lines(genome, *self.wide, NO_LIMIT)


def _lines(n: int, dtype: type[np.signedinteger[Any]]) -> Counts:
    """Scratch for the counts of the ``2N - 1`` diagonals of one direction."""
    return np.empty(max(2 * n - 1, 0), dtype=dtype)


def _improved_child(
    genome: Rows,
    lines: LineCounts,
    mutates: bool,
    draw: float,
    partners: IntArray,
    search: LocalSearchSettings,
    key: np.uint64,
) -> int:
    """One child mutated and searched, on narrow counts where they suffice; its conflicts."""
    counts = lines.narrow
    conflicts = counted_and_mutated(genome, *counts, MOST_NARROW, mutates, draw, partners)
    if conflicts < 0:  # a line too full for int16: the same child, on int32 counts
        counts = lines.wide
        conflicts = counted_and_mutated(genome, *counts, NO_LIMIT, mutates, draw, partners)
    elif conflicts > MOST_NARROW_PAIRS and search.moves:
        counts = lines.wide  # the mutated child counted again, for a search it may need
        conflicts = count_lines(genome, *counts, NO_LIMIT)
    if search.moves == 0 or conflicts == 0:
        return conflicts
    return searched(genome, *counts, conflicts, search.moves, search.candidates, key)


def improve_children_compiled(
    children: Genomes,
    rng: np.random.Generator,
    mutation: MutationSettings,
    search: LocalSearchSettings,
) -> IntArray:
    """Mutate and search every child in place (see the module); their conflicts after.

    Args:
        children: ``(K, N)`` permutations, C-contiguous rows, changed in place.
        rng: The run's generator.
        mutation: The conflict mutation's rate and candidates.
        search: The local search's budget and candidates.
    """
    count, n = children.shape
    conflicts = np.zeros(count, dtype=np.int64)
    if count == 0:
        return conflicts
    draws = draw_conflict_moves(rng, count, n, mutation.rate, mutation.candidates)
    keys = random_keys(rng, count) if search.moves else np.zeros(count, dtype=np.uint64)
    lines = LineCounts(n)
    for child in range(count):
        conflicts[child] = _improved_child(
            children[child],
            lines,
            bool(draws.mutates[child]),
            float(draws.queen[child]),
            draws.candidates[child],
            search,
            keys[child],
        )
    return conflicts


def scored_children(
    children: Genomes,
    rng: np.random.Generator,
    mutation: MutationSettings,
    search: LocalSearchSettings,
    shape: FitnessShape,
) -> Scored:
    """The children mutated and searched in place (:func:`improve_children_compiled`), scored
    from their conflicts: the compiled children road's children."""
    improved = improve_children_compiled(children, rng, mutation, search)
    return scored_from_conflicts(children, improved, mutation.n, mutation.encoding, shape)


def evaluate_boards(genomes: Genomes, n: int, encoding: Encoding, shape: FitnessShape) -> Scored:
    """:func:`engine.genomes.fitness.evaluate` one board at a time, into one pair of counts
    (:class:`LineCounts`).

    For permutations and a shape of :data:`engine.operators.local_search.CONFLICT_SHAPES`.
    """
    lines = LineCounts(n)
    conflicts = np.array([lines.conflicts(board) for board in genomes], dtype=np.int64)
    return scored_from_conflicts(genomes, conflicts, n, encoding, shape)


def scored_from_conflicts(
    genomes: Genomes, conflicts: IntArray, n: int, encoding: Encoding, shape: FitnessShape
) -> Scored:
    """The fitness of genomes whose conflicts are known.

    For a shape of :data:`engine.operators.local_search.CONFLICT_SHAPES`, which reads nothing else:
    the counts handed to it are empty.
    """
    lines = with_known_conflicts(BoardLines((), (), ()), conflicts)
    return score_lines(genomes, lines, n, encoding, shape)
