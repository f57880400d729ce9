"""The column entropy of a small population of large boards, compiled, with numpy's very sum.

:func:`engine.diversity.column_entropy` sorts each gene position's rows and sums
``s * log(s)`` over the runs of equal rows, ``s`` being a run's share of the population. For
4 individuals of 10^7 queens that is eight temporaries of the population's size (the
transposed copy, the run starts and lengths, the shares, their logarithms): 4 GB and 3.7 s, the
largest cost of a memetic generation. Here the same terms are summed in the same order
without being stored: each position's rows are sorted in a few registers (insertion sort of
``P`` values), and the terms are fed, as they come, into the pairwise summation numpy's
``sum`` does (blocks of 8 partial sums up to 128 terms, halves rounded to multiples of 8
above), so the result is the same float, bit for bit. A term ``s * log(s)`` can only take
``P`` values: they are computed once, by numpy, as the original computes them.

Used by runs that load the compiled kernels anyway (a greedy start or a local search); other
runs keep :mod:`engine.diversity` and never import numba.
"""

from __future__ import annotations

from typing import Any, Final

import numpy as np
import numpy.typing as npt

from engine.compiled import compiled
from engine.diversity import column_entropy
from engine.encodings import Encoding, Genomes

Rows = npt.NDArray[np.signedinteger[Any]]
Terms = npt.NDArray[np.float64]
Cursor = npt.NDArray[np.int64]

MOST_INDIVIDUALS: Final = 64
"""Populations up to this size are sorted position by position here (an insertion sort of
``P`` values is quadratic in ``P``); larger ones go to :func:`engine.diversity.column_entropy`."""

_BLOCK: Final = 128
"""numpy's ``PW_BLOCKSIZE``: runs of up to this many terms are summed with 8 partial sums."""

# The cursor over the terms: the next gene position, the next run of the current position,
# and how many runs it has.
_POSITION, _RUN, _RUNS = 0, 1, 2


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
def _all_runs(rows: Rows, ordered: Rows, runs: Rows) -> int:
    """The runs of every position: the number of terms of the sum."""
    total = 0
    for position in range(rows.shape[1]):
        total += _position_runs(rows, position, ordered, runs)
    return total


@compiled
def _next_terms(
    block: Terms, count: int, rows: Rows, terms: Terms, cursor: Cursor, ordered: Rows, runs: Rows
) -> None:
    """The next ``count`` terms into ``block``: ``terms[length - 1]`` of each run, in order."""
    position, run, size = cursor[_POSITION], cursor[_RUN], cursor[_RUNS]
    for index in range(count):
        if run == size:
            size = _position_runs(rows, position, ordered, runs)
            position, run = position + 1, 0
        block[index] = terms[runs[run] - 1]
        run += 1
    cursor[_POSITION], cursor[_RUN], cursor[_RUNS] = position, run, size


@compiled
def _pairwise_sum(
    count: int,
    rows: Rows,
    terms: Terms,
    cursor: Cursor,
    ordered: Rows,
    runs: Rows,
    block: Terms,
) -> float:
    """The next ``count`` terms summed as numpy's ``pairwise_sum`` sums ``count`` values."""
    if count <= _BLOCK:
        _next_terms(block, count, rows, terms, cursor, ordered, runs)
        if count < 8:
            total = 0.0
            for index in range(count):
                total += block[index]
            return total
        r0, r1, r2, r3 = block[0], block[1], block[2], block[3]
        r4, r5, r6, r7 = block[4], block[5], block[6], block[7]
        index = 8
        while index < count - count % 8:
            r0 += block[index]
            r1 += block[index + 1]
            r2 += block[index + 2]
            r3 += block[index + 3]
            r4 += block[index + 4]
            r5 += block[index + 5]
            r6 += block[index + 6]
            r7 += block[index + 7]
            index += 8
        total = ((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7))
        while index < count:
            total += block[index]
            index += 1
        return float(total)
    half = count // 2
    half -= half % 8
    left = _pairwise_sum(half, rows, terms, cursor, ordered, runs, block)  # the first half first
    return left + _pairwise_sum(count - half, rows, terms, cursor, ordered, runs, block)


@compiled
def _summed_terms(rows: Rows, terms: Terms) -> float:
    """``sum over positions and runs of terms[length - 1]``, as numpy would sum the list."""
    ordered = np.empty(rows.shape[0], dtype=rows.dtype)
    runs = np.empty(rows.shape[0], dtype=rows.dtype)
    count = _all_runs(rows, ordered, runs)
    cursor = np.zeros(3, dtype=np.int64)
    block = np.empty(_BLOCK, dtype=np.float64)
    return 0.0 + _pairwise_sum(count, rows, terms, cursor, ordered, runs, block)


def compiled_column_entropy(genomes: Genomes, n: int, encoding: Encoding) -> float:
    """:func:`engine.diversity.column_entropy`, the same float, without its temporaries.

    Boards large next to a small population take the compiled sum (see the module); the
    others, and ``squares`` genomes, the numpy one.
    """
    size = genomes.shape[0]
    if (
        size < 2
        or n < 2
        or size > MOST_INDIVIDUALS
        or encoding.name == "squares"
        or n <= size * max(1.0, np.log2(size))  # where column_entropy counts cells instead
    ):
        return column_entropy(genomes, n, encoding)
    # The terms as column_entropy computes them: shares of the run lengths, s * log(s).
    share = np.arange(1, size + 1, dtype=np.float64) / size
    terms = np.asarray(share * np.log(share), dtype=np.float64)
    total = -_summed_terms(genomes, terms)
    ceiling = np.log(min(size, n))
    return float(total / (n * ceiling))
