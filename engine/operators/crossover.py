"""Crossover: two ``(K, N)`` arrays of parents in, two ``(K, N)`` arrays of children out.

Couple ``k`` is ``(first[k], second[k])``; its two children are ``child_one[k]`` and
``child_two[k]``. Every random choice (cut points, coins) is shared by the two children of a
couple, as the published operators do. Inputs are never modified.

Operators on permutations keep every row a permutation; the others are for the ``integer``
and ``squares`` encodings. Whether an operator fits an encoding is checked by the config.

Each operator is two parts: its random choices (:class:`CrossoverDraws`, drawn first) and the
children those choices make of the parents. The parts are in :data:`CROSSOVER_PARTS`, so the
children of a couple can be made again from its parents and its draws (the lineage does).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import Final, NamedTuple, Protocol

import numpy as np

from engine.arrays import BoolArray, Genomes, IntArray
from engine.genomes.encodings import LARGE_BOARD, random_integers
from engine.operators.long_order_crossover import LONG_ROWS_FROM, long_order_crossover

COMPILED_CYCLE_FROM: Final = LARGE_BOARD
"""Large boards (:data:`~engine.genomes.encodings.LARGE_BOARD`) are cycle-crossed in compiled
code (engine.compiled.cycle_kernel)."""


class Crossover(Protocol):
    """The shape every crossover operator has."""

    def __call__(
        self, first: Genomes, second: Genomes, rng: np.random.Generator
    ) -> tuple[Genomes, Genomes]: ...


class CrossoverDraws(NamedTuple):
    """A crossover's random choices for ``K`` couples: with the parents, they make the children.

    What the segment ``[low, high)`` is depends on the operator: the segment of the first
    parent kept in place (``ox``, ``pmx``), the first parent's head ``[0, cut)``
    (``cut-crossfill``, ``single-point``), or the one gene taken from the second parent
    (``one-gene``). ``order-uniform`` draws coins instead, ``cycle`` nothing: their segments are
    ``-1``.

    Attributes:
        low: ``(K,)`` where each couple's segment starts.
        high: ``(K,)`` where it stops (exclusive).
        coins: ``(K, N)`` for ``order-uniform`` (the child's gene at step ``j`` comes from the
            first parent when ``coins[k, j]``), else ``(K, 0)``.
    """

    low: IntArray
    high: IntArray
    coins: BoolArray

    def take(self, rows: IntArray) -> CrossoverDraws:
        """The draws of some couples, in the order of ``rows``."""
        return CrossoverDraws(self.low.take(rows), self.high.take(rows), self.coins.take(rows, 0))


def _segment_draws(low: IntArray, high: IntArray) -> CrossoverDraws:
    return CrossoverDraws(low, high, np.zeros((low.shape[0], 0), dtype=bool))


def draw_segments(count: int, n: int, rng: np.random.Generator) -> CrossoverDraws:
    """Segments ``[low, high)`` with ``0 <= low < high <= n``: the ends are two independent
    draws in ``0..N-1``, in either order (``ox``, ``pmx``)."""
    first = random_integers(rng, 0, n, count)
    second = random_integers(rng, 0, n, count)
    return _segment_draws(np.minimum(first, second), np.maximum(first, second) + 1)


def draw_head(count: int, n: int, rng: np.random.Generator) -> CrossoverDraws:
    """Heads ``[0, cut)`` with the cut in ``0..N-1``, as queens_AI draws it (``cut-crossfill``)."""
    return _segment_draws(np.zeros(count, dtype=np.int64), random_integers(rng, 0, n, count))


def draw_single_point(count: int, n: int, rng: np.random.Generator) -> CrossoverDraws:
    """Heads ``[0, cut)`` with the cut in ``1..N-1`` (at 1, without a draw, when N = 1)."""
    cut = random_integers(rng, 1, n, count) if n > 1 else np.ones(count, dtype=np.int64)
    return _segment_draws(np.zeros(count, dtype=np.int64), cut)


def draw_one_gene(count: int, n: int, rng: np.random.Generator) -> CrossoverDraws:
    """One position ``[j, j + 1)`` per couple (``one-gene``)."""
    position = random_integers(rng, 0, n, count)
    return _segment_draws(position, position + 1)


def draw_coins(count: int, n: int, rng: np.random.Generator) -> CrossoverDraws:
    """A fair coin per gene of each couple (``order-uniform``); no segment."""
    coins = rng.random((count, n)) < 0.5
    none = np.full(count, -1, dtype=np.int64)
    return CrossoverDraws(none, none.copy(), coins)


def draw_nothing(count: int, n: int, rng: np.random.Generator) -> CrossoverDraws:
    """No choice at all (``cycle``): no segment, no coins, no draw."""
    none = np.full(count, -1, dtype=np.int64)
    return _segment_draws(none, none.copy())


def _rows(genomes: Genomes) -> Genomes:
    """A ``(K, 1)`` column of row numbers, for fancy indexing row by row."""
    return np.arange(genomes.shape[0], dtype=np.int64)[:, None]


def _inverse(permutations: Genomes) -> Genomes:
    """Per row, the position of each value: ``inverse[k, p[k, j]] == j``."""
    inverse = np.empty_like(permutations)
    positions = np.broadcast_to(np.arange(permutations.shape[1]), permutations.shape)
    np.put_along_axis(inverse, permutations, positions, axis=1)
    return inverse


def _inside(draws: CrossoverDraws, n: int) -> BoolArray:
    """The ``(K, N)`` mask of each couple's segment ``[low, high)``."""
    positions = np.arange(n)[None, :]
    inside: BoolArray = (positions >= draws.low[:, None]) & (positions < draws.high[:, None])
    return inside


