"""One vectorized conflict counter for every encoding.

A queen sits on four lines: its row, its column, its diagonal (``row - column``) and its
anti-diagonal (``row + column``). Counting how many queens occupy every line of every
individual takes one ``bincount`` per kind of line; a line holding ``k`` queens contributes
``k * (k - 1) / 2`` attacking pairs. That is O(P * N) per population, with no Python loop over
individuals.
"""

from __future__ import annotations

from functools import cached_property, lru_cache
from typing import Any

import numpy as np

from engine.arrays import BoolArray, Genomes, IntArray
from engine.genomes.encodings import Encoding


class BoardLines:
    """Where each queen sits on the lines that can clash, and how full every line is.

    Per kind of line the counts are one flat array over ``(individual, line)`` cells, and each
    queen knows its cell in it, so every lookup is a flat ``take``: the cheapest gather numpy
    has, and the reason this class exists.

    Attributes:
        cells: Per kind of line, ``(P, N)``: each queen's cell, ``individual * L + line``.
        occupancy: Per kind of line, ``(P * L,)``: how many queens are in each cell.
        sizes: Per kind of line, the number of lines ``L`` of that kind.
    """

    def __init__(
        self,
        cells: tuple[IntArray, ...],
        occupancy: tuple[IntArray, ...],
        sizes: tuple[int, ...],
    ) -> None:
        # A plain class, not a dataclass: one is made per generation, and the class at every
        # start-up; the cached property below needs an instance dictionary anyway.
        self.cells = cells
        self.occupancy = occupancy
        self.sizes = sizes

    @property
    def counts(self) -> tuple[IntArray, ...]:
        """Per kind of line, ``(P, L)`` queens on each line (views, no copy)."""
        return tuple(
            flat.reshape(-1, lines) for flat, lines in zip(self.occupancy, self.sizes, strict=True)
        )

    @cached_property
    def conflicts(self) -> IntArray:
        """Attacking pairs per individual, ``sum over lines of k * (k - 1) / 2``.

        From the line counts alone, as ``(sum of k^2 - sum of k) / 2`` with one ``einsum``
        per kind of line: a sequential pass, no gather (2.5x cheaper than summing each
        queen's count at N = 4096, measured).
        """
        individuals, n = self.cells[0].shape
        total = np.zeros(individuals, dtype=np.int64)
        for counts in self.counts:
            # Summed in int64: the counts may be int16 or int32.
            total += np.einsum("ij,ij->i", counts, counts, dtype=np.int64)
        return np.asarray((total - len(self.sizes) * n) // 2, dtype=np.int64)

    def attacked(self) -> BoolArray:
        """A ``(P, N)`` mask of the queens that share at least one line with another queen.

        Gathered from a boolean "line holds two or more" table, 8 times smaller than the
        counts, so the gather stays in cache.
        """
        mask = np.zeros(self.cells[0].shape, dtype=bool)
        for flat, cells in zip(self.occupancy, self.cells, strict=True):
            mask |= np.take(flat > 1, cells)
        return mask

    def on_lines(self, kind: int, lines: IntArray) -> IntArray:
        """Queens on some lines of one kind; ``lines`` is ``(P, C)``, a row per individual."""
        offsets = (np.arange(lines.shape[0], dtype=np.int64) * self.sizes[kind])[:, None]
        return np.take(self.occupancy[kind], lines + offsets)


def with_known_conflicts(lines: BoardLines, conflicts: IntArray) -> BoardLines:
    """New counts over the same arrays, whose conflicts are already known.

    An operator that moves queens knows each move's exact change in conflicts; carrying the
    totals forward saves gathering every queen's line counts again (a pass over ``(P, N)``).
    """
    known = BoardLines(cells=lines.cells, occupancy=lines.occupancy, sizes=lines.sizes)
    # cached_property keeps its value in the instance's __dict__: seed it there.
    known.__dict__["conflicts"] = conflicts
    return known


def own_line_sums(lines: BoardLines) -> IntArray:
    """``(P, N)``: per queen, the queens on its lines, summed over the kinds of line.

    Each count includes the queen itself, so a queen is attacked exactly when its sum is more
    than the kinds of line (:meth:`BoardLines.attacked` in fewer passes), and the sums give
    the conflicts (:func:`conflicts_from_sums`); the swap formula reads the same sums for the
    lines a pair of queens leaves.
    """
    total = lines.occupancy[0].take(lines.cells[0])
    for flat, cells in zip(lines.occupancy[1:], lines.cells[1:], strict=True):
        total += flat.take(cells)
    return total


def conflicts_from_sums(sums: IntArray, kinds: int) -> IntArray:
    """Attacking pairs per row of :func:`own_line_sums`: :attr:`BoardLines.conflicts` there.

    Summed over its queens, a line of ``k`` gives ``k * k``: its pairs twice, plus each queen
    once; so the pairs are ``(sum - kinds * N) / 2``.
    """
    total = sums.sum(axis=1, dtype=np.int64)
    return np.asarray((total - kinds * sums.shape[1]) // 2, dtype=np.int64)


def swap_change(
    lines: BoardLines,
    individual: IntArray,
    i: IntArray,
    a: IntArray,
    j: IntArray,
    b: IntArray,
    *,
    sharing: tuple[IntArray, IntArray] | None = None,
) -> IntArray:
    """Exact change in attacking pairs when two queens of a permutation board swap rows.

    The queen in column ``i`` (row ``a``) moves to row ``b`` and the one in column ``j`` (row
    ``b``) to row ``a``, on the boards ``individual`` of ``lines`` (the counts of permutations:
    diagonals and anti-diagonals only); ``i != j``, so ``a != b``. The arrays broadcast.

    Lifting a queen off a line of ``k`` loses ``k - 1`` pairs; putting it on a line of ``k``
    gains ``k``. Two corrections: the rows and columns differ, so a queen's new line is never
    one the pair leaves; and when the two queens attack each other on a diagonal
    (``|a - b| == |i - j|``) they share one line before (lifting the second loses one pair
    less) and one after (putting the second down gains one more), so 2 more in all.

    ``sharing``: the queens on the partner's two lines and on the moving queen's two lines
    (each count including the queen itself), when the caller has gathered them already.
    """
    down, up = lines.occupancy
    lines_per_kind = lines.sizes[0]
    n = (lines_per_kind + 1) // 2
    # Cell indices built from as few whole-array operations as possible, the small (per
    # queen) terms first: at small N the number of numpy calls, not the data, is the cost.
    up_base = individual * lines_per_kind
    down_base = up_base + (n - 1)
    # Where the pair lands: the moving queen on (b, i), the partner on (a, j).
    queen_down, partner_down = (down_base - i) + b, (down_base + a) - j
    queen_up, partner_up = (up_base + i) + b, (up_base + a) + j
    gained = down.take(queen_down)
    gained += down.take(partner_down)
    gained += up.take(queen_up)
    gained += up.take(partner_up)
    if sharing is None:
        lost = down.take((down_base + b) - j) + up.take((up_base + b) + j)
        lost_here = down.take((down_base + a) - i) + up.take((up_base + a) + i)
    else:
        lost, lost_here = sharing
    # In int64 from here: the counts may be int16.
    change: IntArray = np.subtract(gained, lost, dtype=np.int64)
    change -= lost_here - 4
    # The two share a diagonal (a - i == b - j, or a + i == b + j; never both, as i != j)
    # exactly when the queen's new anti-diagonal is the partner's (b + i == a + j), or its new
    # diagonal is the partner's (b - i == a - j).
    same_diagonal = (queen_up == partner_up) | (queen_down == partner_down)
    change += same_diagonal
    change += same_diagonal
    return change


def line_indices(
    rows: IntArray, columns: IntArray, n: int, encoding: Encoding
) -> tuple[tuple[IntArray, ...], tuple[int, ...]]:
    """The line index of every queen, for each kind of line the encoding lets clash.

    ``rows`` and ``columns`` may have any (equal) shape: the result has that shape too, so the
    same function places candidate moves on lines. A permutation keeps rows and columns
    distinct by construction, so only its diagonals are counted; that halves the work on the
    hot path without changing any count.
    """
    kinds: list[tuple[IntArray, int]] = []
    if encoding.rows_can_clash:
        kinds.append((rows, n))
    if encoding.columns_can_clash:
        kinds.append((columns, n))
    kinds.append((rows - columns + (n - 1), 2 * n - 1))
    kinds.append((rows + columns, 2 * n - 1))
    return tuple(k[0] for k in kinds), tuple(k[1] for k in kinds)


def board_lines(
    genomes: Genomes, n: int, encoding: Encoding, *, reuse: BoardLines | None = None
) -> BoardLines:
    """Count the queens on every line of every individual: one ``bincount`` per kind of line.

    Args:
        genomes: A ``(P, N)`` population.
        n: The board size.
        encoding: How to read the genes.
        reuse: Counts of an earlier batch that nobody uses any more: when their arrays have
            the right shapes they are overwritten instead of allocating new ones (a run counts
            the same shapes every generation, and fresh arrays of that size cost page faults).

    Returns:
        The cell of every queen and the occupancy of every line.
    """
    size = genomes.shape[0]
    dtype = count_dtype(n)
    if encoding.name == "squares":
        rows, columns = encoding.decode(genomes, n)
        index, sizes = line_indices(rows, columns, n, encoding)
        cells = tuple(
            line + (np.arange(size, dtype=np.int64) * lines)[:, None]
            for line, lines in zip(index, sizes, strict=True)
        )
    else:
        # The gene is the row and the column is the gene's position, so each cell is the gene
        # plus a constant that depends only on the shape: one addition per kind of line.
        bases, sizes = _column_bases(size, n, encoding.rows_can_clash)
        if reuse is not None and _reusable(reuse, genomes.shape, sizes, dtype):
            for base, cell, flat in zip(bases, reuse.cells, reuse.occupancy, strict=True):
                np.add(genomes, base, out=cell)
                flat.fill(0)
                np.add.at(flat, cell.ravel(), dtype(1))
            return BoardLines(cells=reuse.cells, occupancy=reuse.occupancy, sizes=sizes)
        cells = tuple(genomes + base for base in bases)
    occupancy = tuple(
        _count_cells(cell, size * lines, dtype) for cell, lines in zip(cells, sizes, strict=True)
    )
    return BoardLines(cells=cells, occupancy=occupancy, sizes=sizes)


def _reusable(
    lines: BoardLines,
    shape: tuple[int, ...],
    sizes: tuple[int, ...],
    dtype: type[np.signedinteger[Any]],
) -> bool:
    """Whether ``lines``'s arrays can hold the counts of a batch of ``shape`` (see board_lines)."""
    return (
        lines.sizes == sizes
        and all(
            cell.shape == shape and cell.dtype == np.int64 and cell.flags.c_contiguous
            for cell in lines.cells
        )
        and all(
            flat.shape == (shape[0] * lines,) and flat.dtype == dtype and flat.flags.writeable
            for flat, lines in zip(lines.occupancy, sizes, strict=True)
        )
        and all(cell.flags.writeable for cell in lines.cells)
    )


def count_dtype(n: int) -> type[np.signedinteger[Any]]:
    """The narrowest signed integer that holds any sum of four line counts of an N board.

    A line holds at most N queens and the swap formula adds four counts, so 4N must fit:
    int16 up to N = 8191, int32 beyond. Narrow counts halve or quarter the memory a count
    touches, which on large boards is most of its cost.
    """
    return np.int16 if 4 * n + 4 < 2**15 else np.int32


def _count_cells(cells: IntArray, length: int, dtype: type[np.signedinteger[Any]]) -> IntArray:
    """How many queens are in each of ``length`` cells, as ``dtype``.

    ``add.at`` with a value of the same dtype takes numpy's fast path: about twice as fast as
    ``bincount``, whose int64 result is 2-4 times the memory (measured at P = 40, N = 4096).
    """
    counts = np.zeros(length, dtype=dtype)
    np.add.at(counts, cells.ravel(), dtype(1))
    return counts


@lru_cache(maxsize=8)
def _column_bases(
    size: int, n: int, rows_can_clash: bool
) -> tuple[tuple[IntArray, ...], tuple[int, ...]]:
    """Per kind of line, the ``(P, N)`` array to add to a row-per-column genome to get its cells.

    The lines of the queen in column ``c`` at row ``r``: row ``r``, diagonal
    ``r - c + N - 1`` and anti-diagonal ``r + c``; individual ``i`` owns cells
    ``i * L .. i * L + L - 1``. Cached (read-only) because a run asks for the same shapes
    every generation.
    """
    individual = np.arange(size, dtype=np.int64)[:, None]
    column = np.arange(n, dtype=np.int64)[None, :]
    diagonals = 2 * n - 1
    bases = [individual * diagonals + (n - 1) - column, individual * diagonals + column]
    sizes = [diagonals, diagonals]
    if rows_can_clash:
        bases.insert(0, np.broadcast_to(individual * n, (size, n)))
        sizes.insert(0, n)
    for base in bases:
        base.flags.writeable = False
    return tuple(np.ascontiguousarray(b) for b in bases), tuple(sizes)


def count_conflicts(genomes: Genomes, n: int, encoding: Encoding) -> IntArray:
    """Pairs of queens that attack each other (share a row, column or diagonal), per individual.

    Queens on the same square share all four lines and so count as four pairs.
    """
    return board_lines(genomes, n, encoding).conflicts


def attacked_directions(genomes: Genomes, n: int, encoding: Encoding) -> IntArray:
    """Sheppard's count: per distinct occupied square, how many of 8 directions see a queen.

    Rays are not blocked by an intervening queen (Sheppard's code asks whether *any* square along
    the ray holds a queen). Queens stacked on one square are counted once here; the caller adds
    his penalty for them.
    """
    rows, columns = encoding.decode(genomes, n)
    size = genomes.shape[0]
    individual = np.arange(size, dtype=np.int64)[:, None]
    total = np.zeros(size, dtype=np.int64)
    # (line, position along the line) for rows, columns, diagonals and anti-diagonals.
    lines = (
        (rows, columns, n),
        (columns, rows, n),
        (rows - columns + (n - 1), rows, 2 * n - 1),
        (rows + columns, rows, 2 * n - 1),
    )
    for line, position, count in lines:
        key = np.unique(((individual * count + line) * n + position).ravel())
        line_of = key // n
        same_line = line_of[1:] == line_of[:-1]
        seen = np.zeros(key.shape[0], dtype=np.int64)
        seen[:-1] += same_line  # a queen further along the line
        seen[1:] += same_line  # a queen further back along the line
        total += np.bincount(line_of // count, weights=seen, minlength=size).astype(np.int64)
    return total


def distinct_squares(genomes: Genomes, n: int, encoding: Encoding) -> IntArray:
    """How many different squares each individual's queens occupy."""
    rows, columns = encoding.decode(genomes, n)
    squares = np.sort(rows * n + columns, axis=1)
    return np.asarray(1 + (squares[:, 1:] != squares[:, :-1]).sum(axis=1), dtype=np.int64)
