"""What selection, crossover and mutation did to one generation: diversity explained.

For generation ``g``, from its :class:`~engine.lineage.lineage.Lineage`:

- the diversity (column entropy, as the run's history measures it) of generation ``g - 1``, of
  the parents selection picked from it (every pick, a parent picked twice counted twice), of
  the children as the crossover made them (before mutation) and of generation ``g``: read one
  after the other, the drop by selection, the gain by crossover and by mutation (the local
  search counts as mutation), and what the survivor selection kept;
- the shares of children each operator improved, left equal or made worse: crossover compares
  each crossed child, before mutation, with the better of its two parents; mutation compares
  each evaluated child after it with itself before it. Every child made counts, not only those
  that got into generation ``g``.

The children before mutation are rebuilt from what the lineage noted, and those a crossover made
are evaluated here: a few whole-array operations and one evaluation of the crossed children,
with no random number drawn, so the run is the same bit for bit whether anyone asks or not.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, NamedTuple

import numpy as np

from engine.arrays import FloatArray, Genomes, IntArray
from engine.genomes.diversity import column_entropy
from engine.genomes.encodings import Encoding
from engine.genomes.fitness import FitnessShape, evaluate
from engine.lineage.lineage import Lineage

STAGES: Final = ("previous", "parents", "crossed", "current")
"""The diversity measured at each stage of a generation, in order."""
OUTCOMES: Final = ("improved", "equal", "worse")
"""What an operator did to a child's fitness."""


class Shares(NamedTuple):
    """Shares of children an operator improved, left equal or made worse (they sum to 1).

    All ``nan`` when the operator made no child this generation.
    """

    improved: float
    equal: float
    worse: float

    @classmethod
    def of(cls, after: FloatArray, before: FloatArray) -> Shares:
        """The shares of ``after`` above, equal to and below ``before``, element by element."""
        count = after.shape[0]
        if count == 0:
            return cls(float("nan"), float("nan"), float("nan"))
        improved = int(np.count_nonzero(after > before))
        worse = int(np.count_nonzero(after < before))
        return cls(improved / count, (count - improved - worse) / count, worse / count)


@dataclass(frozen=True)
class VariationEffects:
    """One generation's diversity at each stage, and what each operator did to fitness.

    Attributes:
        generation: The generation ``g`` made.
        previous: Diversity of generation ``g - 1``.
        parents: Diversity of the parents selection picked from it.
        crossed: Diversity of the children before mutation.
        current: Diversity of generation ``g``.
        crossover: Shares of crossed children better than, equal to, worse than their better
            parent (before mutation).
        mutation: Shares of evaluated children that mutation made better, left equal, made
            worse.
    """

    generation: int
    previous: float
    parents: float
    crossed: float
    current: float
    crossover: Shares
    mutation: Shares

    def diversity(self) -> tuple[float, float, float, float]:
        """The four diversities, in the order of :data:`STAGES`."""
        return (self.previous, self.parents, self.crossed, self.current)


class Children(NamedTuple):
    """Every child a generation made, before mutation, in the order they were made.

    Attributes:
        genomes: The ``(C, N)`` children.
        heads: Each child's parent in its own place of the couple (in generation ``g - 1``):
            what an uncrossed child is a copy of.
        couples: Each child's couple (row of the births' couples).
        crossed: The indices of the crossed children, increasing.
    """

    genomes: Genomes
    heads: IntArray
    couples: IntArray
    crossed: IntArray


def unmutated_children(lineage: Lineage) -> Children:
    """Every child the generation made, before mutation (generation 0 has none)."""
    births = lineage.births
    assert births is not None, "generation 0 made no children"
    pairs, per_couple = births.pairs, births.children_per_couple
    heads = pairs[:, 0] if per_couple == 1 else pairs.reshape(-1)
    made = min(births.wanted, heads.shape[0])
    heads = heads[:made]
    children = lineage.previous.take(heads, axis=0)
    couples = np.arange(made, dtype=np.int64) // per_couple
    crossing = births.crossing.astype(np.int64)
    crossed_rows = []
    for child, made_by_crossover in enumerate(lineage.made_by_crossover):
        rows = crossing * per_couple + child
        inside = rows < made
        children[rows[inside]] = made_by_crossover[inside]
        crossed_rows.append(rows[inside])
    crossed = np.sort(np.concatenate(crossed_rows)) if crossed_rows else crossing[:0]
    return Children(children, heads, couples, crossed)


def variation_effects(
    lineage: Lineage,
    current: Genomes,
    n: int,
    encoding: Encoding,
    shape: FitnessShape,
    *,
    diversity: tuple[float | None, float | None] = (None, None),
) -> VariationEffects | None:
    """What selection, crossover and mutation did to the generation ``lineage`` describes.

    Args:
        lineage: The generation's lineage (a run with lineage on).
        current: The generation's population.
        n: The board size.
        encoding: The run's encoding.
        shape: The run's fitness shape.
        diversity: The column entropy of generations ``g - 1`` and ``g`` where already known
            (the run's history has them), so as not to measure them again.

    Returns:
        The effects, or ``None`` for generation 0 (no parents, no children).
    """
    births = lineage.births
    if births is None:
        return None
    previous, previous_fitness = lineage.previous, lineage.previous_fitness
    children, heads, couples, crossed = unmutated_children(lineage)
    picks = births.pairs.reshape(-1)
    # A copy has its parent's fitness; the crossed children are evaluated.
    before_fitness = previous_fitness.take(heads)
    if crossed.shape[0]:
        before_fitness[crossed] = evaluate(children[crossed], n, encoding, shape).fitness
    parents_fitness = previous_fitness.take(births.pairs.take(couples[crossed], axis=0))
    better_parent = parents_fitness.max(axis=1) if crossed.shape[0] else before_fitness[:0]
    evaluated = np.arange(children.shape[0])
    if births.unique is not None:
        evaluated = np.flatnonzero(births.unique)
    after = births.evaluated_fitness
    mutation = Shares.of(
        after if after is not None else before_fitness[:0],
        before_fitness.take(evaluated) if after is not None else before_fitness[:0],
    )
    known_previous, known_current = diversity
    return VariationEffects(
        generation=lineage.generation,
        previous=(
            column_entropy(previous, n, encoding) if known_previous is None else known_previous
        ),
        parents=column_entropy(previous.take(picks, axis=0), n, encoding),
        crossed=column_entropy(children, n, encoding),
        current=column_entropy(current, n, encoding) if known_current is None else known_current,
        crossover=Shares.of(before_fitness.take(crossed), better_parent),
        mutation=mutation,
    )
