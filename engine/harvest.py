"""The harvest: each generation's solutions recorded and, with ``harvest``, replaced.

Every solution the population holds is recorded in the run's archive as it joins. With the
config's ``harvest`` on, each is then replaced by a random newcomer, so the search goes on
looking for others (the find-all mode); without it, the solutions stay in the population.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from engine.arrays import BoolArray, Genomes
from engine.genomes.encodings import Encoding
from engine.genomes.fitness import FitnessShape, Scored, evaluate
from engine.lineage.births import Births
from engine.snapshot import read_only
from engine.solutions.archive import SolutionArchive, rows_by_column


class Harvested(NamedTuple):
    """A population after its harvest.

    Attributes:
        population: The population, solutions replaced when harvesting.
        scored: Its fitness and conflicts.
        newcomers: How many newcomers were evaluated.
    """

    population: Genomes
    scored: Scored
    newcomers: int


def harvest(
    population: Genomes,
    scored: Scored,
    new: BoolArray | None,
    *,
    replace: bool,
    archive: SolutionArchive,
    births: Births,
    rng: np.random.Generator,
    shape: FitnessShape,
    encoding: Encoding,
) -> Harvested:
    """Record the population's solutions; with ``replace``, replace them by newcomers.

    ``new`` marks the rows that may hold a solution not recorded yet (``None``: any row).
    Without ``replace``, only children can: every parent was recorded when it joined.
    """
    n = population.shape[1]
    unrecorded = scored.conflicts == 0
    if new is not None and not replace:
        unrecorded &= new
    solved = unrecorded.nonzero()[0]
    if solved.size == 0:
        return Harvested(population, scored, 0)
    if not replace:
        # Published as it is, never written again: the archive may keep large solved rows
        # where they are (see SolutionArchive).
        read_only(population)
    archive.record(rows_by_column(population, n, encoding), rows=solved, with_images=replace)
    if not replace:
        return Harvested(population, scored, 0)
    newcomers = encoding.random_population(solved.size, n, rng)
    births.note_newcomers(solved)
    fresh = evaluate(newcomers, n, encoding, shape)
    population = population.copy()
    fitness, conflicts = scored.fitness.copy(), scored.conflicts.copy()
    population[solved], fitness[solved], conflicts[solved] = (
        newcomers,
        fresh.fitness,
        fresh.conflicts,
    )
    return Harvested(population, Scored(fitness, conflicts), solved.size)
