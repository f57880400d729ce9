"""Backtracking over bit masks, a row at a time for a whole frontier of partial boards at once.

A partial board with queens on its first ``depth`` rows is three bit masks (bit ``c`` is column
``c``): the columns taken, and the squares of the next row attacked along each diagonal
direction. Placing a queen on a free square of the next row is an OR and two shifts, so a
frontier of boards, one per array element, is extended by a handful of numpy operations
whatever its size.

The frontier is explored depth first in pieces of a fixed size, so the memory it holds is
bounded (:func:`piece_size`) and the arrays one step touches stay in the processor's cache.
Children come out grouped by how many siblings precede them, not by parent: order is not kept
(a caller that lists solutions sorts them).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from engine.arrays import BoolArray

Masks = npt.NDArray[np.unsignedinteger[Any]]
"""``(3, F)``: per partial board, its taken columns and its two diagonal attack masks."""


Columns = npt.NDArray[np.uint8]
"""``(F, n)``: per board, the column of the queen in each row."""

Placements = npt.NDArray[np.uint64]
"""``(F,)``: per partial board, its queens' columns, 4 bits a row, the first row in the highest
bits of a 64-bit word (row ``r`` in bits ``60 - 4r`` to ``63 - 4r``). Read as numbers, they
sort as the boards do, lexicographically."""

TAKEN, MAIN, ANTI = 0, 1, 2
"""Rows of :data:`Masks`: columns taken; next-row squares attacked along a main diagonal (row
minus column constant: the attack moves one column right per row, so the mask shifts left); and
along an anti-diagonal (row plus column constant: it moves left, the mask shifts right)."""

MASK_LIMIT: Final = 32
"""The widest board the masks hold: one bit per column in a 32-bit word."""

LAST_ROWS: Final = 3
"""Rows finished by trying every order of the free columns, without making their boards."""

PLACEMENT_LIMIT: Final = 16
"""The widest board whose placements are kept (:data:`Placements`: 16 rows of 4 bits)."""

FRONTIER_BUDGET: Final = 32 * 2**20
"""Bytes the frontier of a depth-first search may hold at most, whatever the board size."""

_LARGEST_PIECE: Final = 1 << 16
"""Boards extended in one step at most: beyond this the arrays leave the cache for no gain."""

_SMALLEST_PIECE: Final = 1 << 10
"""Boards extended in one step at least: below this numpy's per-call cost dominates."""


def mask_type(n: int) -> type[np.unsignedinteger[Any]]:
    """The narrowest unsigned integer that holds a row of ``n`` columns (``n`` <= 32)."""
    return np.uint16 if n <= 16 else np.uint32


def full_row(n: int) -> np.unsignedinteger[Any]:
    """A row of ``n`` columns, every bit set, in the masks' type."""
    return mask_type(n)((1 << n) - 1)


@dataclass(frozen=True)
class Frontier:
    """Partial boards with queens on their first ``depth`` rows.

    Attributes:
        depth: Rows filled.
        masks: ``(3, F)`` bit masks (:data:`TAKEN`, :data:`MAIN`, :data:`ANTI`).
        placements: Where the queens are (:data:`Placements`), or ``None`` when only counts
            are wanted.
    """

    depth: int
    masks: Masks
    placements: Placements | None

    def __len__(self) -> int:
        return int(self.masks.shape[1])

    def piece(self, start: int, stop: int) -> Frontier:
        """Boards ``start`` to ``stop`` (views, not copies)."""
        placements = None if self.placements is None else self.placements[start:stop]
        return Frontier(self.depth, self.masks[:, start:stop], placements)


def _row_shift(row: int) -> np.uint64:
    """Where ``row`` sits in a placement."""
    return np.uint64(4 * (PLACEMENT_LIMIT - 1 - row))


