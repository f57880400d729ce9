"""Diversity of a population: how many genomes differ, and how varied each gene position is."""

from __future__ import annotations

import numpy as np

from engine.encodings import Encoding, Genomes
from engine.uniqueness import unique_fraction

__all__ = ["column_entropy", "unique_fraction"]


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
    rows, _ = encoding.decode(genomes, n)
    ceiling = np.log(min(size, n))
    if n <= size * max(1.0, np.log2(size)):
        cells = np.bincount((rows + (np.arange(n) * n)[None, :]).ravel(), minlength=n * n).astype(
            np.float64
        )
        share = cells[cells > 0] / size
        total = -(share * np.log(share)).sum()
    else:
        # One contiguous row per gene position: sorting short contiguous rows is about 2.5x
        # faster than sorting the population along its first axis (measured at P=40, N=4096).
        ordered = np.ascontiguousarray(rows.T)
        ordered.sort(axis=1)
        starts = np.ones(ordered.shape, dtype=bool)
        starts[:, 1:] = ordered[:, 1:] != ordered[:, :-1]
        # Run lengths, position by position: the gaps between consecutive run starts.
        flat_starts = np.flatnonzero(starts)
        lengths = np.diff(np.append(flat_starts, starts.size)).astype(np.float64)
        share = lengths / size
        total = -(share * np.log(share)).sum()
    return float(total / (n * ceiling))