def _append_missing(
    prefix: Genomes, prefix_length: Genomes, donor: Genomes, taken: BoolArray
) -> Genomes:
    """Fill each row after its prefix with the donor's genes that are not taken, in donor order.

    Args:
        prefix: ``(K, N)``; columns ``< prefix_length[k]`` of row ``k`` are kept.
        prefix_length: ``(K,)`` length of each row's kept prefix.
        donor: ``(K, N)`` permutations whose missing genes fill the rest, in their order.
        taken: ``(K, N)`` boolean, ``taken[k, v]`` when value ``v`` is already in row ``k``.

    Returns:
        A new ``(K, N)`` array: the prefix, then the donor's other genes.
    """
    rows = _rows(donor)
    keep = ~taken[rows, donor]
    slot = prefix_length[:, None] + np.cumsum(keep, axis=1) - 1
    child = prefix.copy()
    row_index = np.broadcast_to(rows, donor.shape)
    child[row_index[keep], slot[keep]] = donor[keep]
    return child


def _rotate(genomes: Genomes, shift: Genomes) -> Genomes:
    """Row ``k`` rotated left by ``shift[k]``: ``out[k, j] = genomes[k, (j + shift[k]) % N]``."""
    n = genomes.shape[1]
    index = (np.arange(n)[None, :] + shift[:, None]) % n
    return np.take_along_axis(genomes, index, axis=1)


def order_crossover(
    first: Genomes, second: Genomes, rng: np.random.Generator
) -> tuple[Genomes, Genomes]:
    """OX (Davis): keep a segment of one parent in place, fill the rest in the other's order.

    The filling starts after the segment and wraps around, reading the donor from the same
    point, as in Eiben & Smith's description.
    """
    return order_crossover_with(first, second, draw_segments(first.shape[0], first.shape[1], rng))


