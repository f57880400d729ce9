"""The cycle crossover of large boards, compiled: one walk along the cycles, no temporaries.

:func:`engine.operators.crossover.cycle_crossover_with` numbers the cycles by pointer doubling:
about log2(N) passes of gathers over several int64 copies of the couples, 34 bytes per gene of a
crossed child and, at N = 10^6, 3 s of a memetic run's 4. Walking the positions in order
finds the same cycles with the same numbers (the first position of a cycle met in order is its
smallest), so the same children: each cycle is followed once, ``j -> position in first of
second[j]``, and its genes taken from ``first`` (even cycles) or ``second`` (odd ones) for the
first child, the other way round for the second. Scratch: the inverse of ``first`` and a
visited flag, 9 bytes a position, for one couple at a time. Used from
:data:`engine.operators.crossover.COMPILED_CYCLE_FROM` queens.

A generation's children start as copies of their couples, so the crossover can also be made
where they are (:func:`cycle_crossover_in_place`): the two children of a couple are its parents
with the genes of the odd cycles exchanged. Nothing is copied in or out, and the scratch is 5
bytes a position (an int32 inverse): at N = 10^7 a crossing couple took 250 MB besides its
children, where this takes 50.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from engine.arrays import Genomes
from engine.compiled.jit import compiled

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
    """:func:`engine.operators.crossover.cycle_crossover_with`'s children, couple by couple."""
    count, n = first.shape
    dtype = np.result_type(first, second)
    one, two = np.empty((count, n), dtype=dtype), np.empty((count, n), dtype=dtype)
    inverse = np.empty(n, dtype=np.int64)
    visited = np.empty(n, dtype=np.bool_)
    for couple in range(count):
        _cycle_children(first[couple], second[couple], one[couple], two[couple], inverse, visited)
    return one, two


@compiled
def _exchange_odd_cycles(
    one: Row, two: Row, inverse: npt.NDArray[np.int32], visited: npt.NDArray[np.bool_]
) -> None:
    """``one`` and ``two`` (a couple) become its cycle children: the odd cycles' genes swap.

    A position's genes are read before they are swapped, and each position is visited once,
    so the walk follows the parents' cycles (``inverse`` is the first parent's).
    """
    n = one.shape[0]
    for position in range(n):
        inverse[one[position]] = position
        visited[position] = False
    cycle = 0
    for start in range(n):
        if visited[start]:
            continue
        exchange = cycle % 2 == 1
        position = start
        while not visited[position]:
            visited[position] = True
            following = inverse[two[position]]
            if exchange:
                one[position], two[position] = two[position], one[position]
            position = following
        cycle += 1


def cycle_crossover_in_place(couples: Genomes, crossing: npt.NDArray[np.int64]) -> None:
    """Cross couples ``crossing`` of ``couples`` where they are: the same children as
    :func:`compiled_cycle_crossover` of their two rows.

    Args:
        couples: ``(C, 2, N)`` C-contiguous, each couple's two parents, changed in place.
        crossing: The couples that cross.
    """
    n = couples.shape[2]
    inverse = np.empty(n, dtype=np.int32)
    visited = np.empty(n, dtype=np.bool_)
    for couple in crossing.tolist():
        _exchange_odd_cycles(couples[couple, 0], couples[couple, 1], inverse, visited)
