"""Memetic mode: min-conflicts local search on the children, the improved genome kept.

A Lamarckian local search for the permutation encoding: repeatedly take a queen under attack
and swap it with the partner, among ``candidates`` random columns, that lowers the conflicts
most; stop when the child is solved, when its budget of ``moves`` swaps is spent, or when
:data:`STALL_ROUNDS` rounds in a row found no improving swap for it.

Sequential moves are the hard part in numpy, so the search runs in rounds. In a round every
attacked queen of every child draws its candidate partners at once, and each swap's change in
conflicts is computed exactly, in O(1), from the per-diagonal counts (no recount; see
:func:`engine.conflicts.swap_change`). The
improving swaps are then ranked, most improving first, and a swap is made only when no
higher-ranked swap touches one of its columns or one of the 8 diagonals it leaves or joins:
swaps that share nothing do not change each other's counts, so making them together is
exactly making them one after the other, and the counts are updated by the swaps alone.
A round costs a few dozen numpy calls over the attacked queens, not over the board.

Which queens are attacked is tracked as a queue (the attacked queens at the start, plus the
two queens of every swap made), filtered every round with the counts; a child whose queue
runs dry while it still has conflicts (a swap can make a queen it never touched attacked) is
scanned again. Same ``rng`` state, same result.
"""

from __future__ import annotations

from typing import Final, NamedTuple

import numpy as np
import numpy.typing as npt

from engine.conflicts import BoardLines, board_lines, swap_change, with_known_conflicts
from engine.encodings import PERMUTATION, Genomes, random_integers
from engine.greedy_start import first_claims, unclaimed

IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]

STALL_ROUNDS: Final = 16
"""A child stops after this many rounds in a row in which none of its swaps would improve it."""

ROUND_ELEMENTS: Final = 2**20
"""At most this many candidate swaps are scored in one round (attacked queens x candidates)."""

BYTES_PER_CHILD_GENE: Final = 64
"""Memory the local search adds per gene of the children: the improved copy, and the scratch
arrays that say which swap claimed each column and diagonal (int64)."""

