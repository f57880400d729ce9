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
from engine.uniqueness import HashArray, HashSet, hash_weights, row_hashes

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
    if encoding.name != "squares":
        return genomes  # gene c is already the row of the queen in column c
    rows, columns = encoding.decode(genomes, n)
    order = np.argsort(columns, axis=1, kind="stable")
    return np.take_along_axis(rows, order, axis=1)


def symmetry_images(boards: Genomes) -> Genomes:
    """``(8, K, N)``: the images of ``(K, N)`` rows-by-column boards under the 8 symmetries.

    The quarter turn sends the queen at (row r, column c) to (c, N - 1 - r): as rows by
    column, the new board is the inverse permutation, read backwards.
    """
    n = boards.shape[1]
    images = []
    current = boards
    positions = np.broadcast_to(np.arange(n, dtype=np.int64), boards.shape)
    for _ in range(4):
        images.append(current)
        images.append(current[:, ::-1])  # mirrored left-right
        rotated = np.empty_like(current)
        np.put_along_axis(rotated, n - 1 - current, positions, axis=1)
        current = rotated
    return np.stack(images)


def canonical_boards(boards: Genomes) -> Genomes:
    """``(K, N)``: each board's class representative, the smallest of its 8 images.

    Lexicographic minimum: each image is compared with the smallest so far at the first
    column where they differ. Eight vectorized passes, whatever N (a board of a million
    queens takes milliseconds, not a Python step per column).
    """
    images = symmetry_images(boards)
    rows = np.arange(boards.shape[0])
    best = images[0]
    for image in images[1:]:
        differ = image != best
        first = np.argmax(differ, axis=1)
        smaller = differ[rows, first] & (image[rows, first] < best[rows, first])
        best = np.where(smaller[:, None], image, best)
    return np.asarray(best, dtype=np.int64)


def canonical(board: npt.ArrayLike) -> tuple[int, ...]:
    """The representative of one board's symmetry class, as a tuple."""
    single = np.asarray(board, dtype=np.int64)[None, :]
    return tuple(int(row) for row in canonical_boards(single)[0])


_KEY_BLOCK: Final = 1 << 16
"""Columns whose terms :func:`class_keys` sums at once: its temporaries stay a few MB."""


def class_keys(boards: Genomes, weights: HashArray | None = None) -> HashArray:
    """``(K,)``: per board (rows by column, each a permutation), a key of its symmetry class.

    The key is the smallest of the :func:`engine.uniqueness.row_hashes` of the board's 8
    images, so the 8 boards of a class share it, and boards of different classes differ but
    for a 64-bit hash collision. The images are not made: with weights ``w``, the board's
    queens ``(r, c) = (b[c], c)`` and ``m = N - 1``, a quarter turn sends ``(r, c)`` to
    ``(c, m - r)``, so its image hashes to ``sum w[m - b[c]] * c``; likewise the 8 hashes are

    ``A = sum w[c] b[c]``, ``B = sum w[m - c] b[c]``, ``C = sum w[b[c]] c``,
    ``D = sum w[m - b[c]] c``, and ``m W - A``, ``m W - B``, ``m W - C``, ``m W - D``

    with ``W = sum w`` (the same for every image: each is a permutation), all modulo 2^64.
    That is four dot products a board, in blocks of columns, the last two over the rows: a board
    of a hundred million queens needs its inverse (4 bytes a queen) besides itself, where the
    images took eight copies of it.
    ``weights``: :func:`engine.uniqueness.hash_weights` of ``N``, if the caller has them.
    """
    count, n = boards.shape
    if n == 0:
        return np.zeros(count, dtype=np.uint64)
    if weights is None:
        weights = hash_weights(n)
    reversed_weights = weights[::-1]  # sliced, never gathered from: a flipped view's take copies it
    # m W as a one-element array: numpy warns of a scalar product's wrap-around, not an array's.
    spread = np.full(1, weights.sum(dtype=np.uint64), dtype=np.uint64) * np.uint64(n - 1)
    keys = np.empty(count, dtype=np.uint64)
    # C and D as sums over the rows, C = sum w[r] c(r), D = sum w[m - r] c(r), with c(r) the
    # column of row r (the board's inverse, 4 bytes a queen): every sum then reads the weights
    # in order, where gathering w[b[c]] read them at random (at N = 10^8, 800 MB of them).
    columns_of_rows = np.empty(n, dtype=np.int32 if n < 2**31 else np.int64)
    for index in range(count):
        board = boards[index]
        for start in range(0, n, _KEY_BLOCK):
            stop = min(n, start + _KEY_BLOCK)
            columns_of_rows[board[start:stop]] = np.arange(start, stop)
        sums = np.zeros(4, dtype=np.uint64)
        for start in range(0, n, _KEY_BLOCK):
            stop = min(n, start + _KEY_BLOCK)
            unsigned_rows = board[start:stop].astype(np.int64).view(np.uint64)
            columns = columns_of_rows[start:stop].astype(np.int64).view(np.uint64)
            block = (
                weights[start:stop] @ unsigned_rows,
                reversed_weights[start:stop] @ unsigned_rows,
                weights[start:stop] @ columns,
                reversed_weights[start:stop] @ columns,
            )
            sums += np.array(block, dtype=np.uint64)  # an array's sum wraps without a warning
        keys[index] = min(sums.min(), (spread - sums).min())
    return keys


