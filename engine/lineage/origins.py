"""Each individual's origin in one generation: its parents in the generation before and its kind.

Worked out from what the generation noted (:class:`~engine.lineage.births.Births`). Survivor
selection
picked each individual from the union ``[parents; children that remained]``: two small tables
over that union (each row's first parent: a parent is its own, a child its couple's head; each
row's kind) gathered at the survivors' indices give everyone's first parent and kind at once.
Only the crossed children that got in, a few, have a second parent (the other of their couple):
those are looked up alone. The recorder asks every generation, so this is a handful of
whole-array operations on the population's indices; none on its genes.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Final, NamedTuple, Protocol

import numpy as np

from engine.arrays import BoolArray, FlagArray, IntArray

NEW: Final = 0
"""Kind: no parent (the initial population, or a newcomer of the harvest)."""
SURVIVOR: Final = 1
"""Kind: carried over unchanged from the generation before."""
COPY: Final = 2
"""Kind: a child of a couple that did not cross, a copy of one parent (perhaps mutated)."""
CROSSED: Final = 3
"""Kind: a child of two parents, crossed (perhaps mutated)."""


class NotedBirths(Protocol):
    """What :func:`origins_of` reads of a generation's :class:`~engine.lineage.births.Births`."""

    pairs: IntArray
    crossing: IntArray
    children_per_couple: int
    wanted: int
    unique: BoolArray | None
    passed: BoolArray | None
    survivors: IntArray
    newcomers: IntArray | None


class Origins(NamedTuple):
    """Each individual's first parent and kind, and the crossed ones' second parents.

    Attributes:
        first: ``(P,)`` first parent in ``g - 1`` (the operator's first), ``-1`` for none.
        kinds: ``(P,)`` :data:`NEW`, :data:`SURVIVOR`, :data:`COPY` or :data:`CROSSED`.
        crossed: The crossed children's indices, in increasing order.
        crossed_parents: ``(2, K)`` their first parents and their second parents, in the
            same order.
    """

    first: IntArray
    kinds: FlagArray
    crossed: IntArray
    crossed_parents: IntArray


@lru_cache(maxsize=4)
def in_place(size: int) -> IntArray:
    """``0 .. size - 1`` (read-only, cached: a run asks with one size)."""
    indices = np.arange(size, dtype=np.int64)
    indices.flags.writeable = False
    return indices


@lru_cache(maxsize=4)
def in_place_bytes(size: int) -> bytes:
    """The bytes of :func:`in_place` (cached)."""
    return in_place(size).tobytes()


@lru_cache(maxsize=4)
def _survivors(size: int) -> FlagArray:
    """``size`` times :data:`SURVIVOR` (read-only, cached)."""
    kinds = np.full(size, SURVIVOR, dtype=np.uint8)
    kinds.flags.writeable = False
    return kinds


@lru_cache(maxsize=4)
def _nobody(size: int) -> IntArray:
    """``size`` times ``-1`` (read-only, cached)."""
    nobody = np.full(size, -1, dtype=np.int64)
    nobody.flags.writeable = False
    return nobody


@lru_cache(maxsize=4)
def _copies(shape: tuple[int, ...]) -> FlagArray:
    """An array of :data:`COPY` kinds (read-only, cached: copied, then marked)."""
    kinds = np.full(shape, COPY, dtype=np.uint8)
    kinds.flags.writeable = False
    return kinds


_THIS_AND_OTHER: Final = np.array([[0], [1]], dtype=np.int64)
"""XOR-ed with made children's rows: their own rows, and their couples' other rows."""
_THIS_AND_OTHER.flags.writeable = False
_NO_ONE: Final = np.zeros(0, dtype=np.int64)
_NO_ONE.flags.writeable = False
_NO_PARENTS: Final = np.zeros((2, 0), dtype=np.int64)
_NO_PARENTS.flags.writeable = False


def _made_count(births: NotedBirths) -> int:
    """How many children the crossover's rows gave (the first ``wanted`` of its rows)."""
    rows = int(births.pairs.shape[0]) * (1 if births.children_per_couple == 1 else 2)
    return min(births.wanted, rows)


