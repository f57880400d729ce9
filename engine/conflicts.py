"""One vectorized conflict counter for every encoding.

A queen sits on four lines: its row, its column, its diagonal (``row - column``) and its
anti-diagonal (``row + column``). Counting how many queens occupy every line of every
individual takes one ``bincount`` per kind of line; a line holding ``k`` queens contributes
``k * (k - 1) / 2`` attacking pairs. That is O(P * N) per population, with no Python loop over
individuals.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np
import numpy.typing as npt

from engine.encodings import Encoding, Genomes

IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]


@dataclass(frozen=True)
class BoardLines:
    """Where each queen sits on the lines that can clash, and how full every line is.

    Attributes:
        index: Per kind of line, a ``(P, N)`` array: the line each queen is on.
        counts: Per kind of line, a ``(P, L)`` array: how many queens are on each line.
        sizes: Per kind of line, the number of lines ``L`` of that kind.
    """

    index: tuple[IntArray, ...]
    counts: tuple[IntArray, ...]
    sizes: tuple[int, ...]

    @cached_property
    def conflicts(self) -> IntArray:
        """Attacking pairs per individual: ``sum over lines of k * (k - 1) / 2``."""
        total = np.zeros(self.counts[0].shape[0], dtype=np.int64)
        for counts in self.counts:
            total += (counts * (counts - 1)).sum(axis=1) // 2
        return total

    def attacked(self) -> BoolArray:
        """A ``(P, N)`` mask of the queens that share at least one line with another queen."""
        mask = np.zeros(self.index[0].shape, dtype=bool)
        for index, counts in zip(self.index, self.counts, strict=True):
            mask |= np.take_along_axis(counts, index, axis=1) > 1
        return mask


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


def board_lines(genomes: Genomes, n: int, encoding: Encoding) -> BoardLines:
    """Count the queens on every line of every individual.

    Args:
        genomes: A ``(P, N)`` population.
        n: The board size.
        encoding: How to read the genes.

    Returns:
        The lines of every queen and the occupancy of every line.
    """
    rows, columns = encoding.decode(genomes, n)
    index, sizes = line_indices(rows, columns, n, encoding)
    size = genomes.shape[0]
    counts = []
    for line, lines in zip(index, sizes, strict=True):
        offsets = (np.arange(size, dtype=np.int64) * lines)[:, None]
        flat = np.bincount((line + offsets).ravel(), minlength=size * lines)
        counts.append(flat.reshape(size, lines))
    return BoardLines(index=index, counts=tuple(counts), sizes=sizes)


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
