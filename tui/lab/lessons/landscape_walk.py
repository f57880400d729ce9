"""The landscape's measures, walked a chunk of boards at a time: N = 10 in bounded memory.

For every board of N queens (:mod:`tui.lab.lessons.landscape_boards`): the solutions, the mean
cost, the non-global local minima (strict: every swap is worse; weak: no swap is better),
where best-improvement descent ends from every start (the first best swap in ``(i, j)``
order, taken while it lowers the cost), and the fitness-distance correlation (Jones & Forrest
1995) of cost with the Hamming distance and with the swap distance to the nearest solution.

No array of every board's neighbours is made (N = 10: 160 million, 650 MB): each pass
computes a chunk's neighbours, uses them and lets them go. Held for every board are the boards
themselves (int8), their cost, one descent step (int32) and two distances: about 170 MB at
N = 10. Three passes (the neighbourhood, the Hamming distances, the breadth-first search) each
walk every board once; ``on_progress(done, total)`` hears of each chunk, and may raise to stop.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from tui.lab.lessons.landscape_boards import (
    RANK_CHUNK,
    Int,
    attacking_pairs,
    neighbour_rows,
    permutations,
    swap_rank_weights,
)

LARGEST_N: Final = 10
"""The largest board the lesson enumerates (N = 10: 3,628,800 boards)."""

HAMMING_CHUNK: Final = 16_384
"""Boards compared with every solution at once (N = 10: 47 MB of shared genes)."""

Progress = Callable[[int, int], None]
"""Told the boards walked and the boards to walk, over the three passes."""

Boards = npt.NDArray[np.int8]


class Walk:
    """The boards walked so far out of ``3 N!``, told to a progress callback."""

    def __init__(self, size: int, on_progress: Progress | None) -> None:
        self.done, self.total, self._tell = 0, 3 * size, on_progress

    def walked(self, boards: int) -> None:
        self.done += boards
        if self._tell is not None:
            self._tell(self.done, self.total)


def neighbourhood(
    boards: Boards, cost: Int, weights: npt.NDArray[np.float32], walk: Walk
) -> tuple[int, int, npt.NDArray[np.int32]]:
    """The strict and weak non-global minima, and each board's descent step: its first best
    swap's row when that lowers the cost, else its own."""
    strict = weak = 0
    step = np.empty(cost.shape[0], dtype=np.int32)
    for start in range(0, cost.shape[0], RANK_CHUNK):
        near = neighbour_rows(boards[start : start + RANK_CHUNK], weights)
        here = cost[start : start + near.shape[0]]
        around = cost[near]
        above = here > 0
        strict += int((above & (around > here[:, None]).all(axis=1)).sum())
        weak += int((above & (around >= here[:, None]).all(axis=1)).sum())
        best = around.argmin(axis=1)
        rows = np.arange(near.shape[0])
        own = np.arange(start, start + near.shape[0], dtype=np.int32)
        step[start : start + near.shape[0]] = np.where(
            around[rows, best] < here, near[rows, best], own
        )
        walk.walked(near.shape[0])
    return strict, weak, step


def descent_ends(step: npt.NDArray[np.int32]) -> npt.NDArray[np.int32]:
    """Where descent ends from every board: the steps followed, doubling, until nothing
    moves."""
    while True:
        following = step[step]
        if np.array_equal(following, step):
            return step
        step = following


def hamming_to_solutions(boards: Boards, solutions: Boards, walk: Walk) -> Int:
    """Each board's Hamming distance (genes that differ) to its nearest solution (``-1``
    without solutions)."""
    size, n = boards.shape
    if solutions.shape[0] == 0:
        walk.walked(size)
        return np.full(size, -1, dtype=np.int64)
    # Genes in common with each solution, by one-hot vectors: a product of matrices.
    ones = np.zeros((solutions.shape[0], n * n), dtype=np.float32)
    ones[np.arange(solutions.shape[0])[:, None], np.arange(n) * n + solutions] = 1.0
    nearest = np.empty(size, dtype=np.int64)
    for start in range(0, size, HAMMING_CHUNK):
        chunk = boards[start : start + HAMMING_CHUNK].astype(np.int64)
        mine = np.zeros((chunk.shape[0], n * n), dtype=np.float32)
        mine[np.arange(chunk.shape[0])[:, None], np.arange(n) * n + chunk] = 1.0
        shared = (mine @ ones.T).max(axis=1)
        nearest[start : start + chunk.shape[0]] = n - np.rint(shared).astype(np.int64)
        walk.walked(chunk.shape[0])
    return nearest


def swaps_to_solutions(
    boards: Boards, cost: Int, weights: npt.NDArray[np.float32], walk: Walk | None = None
) -> Int:
    """Each board's swap distance (fewest swaps) to its nearest solution, by a breadth-first
    search from every solution at once, each level's neighbours a chunk at a time (``-1``
    for boards no solution reaches)."""
    distance = np.full(cost.shape[0], -1, dtype=np.int64)
    frontier = np.flatnonzero(cost == 0)
    distance[frontier] = 0
    level = 0
    reached = np.zeros(cost.shape[0], dtype=bool)
    while frontier.size:
        level += 1
        reached[:] = False
        for start in range(0, frontier.size, RANK_CHUNK):
            rows = frontier[start : start + RANK_CHUNK]
            reached[neighbour_rows(boards[rows], weights).reshape(-1)] = True
            if walk is not None:
                walk.walked(rows.size)
        frontier = np.flatnonzero(reached & (distance < 0))
        distance[frontier] = level
    if walk is not None:
        walk.walked(int((distance < 0).sum()))  # never reached: walked all the same
    return distance


def correlation(first: npt.NDArray[Any], second: npt.NDArray[Any]) -> float | None:
    """Pearson's correlation (``None`` when either is constant)."""
    if first.std() == 0 or second.std() == 0:
        return None
    return float(np.corrcoef(first, second)[0, 1])


def measure_landscape(n: int, on_progress: Progress | None = None) -> dict[str, Any]:
    """The landscape's row for ``n`` queens (see the module).

    Raises:
        ValueError: For ``n`` outside ``1..LARGEST_N``.
    """
    if not 1 <= n <= LARGEST_N:
        raise ValueError(f"n: the landscape enumerates N = 1..{LARGEST_N}, not {n}")
    boards = permutations(n)
    cost = attacking_pairs(boards)
    weights = swap_rank_weights(n)
    walk = Walk(cost.shape[0], on_progress)
    strict, weak, step = neighbourhood(boards, cost, weights, walk)
    ends = descent_ends(step)
    del step
    solved = float((cost[ends] == 0).mean())
    del ends
    fdc_hamming = correlation(cost, hamming_to_solutions(boards, boards[cost == 0], walk))
    fdc_swap = correlation(cost, swaps_to_solutions(boards, cost, weights, walk))
    return {
        "label": f"n={n}",
        "n": n,
        "boards": int(cost.shape[0]),
        "solutions": int((cost == 0).sum()),
        "mean_cost": float(cost.mean()),
        "strict_minima": strict,
        "weak_minima": weak,
        "descent_solved": solved,
        "fdc_hamming": fdc_hamming,
        "fdc_swap": fdc_swap,
    }
