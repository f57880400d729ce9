"""The conflict mutation's random draws, made in one place for every road that mutates, and
the attacked queen a draw picks.

The numpy operator (:func:`engine.operators.mutation.conflict_mutation_counted`), the kept
counts (:mod:`engine.large_n.tracked_generation`) and the compiled children
(:mod:`engine.large_n.memetic_children`) make the same mutation three ways; a run is the same
on each road only if they draw the same numbers, in the same order and shapes, from the run's
generator. They all draw them here.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from engine.arrays import BoolArray, FloatArray, IntArray
from engine.genomes.encodings import random_integers


class ConflictDraws(NamedTuple):
    """The conflict mutation's draws for ``K`` children and ``C`` candidate moves.

    Attributes:
        mutates: ``(K,)`` whether each child mutates (probability ``rate``).
        queen: ``(K,)`` in ``[0, 1)``: which queen moves, ``floor(queen * k)``-th of a child's
            ``k`` attacked queens in column order, ``floor(queen * N)``-th if none is attacked.
        candidates: ``(K, C)`` the candidate moves, each drawn in ``0 .. values - 2`` and read
            past the moving queen's own value (:meth:`past`): a column to swap with, for a
            permutation; a new row or square for the other encodings.
    """

    mutates: BoolArray
    queen: FloatArray
    candidates: IntArray

    def past(self, current: IntArray) -> IntArray:
        """The candidates as values that skip ``current`` (per child): never the queen's own."""
        return self.candidates + (self.candidates >= current[:, None])


def draw_conflict_moves(
    rng: np.random.Generator, count: int, values: int, rate: float, candidates: int
) -> ConflictDraws:
    """The conflict mutation's draws for ``count`` children whose genes take ``values`` values.

    Nothing is drawn when there is nothing to move (no children, or fewer than two values):
    the draws are then empty.
    """
    if count == 0 or values < 2:
        return ConflictDraws(
            np.zeros(count, dtype=bool),
            np.zeros(count, dtype=np.float64),
            np.zeros((count, candidates), dtype=np.int64),
        )
    mutates: BoolArray = np.asarray(rng.random(count) < rate, dtype=bool)
    queen: FloatArray = np.asarray(rng.random(count), dtype=np.float64)
    return ConflictDraws(mutates, queen, random_integers(rng, 0, values - 1, (count, candidates)))


def attacked_queens(
    attacked: BoolArray, draw: FloatArray, rows: IntArray | None = None
) -> IntArray:
    """Per row, a uniformly random attacked queen; a uniformly random queen where none is.

    One draw per row (:attr:`ConflictDraws.queen`): the ``floor(draw * k)``-th of the row's
    ``k`` attacked queens in column order, else queen ``floor(draw * N)``. ``rows``: only these
    rows of ``attacked``, one draw each, without gathering them. The work is proportional to
    the attacked queens: their flat positions come sorted by row, so row ``k``'s ``r``-th
    attacked queen is a direct index.
    """
    n = attacked.shape[1]
    # Truncation is the floor here: the products are never negative.
    anywhere: IntArray = (draw * n).astype(np.int64)
    flat = attacked.reshape(-1).nonzero()[0]
    if flat.shape[0] == 0 or draw.shape[0] == 0:
        return anywhere
    # Where each row's attacked queens start among them, and where the next row's start.
    bounds = flat.searchsorted(np.arange(0, (attacked.shape[0] + 1) * n, n, dtype=np.int64))
    first, after = bounds[:-1], bounds[1:]
    if rows is not None:
        first, after = first.take(rows), after.take(rows)
    per_row = after - first
    # Every row's r-th attacked queen, r = floor(draw * per_row), computed for all rows at
    # once (a row with none reads a neighbour's, clipped, and is not taken).
    attacked_one = flat.take(first + (draw * per_row).astype(np.int64), mode="clip") % n
    return np.asarray(np.where(per_row > 0, attacked_one, anywhere), dtype=np.int64)
