"""The prefixes the exact search starts from: the first rows of half the boards, in batches.

Only half the boards are searched (:mod:`engine.solutions.exact`): those whose first queen is
left of the middle and, when N is odd, those whose first queen is in the middle and second left
of it; every other board is the mirror image of one of them. The search starts from every
valid placement of their first few rows, its *prefixes*, in lexicographic order, cut into
batches. A batch is also the unit a count is split into to run in other processes or on other
machines: :func:`check_prefixes` is what a batch that came from elsewhere must pass.
"""

from __future__ import annotations

from itertools import permutations

import numpy as np

from engine.solutions.backtracking import LAST_ROWS, Columns


def half_prefix_batches(n: int) -> list[Columns]:
    """The prefixes of the half of the boards searched, in lexicographic order, in batches.

    Rows are added until there are enough prefixes to make the batches (about
    ``2 ** (n - 10)``: one batch for N <= 10, whose search takes milliseconds; 64 for
    N = 16), or until :data:`~engine.solutions.backtracking.LAST_ROWS` rows are left. For N >= 4.
    """
    wanted = min(256, max(1, 2 ** (n - 10)))
    middle = n // 2
    prefixes: list[tuple[int, ...]] = [(column,) for column in range(middle)]
    if n % 2:
        prefixes = [p for prefix in prefixes for p in _extensions(prefix, n)]
        prefixes += [(middle, column) for column in range(middle - 1)]
    while prefixes and len(prefixes) < 4 * wanted and len(prefixes[0]) < n - LAST_ROWS:
        prefixes = [p for prefix in prefixes for p in _extensions(prefix, n)]
    rows = np.array(prefixes, dtype=np.uint8)
    return [part for part in np.array_split(rows, min(wanted, len(rows))) if part.shape[0]]


def check_prefixes(prefixes: Columns, n: int) -> None:
    """Refuse prefixes that are not placements of the first rows of the half searched.

    Their count would be wrong, not merely slow: a prefix outside the half would be counted
    with a mirror image that is counted again, and a prefix deeper than ``n - LAST_ROWS`` rows
    would be finished as if it had ``LAST_ROWS`` rows left.

    Args:
        prefixes: ``(K, rows)`` columns of the queens on the first rows.
        n: The board size (4 or more).

    Raises:
        ValueError: Naming what is wrong.
    """
    if prefixes.ndim != 2 or not 1 <= prefixes.shape[1] <= n - LAST_ROWS:
        raise ValueError(
            f"prefixes of N = {n} place 1 to {n - LAST_ROWS} rows; got shape {prefixes.shape}"
        )
    if prefixes.shape[0] == 0:
        return
    if int(prefixes.max()) >= n:
        raise ValueError(f"a prefix of N = {n} has a column past {n - 1}")
    rows = np.arange(prefixes.shape[1])
    columns = prefixes.astype(np.int64)
    for lines in (columns, columns + rows, columns - rows):  # columns and both diagonals
        ordered = np.sort(lines, axis=1)
        if np.any(ordered[:, 1:] == ordered[:, :-1]):
            raise ValueError(f"a prefix of N = {n} has two queens that attack each other")
    middle = n // 2
    first = columns[:, 0]
    in_half = first < middle
    if n % 2 and prefixes.shape[1] >= 2:
        in_half |= (first == middle) & (columns[:, 1] < middle)
    if not np.all(in_half):
        raise ValueError(
            f"a prefix of N = {n} is not in the half searched (first queen left of the middle, "
            "or in it with the second left of it)"
        )


def small_board_solutions(n: int) -> Columns:
    """N below 4, by trying every arrangement: 1 has one solution, 2 and 3 none."""
    found = [board for board in permutations(range(n)) if _queens_apart(board)]
    return np.array(found, dtype=np.uint8).reshape(len(found), n)


def _extensions(prefix: tuple[int, ...], n: int) -> list[tuple[int, ...]]:
    """``prefix`` with a queen added on the next row, every way it fits, left to right."""
    row = len(prefix)
    return [
        (*prefix, column)
        for column in range(n)
        if all(c != column and abs(c - column) != row - r for r, c in enumerate(prefix))
    ]


def _queens_apart(board: tuple[int, ...]) -> bool:
    """Whether no two queens of ``board`` (one per row and column) share a diagonal."""
    rows = range(len(board))
    sums, differences = {r + board[r] for r in rows}, {r - board[r] for r in rows}
    return len(sums) == len(differences) == len(board)
