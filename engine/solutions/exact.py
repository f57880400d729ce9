"""Every solution of N-Queens, counted or listed exactly, by vectorized backtracking.

The search (:mod:`engine.solutions.backtracking`) places queens row by row on bit masks, for a whole
frontier of partial boards at once, depth first in pieces so that memory stays bounded. As the
published counts are made, only half the boards are searched: those whose first queen is in
the left half of its row, or, when N is odd, in the middle column with the second queen in
the left half. Every other solution is the mirror image of one of those, so the count is
doubled, and a listing adds the mirror images.

A solution is written as the column of the queen in each row. Its fundamental class is the set
of its images under the 8 rotations and reflections of the board, and its canonical
representative is the lexicographically smallest of them. Counting finds the number of classes
without the solutions (:mod:`engine.solutions.symmetry`); listing marks each representative.

Both come as steps (:func:`count_steps`, :func:`listing_steps`), one per batch of first-row
placements searched, so a caller can show progress, and keep what was found when stopped. A
count's batches are also parts that can be counted anywhere and added up
(:func:`count_parts`, :func:`count_part`): in other processes, on other machines.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Final, TypeVar

import numpy as np
import numpy.typing as npt

from engine.errors import ConfigError
from engine.solutions.backtracking import (
    MASK_LIMIT,
    PLACEMENT_LIMIT,
    Columns,
    Placements,
    columns_of,
    completions,
    count_completions,
    depth_first,
    frontier_of,
    piece_size,
    placements_of,
)
from engine.solutions.search_prefixes import (
    check_prefixes,
    half_prefix_batches,
    small_board_solutions,
)
from engine.solutions.symmetry import fundamental_count

COUNTING_LIMIT: Final = MASK_LIMIT
"""The largest N counted (its masks hold 32 columns; N = 27 is the largest ever counted)."""

LISTING_LIMIT: Final = PLACEMENT_LIMIT
"""The largest N listed: N = 16 holds 14,772,512 solutions (236 MB); N = 17 would hold 1.6 GB."""

ArrayT = TypeVar("ArrayT", bound=npt.NDArray[np.generic])

Progress = Callable[[int, int], None]
"""Called before the first batch and after each with the prefixes searched and their number."""

_CANONICAL_ROWS: Final = 1 << 16
"""Solutions whose images are made at once (a block of N = 16 takes about 8 MB)."""


@dataclass(frozen=True)
class CountProgress:
    """A count so far.

    Attributes:
        n: The board size.
        searched: Prefixes (placements of the first rows) searched.
        prefixes: Prefixes in all: half the boards' (:func:`count_steps`).
        solutions: Solutions that begin with the prefixes searched, with their mirror
            images: every solution once ``searched == prefixes``.
    """

    n: int
    searched: int
    prefixes: int
    solutions: int

    @property
    def complete(self) -> bool:
        """Whether every prefix was searched, so ``solutions`` is the total."""
        return self.searched == self.prefixes


@dataclass(frozen=True)
class SolutionCount:
    """How many solutions N has (OEIS A000170), and how many fundamental ones (A002562)."""

    n: int
    total: int
    fundamental: int


@dataclass(frozen=True)
class ListingBatch:
    """The solutions that begin with one batch of prefixes, their mirror images left out.

    Attributes:
        n: The board size.
        searched: Prefixes (placements of the first rows) searched, this batch's included.
        prefixes: Prefixes in all.
        boards: ``(K, n)`` solutions, lexicographically sorted, read-only.
        canonical: ``(K,)`` whether each is the representative of its fundamental class.
    """

    n: int
    searched: int
    prefixes: int
    boards: Columns
    canonical: npt.NDArray[np.bool_]


@dataclass(frozen=True)
class SolutionList:
    """Solutions of N in lexicographic order, their class representatives marked.

    Only the half that was searched is held; the other half, its mirror images, is made as
    it is read (:meth:`blocks`), so printing N = 16 holds 118 MB of boards, not 236.

    Attributes:
        n: The board size.
        searched: ``(H, n)`` read-only, in lexicographic order: the solutions whose first
            queen is left of the middle (or on it, with the second queen left of it); for
            N < 4, every solution. Row ``i`` is the column of the queen in each row.
        searched_canonical: ``(H,)`` read-only: which of them represent their class (the
            lexicographically smallest of its 8 images; never a mirror image, each being
            greater than the solution it mirrors).
        complete: False when the search was stopped early: then it holds what was found.
    """

    n: int
    searched: Columns
    searched_canonical: npt.NDArray[np.bool_]
    complete: bool

    @property
    def _mirrored(self) -> bool:
        """Whether the mirror images are solutions of their own (N = 1's is itself)."""
        return self.n >= 4

    @property
    def total(self) -> int:
        """Solutions listed."""
        return int(self.searched.shape[0]) * (2 if self._mirrored else 1)

    @property
    def fundamental(self) -> int:
        """Fundamental classes among them (one representative each)."""
        return int(np.count_nonzero(self.searched_canonical))

    def blocks(self, rows: int) -> Iterator[tuple[Columns, npt.NDArray[np.bool_]]]:
        """Every solution in lexicographic order, ``rows`` at a time, with its mark.

        The mirror images come after the searched half, in reverse order: mirroring left to
        right reverses the order of boards.
        """
        half = self.searched.shape[0]
        for start in range(0, half, rows):
            yield self.searched[start : start + rows], self.searched_canonical[start : start + rows]
        if not self._mirrored:
            return
        for stop in range(half, 0, -rows):
            block = (self.n - 1 - self.searched[max(0, stop - rows) : stop])[::-1]
            yield block, np.zeros(block.shape[0], dtype=bool)

    @property
    def boards(self) -> Columns:
        """``(S, n)``: every solution at once, in lexicographic order (made on each call)."""
        if not self._mirrored:
            return self.searched
        return np.concatenate((self.searched, (self.n - 1 - self.searched)[::-1]))

    @property
    def canonical(self) -> npt.NDArray[np.bool_]:
        """``(S,)``: which of :attr:`boards` represent their class."""
        if not self._mirrored:
            return self.searched_canonical
        mirrored = np.zeros(self.searched.shape[0], dtype=bool)
        return np.concatenate((self.searched_canonical, mirrored))


def check_board_size(n: int, *, listing: bool) -> None:
    """Refuse a board the search cannot do.

    Raises:
        ConfigError: ``n`` below 1, above :data:`COUNTING_LIMIT`, or, to list, above
            :data:`LISTING_LIMIT`.
    """
    if n < 1:
        raise ConfigError("n", n, "a board has at least 1 row (N >= 1)")
    if n > COUNTING_LIMIT:
        raise ConfigError(
            "n",
            n,
            f"the exact search handles N <= {COUNTING_LIMIT} (and N = 27 is the largest ever "
            "counted: each N takes about 8 times the last)",
        )
    if listing and n > LISTING_LIMIT:
        raise ConfigError(
            "n",
            n,
            f"listing stops at N = {LISTING_LIMIT} (14,772,512 solutions; N = 17 has "
            "95,815,104, 1.6 GB): count them instead",
        )


def count_steps(n: int) -> Iterator[CountProgress]:
    """Count the solutions of ``n``, a batch of prefixes at a time.

    The prefixes place the first rows of half the boards: those whose first queen is left of
    the middle and, when N is odd, those whose first queen is in the middle and second left
    of it. Every other board is the mirror image of one of them, so the count is doubled.

    Yields:
        The count before the first batch (nothing searched: it says how many prefixes there
        are), then after each batch; the last one is complete. Only masks are kept, never
        the solutions.

    Raises:
        ConfigError: If the board size cannot be counted (:func:`check_board_size`).
    """
    parts = count_parts(n)
    prefixes = sum(part.shape[0] for part in parts)
    searched = solutions = 0
    yield CountProgress(n, 0, prefixes, 0)
    for part in parts:
        solutions += count_part(n, part)
        searched += part.shape[0]
        yield CountProgress(n, searched, prefixes, solutions)


def count_parts(n: int) -> list[Columns]:
    """The prefixes :func:`count_steps` searches, in the batches it searches them.

    Each batch is a part of the count that can run anywhere (:func:`count_part`): the parts'
    counts add up to every solution. N below 4 has one part, one empty prefix.

    Raises:
        ConfigError: If the board size cannot be counted (:func:`check_board_size`).
    """
    check_board_size(n, listing=False)
    if n < 4:
        return [np.zeros((1, 0), dtype=np.uint8)]
    return half_prefix_batches(n)


def count_part(n: int, prefixes: Columns) -> int:
    """The solutions that begin with ``prefixes`` (a part of :func:`count_parts`), with their
    mirror images, which begin elsewhere: as :func:`count_steps` counts a batch.

    Args:
        n: The board size.
        prefixes: ``(K, rows)`` columns of the queens on the first rows of the half searched
            (for N below 4: the one empty prefix, ``(1, 0)``).

    Raises:
        ConfigError: If the board size cannot be counted.
        ValueError: If ``prefixes`` are not prefixes of the half searched
            (:func:`~engine.solutions.search_prefixes.check_prefixes`): their count would be wrong.
    """
    check_board_size(n, listing=False)
    if n < 4:
        if prefixes.shape != (1, 0):
            raise ValueError(f"N = {n} has one part, the empty prefix; got shape {prefixes.shape}")
        return len(small_board_solutions(n))
    check_prefixes(prefixes, n)
    start = frontier_of(prefixes, n, keep_placements=False)
    pieces = depth_first(start, n, piece_size(n, keep_placements=False))
    return 2 * sum(map(count_completions, pieces))


def count_solutions(n: int, progress: Progress | None = None) -> SolutionCount:
    """All solutions of ``n`` and the fundamental ones, counted without being held.

    Args:
        n: The board size, 1 to :data:`COUNTING_LIMIT`. Each N takes about 6 to 8 times the
            one before: N = 16 takes seconds, N = 18 minutes.
        progress: Called with (prefixes searched, prefixes) before and after each batch.

    Raises:
        ConfigError: If the board size cannot be counted.
    """
    last = None
    for last in count_steps(n):
        if progress is not None:
            progress(last.searched, last.prefixes)
    assert last is not None and last.complete
    return SolutionCount(n, last.solutions, fundamental_count(n, last.solutions))


def listing_steps(n: int) -> Iterator[ListingBatch]:
    """Find the solutions of ``n``, a batch of prefixes at a time (as :func:`count_steps`).

    Yields:
        An empty batch first (nothing searched: it says how many prefixes there are), then
        each batch's solutions, without their mirror images (:func:`solution_list` adds
        them), in lexicographic order from batch to batch.

    Raises:
        ConfigError: If the board size cannot be listed (:func:`check_board_size`).
    """
    check_board_size(n, listing=True)
    nothing = np.zeros((0, n), dtype=np.uint8)
    if n < 4:
        yield ListingBatch(n, 0, 1, _read_only(nothing), _read_only(canonical_flags(nothing)))
        boards = small_board_solutions(n)
        yield ListingBatch(n, 1, 1, _read_only(boards), _read_only(canonical_flags(boards)))
        return
    batches = half_prefix_batches(n)
    prefixes = sum(batch.shape[0] for batch in batches)
    piece = piece_size(n, keep_placements=True)
    yield ListingBatch(n, 0, prefixes, _read_only(nothing), _read_only(canonical_flags(nothing)))
    searched = 0
    for batch in batches:
        start = frontier_of(batch, n, keep_placements=True)
        found = [completions(f) for f in depth_first(start, n, piece)]
        # Placements sort as their boards do, lexicographically.
        boards = columns_of(np.sort(np.concatenate(found)), n) if found else nothing
        searched += batch.shape[0]
        yield ListingBatch(
            n, searched, prefixes, _read_only(boards), _read_only(canonical_flags(boards))
        )


def solution_list(n: int, batches: Iterable[ListingBatch], complete: bool) -> SolutionList:
    """The solutions of ``batches`` with their mirror images, in lexicographic order."""
    batches = list(batches)
    if not batches:
        return SolutionList(n, np.zeros((0, n), np.uint8), np.zeros(0, bool), complete)
    boards = np.concatenate([batch.boards for batch in batches])
    canonical = np.concatenate([batch.canonical for batch in batches])
    return SolutionList(n, _read_only(boards), _read_only(canonical), complete)


def list_solutions(n: int, progress: Progress | None = None) -> SolutionList:
    """Every solution of ``n``, in lexicographic order, class representatives marked.

    Args:
        n: The board size, 1 to :data:`LISTING_LIMIT`.
        progress: Called with (prefixes searched, prefixes) before and after each batch.

    Raises:
        ConfigError: If the board size cannot be listed.
    """
    batches = []
    for batch in listing_steps(n):
        batches.append(batch)
        if progress is not None:
            progress(batch.searched, batch.prefixes)
    return solution_list(n, batches, complete=True)


def canonical_flags(boards: Columns) -> npt.NDArray[np.bool_]:
    """``(K,)``: which boards are the lexicographically smallest of their 8 images.

    The images are compared as placements (4 bits a row, which sort as the boards do), made
    from two: the board's and its transpose's (the inverse permutation). Mirrored left to
    right, a placement is subtracted from that of a board of ``n - 1`` everywhere (no row
    borrows); mirrored top to bottom, its rows are reversed by reversing its 4-bit digits.
    """
    n = boards.shape[1]
    flags = np.zeros(boards.shape[0], dtype=bool)
    rows = np.arange(n, dtype=np.uint8)
    every_row_last = placements_of(np.full((1, n), n - 1, dtype=np.uint8))[0]
    for start in range(0, boards.shape[0], _CANONICAL_ROWS):
        block = boards[start : start + _CANONICAL_ROWS]
        transposed = np.empty_like(block)
        np.put_along_axis(transposed, block.astype(np.intp), rows[None, :], axis=1)
        own = placements_of(block)
        smallest = own.copy()
        for placement in (own, placements_of(transposed)):
            flipped = _rows_reversed(placement, n)
            for image in (every_row_last - placement, flipped, every_row_last - flipped):
                np.minimum(smallest, image, out=smallest)
            if placement is not own:
                np.minimum(smallest, placement, out=smallest)
        flags[start : start + block.shape[0]] = own == smallest
    return flags


def _rows_reversed(placements: Placements, n: int) -> Placements:
    """The placements of the boards turned upside down: their ``n`` 4-bit digits reversed."""
    swapped = placements.byteswap()  # bytes reversed; then the two digits of each byte
    low_digits = np.uint64(0x0F0F_0F0F_0F0F_0F0F)
    digits_reversed = ((swapped & low_digits) << np.uint64(4)) | (
        (swapped >> np.uint64(4)) & low_digits
    )
    reversed_rows: Placements = digits_reversed << np.uint64(4 * (PLACEMENT_LIMIT - n))
    return reversed_rows


def _read_only(array: ArrayT) -> ArrayT:
    array.flags.writeable = False
    return array