def placements_of(boards: Columns) -> Placements:
    """``(F,)`` placements of ``(F, rows)`` boards given by their columns (16 rows at most).

    Two rows make a byte, and eight bytes, read big-endian, the placement.
    """
    rows = boards.shape[1]
    assert rows <= PLACEMENT_LIMIT
    padded = np.zeros((boards.shape[0], PLACEMENT_LIMIT), dtype=np.uint8)
    padded[:, :rows] = boards
    pairs = (padded[:, 0::2] << 4) | padded[:, 1::2]
    return pairs.view(">u8")[:, 0].astype(np.uint64)


def columns_of(placements: Placements, n: int) -> Columns:
    """``(F, n)`` columns of whole boards given by their placements."""
    pairs = placements.astype(">u8").view(np.uint8).reshape(-1, PLACEMENT_LIMIT // 2)
    columns = np.empty((placements.shape[0], PLACEMENT_LIMIT), dtype=np.uint8)
    columns[:, 0::2] = pairs >> 4
    columns[:, 1::2] = pairs & 15
    return columns[:, :n]


def frontier_of(boards: Columns, n: int, keep_placements: bool) -> Frontier:
    """The frontier of ``(F, rows)`` partial boards given by their queens' columns.

    Args:
        boards: Columns of the queens on the first rows; each board must be valid so far.
        n: The board size (at most :data:`MASK_LIMIT`; :data:`PLACEMENT_LIMIT` to keep
            placements).
        keep_placements: Keep where the queens are (to list solutions) or not (to count).
    """
    kind = mask_type(n)
    full = full_row(n)
    masks = np.zeros((3, boards.shape[0]), dtype=kind)
    for row in range(boards.shape[1]):
        bits = np.left_shift(kind(1), boards[:, row].astype(kind))
        masks |= bits
        masks[MAIN] = (masks[MAIN] << 1) & full
        masks[ANTI] >>= 1
    placements = placements_of(boards) if keep_placements else None
    return Frontier(boards.shape[1], masks, placements)


def piece_size(n: int, keep_placements: bool) -> int:
    """Boards extended per step so that the whole search holds at most :data:`FRONTIER_BUDGET`.

    Depth first, each depth holds what is left of at most one step's children, and a step
    makes at most ``n - depth`` children per board: the sum over depths bounds the frontier.
    """
    per_board = 3 * np.dtype(mask_type(n)).itemsize + (8 if keep_placements else 0)
    worst = per_board * n * (n + 1) // 2
    return max(_SMALLEST_PIECE, min(_LARGEST_PIECE, FRONTIER_BUDGET // worst))


def extend(frontier: Frontier, n: int) -> Frontier:
    """Every way to place a queen on the next row of every board: the frontier one row deeper.

    Boards are sorted by how many free squares their next row has (a stable radix sort of
    small counts), so that the boards with at least ``k + 1`` free squares are a suffix of that
    order: layer ``k`` of children, each board's ``k``-th free square from the left, is then
    made from contiguous slices. Boards with no free square end here.
    """
    full = full_row(n)
    masks = frontier.masks
    free = ~(masks[TAKEN] | masks[MAIN] | masks[ANTI]) & full
    counts = np.bitwise_count(free)
    # [k]: boards with more than k free squares (half the time np.bincount takes).
    boards_with = [int(np.count_nonzero(counts > k)) for k in range(int(counts.max(initial=0)))]
    alive = boards_with[0] if boards_with else 0
    # Sorted ascending and kept in that order: taking along a reversed index is twice as slow.
    order = np.argsort(counts, kind="stable")[len(frontier) - alive :]
    parents = np.take(masks, order, axis=1)
    remaining = ~(parents[TAKEN] | parents[MAIN] | parents[ANTI]) & full
    children = np.empty((3, sum(boards_with)), dtype=masks.dtype)
    placed = None if frontier.placements is None else np.take(frontier.placements, order)
    placements = None if placed is None else np.empty(children.shape[1], dtype=np.uint64)
    row_shift = _row_shift(frontier.depth)
    start = 0
    for size in boards_with:
        stop = start + size
        left = remaining[alive - size :]
        lowest = left & np.negative(left)
        left ^= lowest
        layer = children[:, start:stop]
        np.bitwise_or(parents[:, alive - size :], lowest, out=layer)
        np.left_shift(layer[MAIN], 1, out=layer[MAIN])
        np.bitwise_and(layer[MAIN], full, out=layer[MAIN])
        np.right_shift(layer[ANTI], 1, out=layer[ANTI])
        if placements is not None and placed is not None:
            column = np.bitwise_count(lowest - 1).astype(np.uint64)
            np.bitwise_or(placed[alive - size :], column << row_shift, out=placements[start:stop])
        start = stop
    return Frontier(frontier.depth + 1, children, placements)


def _fitting_orders(frontier: Frontier) -> Iterator[tuple[tuple[Masks, ...], BoolArray]]:
    """For boards :data:`LAST_ROWS` rows short: each order of their free columns over those rows
    (as bits, row by row), and which boards it completes.

    With so few rows left, trying every order on every board at once costs less than making
    the boards of each row: a queen must not be attacked from above, and two of the new
    queens ``d`` rows apart must not be ``d`` columns apart.
    """
    masks = frontier.masks
    remaining = ~masks[TAKEN] & full_row(frontier.depth + LAST_ROWS)
    columns = []  # left to right
    for _ in range(LAST_ROWS):
        lowest = remaining & np.negative(remaining)
        remaining = remaining ^ lowest
        columns.append(lowest)
    attacked = [(masks[MAIN] << row) | (masks[ANTI] >> row) for row in range(LAST_ROWS)]
    fits = [[(column & attacked[row]) == 0 for row in range(LAST_ROWS)] for column in columns]
    # (left, right, rows): whether the two columns are not ``rows`` apart.
    apart = {
        (left, right, rows): (columns[left] << rows) != columns[right]
        for left, right in itertools.combinations(range(LAST_ROWS), 2)
        for rows in range(1, LAST_ROWS)
    }
    for order in itertools.permutations(range(LAST_ROWS)):
        valid = fits[order[0]][0].copy()
        for row in range(1, LAST_ROWS):
            valid &= fits[order[row]][row]
        for upper, lower in itertools.combinations(range(LAST_ROWS), 2):
            left, right = sorted((order[upper], order[lower]))
            valid &= apart[(left, right, lower - upper)]
        yield tuple(columns[column] for column in order), valid


def count_completions(frontier: Frontier) -> int:
    """How many solutions complete the boards of ``frontier`` (:data:`LAST_ROWS` rows short)."""
    return sum(int(np.count_nonzero(valid)) for _, valid in _fitting_orders(frontier))


def completions(frontier: Frontier) -> Placements:
    """``(K,)``: the placements of every solution that completes a board of ``frontier``
    (:data:`LAST_ROWS` rows short), in no particular order."""
    assert frontier.placements is not None
    orders = list(_fitting_orders(frontier))
    completed = orders[0][1].copy()
    for _, valid in orders[1:]:
        completed |= valid
    # Few boards complete: what follows is done on them alone.
    boards = np.flatnonzero(completed)
    solutions = []
    for bits, valid in orders:
        chosen = boards[valid[boards]]
        placed = frontier.placements[chosen]
        for row, bit in enumerate(bits):
            column = np.bitwise_count(bit[chosen] - 1).astype(np.uint64)
            placed |= column << _row_shift(frontier.depth + row)
        solutions.append(placed)
    return np.concatenate(solutions)


def depth_first(start: Frontier, n: int, piece: int) -> Iterator[Frontier]:
    """Extend ``start`` row by row, a piece at a time, yielding the pieces that are
    :data:`LAST_ROWS` rows short of ``n`` (:func:`count_completions` and :func:`completions`
    finish them).

    A frontier larger than ``piece`` is split, and its pieces are finished one after the other
    before the next is started, so at most one step's children wait at each depth.
    """
    waiting = [start]
    while waiting:
        frontier = waiting.pop()
        if len(frontier) == 0:
            continue
        if frontier.depth >= n - LAST_ROWS:
            yield frontier
        elif len(frontier) > piece:
            starts = range(0, len(frontier), piece)
            waiting.extend(frontier.piece(s, s + piece) for s in reversed(starts))
        else:
            waiting.append(extend(frontier, n))
