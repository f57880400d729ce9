"""Live runs to compare records with."""

from __future__ import annotations

from engine import Config, GeneticAlgorithm, Snapshot


def live_run(config: Config) -> list[Snapshot]:
    """Every snapshot an unrecorded run publishes, generation 0 first."""
    algorithm = GeneticAlgorithm(config)
    published = [algorithm.snapshot]
    while algorithm.has_next():
        published.append(algorithm.step())
    return published
