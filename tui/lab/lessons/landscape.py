"""The landscape: every permutation of N <= 9 queens, each with its cost and its neighbours.

Cost is the number of attacking (diagonal) pairs; the neighbourhood is the ``N (N - 1) / 2``
swaps of two queens. For every board at once (numpy, no loop over boards): the solutions, the
mean cost, the non-global local minima (strict: every swap is worse; weak: no swap is better),
where best-improvement descent ends from every start (the first best swap in ``(i, j)`` order,
taken while it lowers the cost), and the fitness-distance correlation (Jones & Forrest 1995)
of cost with the Hamming distance and with the swap distance to the nearest solution.

Boards are numbered in lexicographic order, their rank by the Lehmer code, a weighted sum of
the comparisons between their genes: every swap's neighbour is one product of matrices.
``N = 9`` holds 362,880 boards and 13 million neighbours (52 MB as int32).
"""

from __future__ import annotations

import itertools
import math
from typing import Any, Final, NamedTuple

import numpy as np
import numpy.typing as npt

from tui.lab.lessons.lesson import Lesson, LessonJob, Results, Row, job_key
from tui.lab.lessons.runs import Recording
from tui.lab.sweep.job import Job

LARGEST_N: Final = 9
"""The largest board enumerated (N = 10: 3.6 million boards, 160 million neighbours)."""

SIZES: Final = tuple(range(4, LARGEST_N + 1))
"""The boards the lesson shows."""

RANK_CHUNK: Final = 65_536
"""Boards ranked at once (their comparisons: 21 MB at N = 9)."""

HAMMING_CHUNK: Final = 16_384
"""Boards compared with every solution at once."""

Int = npt.NDArray[np.int64]


class Landscape(NamedTuple):
    """Every board of one size.

    Attributes:
        boards: ``(N!, N)`` every permutation, in lexicographic order (int8).
        cost: ``(N!,)`` attacking pairs.
        neighbours: ``(N!, N (N - 1) / 2)`` each swap's board, as its row, swaps in ``(i, j)``
            order.
    """

    boards: npt.NDArray[np.int8]
    cost: Int
    neighbours: npt.NDArray[np.int32]


def swaps(n: int) -> list[tuple[int, int]]:
    """The swaps of two columns ``(i, j)``, ``i < j``, in order."""
    return list(itertools.combinations(range(n), 2))


def attacking_pairs(boards: npt.NDArray[Any]) -> Int:
    """Attacking pairs of each board of a ``(K, N)`` batch of permutations (diagonals only)."""
    rows = boards.astype(np.int64)
    cost = np.zeros(rows.shape[0], dtype=np.int64)
    for i, j in swaps(rows.shape[1]):
        cost += np.abs(rows[:, i] - rows[:, j]) == j - i
    return cost


def permutations(n: int) -> npt.NDArray[np.int8]:
    """``(n!, n)`` every permutation of ``0..n-1`` in lexicographic order: those starting with
    ``k``, for each ``k`` in turn, are ``k`` followed by the permutations of ``n - 1`` with the
    values from ``k`` up raised by one."""
    boards = np.zeros((1, 0), dtype=np.int8)
    for size in range(1, n + 1):
        blocks = []
        for first in range(size):
            rest = boards + (boards >= first)
            head = np.full((boards.shape[0], 1), first, dtype=np.int8)
            blocks.append(np.concatenate([head, rest.astype(np.int8)], axis=1))
        boards = np.concatenate(blocks)
    return boards


def landscape(n: int) -> Landscape:
    """Every board of ``n`` queens, its cost and its neighbours.

    Raises:
        ValueError: For ``n`` outside ``1..LARGEST_N``.
    """
    if not 1 <= n <= LARGEST_N:
        raise ValueError(f"n: the landscape enumerates N = 1..{LARGEST_N}, not {n}")
    boards = permutations(n)
    # A board's row is its rank: the sum, over columns k < l whose gene at l is the smaller,
    # of (n-1-k)! (its Lehmer code). So every rank, and every swap's rank, is a weighted sum of
    # the comparisons "gene a < gene b": one product of matrices (exact in float32 below 2^24).
    pairs = swaps(n)
    # Each column of weights: a swap's rank, the board's own rank (every pair) changed by it.
    weights = np.zeros((n * n, len(pairs)), dtype=np.float32)
    for first, second in pairs:
        weights[second * n + first, :] += math.factorial(n - 1 - first)
    for index, (i, j) in enumerate(pairs):
        order = list(range(n))
        order[i], order[j] = j, i
        for first, second in pairs:  # after the swap, each comparison reads where genes came from
            place = math.factorial(n - 1 - first)
            weights[second * n + first, index] -= place
            weights[order[second] * n + order[first], index] += place
    neighbours = np.empty((boards.shape[0], len(pairs)), dtype=np.int32)
    for start in range(0, boards.shape[0], RANK_CHUNK):
        columns = boards[start : start + RANK_CHUNK]
        smaller = (columns[:, :, None] < columns[:, None, :]).reshape(-1, n * n)
        ranks = smaller.astype(np.float32) @ weights
        neighbours[start : start + columns.shape[0]] = np.rint(ranks)
    return Landscape(boards, attacking_pairs(boards), neighbours)


def descent_ends(land: Landscape) -> Int:
    """Where best-improvement descent ends from every board (the row of its last board).

    Each board's step is its first best swap in ``(i, j)`` order when that lowers the cost,
    else itself; the ends are found by following the steps, doubling, until nothing moves.
    """
    rows = np.arange(land.cost.shape[0])
    around = land.cost[land.neighbours]
    best = around.argmin(axis=1)
    step = np.where(around[rows, best] < land.cost, land.neighbours[rows, best], rows)
    while True:
        following = step[step]
        if np.array_equal(following, step):
            return np.asarray(step, dtype=np.int64)
        step = following


