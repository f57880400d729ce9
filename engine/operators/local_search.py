"""Memetic mode: min-conflicts local search on the children, the improved genome kept.

A Lamarckian local search for the permutation encoding (Sosic and Gu, 1994): repeatedly take
a queen under attack and swap it with the partner, among ``candidates`` random columns, that
lowers the conflicts most; stop when the child is solved, when its budget of ``moves`` swaps
is spent, or when :data:`STALL_PASSES` passes in a row over its attacked queens made no swap.

Each swap's change in conflicts is exact and O(1), from the per-diagonal counts (the formula
of :func:`engine.genomes.conflicts.swap_change`), and a swap updates the counts and the queens'
cells in place, so the counts handed back equal a recount. The moves are sequential, each seeing
the board the last one left, so the search is a compiled loop
(:func:`engine.compiled.memetic_kernels.min_conflicts`), one child at a time: a child of a million
queens a few conflicts from a solution is solved in milliseconds, after one scan of its
queens for the attacked ones. Its random numbers come from a key that the run's generator
draws for each child: same ``rng`` state, same result, on every machine.
"""

from __future__ import annotations

from typing import Final, NamedTuple, Protocol

import numpy as np

from engine.arrays import Genomes, IntArray
from engine.genomes.conflicts import BoardLines, board_lines, with_known_conflicts
from engine.genomes.encodings import PERMUTATION
from engine.operators.greedy_start import MOST_QUEENS, random_keys

STALL_PASSES: Final = 16
"""A child stops after this many passes in a row over its attacked queens without a swap."""

BYTES_PER_CHILD_GENE: Final = 5
"""Memory the local search adds per gene of the children: the queue of a child's attacked
queens (4 bytes each, every queen at worst) and the bit set of the queued ones. The children
are searched one at a time, so this over-counts; the algorithm improves them in place (a
caller that wants a copy pays 8 bytes a gene more)."""


CONFLICT_SHAPES: Final = frozenset({"pairs", "collisions", "linear", "parabolic", "exponential"})
"""Fitness shapes computed from the conflicts alone: with one of them, a child's line counts
need not outlive the child (see :func:`compiled_children_apply`)."""

SEARCHED_COPIES_PER_GENE: Final = 3
"""Copies of each gene of ``max(P, children)`` a run whose children are searched one at a
time (:func:`compiled_children_apply`) holds at its peak: the population before (which the
lineage holds), the children, over which the survivors are written
(:mod:`engine.large_n.survivor_rows`),
and the solutions found, in the archive (measured at P = 4, N = 10^7: 2 copies, the archive
keeping solved rows where the population has them; 3 where it must copy them, solved rows
not evenly spaced in the population)."""

BYTES_PER_SEARCHED_COLUMN: Final = 32
"""Memory such a run touches per column besides: the one pair of int16 line counts its
children and boards share (:mod:`engine.large_n.memetic_children`, 8 bytes), the weights of the
64-bit hashes (8, held for the run up to 2^20 genes), and the blocks the statistics and the solution
archive work in (measured: a run's peak at N = 10^6 was 73 MB above the kernels, 25 MB over
3 copies of its genes)."""


class LocalSearchSettings(NamedTuple):
    """How hard the local search works on each child.

    Attributes:
        moves: The budget: at most this many swaps per child (0: no local search).
        candidates: Partners tried for each attacked queen in a round; the best is kept.
    """

    moves: int
    candidates: int


class Improved(NamedTuple):
    """What the local search returns.

    Attributes:
        genomes: The improved children, ``(K, N)`` permutations.
        lines: Their line counts, kept up to date swap by swap (equal to a recount).
        conflicts: ``(K,)`` attacking pairs of each improved child, tracked from the swaps.
        moves: ``(K,)`` swaps made on each child.
    """

    genomes: Genomes
    lines: BoardLines
    conflicts: IntArray
    moves: IntArray


def local_search(
    genomes: Genomes,
    rng: np.random.Generator,
    settings: LocalSearchSettings,
    lines: BoardLines | None = None,
    *,
    in_place: bool = False,
) -> Improved:
    """Improve each child by min-conflicts swaps (see the module's docstring).

    Args:
        genomes: ``(K, N)`` permutations; modified only with ``in_place``.
        rng: The run's generator: one key is drawn per child (none when there is nothing to
            search: no children, N < 2 or no budget), whatever the child's conflicts.
        settings: The budget of swaps and the candidates per attacked queen.
        lines: The children's line counts, if the caller has them (the conflict mutation
            does). Their arrays are updated in place, so pass counts nobody else reads.
        in_place: Improve ``genomes`` themselves instead of a copy.

    Returns:
        The improved children, their counts, conflicts and the swaps made.

    Raises:
        ValueError: If N is over :data:`engine.operators.greedy_start.MOST_QUEENS`.
    """
    count, n = genomes.shape
    if n > MOST_QUEENS:
        raise ValueError(
            f"the local search takes boards of up to {MOST_QUEENS:,} queens, not {n:,}"
        )
    if lines is None:
        lines = board_lines(genomes, n, PERMUTATION)
    result = genomes if in_place else genomes.copy()
    conflicts = lines.conflicts.copy()
    made = np.zeros(count, dtype=np.int64)
    if count == 0 or n < 2 or settings.moves == 0:
        return Improved(result, lines, conflicts, made)
    keys = random_keys(rng, count)
    # Loaded here: a run without a local search never imports numba.
    from engine.compiled.memetic_kernels import min_conflicts

    down, up = lines.occupancy
    down_cells, up_cells = lines.cells
    diagonals = lines.sizes[0]
    for child in range(count):
        if conflicts[child] == 0:
            continue
        cells = slice(child * diagonals, (child + 1) * diagonals)
        conflicts[child], made[child] = min_conflicts(
            result[child],
            down[cells],
            up[cells],
            down_cells[child],
            up_cells[child],
            child * diagonals,
            int(conflicts[child]),
            settings.moves,
            settings.candidates,
            STALL_PASSES,
            keys[child],
        )
    return Improved(result, with_known_conflicts(lines, conflicts.copy()), conflicts, made)


def improve_children(
    children: Genomes,
    rng: np.random.Generator,
    settings: LocalSearchSettings,
    lines: BoardLines | None = None,
) -> tuple[Genomes, BoardLines]:
    """The algorithm's hook: :func:`local_search`, returning the children and their counts.

    The children are the generation's own array (made by the crossover, mutated where they
    are), so they are improved in place: no copy of a population's worth of genes.
    """
    improved = local_search(children, rng, settings, lines, in_place=True)
    return improved.genomes, improved.lines


class SearchedRun(Protocol):
    """What :func:`compiled_children_apply` reads of a run's config (the operators never look
    up to the config itself)."""

    @property
    def local_search(self) -> int: ...
    @property
    def mutation(self) -> str: ...
    @property
    def fallback(self) -> bool: ...
    @property
    def unique(self) -> bool: ...
    @property
    def encoding(self) -> str: ...
    @property
    def fitness(self) -> str: ...
    @property
    def n(self) -> int: ...


def compiled_children_apply(config: SearchedRun) -> bool:
    """Whether a run's children are mutated and searched one at a time in compiled code
    (:mod:`engine.large_n.memetic_children`): a local search after the conflict mutation in every
    generation, on permutations, scored from the conflicts alone, and no ``unique`` filter
    between the search and the scoring."""
    return (
        config.local_search > 0
        and config.mutation == "conflict"
        and not config.fallback
        and not config.unique
        and config.encoding == "permutation"
        and config.fitness in CONFLICT_SHAPES
        and config.n >= 2
    )