ROUND_BYTES: Final = 12 * 8 * ROUND_ELEMENTS
"""Memory of one round's temporaries at most: about 12 int64 arrays of ROUND_ELEMENTS."""


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
        genomes: The improved children, a new ``(K, N)`` array of permutations.
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
) -> Improved:
    """Improve each child by min-conflicts swaps (see the module's docstring).

    Args:
        genomes: ``(K, N)`` permutations; not modified.
        rng: The run's generator.
        settings: The budget of swaps and the candidates per attacked queen.
        lines: The children's line counts, if the caller has them (the conflict mutation
            does). Their arrays are updated in place, so pass counts nobody else reads.

    Returns:
        The improved children, their counts, conflicts and the swaps made.
    """
    count, n = genomes.shape
    if lines is None:
        lines = board_lines(genomes, n, PERMUTATION)
    result = genomes.copy()
    conflicts = lines.conflicts.copy()
    made = np.zeros(count, dtype=np.int64)
    if count == 0 or n < 2 or settings.moves == 0:
        return Improved(result, lines, conflicts, made)
    search = _Search(result, lines, settings)
    queue = np.flatnonzero(lines.attacked())
    stalled = np.zeros(count, dtype=np.int64)
    while True:
        active = (conflicts > 0) & (made < settings.moves) & (stalled < STALL_ROUNDS)
        if not active.any():
            break
        queue = search.attacked(queue, active)
        # A round looks at most ROUND_ELEMENTS candidate swaps, spread evenly over the queue
        # (so over the children): memory stays bounded when most queens are attacked.
        stride = -(-queue.size * settings.candidates // ROUND_ELEMENTS)
        batch = queue[::stride] if stride > 1 else queue
        gain, partner = search.best_swaps(batch, rng)
        improving = gain < 0
        found = np.zeros(count, dtype=bool)
        found[batch[improving] // n] = True
        looked = np.zeros(count, dtype=bool)
        looked[batch // n] = True
        stalled = np.where(found, 0, stalled + (active & looked))
        movers = np.flatnonzero(improving)
        # Most improving first; ties in board order.
        movers = movers[np.lexsort((movers, gain[movers]))]
        chosen = search.disjoint(batch[movers], partner[movers], settings.moves - made)
        queens, partners = batch[movers[chosen]], partner[movers[chosen]]
        search.swap(queens, partners)
        np.add.at(conflicts, queens // n, gain[movers[chosen]])
        np.add.at(made, queens // n, 1)
        queue = np.unique(np.concatenate([queue, queens, (queens // n) * n + partners]))
    cells = (search.down_cells.reshape(count, n), search.up_cells.reshape(count, n))
    counted = BoardLines(cells=cells, occupancy=(search.down, search.up), sizes=lines.sizes)
    return Improved(result, with_known_conflicts(counted, conflicts.copy()), conflicts, made)


def improve_children(
    children: Genomes,
    rng: np.random.Generator,
    settings: LocalSearchSettings,
    lines: BoardLines | None = None,
) -> tuple[Genomes, BoardLines]:
    """The algorithm's hook: :func:`local_search`, returning the children and their counts."""
    improved = local_search(children, rng, settings, lines)
    return improved.genomes, improved.lines


class _Search:
    """The children, their diagonal counts and the scratch arrays of one local search."""

    def __init__(self, genomes: Genomes, lines: BoardLines, settings: LocalSearchSettings):
        self.count, self.n = genomes.shape
        self.flat = genomes.ravel()
        self.diagonals = 2 * self.n - 1
        self.lines = lines
        self.down, self.up = lines.occupancy
        # Copies only when a caller's cells are not contiguous: the result is built from these.
        self.down_cells, self.up_cells = (cells.ravel() for cells in lines.cells)
        self.candidates = settings.candidates
        self.column_owner = unclaimed(self.count * self.n)
        self.down_owner = unclaimed(self.count * self.diagonals)
        self.up_owner = unclaimed(self.count * self.diagonals)

    def _cells(
        self, individual: IntArray, row: IntArray, column: IntArray
    ) -> tuple[IntArray, IntArray]:
        base = individual * self.diagonals
        return base + row - column + (self.n - 1), base + row + column

    def attacked(self, queue: IntArray, active: BoolArray) -> IntArray:
        """The queued queens of active children that are still attacked, plus every attacked
        queen of an active child with conflicts but nothing queued (scanned again)."""
        n = self.n
        individual = queue // n
        down, up = self._cells(individual, self.flat[queue], queue % n)
        keep = active[individual] & ((self.down[down] > 1) | (self.up[up] > 1))
        queue = queue[keep]
        queued = np.zeros(self.count, dtype=bool)
        queued[queue // n] = True
        lost = np.flatnonzero(active & ~queued)
        if lost.size == 0:
            return queue
        rows = self.flat.reshape(self.count, n)[lost]
        down, up = self._cells(lost[:, None], rows, np.arange(n)[None, :])
        where, column = np.nonzero((self.down[down] > 1) | (self.up[up] > 1))
        return np.unique(np.concatenate([queue, lost[where] * n + column]))

    def best_swaps(self, queue: IntArray, rng: np.random.Generator) -> tuple[IntArray, IntArray]:
        """For each queued queen, its best of ``candidates`` random partners.

        Returns:
            The change in conflicts of each queen's best swap, and the partner's column.
        """
        n = self.n
        individual, column = queue // n, queue % n
        partner = random_integers(rng, 0, n - 1, (queue.size, self.candidates))
        partner += partner >= column[:, None]
        row = self.flat[queue][:, None]
        partner_row = self.flat[(individual * n)[:, None] + partner]
        change = swap_change(
            self.lines, individual[:, None], column[:, None], row, partner, partner_row
        )
        best = np.argmin(change, axis=1)
        picked = np.arange(queue.size)
        return change[picked, best], partner[picked, best]

    def disjoint(self, queens: IntArray, partners: IntArray, budget: IntArray) -> IntArray:
        """Which swaps, in rank order, touch no column or diagonal of a higher-ranked swap and
        fit their child's remaining budget."""
        n = self.n
        individual, i = queens // n, queens % n
        a = self.flat[queens]
        b = self.flat[individual * n + partners]
        firsts = (self._cells(individual, a, i), self._cells(individual, b, partners))
        seconds = (self._cells(individual, b, i), self._cells(individual, a, partners))
        down = np.stack([firsts[0][0], firsts[1][0], seconds[0][0], seconds[1][0]], axis=1)
        up = np.stack([firsts[0][1], firsts[1][1], seconds[0][1], seconds[1][1]], axis=1)
        columns = np.stack([queens, individual * n + partners], axis=1)
        won = first_claims(
            (columns, self.column_owner), (down, self.down_owner), (up, self.up_owner)
        )
        # Within each child, the winners in rank order, up to its remaining budget.
        child = individual[won]
        by_child = np.argsort(child, kind="stable")
        ordered = child[by_child]
        rank = np.empty(won.size, dtype=np.int64)
        rank[by_child] = np.arange(won.size) - np.searchsorted(ordered, ordered, side="left")
        return np.asarray(won[rank < budget[child]], dtype=np.int64)

    def swap(self, queens: IntArray, partners: IntArray) -> None:
        """Make the swaps (which share no line) and update the counts and cells in place."""
        n = self.n
        individual, i = queens // n, queens % n
        other = individual * n + partners
        a, b = self.flat[queens], self.flat[other]
        one = self.down.dtype.type(1)  # the counts' own dtype: numpy's fast path for ufunc.at
        for queen, column, old, new in ((queens, i, a, b), (other, partners, b, a)):
            old_down, old_up = self._cells(individual, old, column)
            new_down, new_up = self._cells(individual, new, column)
            np.subtract.at(self.down, old_down, one)
            np.subtract.at(self.up, old_up, one)
            np.add.at(self.down, new_down, one)
            np.add.at(self.up, new_up, one)
            self.down_cells[queen], self.up_cells[queen] = new_down, new_up
        self.flat[queens], self.flat[other] = b, a