def remaining(births: NotedBirths) -> IntArray | None:
    """The made children that remained after the filters (uniqueness, threshold), by their
    index among the made ones; ``None`` when every made child remained."""
    if births.unique is None and births.passed is None:
        return None
    made = _made_count(births)
    kept = np.arange(made) if births.unique is None else np.flatnonzero(births.unique)
    return kept if births.passed is None else kept[births.passed]


def origins_of(births: NotedBirths | None, previous_size: int, size: int) -> Origins:
    """Everyone's parents and kind in a generation of ``size`` individuals whose parents'
    generation had ``previous_size`` (``births`` ``None``: generation 0, everyone new)."""
    if births is None:
        return Origins(_nobody(size), np.full(size, NEW, np.uint8), _NO_ONE, _NO_PARENTS)
    survivors, newcomers = births.survivors, births.newcomers
    if not births.pairs.shape[0]:  # no child was made
        first = survivors.view() if newcomers is None else survivors.copy()
        kinds = np.full(size, SURVIVOR, dtype=np.uint8)
        if newcomers is not None:
            first[newcomers], kinds[newcomers] = -1, NEW
        return Origins(first, kinds, _NO_ONE, _NO_PARENTS)
    heads, made_kinds = _made_children(births)
    kept = remaining(births)
    if kept is not None:
        heads, made_kinds = heads.take(kept), made_kinds.take(kept)
    first = np.concatenate((in_place(previous_size), heads)).take(survivors)
    kinds = np.concatenate((_survivors(previous_size), made_kinds)).take(survivors)
    if newcomers is not None:
        first[newcomers], kinds[newcomers] = -1, NEW
    crossed = (kinds == CROSSED).nonzero()[0] if births.crossing.shape[0] else _NO_ONE
    if not crossed.shape[0]:
        return Origins(first, kinds, crossed, _NO_PARENTS)
    # Made child m is row m of the couples' rows (see _made_children); its second parent is
    # the other row of its couple, m ^ 1 (or the couple's second column, one child a couple).
    made = survivors.take(crossed) - previous_size
    if kept is not None:
        made = kept.take(made)
    pairs = births.pairs
    if births.children_per_couple == 1:
        parents = pairs.take(made, axis=0).T
    else:
        parents = pairs.reshape(-1).take(made ^ _THIS_AND_OTHER)  # (2, K): made, made ^ 1
    return Origins(first, kinds, crossed, parents)


def _made_children(births: NotedBirths) -> tuple[IntArray, FlagArray]:
    """Per made child: its first parent (its couple's head: couple ``c // 2``'s child ``c % 2``,
    or couple ``c``'s only child), and its kind (:data:`CROSSED` if its couple crossed, else
    :data:`COPY`)."""
    pairs, crossing = births.pairs, births.crossing
    made = _made_count(births)
    kinds = _copies(pairs.shape[:1] if births.children_per_couple == 1 else pairs.shape).copy()
    kinds[crossing] = CROSSED
    if births.children_per_couple == 1:
        return pairs[:made, 0], kinds[:made]
    return pairs.reshape(-1)[:made], kinds.reshape(-1)[:made]


def second_parents(origins: Origins, size: int) -> IntArray:
    """``(P,)`` each individual's second parent, ``-1`` for all but the crossed children."""
    if not origins.crossed.shape[0]:
        return _nobody(size)
    second = np.full(size, -1, dtype=np.int64)
    second[origins.crossed] = origins.crossed_parents[1]
    return second


def child_rows(births: NotedBirths | None, previous_size: int, size: int) -> IntArray:
    """``(P,)`` each individual's index among the generation's made children, ``-1`` for a
    survivor of the generation before and for a new one (read-only for generation 0)."""
    if births is None:
        return _nobody(size)
    kept = remaining(births)
    made = np.arange(_made_count(births)) if kept is None else kept
    child = np.concatenate((_nobody(previous_size), made)).take(births.survivors)
    if births.newcomers is not None:
        child[births.newcomers] = -1
    return child