def order_crossover_with(
    first: Genomes, second: Genomes, draws: CrossoverDraws
) -> tuple[Genomes, Genomes]:
    """:func:`order_crossover` with its segments drawn."""
    count, n = first.shape
    if n >= LONG_ROWS_FROM:
        return long_order_crossover(first, second, draws.low, draws.high)
    low, high = draws.low[:, None], draws.high[:, None]
    # Both children in one pass over 2K rows (the first K keep ``first``'s segment), with flat
    # indices: half the numpy calls of two passes, each row computed exactly as alone. At
    # the default rate few couples cross, so the number of calls is the cost.
    positions = np.arange(n)
    outside = np.concatenate([(positions < low) | (positions >= high)] * 2)
    keeper = np.concatenate([first, second])
    donor = np.concatenate([second, first])
    offsets = np.arange(0, keeper.size, n, dtype=np.int64)[:, None]
    # Each row's positions from just after its segment, wrapping around, as flat indices:
    # where the donor is read, and (those outside the segment) where the child is filled.
    around = np.concatenate([_rotated_positions(high[:, 0], n)] * 2)
    around += offsets
    # free[k, v]: value v is not in row k's segment (each row of a permutation holds each
    # value once, so one scatter marks every value; zeros all the same, so that rows which
    # are not permutations give the same, if meaningless, children every time).
    free = np.zeros(keeper.size, dtype=bool)
    free[keeper + offsets] = outside
    read = donor.take(around)
    keep = free.take(read + offsets)
    # The k-th gene kept goes to the k-th place outside the segment in the order ``around``
    # visits them (from just after the segment, wrapping around). Every such place is
    # filled, so the keeper (a new array) becomes the child where it stands.
    # (np.compress: several times faster than boolean indexing with a random mask.)
    filled = around.compress(outside.take(around).ravel())
    keeper.reshape(-1)[filled] = read.compress(keep.ravel())
    return keeper[:count], keeper[count:]


def _rotated_positions(shift: Genomes, n: int) -> Genomes:
    """``(K, N)``: row ``k`` is ``0 .. N - 1`` rotated left by ``shift[k]`` (``0 <= shift <= N``).

    Small boards read their rows from a cached table (no modulo); the table has
    N + 1 rows of N, so large boards compute theirs.
    """
    if n <= _ROTATION_TABLE_N:
        return _rotations(n).take(shift, axis=0)
    return (np.arange(n)[None, :] + shift[:, None]) % n


_ROTATION_TABLE_N: Final = 256
"""Boards up to this size read OX's rotations from a table (at most 257 x 256 int64, 0.5 MB)."""


@lru_cache(maxsize=8)
def _rotations(n: int) -> Genomes:
    """``(N + 1, N)`` read-only: row ``h`` is ``0 .. N - 1`` rotated left by ``h`` (mod N)."""
    table = (np.arange(n + 1)[:, None] + np.arange(n)[None, :]) % n
    table.flags.writeable = False
    return table


def cut_and_crossfill(
    first: Genomes, second: Genomes, rng: np.random.Generator
) -> tuple[Genomes, Genomes]:
    """queens_AI's cut-and-crossfill: one parent's head, then the other's genes in order.

    A cut point in ``0..N-1`` (queens_AI draws ``floor(random * N)``) splits both parents. A
    child keeps the head of one parent and is completed with the genes of the other parent it
    does not yet hold, scanning that parent from the cut point onwards and wrapping around to
    its start. A cut at 0 gives a copy of the other parent.
    """
    return cut_and_crossfill_with(first, second, draw_head(first.shape[0], first.shape[1], rng))


def cut_and_crossfill_with(
    first: Genomes, second: Genomes, draws: CrossoverDraws
) -> tuple[Genomes, Genomes]:
    """:func:`cut_and_crossfill` with its cuts drawn (the heads ``[0, cut)``)."""
    n = first.shape[1]
    cut = draws.high
    head = np.arange(n)[None, :] < cut[:, None]

    def child(head_parent: Genomes, tail_parent: Genomes) -> Genomes:
        taken = np.zeros(head_parent.shape, dtype=bool)
        rows = np.broadcast_to(_rows(head_parent), head_parent.shape)
        taken[rows[head], head_parent[head]] = True
        prefix = np.where(head, head_parent, 0)
        return _append_missing(prefix, cut, _rotate(tail_parent, cut % n), taken)

    return child(first, second), child(second, first)


def partially_mapped_crossover(
    first: Genomes, second: Genomes, rng: np.random.Generator
) -> tuple[Genomes, Genomes]:
    """PMX (Goldberg & Lingle): swap a segment, repair the clashes through the segment's mapping.

    Outside the segment a child keeps its own parent's gene unless that gene is already in the
    copied segment; then it follows the mapping (segment gene -> gene at the same position of
    the other parent) until it reaches a gene not in the segment.
    """
    return partially_mapped_crossover_with(
        first, second, draw_segments(first.shape[0], first.shape[1], rng)
    )


