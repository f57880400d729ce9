"""Pictures of a whole population, computed with numpy: no Textual, no Rich.

Two views the board panel can show instead of one individual (``v`` switches):

- the placement map (:func:`placement_shares`): for every square, the share of the population
  with a queen there. A population that converges turns from an even grey into one dark line
  per column; drawn square by square where the board fits, else a square of the screen stands
  for a block of squares (:func:`block_shares`).
- the conflict histogram (:func:`conflict_histogram`): how many individuals have each number of
  attacking pairs, in at most as many bars as there are lines.

Both are ``bincount`` over the ``(P, N)`` array (a block of individuals at a time, two columns
to an index where that fits in cache), never a Python loop over individuals, so a population
of a million at N = 32 paints in a few tens of milliseconds
(``tests/benchmarks/bench_population_views.py`` prints the figures).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Final

import numpy as np
import numpy.typing as npt

SHARE_LEVELS: Final = 4
"""Shades of a square above empty: ``░▒▓█`` (the board's density shades)."""
SHARE_STEPS: Final = (0.125, 0.25, 0.5)
"""The shares where the shade darkens: each shade holds twice the share of the one before.

Doubling steps, not even quarters: a random population of N = 12 puts about 8 % on every
square, which even quarters would draw in one flat shade; the steps set apart the squares a
population is gathering on long before most of it sits there.
"""
SHARE_LEGEND: Final = "░≤⅛ ▒≤¼ ▓≤½ █>½"
"""What the shades mean, for the border."""
ASCII_SHARE_LEGEND: Final = "░<=1/8 ▒<=1/4 ▓<=1/2 █>1/2"
"""The legend where only ASCII is drawn: the fractions spelled out; the shades stay, to be
translated with the map's own (:mod:`tui.dashboard.ascii_filter`) so legend and map agree."""


def placement_shares(
    population: npt.NDArray[np.int64], n: int, encoding: str
) -> npt.NDArray[np.float64]:
    """The share of the population with a queen on each square.

    Args:
        population: ``(P, N)`` genomes.
        n: The board size.
        encoding: The genomes' encoding: ``squares`` (a gene is a square's index) or one where
            gene ``i`` is the row of the queen in column ``i``.

    Returns:
        An ``(n, n)`` array indexed ``[row, column]``: queens on that square divided by P (the
        share of individuals with a queen there; an individual of the ``squares`` encoding that
        stacks two queens on one square counts twice).
    """
    size = population.shape[0]
    if size == 0:
        return np.zeros((n, n))
    genes = np.asarray(population, dtype=np.int64)
    if encoding == "squares":
        counts = np.bincount(genes.ravel(), minlength=n * n)[: n * n].reshape(n, n)
    else:
        counts = column_counts(genes, n)
    shares: npt.NDArray[np.float64] = counts / size
    return shares


PAIRED_CELLS: Final = 1 << 15
"""Columns are counted two at a time while the table of (column pair, row, row) cells stays
this small (``N * N * N / 2``: up to N = 40), so the counting stays in the processor's cache."""
BLOCK_GENES: Final = 1 << 16
"""Genes turned into cell indices at once: a block's indices stay in cache, and no ``(P, N)``
temporary is made (at a million individuals it would be hundreds of MB)."""


def column_counts(genes: npt.NDArray[np.int64], n: int) -> npt.NDArray[np.int64]:
    """``(n, n)`` indexed ``[row, column]``: how many individuals put column's queen on row.

    One ``bincount`` over cell indices (``column * N + row``), a block of individuals at a
    time. Where the table fits in cache, two columns make one index (``(pair * N + row of the
    first) * N + row of the second``): half the indices to count, which is most of the cost
    (P = 10^6, N = 32: 32 million genes; a count per column read the population 32 times,
    strided). The counts of a column are then the sums of its pairs' table along the other.
    """
    size = genes.shape[0]
    paired = n // 2 if n * n * (n // 2) <= PAIRED_CELLS else 0
    single = np.arange(2 * paired, n, dtype=np.int64)  # columns counted on their own
    cells = paired * n * n
    length = cells + single.shape[0] * n
    offsets = np.concatenate(
        [np.arange(paired, dtype=np.int64) * (n * n), cells + (single - 2 * paired) * n]
    )
    rows = max(1, BLOCK_GENES // max(1, paired + single.shape[0]))
    index = np.empty((min(rows, size), offsets.shape[0]), dtype=np.int64)
    counts = np.zeros(length, dtype=np.int64)
    for start in range(0, size, rows):
        block = genes[start : start + rows]
        at = index[: block.shape[0]]
        if paired:
            np.multiply(block[:, 0 : 2 * paired : 2], n, out=at[:, :paired])
            at[:, :paired] += block[:, 1 : 2 * paired : 2]
        at[:, paired:] = block[:, 2 * paired :]
        at += offsets
        counts += np.bincount(at.ravel(), minlength=length)
    by_column = np.empty((n, n), dtype=np.int64)  # [column, row]
    if paired:
        table = counts[:cells].reshape(paired, n, n)
        by_column[0 : 2 * paired : 2] = table.sum(axis=2)
        by_column[1 : 2 * paired : 2] = table.sum(axis=1)
    by_column[2 * paired :] = counts[cells:].reshape(-1, n)
    return by_column.T


def map_scale(n: int, width: int, height: int) -> int:
    """Squares per character across (and half as many rows down) so an ``n`` map fits.

    Returns:
        0 when the map fits square by square (two cells a square, a line a row), else the
        smallest ``s`` such that ``ceil(n / s)`` columns and ``ceil(n / 2s)`` lines fit.
    """
    if 2 * n <= width and n <= height:
        return 0
    scale = 1
    while math.ceil(n / scale) > width or math.ceil(n / (2 * scale)) > height:
        scale += 1
    return scale


def block_shares(shares: npt.NDArray[np.float64], scale: int) -> npt.NDArray[np.float64]:
    """The map in blocks of ``scale`` columns by ``2 * scale`` rows (a character on screen).

    A block's value is the sum of its squares' shares over its columns: in a column encoding
    each individual has one queen per column, so this is the share of individuals whose queen
    of an average column of the block lies in the block's rows, between 0 and 1.

    Returns:
        ``(ceil(n / 2s), ceil(n / s))`` values, clipped to 1.
    """
    n = shares.shape[0]
    rows, columns = 2 * scale, scale
    padded = np.zeros((math.ceil(n / rows) * rows, math.ceil(n / columns) * columns))
    padded[:n, :n] = shares
    blocks = padded.reshape(padded.shape[0] // rows, rows, padded.shape[1] // columns, columns)
    summed: npt.NDArray[np.float64] = blocks.sum(axis=(1, 3)) / columns
    return np.minimum(summed, 1.0)


def share_levels(shares: npt.NDArray[np.float64]) -> npt.NDArray[np.int64]:
    """The shade of each share: 0 for none, else 1 to :data:`SHARE_LEVELS` by
    :data:`SHARE_STEPS` (any share shows)."""
    levels = 1 + np.searchsorted(np.asarray(SHARE_STEPS), shares, side="left")
    return np.where(shares > 0, levels, 0).astype(np.int64)


@dataclass(frozen=True)
class ConflictHistogram:
    """How many individuals have each number of attacking pairs.

    Attributes:
        lows: The fewest conflicts of each bar.
        highs: The most conflicts of each bar (equal to ``lows`` when a bar is one value).
        counts: Individuals in each bar.
        size: The population size (the counts' total).
    """

    lows: npt.NDArray[np.int64]
    highs: npt.NDArray[np.int64]
    counts: npt.NDArray[np.int64]
    size: int


def conflict_histogram(conflicts: npt.NDArray[np.int64], bars: int) -> ConflictHistogram:
    """Count the population by conflicts, from the fewest met to the most, in at most ``bars``.

    Args:
        conflicts: ``(P,)`` attacking pairs of each individual.
        bars: How many bars there is room for (at least 1).

    Returns:
        One bar per value when the range fits, else bars of equal width in values.
    """
    values = np.asarray(conflicts, dtype=np.int64)
    if values.size == 0:
        empty = np.zeros(0, dtype=np.int64)
        return ConflictHistogram(empty, empty, empty, 0)
    low, high = int(values.min()), int(values.max())
    counts = np.bincount(values - low, minlength=high - low + 1)
    width = math.ceil((high - low + 1) / max(1, bars))
    starts = np.arange(0, high - low + 1, width)
    grouped = np.add.reduceat(counts, starts)
    lows = starts + low
    highs = np.minimum(lows + width - 1, high)
    return ConflictHistogram(lows, highs, grouped.astype(np.int64), int(values.size))
