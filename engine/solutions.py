"""Every distinct solution a run meets, and its class under the 8 symmetries of the square.

A solution has one queen per column, so it is stored as its rows read column by column (a
permutation), whatever the encoding that found it. Two solutions are the same fundamental
solution when a rotation or a reflection of the board maps one onto the other.
"""

from __future__ import annotations

from typing import Final

import numpy as np
import numpy.typing as npt

from engine.encodings import Encoding, Genomes
from engine.uniqueness import HashArray, remember, row_hashes, unseen

KNOWN_TOTALS: Final[dict[int, tuple[int, int]]] = {
    1: (1, 1),
    2: (0, 0),
    3: (0, 0),
    4: (2, 1),
    5: (10, 2),
    6: (4, 1),
    7: (40, 6),
    8: (92, 12),
    9: (352, 46),
    10: (724, 92),
    11: (2680, 341),
    12: (14200, 1787),
    13: (73712, 9233),
    14: (365596, 45752),
    15: (2279184, 285053),
    16: (14772512, 1846955),
    17: (95815104, 11977939),
    18: (666090624, 83263591),
    19: (4968057848, 621012754),
    20: (39029188884, 4878666808),
    21: (314666222712, 39333324973),
    22: (2691008701644, 336376244042),
    23: (24233937684440, 3029242658210),
    24: (227514171973736, 28439272956934),
    25: (2207893435808352, 275986683743434),
    26: (22317699616364044, 2789712466510289),
    27: (234907967154122528, 29363495934315694),
}
"""N -> (all solutions, fundamental solutions): OEIS A000170 and A002562."""


def rows_by_column(genomes: Genomes, n: int, encoding: Encoding) -> Genomes:
    """Boards with one queen per column, as the row of the queen in each column.

    Args:
        genomes: ``(K, N)`` genomes that are solutions (one queen per column).
        n: The board size.
        encoding: How the genes are read.
    """
    rows, columns = encoding.decode(genomes, n)
    order = np.argsort(columns, axis=1, kind="stable")
    return np.take_along_axis(rows, order, axis=1)


def symmetries(board: npt.NDArray[np.int64]) -> list[tuple[int, ...]]:
    """The 8 images of a rows-by-column board under rotations and reflections."""
    n = board.shape[0]
    images = []
    current = board
    for _ in range(4):
        images.append(tuple(int(r) for r in current))
        images.append(tuple(int(r) for r in current[::-1]))  # mirrored left-right
        # Rotate a quarter turn: the queen at (row r, column c) goes to (c, n - 1 - r).
        rotated = np.empty_like(current)
        rotated[n - 1 - current] = np.arange(n)
        current = rotated
    return images


def canonical(board: npt.NDArray[np.int64]) -> tuple[int, ...]:
    """The representative of a board's symmetry class: the smallest of its 8 images."""
    return min(symmetries(board))


class SolutionArchive:
    """The distinct solutions met so far, in the order they were found."""

    def __init__(self, n: int) -> None:
        self.n = n
        self._hashes: HashArray = np.empty(0, dtype=np.uint64)
        self._boards: list[npt.NDArray[np.int64]] = []
        self._classes: set[tuple[int, ...]] = set()
        self._frozen: Genomes = self._freeze()

    def _freeze(self) -> Genomes:
        boards = np.stack(self._boards) if self._boards else np.empty((0, self.n), dtype=np.int64)
        boards.flags.writeable = False
        return boards

    def record(self, boards: Genomes, *, with_images: bool = False) -> int:
        """Add solutions (rows by column); returns how many were new.

        Args:
            boards: ``(K, N)`` solutions.
            with_images: Also add the 8 rotations and reflections of each new solution: they
                are solutions too, so a search for all of them need not meet each one.
        """
        if boards.shape[0] == 0:
            return 0
        if with_images:
            before = self.count
            for board in boards:
                if canonical(board) not in self._classes:
                    images = np.unique(np.asarray(symmetries(board), dtype=np.int64), axis=0)
                    self.record(images)
            return self.count - before
        hashes = row_hashes(boards)
        fresh = unseen(hashes, self._hashes)
        if not fresh.any():
            return 0
        self._hashes = remember(self._hashes, hashes[fresh])
        # Only new solutions reach this loop: a handful per generation at most.
        for board in boards[fresh]:
            self._boards.append(board.copy())
            self._classes.add(canonical(board))
        self._frozen = self._freeze()
        return int(fresh.sum())

    @property
    def boards(self) -> Genomes:
        """``(S, N)`` read-only: every distinct solution, rows by column, in order found."""
        return self._frozen

    @property
    def count(self) -> int:
        """Distinct solutions found."""
        return len(self._boards)

    @property
    def fundamental_count(self) -> int:
        """Distinct symmetry classes among them."""
        return len(self._classes)