_FIRST_BUFFER_BYTES: Final = 32 * 2**20
"""The most memory an archive sets aside before its first solution."""


class SolutionArchive:
    """The distinct solutions met so far, in the order they were found.

    Boards live in a buffer that grows by doubling; :attr:`boards` is a read-only view of
    its filled part, which is never written again, so published views stay valid.
    """

    def __init__(self, n: int) -> None:
        self.n = n
        self._hashes = HashSet()
        self._classes = HashSet()
        # Room for 16 boards at first, or for one where 16 would pass _FIRST_BUFFER_BYTES: a
        # run of a hundred million queens meets one solution, not sixteen.
        rows = 16 if 16 * 8 * n <= _FIRST_BUFFER_BYTES else 1
        self._buffer: Genomes = np.empty((rows, n), dtype=np.int64)
        self._count = 0
        self._view = self._filled()

    def _filled(self) -> Genomes:
        view = self._buffer[: self._count]
        view.flags.writeable = False
        return view

    def record(
        self,
        boards: Genomes,
        *,
        rows: npt.NDArray[np.intp] | None = None,
        with_images: bool = False,
    ) -> int:
        """Add solutions (rows by column); returns how many were new.

        Args:
            boards: ``(K, N)`` solutions, or boards some of which are (see ``rows``).
            rows: The rows of ``boards`` that are solutions (``None``: all of them). They are
                read where they are, hashed one by one and copied once, into the archive: a
                population's solved rows at N = 10^7 are 80 MB each.
            with_images: Also add the 8 rotations and reflections of each solution: they are
                solutions too, so a search for all of them need not meet each one.
        """
        if rows is not None and with_images:
            boards, rows = boards[rows], None  # small boards: the images are 8 copies anyway
        if with_images:
            boards = symmetry_images(boards).reshape(-1, self.n)
        # Drawn once for this call (large boards' are not cached), and let go before the
        # solutions are copied: the weights and the copies are not held at once.
        weights = hash_weights(self.n)
        if rows is None:
            rows = np.arange(boards.shape[0])
            hashes = row_hashes(boards, weights)
        else:
            hashes = np.array(
                [row_hashes(boards[row : row + 1], weights)[0] for row in rows.tolist()],
                dtype=np.uint64,
            )
        if rows.shape[0] == 0:
            return 0
        fresh = self._hashes.remember(hashes)
        added = int(fresh.sum())
        if not added:
            return 0
        keys = [class_keys(boards[row : row + 1], weights) for row in rows[fresh].tolist()]
        del weights
        # The first solutions set the archive's dtype: large boards' int32 genes stay int32.
        dtype = self._buffer.dtype if self._count else boards.dtype
        if self._count + added > self._buffer.shape[0] or dtype != self._buffer.dtype:
            grown = np.empty((2 * (self._count + added), self.n), dtype=dtype)
            grown[: self._count] = self._buffer[: self._count]
            self._buffer = grown
        new = self._buffer[self._count : self._count + added]
        for slot, row in enumerate(rows[fresh].tolist()):  # a row at a time: no gathered copy
            new[slot] = boards[row]
        self._classes.remember(np.concatenate(keys))
        self._count += added
        self._view = self._filled()
        return added

    @property
    def boards(self) -> Genomes:
        """``(S, N)`` read-only: every distinct solution, rows by column, in order found."""
        return self._view

    @property
    def count(self) -> int:
        """Distinct solutions found."""
        return self._count

    @property
    def fundamental_count(self) -> int:
        """Distinct symmetry classes among them."""
        return len(self._classes)
