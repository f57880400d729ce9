"""The run's statistics: what each generation adds to the history and shows the stop rules.

Kept apart from the loop, as DEAP keeps its statistics apart from its algorithms: the
population's diversity (its unique fraction and column entropy), the generation's row of the
history, the run's progress as the stop rules read it, and the generation's best individual.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from engine.arrays import FloatArray, Genomes, IntArray
from engine.genomes.diversity import unique_fraction
from engine.genomes.encodings import Encoding
from engine.run_state import RunState
from engine.snapshot import GenerationStats
from engine.termination import RunProgress


class GenerationRecord(NamedTuple):
    """A published generation's statistics.

    Attributes:
        stats: Its row of the history.
        progress: How far the run has gone, for the stop rules.
        best_index: Its best individual: highest fitness first, fewest conflicts breaking ties,
            then the first such row.
    """

    stats: GenerationStats
    progress: RunProgress
    best_index: int


def population_diversity(
    population: Genomes,
    n: int,
    encoding: Encoding,
    column_entropy: Callable[[Genomes, int, Encoding], float],
) -> tuple[float, float]:
    """The population's unique fraction and column entropy (summed by ``column_entropy``, the
    numpy one or its compiled twin, see :func:`engine.large_n.roads.column_entropy_for`)."""
    return unique_fraction(population), column_entropy(population, n, encoding)


def generation_record(
    state: RunState, fitness: FloatArray, conflicts: IntArray, diversity: float, entropy: float
) -> GenerationRecord:
    """The statistics of the generation ``state`` has just reached, whose population has
    ``fitness`` and ``conflicts`` (and ``diversity`` and ``entropy``)."""
    stats = GenerationStats(
        generation=state.generation,
        evaluations=state.evaluations,
        elapsed=state.elapsed,
        best_fitness=float(fitness.max()),
        mean_fitness=float(fitness.mean()),
        worst_fitness=float(fitness.min()),
        best_conflicts=int(conflicts.min()),
        mean_conflicts=float(conflicts.mean()),
        unique_fraction=diversity,
        entropy=entropy,
    )
    progress = RunProgress(
        generation=state.generation,
        evaluations=state.evaluations,
        elapsed=state.elapsed,
        best_conflicts=stats.best_conflicts,
        stagnant=state.stagnant,
        solutions=state.solutions.count,
    )
    # Highest fitness first, fewest conflicts breaking ties, then the first such row (what
    # a stable sort by both would put first, without sorting everything).
    ties = (fitness == stats.best_fitness).nonzero()[0]
    best_index = int(ties[conflicts[ties].argmin()])
    return GenerationRecord(stats, progress, best_index)
