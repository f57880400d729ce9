"""Parent selection: fitness of the whole population in, indices of the chosen parents out.

Every function takes the ``(P,)`` fitness array (higher is better), how many parents to pick
and the run's ``rng``, and returns an ``(count,)`` integer array of row indices into the
population. Consecutive indices form couples: ``(0, 1)``, ``(2, 3)``, ...
"""

from __future__ import annotations

from typing import Final, Protocol

import numpy as np

from engine.arrays import FloatArray, IntArray

TRUNCATION_FRACTION: Final = 0.5
"""Truncation selection draws uniformly from this best fraction of the population."""


class Selection(Protocol):
    """The shape every selection operator has."""

    def __call__(
        self, fitness: FloatArray, count: int, rng: np.random.Generator, size: int
    ) -> IntArray: ...


def roulette_probabilities(fitness: FloatArray) -> FloatArray:
    """Fitness-proportionate probabilities ``f_i / sum(f)`` (uniform when every fitness is 0).

    Raises:
        ValueError: If a fitness is negative: a roulette wheel has no negative slices.
    """
    if np.any(fitness < 0):
        raise ValueError("roulette selection needs non-negative fitness values")
    total = fitness.sum()
    if total <= 0:
        return np.full(fitness.shape, 1.0 / fitness.shape[0])
    return np.asarray(fitness / total, dtype=np.float64)


def roulette_select(
    fitness: FloatArray, count: int, rng: np.random.Generator, size: int = 0
) -> IntArray:
    """Roulette wheel: each pick lands on individual ``i`` with probability ``f_i / sum(f)``.

    A spin is a uniform number looked up in the cumulative probabilities, as CodeProject's
    ``AssayRuletteWheel`` does.
    """
    cumulative = np.cumsum(roulette_probabilities(fitness))
    spins = rng.random(count) * cumulative[-1]
    picks = np.searchsorted(cumulative, spins, side="right")
    return np.asarray(np.minimum(picks, fitness.shape[0] - 1), dtype=np.int64)


def tournament_select(
    fitness: FloatArray, count: int, rng: np.random.Generator, size: int = 3
) -> IntArray:
    """Tournament of ``size``: draw ``size`` individuals (with replacement), keep the fittest."""
    entrants = rng.integers(0, fitness.shape[0], size=(count, size))
    scores = fitness.take(entrants)
    if size == 2:
        # argmax's choice (the first on a tie) without a reduction over pairs.
        return np.asarray(
            np.where(scores[:, 1] > scores[:, 0], entrants[:, 1], entrants[:, 0]), dtype=np.int64
        )
    winners = scores.argmax(axis=1)
    return np.asarray(entrants[np.arange(count), winners], dtype=np.int64)


BEST_OF: Final = 5
"""Individuals drawn per couple by :func:`best_two_of_five_select`."""


def best_two_of_five_select(
    fitness: FloatArray, count: int, rng: np.random.Generator, size: int = 0
) -> IntArray:
    """queens_AI's "2 best of 5": per couple, draw 5 individuals and keep the best two.

    As in queens_AI's code, the 5 are drawn with replacement, so a couple can be one
    individual twice; ties go to the earlier draw.

    Args:
        fitness: Fitness of the population.
        count: Parents to pick; odd counts drop the last pick of the last couple.
        rng: The run's generator.
        size: Unused: the config's tournament size is tournament selection's, and five are
            drawn, as the name says (with the default tournament size of 2 the run drew two
            and kept both, which is no selection at all).
    """
    couples = (count + 1) // 2
    entrants = rng.integers(0, fitness.shape[0], size=(couples, BEST_OF))
    order = np.argsort(-fitness[entrants], axis=1, kind="stable")[:, :2]
    best_two = np.take_along_axis(entrants, order, axis=1)
    return best_two.reshape(-1)[:count].astype(np.int64)


def rank_select(
    fitness: FloatArray, count: int, rng: np.random.Generator, size: int = 0
) -> IntArray:
    """Linear ranking: the worst has weight 1, the best weight ``P``; ties share the mean rank."""
    order = np.argsort(fitness, kind="stable")
    ranks = np.empty(fitness.shape[0], dtype=np.float64)
    ranks[order] = np.arange(1, fitness.shape[0] + 1)
    # Equal fitness deserves equal chances: average the ranks of ties.
    _, inverse, counts = np.unique(fitness, return_inverse=True, return_counts=True)
    ranks = np.bincount(inverse, weights=ranks) / counts
    return roulette_select(ranks[inverse], count, rng)


def truncation_select(
    fitness: FloatArray, count: int, rng: np.random.Generator, size: int = 0
) -> IntArray:
    """Truncation: draw uniformly among the best half of the population."""
    keep = max(1, int(np.ceil(fitness.shape[0] * TRUNCATION_FRACTION)))
    best = np.argsort(-fitness, kind="stable")[:keep]
    return best[rng.integers(0, keep, size=count)].astype(np.int64)


def uniform_select(
    fitness: FloatArray, count: int, rng: np.random.Generator, size: int = 0
) -> IntArray:
    """Uniform couples of two different individuals, blind to fitness (Sheppard's pool)."""
    population = fitness.shape[0]
    couples = (count + 1) // 2
    first = rng.integers(0, population, size=couples)
    # The second parent is any other individual: shift by 1..P-1.
    second = (first + rng.integers(1, population, size=couples)) % population
    return np.stack([first, second], axis=1).reshape(-1)[:count].astype(np.int64)


SELECTIONS: Final[dict[str, Selection]] = {
    "roulette": roulette_select,
    "tournament": tournament_select,
    "best-2-of-5": best_two_of_five_select,
    "rank": rank_select,
    "truncation": truncation_select,
    "uniform": uniform_select,
}
"""Selection operators by their config name."""
