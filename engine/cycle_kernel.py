"""The cycle crossover of large boards, compiled: one walk along the cycles, no temporaries.

:func:`engine.crossover.cycle_crossover_with` numbers the cycles by pointer doubling: about
log2(N) passes of gathers over several int64 copies of the couples, 34 bytes per gene of a
crossed child and, at N = 10^6, 3 s of a memetic run's 4. Walking the positions in order
finds the same cycles with the same numbers (the first position of a cycle met in order is its
smallest), so the same children: each cycle is followed once, ``j -> position in first of
second[j]``, and its genes taken from ``first`` (even cycles) or ``second`` (odd ones) for the
first child, the other way round for the second. Scratch: the inverse of ``first`` and a
visited flag, 9 bytes a position, for one couple at a time. Used from
:data:`engine.crossover.COMPILED_CYCLE_FROM` queens.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from engine.compiled import compiled
from engine.encodings import Genomes

Row = npt.NDArray[np.signedinteger[Any]]


@compiled
def _cycle_children(
    first: Row, second: Row, one: Row, two: Row, inverse: Row, visited: npt.NDArray[np.bool_]
) -> None:
    """The two cycle children of one couple, into ``one`` and ``two``."""
    n = first.shape[0]
    for position in range(n):
        inverse[first[position]] = position
        visited[position] = False
    cycle = 0
    for start in range(n):
        if visited[start]:
            continue
        keep = cycle % 2 == 0
        position = start
        while not visited[position]:
            visited[position] = True
            if keep:
                one[position], two[position] = first[position], second[position]
            else:
                one[position], two[position] = second[position], first[position]
            position = inverse[second[position]]
        cycle += 1


def compiled_cycle_crossover(first: Genomes, second: Genomes) -> tuple[Genomes, Genomes]:
    """:func:`engine.crossover.cycle_crossover_with`'s children, couple by couple."""
    count, n = first.shape
    dtype = np.result_type(first, second)
    one, two = np.empty((count, n), dtype=dtype), np.empty((count, n), dtype=dtype)
    inverse = np.empty(n, dtype=np.int64)
    visited = np.empty(n, dtype=np.bool_)
    for couple in range(count):
        _cycle_children(first[couple], second[couple], one[couple], two[couple], inverse, visited)
    return one, two
