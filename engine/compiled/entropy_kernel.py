"""The column entropy of a small population of large boards, compiled, the same float.

:func:`engine.genomes.diversity.column_entropy` sorts each gene position's rows, counts the runs of
equal rows by length, and sums a term per length weighted by its count
(:func:`engine.genomes.diversity.entropy_from_runs`). For 4 individuals of 10^7 queens the numpy
sort makes temporaries of the population's size (the transposed copy, the run starts and lengths):
gigabytes and seconds, the largest cost of a memetic generation. Here only the count of runs of
each length is made, position by position in a few registers (an insertion sort of ``P``
values), and the very same function turns it into the entropy: the same float, bit for bit.

Used by runs that load the compiled kernels anyway (a greedy start or a local search); other
runs keep :mod:`engine.genomes.diversity` and never import numba.
"""

from __future__ import annotations

from typing import Any, Final

import numpy as np
import numpy.typing as npt

from engine.arrays import Genomes
from engine.compiled.jit import compiled
from engine.genomes.diversity import column_entropy, entropy_from_runs, sorts_columns
from engine.genomes.encodings import Encoding

Rows = npt.NDArray[np.signedinteger[Any]]
Counts = npt.NDArray[np.int64]

MOST_INDIVIDUALS: Final = 64
"""Populations up to this size are sorted position by position here (an insertion sort of
``P`` values is quadratic in ``P``); larger ones go to
:func:`engine.genomes.diversity.column_entropy`."""


@compiled
def _position_runs(rows: Rows, position: int, ordered: Rows, runs: Rows) -> int:
    """The lengths of the runs of equal rows at ``position``, in row order; how many runs."""
    size = rows.shape[0]
    for individual in range(size):
        row = rows[individual, position]
        place = individual
        while place > 0 and ordered[place - 1] > row:
            ordered[place] = ordered[place - 1]
            place -= 1
        ordered[place] = row
    count, length = 0, 1
    for individual in range(1, size):
        if ordered[individual] == ordered[individual - 1]:
            length += 1
        else:
            runs[count] = length
            count, length = count + 1, 1
    runs[count] = length
    return count + 1


@compiled
def _count_runs(rows: Rows, lengths: Counts) -> None:
    """Add to ``lengths[k]`` the runs of ``k`` equal rows of every gene position."""
    ordered = np.empty(rows.shape[0], dtype=rows.dtype)
    runs = np.empty(rows.shape[0], dtype=rows.dtype)
    for position in range(rows.shape[1]):
        for run in range(_position_runs(rows, position, ordered, runs)):
            lengths[runs[run]] += 1


def compiled_column_entropy(genomes: Genomes, n: int, encoding: Encoding) -> float:
    """:func:`engine.genomes.diversity.column_entropy`, the same float, without its temporaries.

    Boards large next to a small population take the compiled count (see the module); the
    others, and ``squares`` genomes, the numpy one.
    """
    size = genomes.shape[0]
    if size > MOST_INDIVIDUALS or encoding.name == "squares" or not sorts_columns(size, n):
        return column_entropy(genomes, n, encoding)
    lengths = np.zeros(size + 1, dtype=np.int64)
    _count_runs(genomes, lengths)
    return entropy_from_runs(lengths, size, n)
