"""Every distinct solution a run meets, and its class under the 8 symmetries of the square.

A solution has one queen per column, so it is stored as its rows read column by column (a
permutation), whatever the encoding that found it. Two solutions are the same fundamental
solution when a rotation or a reflection of the board maps one onto the other.
"""

from __future__ import annotations

from typing import Final

import numpy as np
import numpy.typing as npt

from engine.arrays import Genomes, HashArray
from engine.genomes.encodings import Encoding
from engine.genomes.uniqueness import HashSet, row_hashes, weight_blocks

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

    The key is the smallest of the :func:`engine.genomes.uniqueness.row_hashes` of the board's 8
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
    ``weights``: :func:`engine.genomes.uniqueness.hash_weights` of ``N``, if the caller has them.
    """
    count, n = boards.shape
    if n == 0:
        return np.zeros(count, dtype=np.uint64)
    keys = np.empty(count, dtype=np.uint64)
    # C and D as sums over the rows, C = sum w[r] c(r), D = sum w[m - r] c(r), with c(r) the
    # column of row r (the board's inverse, 4 bytes a queen): every sum then reads the weights
    # in order, where gathering w[b[c]] read them at random (at N = 10^8, 800 MB of them). B and
    # D read the board backwards instead of the weights (B = sum w[k] b[m - k]), so the weights
    # come a block at a time, in order: large boards' are drawn so and never held whole.
    columns_of_rows = np.empty(n, dtype=np.int32 if n < 2**31 else np.int64)
    for index in range(count):
        board = boards[index]
        for start in range(0, n, _KEY_BLOCK):
            stop = min(n, start + _KEY_BLOCK)
            columns_of_rows[board[start:stop]] = np.arange(start, stop)
        backwards_board, backwards_columns = board[::-1], columns_of_rows[::-1]
        sums = np.zeros(4, dtype=np.uint64)
        total = np.zeros(1, dtype=np.uint64)  # W, as an array: its sum wraps without a warning
        for start, block_weights in weight_blocks(n, weights):
            stop = start + block_weights.shape[0]
            terms = (
                board[start:stop],
                backwards_board[start:stop],
                columns_of_rows[start:stop],
                backwards_columns[start:stop],
            )
            block = [block_weights @ term.astype(np.int64).view(np.uint64) for term in terms]
            sums += np.array(block, dtype=np.uint64)
            total += block_weights.sum(dtype=np.uint64)
        spread = total * np.uint64(n - 1)  # m W
        keys[index] = min(sums.min(), (spread - sums).min())
    return keys


_FIRST_BUFFER_BYTES: Final = 32 * 2**20
"""The most memory an archive sets aside before its first solution."""

SHARED_ROW_BYTES: Final = 2**20
"""Solutions at least this large are kept as a view of a published population, not copied."""


def _evenly_spaced(rows: npt.NDArray[np.intp]) -> slice | None:
    """``rows`` as a slice when they are increasing and evenly spaced, else ``None``."""
    if rows.shape[0] == 1:
        return slice(int(rows[0]), int(rows[0]) + 1)
    steps = np.diff(rows)
    if steps[0] <= 0 or (steps != steps[0]).any():
        return None
    return slice(int(rows[0]), int(rows[-1]) + 1, int(steps[0]))


class SolutionArchive:
    """The distinct solutions met so far, in the order they were found.

    Boards live in a buffer that grows by doubling; :attr:`boards` is a read-only view of
    its filled part, which is never written again, so published views stay valid. The first
    solutions of large boards (a row of :data:`SHARED_ROW_BYTES` or more) found in a read-only
    population, which its publisher never writes again, are kept as a view of it rather than
    copied: a run of ten million queens that solves its 4 boards at once holds them once, not
    twice (160 MB). A later solution copies them into a buffer of the archive's own.
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
                read where they are (hashed a block of columns at a time) and copied once into
                the archive, or, large rows of a read-only population, kept where they are: a
                population's solved rows at N = 10^7 are 40 MB each.
            with_images: Also add the 8 rotations and reflections of each solution: they are
                solutions too, so a search for all of them need not meet each one.
        """
        if rows is not None and with_images:
            boards, rows = boards[rows], None  # small boards: the images are 8 copies anyway
        if with_images:
            boards = symmetry_images(boards).reshape(-1, self.n)
        # Large boards' hash weights come a block at a time (weight_blocks): never held whole
        # beside the populations and these solutions.
        if rows is None:
            rows = np.arange(boards.shape[0])
            hashes = row_hashes(boards)
        else:
            hashes = row_hashes(boards, rows=rows)
        if rows.shape[0] == 0:
            return 0
        fresh = self._hashes.remember(hashes)
        added = int(fresh.sum())
        if not added:
            return 0
        chosen = rows[fresh]
        keys = [class_keys(boards[row : row + 1]) for row in chosen.tolist()]
        spaced = _evenly_spaced(chosen)
        if (
            not self._count
            and not boards.flags.writeable
            and boards.itemsize * self.n >= SHARED_ROW_BYTES
            and spaced is not None
        ):
            self._buffer = boards[spaced]
        else:
            self._copy(boards, chosen)
        self._classes.remember(np.concatenate(keys))
        self._count += added
        self._view = self._filled()
        return added

    def _copy(self, boards: Genomes, rows: npt.NDArray[np.intp]) -> None:
        """Copy ``boards``' ``rows`` after the filled part of the buffer, growing it if need be."""
        added = rows.shape[0]
        # The first solutions set the archive's dtype: large boards' int32 genes stay int32.
        dtype = self._buffer.dtype if self._count else boards.dtype
        if self._count + added > self._buffer.shape[0] or dtype != self._buffer.dtype:
            grown = np.empty((2 * (self._count + added), self.n), dtype=dtype)
            grown[: self._count] = self._buffer[: self._count]
            self._buffer = grown
        new = self._buffer[self._count : self._count + added]
        for slot, row in enumerate(rows.tolist()):  # a row at a time: no gathered copy
            new[slot] = boards[row]

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
