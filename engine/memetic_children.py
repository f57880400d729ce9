"""A memetic generation's children, mutated and searched one at a time in compiled code.

The numpy path counts every line of every child at once (:func:`engine.conflicts.board_lines`:
each queen's cells as int64, the counts, each queen's line sums, the attacked mask), mutates
all children with whole-array operations, then hands the counts to the local search. For 4
children of 10^7 queens that is about 2 GB of arrays and most of a generation's time, for what
is, child by child, one pass over the board. Here each child's lines are counted into one pair
of int32 arrays, reused from child to child (16 bytes a queen, once), its conflict mutation is
made on them, and the min-conflicts search (:func:`engine.memetic_kernels.min_conflicts`)
continues on the same counts.

The same run, draw for draw: the run's generator gives the conflict mutation's draws (which
children mutate, the attacked queen's draw, the candidate partners) and then the search's
keys, in the order and shapes :func:`engine.mutation.conflict_mutation_counted` and
:func:`engine.local_search.local_search` draw them; the kernel makes the mutation's choice as
it does (the attacked queen ``floor(draw * attacked)``, else ``floor(draw * N)``, the first
best of the candidates, made even when it is worse) from the same exact swap formula.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from engine.compiled import compiled
from engine.conflicts import BoardLines, with_known_conflicts
from engine.encodings import Encoding, Genomes
from engine.fitness import FitnessShape, Scored, score_lines
from engine.greedy_start import random_keys
from engine.local_search import STALL_PASSES, LocalSearchSettings
from engine.memetic_kernels import _move, _pushed, _swap_change, min_conflicts
from engine.mutation import MutationSettings

Rows = npt.NDArray[np.signedinteger[Any]]
Counts = npt.NDArray[np.int32]
IntArray = npt.NDArray[np.int64]


@compiled
def count_lines(genome: Rows, down: Counts, up: Counts) -> int:
    """Fill ``down`` and ``up`` with the queens on each diagonal; the attacking pairs."""
    n = genome.shape[0]
    down[:] = 0
    up[:] = 0
    for column in range(n):
        row = genome[column]
        down[row - column + n - 1] += 1
        up[row + column] += 1
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
        row = genome[column]
        if down[row - column + n - 1] > 1 or up[row + column] > 1:
            queue = _pushed(queue, attacked, column)
            attacked += 1
    if attacked == 0:
        return int(draw * n)
    return int(queue[int(draw * attacked)])


@compiled
def mutate_and_search(
    genome: Rows,
    down: Counts,
    up: Counts,
    mutates: bool,
    draw: float,
    partners: IntArray,
    moves: int,
    candidates: int,
    key: np.uint64,
) -> int:
    """One child: counted, its conflict mutation made, then searched; its conflicts after.

    Args:
        genome: The child, changed in place.
        down: ``(2N - 1,)`` scratch for the diagonals' counts (overwritten).
        up: ``(2N - 1,)`` scratch for the anti-diagonals' counts (overwritten).
        mutates: Whether the child mutates.
        draw: The mutation's draw in ``[0, 1)`` that picks the attacked queen.
        partners: The mutation's candidate partners, drawn in ``0 .. N - 2``.
        moves: The search's budget of swaps (0: no search).
        candidates: The search's partners per attacked queen.
        key: Where the search's random sequence starts.
    """
    conflicts = count_lines(genome, down, up)
    queue = np.empty(16, dtype=np.int32)
    no_cells = np.empty(0, dtype=np.int64)  # the counts suffice: no cells are kept
    if mutates:
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
        conflicts += best_change
    if moves == 0 or conflicts == 0:
        return conflicts
    left, _ = min_conflicts(
        genome, down, up, no_cells, no_cells, 0, conflicts, moves, candidates, STALL_PASSES, key
    )
    return int(left)


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
    mutates = np.asarray(rng.random(count) < mutation.rate, dtype=np.bool_)
    draws = np.asarray(rng.random(count), dtype=np.float64)
    partners = np.asarray(rng.integers(0, n - 1, size=(count, mutation.candidates)), np.int64)
    moves = search.moves
    keys = random_keys(rng, count) if moves else np.zeros(count, dtype=np.uint64)
    down = np.empty(2 * n - 1, dtype=np.int32)
    up = np.empty(2 * n - 1, dtype=np.int32)
    for child in range(count):
        conflicts[child] = mutate_and_search(
            children[child],
            down,
            up,
            bool(mutates[child]),
            float(draws[child]),
            partners[child],
            moves,
            search.candidates,
            keys[child],
        )
    return conflicts


def evaluate_boards(genomes: Genomes, n: int, encoding: Encoding, shape: FitnessShape) -> Scored:
    """:func:`engine.fitness.evaluate` one board at a time, into one pair of int32 counts.

    For permutations and a shape of :data:`engine.local_search.CONFLICT_SHAPES`.
    """
    down = np.empty(max(2 * n - 1, 0), dtype=np.int32)
    up = np.empty_like(down)
    conflicts = np.array([count_lines(board, down, up) for board in genomes], dtype=np.int64)
    return scored_from_conflicts(genomes, conflicts, n, encoding, shape)


def scored_from_conflicts(
    genomes: Genomes, conflicts: IntArray, n: int, encoding: Encoding, shape: FitnessShape
) -> Scored:
    """The fitness of genomes whose conflicts are known.

    For a shape of :data:`engine.local_search.CONFLICT_SHAPES`, which reads nothing else: the
    counts handed to it are empty.
    """
    lines = with_known_conflicts(BoardLines((), (), ()), conflicts)
    return score_lines(genomes, lines, n, encoding, shape)
