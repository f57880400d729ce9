"""Every permutation of N queens, numbered, with its cost and its swap neighbours' numbers.

Cost is the number of attacking (diagonal) pairs; the neighbourhood is the ``N (N - 1) / 2``
swaps of two queens, in ``(i, j)`` order. Boards are numbered in lexicographic order, their
number (row) being their Lehmer rank, a weighted sum of the comparisons between their genes:
every swap's neighbour of a batch of boards is one product of matrices
(:func:`neighbour_rows`), so the neighbours need never be held for every board at once.
"""

from __future__ import annotations

import itertools
import math
from typing import Any, Final, NamedTuple

import numpy as np
import numpy.typing as npt

LARGEST_HELD_N: Final = 9
"""The largest board whose every neighbour :func:`landscape` holds at once (N = 9: 13 million
neighbours, 52 MB as int32; N = 10 would be 160 million, 650 MB)."""

RANK_CHUNK: Final = 65_536
"""Boards ranked at once (their comparisons: 26 MB at N = 10)."""

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
    """Attacking pairs of each board of a ``(K, N)`` batch of permutations (diagonals only),
    a chunk of boards at a time (N = 10: 3.6 million boards)."""
    cost = np.zeros(boards.shape[0], dtype=np.int64)
    pairs = swaps(boards.shape[1])
    for start in range(0, boards.shape[0], RANK_CHUNK):
        rows = boards[start : start + RANK_CHUNK].astype(np.int16)
        part = cost[start : start + rows.shape[0]]
        for i, j in pairs:
            part += np.abs(rows[:, i] - rows[:, j]) == j - i
    return cost


def permutations(n: int) -> npt.NDArray[np.int8]:
    """``(n!, n)`` every permutation of ``0..n-1`` in lexicographic order: those starting with
    ``k``, for each ``k`` in turn, are ``k`` followed by the permutations of ``n - 1`` with the
    values from ``k`` up raised by one."""
    boards = np.zeros((1, 0), dtype=np.int8)
    for size in range(1, n + 1):
        made = np.empty((boards.shape[0] * size, size), dtype=np.int8)
        for first in range(size):
            block = made[first * boards.shape[0] : (first + 1) * boards.shape[0]]
            block[:, 0] = first
            block[:, 1:] = boards
            block[:, 1:] += boards >= first
        boards = made
    return boards


def swap_rank_weights(n: int) -> npt.NDArray[np.float32]:
    """``(N * N, swaps)``: the weights that turn a board's comparisons into each swap's rank.

    A board's rank is the sum, over columns ``k < l`` whose gene at ``l`` is the smaller, of
    ``(n-1-k)!`` (its Lehmer code). After a swap each comparison reads where the genes came
    from, so each swap's rank is another weighted sum of the same comparisons ``gene a < gene
    b`` (exact in float32 below 2^24: N <= 10).
    """
    pairs = swaps(n)
    weights = np.zeros((n * n, len(pairs)), dtype=np.float32)
    for first, second in pairs:
        weights[second * n + first, :] += math.factorial(n - 1 - first)
    for index, (i, j) in enumerate(pairs):
        order = list(range(n))
        order[i], order[j] = j, i
        for first, second in pairs:
            place = math.factorial(n - 1 - first)
            weights[second * n + first, index] -= place
            weights[order[second] * n + order[first], index] += place
    return weights


def neighbour_rows(
    boards: npt.NDArray[Any], weights: npt.NDArray[np.float32]
) -> npt.NDArray[np.int32]:
    """``(K, swaps)``: each swap's board of a ``(K, N)`` batch, as its row (its rank); a chunk
    of :data:`RANK_CHUNK` boards at a time."""
    n = boards.shape[1]
    neighbours = np.empty((boards.shape[0], weights.shape[1]), dtype=np.int32)
    for start in range(0, boards.shape[0], RANK_CHUNK):
        columns = boards[start : start + RANK_CHUNK]
        smaller = (columns[:, :, None] < columns[:, None, :]).reshape(-1, n * n)
        ranks = smaller.astype(np.float32) @ weights
        neighbours[start : start + columns.shape[0]] = np.rint(ranks)
    return neighbours


def landscape(n: int) -> Landscape:
    """Every board of ``n`` queens, its cost and all its neighbours, held at once.

    Raises:
        ValueError: For ``n`` outside ``1..LARGEST_HELD_N``.
    """
    if not 1 <= n <= LARGEST_HELD_N:
        raise ValueError(f"n: the landscape holds N = 1..{LARGEST_HELD_N}, not {n}")
    boards = permutations(n)
    return Landscape(boards, attacking_pairs(boards), neighbour_rows(boards, swap_rank_weights(n)))


def ranks_of(boards: npt.NDArray[Any]) -> Int:
    """Each permutation's row in :func:`permutations` (its Lehmer rank)."""
    n = boards.shape[1]
    rows = boards.astype(np.int64)
    rank = np.zeros(rows.shape[0], dtype=np.int64)
    for first, second in swaps(n):
        rank += (rows[:, second] < rows[:, first]) * math.factorial(n - 1 - first)
    return rank
