"""Generation 0: random boards in the run's encoding, greedy permutations (the memetic mode's
start) or the takeover start (one best board among equal ones)."""

from __future__ import annotations

from typing import Protocol

import numpy as np

from engine.arrays import Genomes
from engine.genomes.encodings import Encoding
from engine.operators.greedy_start import greedy_population
from engine.operators.takeover_start import one_best_population


class StartFields(Protocol):
    """What the first population reads of a run's config (operators never import the config)."""

    @property
    def population(self) -> int: ...
    @property
    def n(self) -> int: ...
    @property
    def greedy_start(self) -> bool: ...
    @property
    def one_best(self) -> bool: ...


def first_population(config: StartFields, encoding: Encoding, rng: np.random.Generator) -> Genomes:
    """The run's first ``P`` boards of ``N`` queens: greedy permutations, the takeover start
    (:mod:`engine.operators.takeover_start`, which draws nothing) or random boards drawn in
    ``encoding``, in that order of precedence."""
    if config.greedy_start:
        return greedy_population(config.population, config.n, rng)
    if config.one_best:
        return one_best_population(config.population, config.n)
    return encoding.random_population(config.population, config.n, rng)