def hamming_to_solutions(land: Landscape) -> Int:
    """Each board's Hamming distance (genes that differ) to its nearest solution (``-1``
    without solutions)."""
    solutions = land.boards[land.cost == 0]
    size, n = land.boards.shape
    if solutions.shape[0] == 0:
        return np.full(size, -1, dtype=np.int64)
    # Genes in common with each solution, by one-hot vectors: a product of matrices.
    ones = np.zeros((solutions.shape[0], n * n), dtype=np.float32)
    ones[np.arange(solutions.shape[0])[:, None], np.arange(n) * n + solutions] = 1.0
    nearest = np.empty(size, dtype=np.int64)
    for start in range(0, size, HAMMING_CHUNK):
        chunk = land.boards[start : start + HAMMING_CHUNK].astype(np.int64)
        mine = np.zeros((chunk.shape[0], n * n), dtype=np.float32)
        mine[np.arange(chunk.shape[0])[:, None], np.arange(n) * n + chunk] = 1.0
        shared = (mine @ ones.T).max(axis=1)
        nearest[start : start + chunk.shape[0]] = n - np.rint(shared).astype(np.int64)
    return nearest


def swaps_to_solutions(land: Landscape) -> Int:
    """Each board's swap distance (fewest swaps) to its nearest solution, by a breadth-first
    search from every solution at once (``-1`` without solutions)."""
    distance = np.full(land.cost.shape[0], -1, dtype=np.int64)
    frontier = np.flatnonzero(land.cost == 0)
    distance[frontier] = 0
    level = 0
    reached = np.zeros(distance.shape[0], dtype=bool)
    while frontier.size:
        level += 1
        reached[:] = False
        reached[land.neighbours[frontier].reshape(-1)] = True
        frontier = np.flatnonzero(reached & (distance < 0))
        distance[frontier] = level
    return distance


def correlation(first: Int, second: Int) -> float | None:
    """Pearson's correlation (``None`` when either is constant)."""
    if first.std() == 0 or second.std() == 0:
        return None
    return float(np.corrcoef(first, second)[0, 1])


def measure_landscape(n: int) -> dict[str, Any]:
    """The landscape's row for ``n`` queens (see the module)."""
    land = landscape(n)
    cost = land.cost
    around = cost[land.neighbours]
    above = cost > 0
    strict = above & (around > cost[:, None]).all(axis=1)
    weak = above & (around >= cost[:, None]).all(axis=1)
    ends = descent_ends(land)
    return {
        "label": f"n={n}",
        "n": n,
        "boards": int(cost.shape[0]),
        "solutions": int((cost == 0).sum()),
        "mean_cost": float(cost.mean()),
        "strict_minima": int(strict.sum()),
        "weak_minima": int(weak.sum()),
        "descent_solved": float((cost[ends] == 0).mean()),
        "fdc_hamming": correlation(cost, hamming_to_solutions(land)),
        "fdc_swap": correlation(cost, swaps_to_solutions(land)),
    }


def ranks_of(boards: npt.NDArray[Any]) -> Int:
    """Each permutation's row in :func:`landscape` (its Lehmer rank)."""
    n = boards.shape[1]
    rows = boards.astype(np.int64)
    rank = np.zeros(rows.shape[0], dtype=np.int64)
    for first, second in swaps(n):
        rank += (rows[:, second] < rows[:, first]) * math.factorial(n - 1 - first)
    return rank


def population_on_landscape(population: npt.NDArray[Any]) -> dict[str, Any]:
    """A population of permutations placed on its landscape: the share of its boards that are
    solutions, the share in non-global weak minima (no swap improves them), and the FDC of its
    own boards (cost against the swap distance to the nearest solution).

    Raises:
        ValueError: For boards of more than :data:`LARGEST_N` queens.
    """
    n = population.shape[1]
    land = landscape(n)
    rows = ranks_of(population)
    cost = land.cost[rows]
    around = land.cost[land.neighbours[rows]]
    trapped = (cost > 0) & (around >= cost[:, None]).all(axis=1)
    return {
        "n": n,
        "size": int(rows.shape[0]),
        "solved": float((cost == 0).mean()),
        "weak_minima": float(trapped.mean()),
        "fdc_swap": correlation(cost, swaps_to_solutions(land)[rows]),
    }


def jobs(population: int, seeds: int, recording: Recording | None = None) -> list[LessonJob]:
    """One job per board size (no engine run: nothing to record)."""
    return [
        LessonJob(f"n={n}", n, Job(job_key("landscape", f"n={n}", n), measure_landscape, (n,)))
        for n in SIZES
    ]


def rows(population: int, seeds: int, results: Results) -> list[Row]:
    """One row per board size, as measured."""
    return [dict(results.by_arm[f"n={n}"][0]) for n in SIZES]


LESSON: Final = Lesson(
    name="landscape",
    title="The landscape: every board of N <= 9 queens under the swap neighbourhood",
    text="Every permutation, its cost (attacking pairs) and its swaps. Count the solutions, "
    "the traps (boards no swap improves), how often plain descent reaches a solution, and "
    "whether the cost tells the distance to a solution (fitness-distance correlation).",
    formula="FDC = cov(cost, distance) / (sd(cost) sd(distance)) (Jones & Forrest 1995)",
    population=None,
    seeds=None,
    seeds_meaning="",
    jobs=jobs,
    rows=rows,
)
