"""A run whose children cross, which the tests of origins and of ancestry lines read."""

from __future__ import annotations

from engine import Config, GeneticAlgorithm, Snapshot

CROSSING = Config(
    n=10,
    population=40,
    seed=5,
    crossover="pmx",
    crossover_rate=0.9,
    mutation="swap",
    mutation_rate=0.5,
    stop_when_solved=False,
)
"""A run whose generation 5 has crossed children made of both parents and mutated."""
CHILD = 16
"""In generation 5 of :data:`CROSSING`: crossed (pmx) from #10 (main) and #36, 2 queens moved."""


def generations(config: Config, count: int) -> list[Snapshot]:
    """Generation 0 of a run of ``config`` and the ``count`` after it."""
    algorithm = GeneticAlgorithm(config)
    return [algorithm.snapshot] + [algorithm.step() for _ in range(count)]
