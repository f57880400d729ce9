"""Pictures of a whole population, computed with numpy: no Textual, no Rich.

Two views the board panel can show instead of one individual (``v`` switches):

- the placement map (:func:`placement_shares`): for every square, the share of the population
  with a queen there. A population that converges turns from an even grey into one dark line
  per column; drawn square by square where the board fits, else a square of the screen stands
  for a block of squares (:func:`block_shares`).
- the conflict histogram (:func:`conflict_histogram`): how many individuals have each number of
  attacking pairs, in at most as many bars as there are lines.

Both are ``bincount`` over the ``(P, N)`` array (a column at a time), never a Python loop over
individuals, so a population of a million at N = 8 paints in a few tens of milliseconds
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
        # One count of rows per column: no (P, N) temporary of square indices, which at a
        # million individuals costs more than the counting itself.
        counts = np.stack(
            [np.bincount(genes[:, column], minlength=n)[:n] for column in range(n)], axis=1
        )
    shares: npt.NDArray[np.float64] = counts / size
    return shares


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
