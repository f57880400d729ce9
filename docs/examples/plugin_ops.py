"""Worked examples of plug-in operators, one of each kind (see docs/plugins.md).

Run one with, for example::

    queens solve --n 32 --mutation docs/examples/plugin_ops.py:swap_two_queens
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

Genomes = npt.NDArray[np.int64]
Floats = npt.NDArray[np.float64]


def tournament_of_three(
    fitness: Floats, count: int, rng: np.random.Generator, size: int
) -> npt.NDArray[np.int64]:
    """Selection: ``count`` parents, each the fittest of three drawn at random (``size``, the
    config's tournament size, is not used here)."""
    entrants = rng.integers(0, fitness.shape[0], size=(count, 3))
    winners = fitness[entrants].argmax(axis=1)
    return entrants[np.arange(count), winners]


def head_and_rest(
    first: Genomes, second: Genomes, rng: np.random.Generator
) -> tuple[Genomes, Genomes]:
    """Crossover for permutations: each child keeps one parent's head up to a random cut and
    takes the genes it lacks in the order the other parent has them."""
    count, n = first.shape
    cut = rng.integers(1, n, size=count)[:, None] if n > 1 else np.ones((count, 1), np.int64)
    return _one_child(first, second, cut), _one_child(second, first, cut)


def _one_child(head_from: Genomes, rest_from: Genomes, cut: Genomes) -> Genomes:
    count, n = head_from.shape
    positions = np.arange(n)[None, :]
    in_head = positions < cut
    value_in_head = np.zeros((count, n), dtype=bool)
    np.put_along_axis(value_in_head, head_from, in_head, axis=1)
    missing = ~np.take_along_axis(value_in_head, rest_from, axis=1)
    rest = np.take_along_axis(rest_from, np.argsort(~missing, axis=1, kind="stable"), axis=1)
    tail = np.take_along_axis(rest, np.clip(positions - cut, 0, None), axis=1)
    return np.where(in_head, head_from, tail)


def swap_two_queens(children: Genomes, rng: np.random.Generator, rate: float) -> Genomes:
    """Mutation: each child, with probability ``rate``, swaps the genes at two random
    positions (the built-in ``swap``, draw for draw)."""
    count, n = children.shape
    chosen = rng.random(count) < rate
    first = rng.integers(0, n, size=count)
    second = rng.integers(0, n, size=count)
    rows = np.nonzero(chosen)[0]
    result = children.copy()
    result[rows, first[rows]] = children[rows, second[rows]]
    result[rows, second[rows]] = children[rows, first[rows]]
    return result


def best_of_both(parents: Floats, children: Floats, elitism: int) -> npt.NDArray[np.int64]:
    """Survivors: the best ``P`` of parents and children (parents first on ties), as indices
    into ``[parents; children]``."""
    union = np.concatenate([parents, children])
    return np.argsort(-union, kind="stable")[: parents.shape[0]]


def squared_pairs(genomes: Genomes, conflicts: npt.NDArray[np.int64], n: int) -> Floats:
    """Fitness: the share of queen pairs not attacking each other, squared (1 for a
    solution), higher is better."""
    pairs = max(n * (n - 1) // 2, 1)
    return ((pairs - np.minimum(conflicts, pairs)) / pairs) ** 2
