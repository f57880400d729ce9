"""Diversity of a population: how many genomes differ, and how varied each gene position is."""

from __future__ import annotations

from functools import lru_cache
from typing import Final

import numpy as np

from engine.arrays import FloatArray, Genomes, IntArray
from engine.genomes.encodings import Encoding
from engine.genomes.uniqueness import unique_fraction

__all__ = [
    "column_entropy",
    "column_runs",
    "entropy_from_runs",
    "sorts_columns",
    "unique_fraction",
]


_BLOCK_GENES: Final = 1 << 15
"""Genes whose (position, row) cells column_entropy indexes at once."""


_TABLE_SIZES: Final = 1 << 16
"""Populations up to this size get their s * log(s) terms from a cached table."""


@lru_cache(maxsize=4)
def _share_terms(size: int) -> FloatArray:
    """``s * log(s)`` for the shares ``s = c / size``, ``c = 1 .. size`` (read-only, cached:
    a run asks with the same population size every generation)."""
    share = np.arange(1, size + 1, dtype=np.int64) / size
    terms = np.asarray(share * np.log(share), dtype=np.float64)
    terms.flags.writeable = False
    return terms


def sorts_columns(size: int, n: int) -> bool:
    """Whether :func:`column_entropy` sorts each column (a board large next to the population)
    rather than counting ``N * N`` cells."""
    return size >= 2 and n >= 2 and n > size * max(1.0, np.log2(size))


def column_runs(ordered: Genomes) -> IntArray:
    """The lengths of the runs of equal values along each row of a row-sorted ``(C, P)``
    array, row after row (one row is one gene position's values over the population)."""
    starts = np.ones(ordered.shape, dtype=bool)
    starts[:, 1:] = ordered[:, 1:] != ordered[:, :-1]
    flat_starts = np.flatnonzero(starts)
    return np.diff(np.append(flat_starts, starts.size))


def entropy_from_runs(runs: IntArray, size: int, n: int) -> float:
    """:func:`column_entropy` from how many runs of each length the sorted columns hold
    (``runs[k]``: runs of ``k`` equal rows, over all positions; ``k = 1 .. size``).

    A run of ``k`` is a row shared by ``k / size`` of the population; its term
    ``s * log(s)`` is looked up by ``k`` and weighted by the number of such runs, so the sum
    depends only on the counts: a caller that keeps them up to date (the algorithm, column by
    column) gets the same number, to the last bit, as sorting everything again.
    """
    weights = np.asarray(runs[1 : size + 1], dtype=np.float64)
    total = -(weights * _share_terms(size)).sum()
    return float(total / (n * np.log(min(size, n))))


def column_entropy(genomes: Genomes, n: int, encoding: Encoding) -> float:
    """Mean over gene positions of the normalized Shannon entropy of the queens' rows there.

    0 when every individual puts the same row at every position, 1 when the rows are spread
    as evenly as the population allows (``log(min(P, N))`` is the ceiling). For ``squares``
    the row of each gene's square is used.

    Two exact methods, chosen by cost: a bincount over ``N * N`` (row, position) cells when the
    board is small next to the population, else a sort of each column.
    """
    size = genomes.shape[0]
    if size < 2 or n < 2:
        return 0.0
    # The gene is the row, but for squares (decode would also build a columns array).
    rows = genomes // n if encoding.name == "squares" else genomes
    if sorts_columns(size, n):
        # One contiguous row per gene position: sorting short contiguous rows is about 2.5x
        # faster than sorting the population along its first axis (measured at P=40, N=4096).
        ordered = np.ascontiguousarray(rows.T)
        ordered.sort(axis=1)
        runs = np.bincount(column_runs(ordered), minlength=size + 1)
        return entropy_from_runs(runs, size, n)
    ceiling = np.log(min(size, n))
    # Count the (position, row) cells a block of individuals at a time: the index of a
    # whole (P, N) population would be a large temporary, and a fresh one every generation
    # costs page faults. ``add.at`` in the counts' own dtype is numpy's fast path.
    cells = np.zeros(n * n, dtype=np.int64)
    offsets = np.arange(0, n * n, n, dtype=np.int64)
    block = max(1, _BLOCK_GENES // n)
    for start in range(0, size, block):
        np.add.at(cells, (rows[start : start + block] + offsets).ravel(), np.int64(1))
    counts = np.compress(cells > 0, cells)  # several times faster than cells[cells > 0]
    if size <= _TABLE_SIZES:
        # Each share's term s * log(s) looked up by its count: the same numbers, in the
        # same order, as computing them one by one, so the same sum.
        total = -_share_terms(size).take(counts - 1).sum()
    else:
        share = counts / size
        total = -(share * np.log(share)).sum()
    return float(total / (n * ceiling))
