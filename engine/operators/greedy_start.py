"""Greedy initialisation: permutations that leave few queens under attack.

The known trick of the local-search solvers (Sosic and Gu, 1994): place most queens where no
placed queen attacks them, so that only a few conflicts remain for the local search. Column
by column, each column tries up to :data:`TRIES` random unused rows and takes the first whose
two diagonals are still empty; the columns that find none take the rows left over, in a
random order. A board of a million queens is left with about 10 attacked queens, of ten
million with about 30 (measured).

The placement is sequential (each column sees the diagonals its predecessors took), so it is
a compiled loop (:func:`engine.compiled.memetic_kernels.greedy_fill`), one individual at a time,
with bit sets for the rows and diagonals in use: about 1.2 bytes of scratch per column besides the
genome, and tens of milliseconds per million queens. Its random numbers come from a key that
the run's generator draws for each individual, so a seed gives the same boards everywhere.
"""

from __future__ import annotations

from typing import Final, cast

import numpy as np

from engine.arrays import Genomes
from engine.genomes.encodings import GENE_DTYPE, LARGE_BOARD

TRIES: Final = 64
"""Random unused rows a column tries before it is left for the rows left over."""

BYTES_PER_COLUMN: Final = 2
"""Scratch memory the greedy start needs per column of the board (one individual at a time):
bit sets of the rows and both diagonals in use (5 bits), and the pool of the last quarter of
unused rows (32 bits each)."""

NARROW_GENES_FROM: Final = LARGE_BOARD
"""Large boards (:data:`~engine.genomes.encodings.LARGE_BOARD` queens or more) are built with
int32 genes, half the memory of int64 ones (the genes are the same numbers, so the run is the
same): a run of 10^7 queens holds about 16 populations' worth of genes at its peak."""

MOST_QUEENS: Final = 2**31 - 1
"""The largest board the greedy start builds (its scratch arrays are 32-bit)."""


def random_keys(
    rng: np.random.Generator, count: int
) -> np.ndarray[tuple[int], np.dtype[np.uint64]]:
    """``count`` 64-bit keys from the run's generator: each starts one kernel's random draws."""
    return rng.integers(0, 2**64, size=count, dtype=np.uint64)


def greedy_population(size: int, n: int, rng: np.random.Generator) -> Genomes:
    """``size`` permutations of ``0..n-1`` built greedily (see the module's docstring).

    Args:
        size: Number of individuals.
        n: The board size.
        rng: The run's random generator (the only source of randomness).

    Returns:
        A new ``(size, n)`` array, each row a permutation: int32 from
        :data:`NARROW_GENES_FROM` queens, int64 below.

    Raises:
        ValueError: If ``n`` is over :data:`MOST_QUEENS`.
    """
    if n > MOST_QUEENS:
        raise ValueError(
            f"the greedy start builds boards of up to {MOST_QUEENS:,} queens, not {n:,}"
        )
    dtype = np.int32 if n >= NARROW_GENES_FROM else GENE_DTYPE
    # Typed as Genomes: the engine reads int32 genes as it reads int64 ones.
    genomes = cast(Genomes, np.empty((size, n), dtype=dtype))
    if size == 0 or n == 0:
        return genomes
    keys = random_keys(rng, size)
    # Loaded here: a run without a greedy start never imports numba.
    from engine.compiled.memetic_kernels import greedy_fill

    for individual in range(size):
        greedy_fill(genomes[individual], keys[individual], TRIES)
    return genomes
