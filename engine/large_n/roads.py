"""Which road a run's generations take: chosen once per run, in one table read top-down.

Every road makes the same generation, draw for draw and bit for bit (the engine's tests
fingerprint seeded runs along each); they differ in what they keep and where the work is done:

- **kept counts**: the population's line counts, hashes and sorted columns are kept from one
  generation to the next, so a child that copies its parent is described, not made
  (:mod:`engine.large_n.tracked_generation`);
- **compiled children**: the children are mutated and searched one at a time in compiled code,
  and boards scored one at a time (:mod:`engine.large_n.memetic_children`);
- **plain**: the numpy operators over whole arrays (:class:`engine.algorithm.GeneticAlgorithm`).

The first road whose condition holds is taken; the plain road takes every run. Beside the road,
runs that load the compiled kernels anyway (a greedy start or a local search) sum the column
entropy in compiled code (:func:`column_entropy_for`), so that other runs never import numba.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Final, NamedTuple

from engine.arrays import Genomes
from engine.genomes import diversity
from engine.genomes.encodings import Encoding
from engine.genomes.fitness import FitnessShape, Scored, evaluate
from engine.large_n.tracked_generation import tracks
from engine.operators.local_search import compiled_children_apply

if TYPE_CHECKING:
    from engine.config.fields import ConfigFields

ColumnEntropy = Callable[[Genomes, int, Encoding], float]
""":func:`engine.genomes.diversity.column_entropy` or its compiled twin."""

Evaluate = Callable[[Genomes, int, Encoding, FitnessShape], Scored]
""":func:`engine.genomes.fitness.evaluate` or its board-at-a-time twin."""


class Road(NamedTuple):
    """One road a generation can take.

    Attributes:
        name: What the road is called.
        taken_when: Whether a run's config may take it (the first road that may is taken).
        keeps_counts: The generation is described from the population's kept counts
            (:func:`engine.large_n.tracked_generation.tracked_generation`).
        compiled_children: The children are mutated and searched in compiled code, and
            boards scored one at a time (:mod:`engine.large_n.memetic_children`).
    """

    name: str
    taken_when: Callable[[ConfigFields], bool]
    keeps_counts: bool
    compiled_children: bool


def _any_run(config: ConfigFields) -> bool:
    """Every run may take the plain road."""
    return True


KEPT_COUNTS: Final = Road("kept counts", tracks, keeps_counts=True, compiled_children=False)
COMPILED_CHILDREN: Final = Road(
    "compiled children", compiled_children_apply, keeps_counts=False, compiled_children=True
)
PLAIN: Final = Road("plain", _any_run, keeps_counts=False, compiled_children=False)

ROADS: Final = (KEPT_COUNTS, COMPILED_CHILDREN, PLAIN)
"""Every road, in the order they are tried (see the module)."""


def road_for(config: ConfigFields) -> Road:
    """The road a run's generations take: the first of :data:`ROADS` whose condition holds."""
    return next(road for road in ROADS if road.taken_when(config))


def column_entropy_for(config: ConfigFields) -> ColumnEntropy:
    """The column entropy a run sums: compiled when the run loads the kernels anyway."""
    if config.local_search or config.greedy_start:
        from engine.compiled.entropy_kernel import compiled_column_entropy

        return compiled_column_entropy
    return diversity.column_entropy


def evaluate_for(road: Road) -> Evaluate:
    """How a run on ``road`` scores whole boards (the first population, newcomers are always
    numpy's)."""
    if not road.compiled_children:
        return evaluate
    from engine.large_n.memetic_children import evaluate_boards

    return evaluate_boards