def partially_mapped_crossover_with(
    first: Genomes, second: Genomes, draws: CrossoverDraws
) -> tuple[Genomes, Genomes]:
    """:func:`partially_mapped_crossover` with its segments drawn."""
    inside = _inside(draws, first.shape[1])
    rows = _rows(first)

    def child(segment_parent: Genomes, other: Genomes) -> Genomes:
        position_in_segment_parent = _inverse(segment_parent)
        genes = other.copy()
        while True:
            where = position_in_segment_parent[rows, genes]
            clash = ~inside & inside[rows, where]
            if not clash.any():
                break
            genes = np.where(clash, other[rows, where], genes)
        return np.where(inside, segment_parent, genes)

    return child(first, second), child(second, first)


def cycle_crossover(
    first: Genomes, second: Genomes, rng: np.random.Generator
) -> tuple[Genomes, Genomes]:
    """CX (Oliver et al.): positions split into cycles; children take alternate cycles from each.

    The cycle through position ``j`` goes ``j -> position of second[j] in first -> ...``. The
    cycles are numbered by their smallest position, found for all positions at once by pointer
    doubling. The first child takes cycles 0, 2, 4... from ``first`` and the rest from
    ``second``. (Deterministic: ``rng`` is unused and kept for the common signature.)
    """
    return cycle_crossover_with(first, second, draw_nothing(first.shape[0], first.shape[1], rng))


def cycle_crossover_with(
    first: Genomes, second: Genomes, draws: CrossoverDraws
) -> tuple[Genomes, Genomes]:
    """:func:`cycle_crossover` (which draws nothing: ``draws`` is unused).

    Boards of :data:`COMPILED_CYCLE_FROM` queens or more are crossed by a
    compiled walk along the cycles: the same children without the pointer doubling's passes
    and temporaries.
    """
    count, n = first.shape
    if n >= COMPILED_CYCLE_FROM:
        from engine.compiled.cycle_kernel import compiled_cycle_crossover

        return compiled_cycle_crossover(first, second)
    rows = _rows(first)
    successor = _inverse(first)[rows, second]
    smallest = np.broadcast_to(np.arange(n), (count, n)).copy()
    pointer = successor
    for _ in range(max(1, int(np.ceil(np.log2(max(n, 2))))) + 1):
        smallest = np.minimum(smallest, smallest[rows, pointer])
        pointer = pointer[rows, pointer]
    starts = smallest == np.arange(n)[None, :]
    number = (np.cumsum(starts, axis=1) - 1)[rows, smallest]
    from_first = number % 2 == 0
    return np.where(from_first, first, second), np.where(from_first, second, first)


def order_keeping_uniform_crossover(
    first: Genomes, second: Genomes, rng: np.random.Generator
) -> tuple[Genomes, Genomes]:
    """CodeProject 2011: fill the child gene by gene, each from a parent chosen by a fair coin.

    The gene taken from a parent is that parent's first gene not yet in the child. The second
    child uses the opposite coins. The loop runs over gene positions, each step vectorized over
    all couples.
    """
    return order_keeping_uniform_crossover_with(
        first, second, draw_coins(first.shape[0], first.shape[1], rng)
    )


def order_keeping_uniform_crossover_with(
    first: Genomes, second: Genomes, draws: CrossoverDraws
) -> tuple[Genomes, Genomes]:
    """:func:`order_keeping_uniform_crossover` with its coins drawn."""
    coins = draws.coins
    return _order_keeping(first, second, coins), _order_keeping(first, second, ~coins)


