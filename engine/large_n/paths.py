"""Where a run takes compiled code that gives the same results as the numpy operators.

Only runs that load the compiled kernels anyway (a greedy start or a local search) do, so that
other runs never import numba: the column entropy (:mod:`engine.compiled.entropy_kernel`), and for a
local search after the conflict mutation the children and the boards' scores
(:mod:`engine.large_n.memetic_children`, when
:func:`engine.operators.local_search.compiled_children_apply`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, NamedTuple

from engine.arrays import Genomes
from engine.genomes import diversity
from engine.genomes.encodings import Encoding
from engine.genomes.fitness import FitnessShape, Scored, evaluate
from engine.operators.local_search import compiled_children_apply

if TYPE_CHECKING:
    from engine.config.fields import ConfigFields


class CompiledPaths(NamedTuple):
    """Which functions a run uses where compiled ones give the same results.

    Attributes:
        column_entropy: :func:`engine.genomes.diversity.column_entropy` or its compiled twin.
        evaluate: :func:`engine.genomes.fitness.evaluate` or its board-at-a-time twin.
        children: Whether the children are mutated and searched in compiled code
            (:func:`engine.operators.local_search.compiled_children_apply`).
    """

    column_entropy: Callable[[Genomes, int, Encoding], float]
    evaluate: Callable[[Genomes, int, Encoding, FitnessShape], Scored]
    children: bool


def compiled_paths(config: ConfigFields) -> CompiledPaths:
    """The paths a run takes (see the module)."""
    column_entropy: Callable[[Genomes, int, Encoding], float] = diversity.column_entropy
    if config.local_search or config.greedy_start:
        from engine.compiled.entropy_kernel import compiled_column_entropy

        column_entropy = compiled_column_entropy
    if not compiled_children_apply(config):
        return CompiledPaths(column_entropy, evaluate, False)
    from engine.large_n.memetic_children import evaluate_boards

    return CompiledPaths(column_entropy, evaluate_boards, True)
