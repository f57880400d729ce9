"""Fitness shapes: how attacking pairs become a higher-is-better score for selection.

Whatever the shape, an individual is solved exactly when its conflict count is 0. With
``M = N * (N - 1) / 2`` (the most pairs N queens can form) and ``e`` the attacking pairs:

==============  =====================================  ===========================  ===========
name            formula                                source                       best value
==============  =====================================  ===========================  ===========
``pairs``       ``M - e`` (non-attacking pairs)        Towards AI 2021              ``M``
``collisions``  ``M - e``, diagonals only              CodeProject 2011 (28 - e)    ``M``
``attacked``    ``-(directions + 10000 * stacked)``    Sheppard                     ``0``
``excess``      ``-(sum over lines of max(k - 1, 0))``  DEAP ``examples/ga/nqueens``  ``0``
``linear``      ``1 - min(e, M) / M``                  queens_AI                    ``1``
``parabolic``   ``(min(e, M) - M)**2 / M**2``          queens_AI                    ``1``
``exponential`` ``1 / (1 + e)``                        queens_AI                    ``1``
``neutral``     ``0`` for every board                  Wright-Fisher (drift)        ``0``
==============  =====================================  ===========================  ===========

``collisions`` counts diagonal pairs only, as CodeProject's code does: it is meant for the
``permutation`` encoding, where it equals ``pairs`` (the config refuses it elsewhere).
``attacked`` is Sheppard's lower-is-better count negated: over the distinct occupied squares,
the number of the 8 directions in which some queen is seen, plus 10000 per queen stacked on an
occupied square. ``excess`` is what DEAP minimises: a line holding ``k`` queens costs ``k - 1``.
``pairs`` and queens_AI's shapes clip ``e`` at ``M``, which only matters when queens share
squares. ``neutral`` gives every board the same fitness, so that selection is blind and only
chance (drift) changes the population, as in the Wright-Fisher model.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final, NamedTuple

import numpy as np

from engine.arrays import FloatArray, Genomes, IntArray
from engine.genomes.conflicts import (
    BoardLines,
    attacked_directions,
    board_lines,
    distinct_squares,
    with_known_conflicts,
)
from engine.genomes.encodings import ENCODINGS, Encoding

STACKED_PENALTY: Final = 10_000
"""Sheppard's penalty for each queen placed on an already occupied square."""


class Scored(NamedTuple):
    """The evaluation of a batch of genomes: fitness (higher is better) and conflicts."""

    fitness: FloatArray
    conflicts: IntArray


ShapeFunction = Callable[[Genomes, BoardLines, int, Encoding], FloatArray]


class FitnessShape(NamedTuple):
    """A named fitness shape.

    Attributes:
        name: The config name.
        formula: The formula, for help texts.
        source: Where it comes from.
        nonnegative: Never below 0, so a roulette wheel can use it as it is.
        permutation_only: Only meaningful for the ``permutation`` encoding.
        score: Computes the fitness from the genomes and their line counts.
        solved: A plug-in's best value at N (what it gives a solution); ``None`` for the
            built-ins, whose best values are known.
    """

    name: str
    formula: str
    source: str
    nonnegative: bool
    permutation_only: bool
    score: ShapeFunction
    solved: Callable[[int], float] | None = None

    def best(self, n: int) -> float:
        """The fitness of a solution on an ``n`` x ``n`` board."""
        if self.solved is not None:
            return self.solved(n)
        if self.name in ("pairs", "collisions"):
            return float(max_pairs(n))
        if self.name in ("attacked", "excess", "neutral"):
            return 0.0
        return 1.0


SHAPES_READING_COUNTS: Final = frozenset({"excess"})
"""Shapes whose score reads the line counts themselves; the others need only the conflicts
(and ``attacked``, the genomes)."""


SHAPES_READING_CONFLICTS: Final = frozenset(
    {"pairs", "collisions", "linear", "parabolic", "exponential", "neutral"}
)
"""Shapes whose score reads nothing but the conflicts (:func:`score_conflicts` serves them)."""


def max_pairs(n: int) -> int:
    """``N * (N - 1) / 2``: every pair of queens attacking."""
    return n * (n - 1) // 2


def _clipped(lines: BoardLines, n: int) -> tuple[FloatArray, float]:
    """Conflicts clipped at ``M``, and ``M`` (at least 1 to keep N = 1 finite)."""
    most = float(max(max_pairs(n), 1))
    return np.minimum(lines.conflicts, most).astype(np.float64), most