def _order_keeping(first: Genomes, second: Genomes, from_first: BoolArray) -> Genomes:
    """One child of the order-keeping uniform crossover, given the coin of every step."""
    count, n = first.shape
    rows = np.arange(count)
    child = np.empty_like(first)
    used = np.zeros(first.shape, dtype=bool)
    pointers = [np.zeros(count, dtype=np.int64), np.zeros(count, dtype=np.int64)]
    for step in range(n):
        for parent, pointer in zip((first, second), pointers, strict=True):
            # Skip genes the child already holds; each pointer only ever moves forward.
            while True:
                stale = used[rows, parent[rows, np.minimum(pointer, n - 1)]] & (pointer < n - 1)
                if not stale.any():
                    break
                pointer += stale
        gene = np.where(
            from_first[:, step],
            first[rows, pointers[0]],
            second[rows, pointers[1]],
        )
        child[:, step] = gene
        used[rows, gene] = True
    return child


def single_point_crossover(
    first: Genomes, second: Genomes, rng: np.random.Generator
) -> tuple[Genomes, Genomes]:
    """Towards AI's single point: cut in ``1..N-1``, swap the tails."""
    return single_point_crossover_with(
        first, second, draw_single_point(first.shape[0], first.shape[1], rng)
    )


def single_point_crossover_with(
    first: Genomes, second: Genomes, draws: CrossoverDraws
) -> tuple[Genomes, Genomes]:
    """:func:`single_point_crossover` with its cuts drawn (the heads ``[0, cut)``)."""
    head = np.arange(first.shape[1])[None, :] < draws.high[:, None]
    return np.where(head, first, second), np.where(head, second, first)


def one_gene_crossover(
    first: Genomes, second: Genomes, rng: np.random.Generator
) -> tuple[Genomes, Genomes]:
    """Sheppard: a copy of one parent with a single gene, at a random position, from the other."""
    return one_gene_crossover_with(
        first, second, draw_one_gene(first.shape[0], first.shape[1], rng)
    )


def one_gene_crossover_with(
    first: Genomes, second: Genomes, draws: CrossoverDraws
) -> tuple[Genomes, Genomes]:
    """:func:`one_gene_crossover` with its positions drawn (``low``)."""
    position = np.arange(first.shape[1])[None, :] == draws.low[:, None]
    return np.where(position, second, first), np.where(position, first, second)


PERMUTATION_CROSSOVERS: dict[str, Crossover] = {
    "order-uniform": order_keeping_uniform_crossover,
    "pmx": partially_mapped_crossover,
    "ox": order_crossover,
    "cycle": cycle_crossover,
    "cut-crossfill": cut_and_crossfill,
}
"""Crossovers that keep permutations: only for the ``permutation`` encoding."""

FREE_CROSSOVERS: dict[str, Crossover] = {
    "single-point": single_point_crossover,
    "one-gene": one_gene_crossover,
}
"""Crossovers that may repeat genes: for the ``integer`` and ``squares`` encodings."""

CROSSOVERS: dict[str, Crossover] = {**PERMUTATION_CROSSOVERS, **FREE_CROSSOVERS}
"""Every crossover by its config name."""


class CrossoverParts(NamedTuple):
    """A crossover as its two parts: what it draws, and the children the draws make.

    ``make(first, second, draw(K, N, rng))`` is the operator itself, draw for draw. Its second
    child is always its first child of the couple taken the other way round, with the same
    draws: ``make(first, second, d)[1] == make(second, first, d)[0]``.
    """

    draw: Callable[[int, int, np.random.Generator], CrossoverDraws]
    make: Callable[[Genomes, Genomes, CrossoverDraws], tuple[Genomes, Genomes]]


CROSSOVER_PARTS: Final[dict[str, CrossoverParts]] = {
    "order-uniform": CrossoverParts(draw_coins, order_keeping_uniform_crossover_with),
    "pmx": CrossoverParts(draw_segments, partially_mapped_crossover_with),
    "ox": CrossoverParts(draw_segments, order_crossover_with),
    "cycle": CrossoverParts(draw_nothing, cycle_crossover_with),
    "cut-crossfill": CrossoverParts(draw_head, cut_and_crossfill_with),
    "single-point": CrossoverParts(draw_single_point, single_point_crossover_with),
    "one-gene": CrossoverParts(draw_one_gene, one_gene_crossover_with),
}
"""Every crossover by its config name, as its draws and the children they make."""
