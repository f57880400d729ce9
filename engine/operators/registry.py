"""One door from an operator's config name to the function a generation calls.

A built-in name is looked up in its kind's table; a plug-in name (``ops.py:function@digest``,
see :mod:`engine.operators.plugins`) is loaded from its recorded source and wrapped in the
built-in's shape. The plug-ins' contracts (what each receives and returns) are in
``docs/plugins.md``; they are checked before a run starts (:mod:`engine.config.plugin_checks`).

The wrappers only convert a returned array to the dtype the loop works in: a plug-in that
already returns it is called with nothing added.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import Any

import numpy as np

from engine.arrays import FloatArray, Genomes, IntArray
from engine.genomes.conflicts import BoardLines
from engine.genomes.encodings import Encoding
from engine.genomes.fitness import FITNESS_SHAPES, FitnessShape
from engine.operators.crossover import CROSSOVERS, Crossover
from engine.operators.mutation import MUTATIONS, Mutation, MutationSettings
from engine.operators.plugins import is_plugin_name, parse_name, plugin_function
from engine.operators.selection import SELECTIONS, Selection
from engine.operators.survivors import SURVIVORS, TIE_BREAKING_SURVIVORS, Survivors


def _indices(values: Any) -> IntArray:
    return np.asarray(values, dtype=np.int64)


def selection_of(name: str) -> Selection:
    """The selection of that name: ``f(fitness, count, rng, size) -> (count,) indices``."""
    if not is_plugin_name(name):
        return SELECTIONS[name]
    function = plugin_function(name)

    def plugin_selection(
        fitness: FloatArray, count: int, rng: np.random.Generator, size: int
    ) -> IntArray:
        return _indices(function(fitness, count, rng, size))

    return plugin_selection


def crossover_of(name: str) -> Crossover:
    """The crossover of that name: ``f(first, second, rng) -> (child_one, child_two)``."""
    if not is_plugin_name(name):
        return CROSSOVERS[name]
    function = plugin_function(name)

    def plugin_crossover(
        first: Genomes, second: Genomes, rng: np.random.Generator
    ) -> tuple[Genomes, Genomes]:
        one, two = function(first, second, rng)
        return np.asarray(one, dtype=first.dtype), np.asarray(two, dtype=first.dtype)

    return plugin_crossover


def mutation_of(name: str) -> Mutation:
    """The mutation of that name; a plug-in is ``f(children, rng, rate) -> (K, N) array``."""
    if not is_plugin_name(name):
        return MUTATIONS[name]
    function = plugin_function(name)

    def plugin_mutation(
        genomes: Genomes, rng: np.random.Generator, settings: MutationSettings
    ) -> Genomes:
        return np.asarray(function(genomes, rng, settings.rate), dtype=genomes.dtype)

    return plugin_mutation


def survivors_of(name: str) -> Survivors:
    """The survivor selection of that name: ``f(parents, children, elitism) -> (P,) indices``
    into ``[parents; children]``."""
    if not is_plugin_name(name):
        return SURVIVORS[name]
    function = plugin_function(name)

    def plugin_survivors(parents: FloatArray, children: FloatArray, elitism: int) -> IntArray:
        return _indices(function(parents, children, elitism))

    return plugin_survivors


RunSurvivors = Callable[[FloatArray, FloatArray, int, np.random.Generator], IntArray]
"""A survivor selection as a generation calls it: ``f(parents, children, elitism, rng)``."""


def run_survivors_of(name: str) -> RunSurvivors:
    """The survivor selection of that name, handed the run's generator: GENITOR's draws from
    it to break ties; the others (:func:`survivors_of`) never read it, so their runs draw
    nothing more."""
    breaks_ties = TIE_BREAKING_SURVIVORS.get(name)
    if breaks_ties is not None:
        tie_breaking = breaks_ties

        def drawing(
            parents: FloatArray, children: FloatArray, elitism: int, rng: np.random.Generator
        ) -> IntArray:
            return tie_breaking(parents, children, rng)

        return drawing
    survive = survivors_of(name)

    def not_drawing(
        parents: FloatArray, children: FloatArray, elitism: int, rng: np.random.Generator
    ) -> IntArray:
        return survive(parents, children, elitism)

    return not_drawing


def fitness_shape_of(name: str) -> FitnessShape:
    """The fitness shape of that name; a plug-in is ``f(genomes, conflicts, n) -> (K,) float``,
    higher is better, and its best value is what it gives a solution."""
    if not is_plugin_name(name):
        return FITNESS_SHAPES[name]
    function = plugin_function(name)

    def score(genomes: Genomes, lines: BoardLines, n: int, encoding: Encoding) -> FloatArray:
        return np.asarray(function(genomes, lines.conflicts, n), dtype=np.float64)

    return FitnessShape(
        name=name,
        formula=f"{parse_name(name).shown} (plug-in)",
        source=parse_name(name).path,
        nonnegative=False,
        permutation_only=False,
        score=score,
        solved=_solution_fitness(function),
    )


def _solution_fitness(function: Callable[..., Any]) -> Callable[[int], float]:
    """A plug-in fitness's best value at N: what it gives a solution (from
    :func:`explicit_solution`)."""

    @lru_cache(maxsize=8)
    def best(n: int) -> float:
        board = explicit_solution(n)[None, :]
        return float(np.asarray(function(board, np.zeros(1, dtype=np.int64), n))[0])

    return best


def explicit_solution(n: int) -> Genomes:
    """A solution of N-Queens for N = 1 or N >= 4 as a permutation, by the classic explicit
    construction (even rows, then odd ones, adjusted when N mod 6 is 2 or 3)."""
    evens = list(range(1, n, 2))  # rows 2, 4, ... counted from 1
    odds = list(range(0, n, 2))  # rows 1, 3, ...
    if n % 6 == 2 and n >= 8:
        odds[0], odds[1] = odds[1], odds[0]
        odds.append(odds.pop(2))
    elif n % 6 == 3:
        evens.append(evens.pop(0))
        odds = odds[2:] + odds[:2]
    return np.asarray(evens + odds if n > 1 else [0], dtype=np.int64)