def _pairs(genomes: Genomes, lines: BoardLines, n: int, encoding: Encoding) -> FloatArray:
    # Clipped at 0 like queens_AI's shapes: stacked queens (squares) can exceed M conflicts,
    # and a roulette wheel, which the config allows with this shape, has no negative slices.
    return np.maximum(max_pairs(n) - lines.conflicts, 0).astype(np.float64)


def _attacked(genomes: Genomes, lines: BoardLines, n: int, encoding: Encoding) -> FloatArray:
    directions = attacked_directions(genomes, n, encoding)
    stacked = n - distinct_squares(genomes, n, encoding)
    # 0.0 - x rather than -x: a solution scores 0.0, not -0.0.
    return 0.0 - (directions + STACKED_PENALTY * stacked).astype(np.float64)


def _excess(genomes: Genomes, lines: BoardLines, n: int, encoding: Encoding) -> FloatArray:
    total = np.zeros(genomes.shape[0], dtype=np.int64)
    for counts in lines.counts:
        total += np.maximum(counts - 1, 0).sum(axis=1)
    return 0.0 - total.astype(np.float64)


def _linear(genomes: Genomes, lines: BoardLines, n: int, encoding: Encoding) -> FloatArray:
    errors, most = _clipped(lines, n)
    return 1.0 - errors / most


def _parabolic(genomes: Genomes, lines: BoardLines, n: int, encoding: Encoding) -> FloatArray:
    errors, most = _clipped(lines, n)
    return np.asarray((errors - most) ** 2 / most**2, dtype=np.float64)


def _neutral(genomes: Genomes, lines: BoardLines, n: int, encoding: Encoding) -> FloatArray:
    return np.zeros(lines.conflicts.shape[0], dtype=np.float64)


def _exponential(genomes: Genomes, lines: BoardLines, n: int, encoding: Encoding) -> FloatArray:
    return 1.0 / (1.0 + lines.conflicts.astype(np.float64))


FITNESS_SHAPES: Final[dict[str, FitnessShape]] = {
    shape.name: shape
    for shape in (
        FitnessShape("pairs", "M - e", "Towards AI 2021", True, False, _pairs),
        FitnessShape("collisions", "M - e (diagonals)", "CodeProject 2011", True, True, _pairs),
        FitnessShape(
            "attacked", "-(directions + 10000 * stacked)", "Sheppard", False, False, _attacked
        ),
        FitnessShape("excess", "-sum(max(k - 1, 0))", "DEAP nqueens", False, False, _excess),
        FitnessShape("linear", "1 - e / M", "queens_AI", True, False, _linear),
        FitnessShape("parabolic", "(e - M)^2 / M^2", "queens_AI", True, False, _parabolic),
        FitnessShape("exponential", "1 / (1 + e)", "queens_AI", True, False, _exponential),
        FitnessShape("neutral", "0", "Wright-Fisher drift", True, False, _neutral),
    )
}
"""Every fitness shape by its config name."""


def evaluate(genomes: Genomes, n: int, encoding: Encoding, shape: FitnessShape) -> Scored:
    """Fitness and conflicts of a batch of genomes, from one count of their lines.

    Args:
        genomes: A ``(K, N)`` batch.
        n: The board size.
        encoding: How the genes are read.
        shape: The fitness shape.

    Returns:
        The fitness (higher is better) and the attacking pairs of each genome.
    """
    return score_lines(genomes, board_lines(genomes, n, encoding), n, encoding, shape)


def score_lines(
    genomes: Genomes, lines: BoardLines, n: int, encoding: Encoding, shape: FitnessShape
) -> Scored:
    """Fitness and conflicts of genomes whose lines are already counted."""
    return Scored(shape.score(genomes, lines, n, encoding), lines.conflicts)


def score_conflicts(conflicts: IntArray, n: int, shape: FitnessShape) -> Scored:
    """Fitness of boards whose conflicts are known, for a shape in
    :data:`SHAPES_READING_CONFLICTS` (the same numbers :func:`score_lines` gives)."""
    if shape.name not in SHAPES_READING_CONFLICTS:
        raise ValueError(f"shape: {shape.name!r} reads more than the conflicts")
    empty: IntArray = np.zeros(0, dtype=np.int64)
    lines = with_known_conflicts(BoardLines(cells=(), occupancy=(), sizes=()), conflicts)
    encoding = ENCODINGS["permutation"]
    return Scored(shape.score(empty.reshape(0, n), lines, n, encoding), conflicts)
