"""Survivor selection: who, among parents and children, forms the next population.

Each function returns the indices of the survivors in the concatenation
``[parents; children]``, best first where an order is implied. None of :data:`SURVIVORS`
needs randomness; GENITOR's (:data:`TIE_BREAKING_SURVIVORS`) breaks its ties with the run's
generator.
"""

from __future__ import annotations

from typing import Final, Protocol

import numpy as np

from engine.arrays import BoolArray, FloatArray, IntArray


class Survivors(Protocol):
    """The shape every survivor selection has."""

    def __call__(self, parents: FloatArray, children: FloatArray, elitism: int) -> IntArray: ...


def best_first(values: FloatArray) -> IntArray:
    """Indices that order ``values`` from highest to lowest, equal values in index order (a
    stable sort of ``-values``).

    Fitness is often a whole number in a small range (every shape counting pairs is): then
    the same order comes from sorting 16-bit keys, which numpy does by radix, 2-3x faster
    than its merge sort of floats. The keys are used only when they are exact.
    """
    if values.shape[0]:
        low, high = values.min(), values.max()
        if high - low < 2**15 - 1:  # False for NaN: the float sort decides those
            keys = (high - values).astype(np.int16)
            # Every value must come back from its key: then equal values share a key and a
            # higher value has a smaller one (high - key is monotone), whatever the values.
            # (Checking the keys alone is not enough: 1 - 1e-20 rounds to a whole 1.)
            if ((high - keys) == values).all():
                return np.asarray(keys.argsort(kind="stable"), dtype=np.int64)
    return np.asarray(np.argsort(-values, kind="stable"), dtype=np.int64)


def generational_survivors(parents: FloatArray, children: FloatArray, elitism: int) -> IntArray:
    """Children replace their parents; the ``elitism`` best parents replace the worst children.

    Needs at least ``P - elitism`` children; extra children (beyond the first ``P - elitism``
    in generation order, after the elite) are dropped.
    """
    size = parents.shape[0]
    elite = best_first(parents)[:elitism]
    kept_children = size - elitism
    if elitism:
        # The worst children make way: keep the best P - k, in generation order.
        best_children = np.sort(best_first(children)[:kept_children])
    else:
        best_children = np.arange(kept_children)
    return np.concatenate([elite, size + best_children]).astype(np.int64)


def best_of_union_survivors(parents: FloatArray, children: FloatArray, elitism: int) -> IntArray:
    """(mu + lambda): the best ``P`` of parents and children; on ties, parents stay.

    This is also queens_AI's "best fitness" steady state, where a couple's two children
    replace the worst members when they are better.
    """
    union = np.concatenate([parents, children])
    return best_first(union)[: parents.shape[0]]


def genitor_survivors(
    parents: FloatArray, children: FloatArray, rng: np.random.Generator
) -> IntArray:
    """GENITOR's steady state (Whitley 1989; Eiben & Smith's "replace worst"): the children
    replace the worst parents, whatever their own fitness, each in the place of the one it
    replaces; among parents of equal fitness, which ones go is drawn uniformly at random.

    So with every board equally fit, each generation's children replace members drawn
    uniformly without replacement: Moran's model (two births at a time with a couple). One
    permutation of the parents is drawn, however many children there are.

    Needs at most ``P`` children.
    """
    size, count = parents.shape[0], children.shape[0]
    shuffled = rng.permutation(size)
    # Lowest fitness first; among equals, the shuffled order (a stable sort keeps it).
    worst = shuffled[np.argsort(parents[shuffled], kind="stable")[:count]]
    survivors = np.arange(size, dtype=np.int64)
    survivors[np.sort(worst)] = size + np.arange(count, dtype=np.int64)
    return survivors


def threshold_acceptance(children: FloatArray, threshold: float) -> tuple[BoolArray, float]:
    """Sheppard's gate: a child is kept when it is at least as good as the threshold, and a
    child better than the threshold raises it, in the order the children were made.

    The threshold starts at the worst initial fitness and never goes back down. Processing
    children in order, the threshold before child ``i`` is the best of the starting threshold
    and of every earlier child, so the gate is one running maximum.

    Returns:
        Which children pass, and the threshold after all of them.
    """
    before = np.maximum.accumulate(np.concatenate([[threshold], children]))[:-1]
    passed = np.asarray(children >= before, dtype=bool)
    return passed, float(max(threshold, children.max(initial=threshold)))


SURVIVORS: Final[dict[str, Survivors]] = {
    "generational": generational_survivors,
    "plus": best_of_union_survivors,
    "steady-state": best_of_union_survivors,
    "threshold": best_of_union_survivors,
}
"""Survivor selections by their config name. ``plus`` and ``steady-state`` differ only in
how many children a generation makes (the population, or a couple); ``threshold`` is ``plus``
behind Sheppard's gate (:func:`threshold_acceptance`), which the algorithm applies first."""


class TieBreakingSurvivors(Protocol):
    """A survivor selection that draws from the run's generator to break its ties."""

    def __call__(
        self, parents: FloatArray, children: FloatArray, rng: np.random.Generator
    ) -> IntArray: ...


TIE_BREAKING_SURVIVORS: Final[dict[str, TieBreakingSurvivors]] = {"genitor": genitor_survivors}
"""Survivor selections that break ties at random, by their config name (a couple of children
a generation, as ``steady-state``)."""

SURVIVOR_NAMES: Final = (*SURVIVORS, *TIE_BREAKING_SURVIVORS)
"""Every built-in survivor selection's config name."""
