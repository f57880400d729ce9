"""The solutions a half turn maps onto themselves, and the fundamental count they give.

Counting fundamental solutions (classes under the 8 rotations and reflections of the board)
does not need the solutions themselves. By Burnside's lemma the number of classes is the mean,
over the 8 symmetries, of the solutions each one leaves unchanged. For N > 1 no reflection
leaves a solution unchanged (a mirror through the middle column would need every queen on it;
one through a diagonal pairs queens ``(r, c)`` and ``(c, r)``, which share an anti-diagonal), so

    fundamental = (all + half-turn symmetric + 2 * quarter-turn symmetric) / 8.

A solution symmetric under a half turn is fixed by its first half of rows: the queen at
``(r, c)`` brings one at ``(N - 1 - r, N - 1 - c)``. They are few (3,000 of N = 16's 14.8
million), and are found here by placing those pairs of queens, a row of pairs at a time.
"""

from __future__ import annotations

from typing import Final

import numpy as np
import numpy.typing as npt

Columns = npt.NDArray[np.uint8]

_PIECE: Final = 1 << 14
"""Partial boards extended per step: the candidate table is ``piece x N`` booleans."""


def half_turn_symmetric(n: int) -> Columns:
    """``(K, n)``: every solution a half turn leaves unchanged, as the column of each row's queen.

    Rows are filled in pairs, ``r`` and ``n - 1 - r``, depth first in pieces. The masks hold
    columns, sums ``r + c`` and differences ``r - c + n - 1``: ``2n - 1`` diagonals each, so
    ``n`` up to 32 fits a 64-bit word.
    """
    if n == 1:
        return np.zeros((1, 1), dtype=np.uint8)
    middle = n // 2
    masks = np.zeros((3, 1), dtype=np.uint64)
    if n % 2:  # the middle row's queen must be its own image: the centre
        masks[:, 0] = (1 << middle, 1 << (2 * middle), 1 << (n - 1))
    found: list[Columns] = []
    waiting = [(masks, np.zeros((1, 0), dtype=np.uint8))]
    while waiting:
        masks, placed = waiting.pop()
        row = placed.shape[1]
        if row == middle:
            found.append(_whole_boards(placed, n))
            continue
        if placed.shape[0] > _PIECE:
            for start in reversed(range(0, placed.shape[0], _PIECE)):
                stop = start + _PIECE
                waiting.append((masks[:, start:stop], placed[start:stop]))
            continue
        waiting.append(_place_pair(masks, placed, row, n))
    return np.concatenate(found) if found else np.zeros((0, n), dtype=np.uint8)


def _place_pair(
    masks: npt.NDArray[np.uint64], placed: Columns, row: int, n: int
) -> tuple[npt.NDArray[np.uint64], Columns]:
    """Every way to put a queen on ``row`` and its image on ``n - 1 - row``."""
    column = np.arange(n)
    image = n - 1 - column
    bits = np.stack(
        (
            (1 << column) | (1 << image),
            (1 << (row + column)) | (1 << (2 * n - 2 - row - column)),
            (1 << (row - column + n - 1)) | (1 << (column - row + n - 1)),
        )
    ).astype(np.uint64)
    # The pair itself must not clash: same column, same anti-diagonal, same diagonal.
    pair_fits = (column != image) & (row + column != n - 1) & (row != column)
    fits = pair_fits[None, :] & np.all((masks[:, :, None] & bits[:, None, :]) == 0, axis=0)
    parent, chosen = np.nonzero(fits)
    children = masks[:, parent] | bits[:, chosen]
    return children, np.column_stack((placed[parent], chosen)).astype(np.uint8)


def _whole_boards(top_rows: Columns, n: int) -> Columns:
    """Whole boards from their top half: each row's image below, and the centre when N is odd."""
    bottom = (n - 1 - top_rows)[:, ::-1]
    middle = np.full((top_rows.shape[0], n % 2), n // 2, dtype=np.uint8)
    return np.concatenate((top_rows, middle, bottom), axis=1).astype(np.uint8)


def quarter_turn_symmetric(boards: Columns) -> npt.NDArray[np.bool_]:
    """Which boards a quarter turn leaves unchanged.

    The quarter turn moves the queen at ``(r, c)`` to ``(c, N - 1 - r)``: a board is unchanged
    when the queen of row ``c`` is on column ``N - 1 - r`` for every row ``r``.
    """
    n = boards.shape[1]
    rows = np.arange(n)
    index = boards.astype(np.intp)
    unchanged: npt.NDArray[np.bool_] = np.all(
        np.take_along_axis(index, index, axis=1) == n - 1 - rows, axis=1
    )
    return unchanged


def fundamental_count(n: int, total: int) -> int:
    """The number of fundamental solutions of ``n``, given the number of all of them.

    Raises:
        ArithmeticError: If ``total`` is not the number of solutions (the classes do not
            come out whole).
    """
    if n == 1:
        return total
    half_turn = half_turn_symmetric(n)
    quarter_turn = int(np.count_nonzero(quarter_turn_symmetric(half_turn)))
    fixed = total + int(half_turn.shape[0]) + 2 * quarter_turn
    if fixed % 8:
        raise ArithmeticError(f"{total:,} is not the number of solutions of N = {n}")
    return fixed // 8
