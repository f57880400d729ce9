"""The takeover start: one board better than every other, the others all alike.

Goldberg & Deb's takeover experiment (1991) starts from one copy of a best individual among
otherwise equal ones and counts the generations selection alone takes to fill the population
with it. On the board: the worst board there is, every queen on one diagonal (the identity
permutation: all ``N * (N - 1) / 2`` pairs attack), copied ``P - 1`` times, and in row 0 the same
board with its first two queens swapped, which leaves ``1 + (N - 2)(N - 3) / 2`` attacking pairs:
strictly fewer from ``N = 3``. Nothing is drawn: the run's seed drives selection only.
"""

from __future__ import annotations

from typing import Final

import numpy as np

from engine.arrays import Genomes
from engine.genomes.encodings import GENE_DTYPE

SMALLEST_N: Final = 3
"""The smallest board on which the swapped diagonal is strictly better than the diagonal."""


def one_best_population(size: int, n: int) -> Genomes:
    """``size`` boards: row 0 the best, rows ``1..size-1`` copies of the worst board.

    Args:
        size: Number of individuals ``P`` (at least 1).
        n: The board size, at least :data:`SMALLEST_N`.

    Returns:
        A new ``(P, N)`` array, the same for every seed.
    """
    population = np.tile(np.arange(n, dtype=GENE_DTYPE), (size, 1))
    population[0, [0, 1]] = (1, 0)
    return population
