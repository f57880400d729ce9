"""The solutions the `s` screen's gallery draws, and which of them the GA experiment found.

Two sets, read by index a visible stretch at a time, so that the gallery never builds them all:

- :class:`ExactSolutionSet`: every solution of N up to the engine's listing limit, as
  ``queens solutions`` lists them (lexicographic order, one representative of each fundamental
  class marked), with the GA's finds matched to their places in it.
- :class:`FoundSolutionSet`: above that limit, only the solutions the GA found, in the order
  it found them.

Both give boards as the column of the queen in each row, the command line's form. The GA
stores a solution as the row of the queen in each column, the inverse permutation, so its
finds are inverted before they are matched or drawn. Numpy only: no Textual, no Rich.
"""

from __future__ import annotations

from typing import Final, Protocol

import numpy as np
import numpy.typing as npt

from engine.solutions.archive import canonical_boards
from engine.solutions.exact import SolutionList

NOT_FOUND: Final = -1
"""The generation given for a solution the GA has not found."""

Boards = npt.NDArray[np.uint8]
"""``(K, n)``: the column of the queen in each row."""


class GallerySource(Protocol):
    """What the gallery reads: boards by index, with their marks."""

    @property
    def n(self) -> int:
        """The board size."""
        ...

    @property
    def count(self) -> int:
        """Solutions held."""
        ...

    def boards(self, start: int, stop: int) -> Boards:
        """Solutions ``start`` to ``stop - 1``."""
        ...

    def fundamental(self, start: int, stop: int) -> npt.NDArray[np.bool_]:
        """Which of them represent their fundamental class."""
        ...

    def found_generations(self, start: int, stop: int) -> npt.NDArray[np.int64]:
        """The generation by which the GA found each, or :data:`NOT_FOUND`."""
        ...


def columns_by_row(ga_boards: npt.NDArray[np.integer]) -> Boards:
    """The GA's solutions (the row of the queen in each column) as the column in each row.

    The two are inverse permutations: the queen in column ``c`` is on row ``g[c]``, so row
    ``g[c]`` has its queen in column ``c``.
    """
    return np.argsort(ga_boards, axis=1).astype(np.uint8)


def _as_keys(boards: Boards) -> npt.NDArray[np.bytes_]:
    """Each board as one byte string, a view without a copy: byte strings compare as the
    boards do, lexicographically, so a sorted listing can be searched with ``searchsorted``.

    Numpy ignores trailing zero bytes when it compares them, which changes nothing here: two
    permutations of the same length that agree up to trailing zeros are the same board.
    """
    contiguous = np.ascontiguousarray(boards, dtype=np.uint8)
    keys: npt.NDArray[np.bytes_] = contiguous.view(f"S{boards.shape[1]}").reshape(-1)
    return keys


class ExactSolutionSet:
    """Every solution of N (those listed so far, if the listing was stopped), and the GA's finds.

    Only the half of the listing that was searched is held (:class:`SolutionList`); a board of
    the other half, the mirror images, is made when it is read. The GA's finds are kept as
    sorted indices, so marking costs nothing until the GA runs.
    """

    def __init__(self, listing: SolutionList) -> None:
        """Args:
        listing: The solutions, from :func:`engine.solutions.exact.list_solutions` or a
            stopped listing.
        """
        self.listing = listing
        """The exact listing."""
        self._half = int(listing.searched.shape[0])
        self._keys = _as_keys(listing.searched)
        self._found_index = np.zeros(0, dtype=np.int64)
        self._found_generation = np.zeros(0, dtype=np.int64)
        self.found_fundamental = 0
        """Fundamental classes whose listed representative the GA found."""
        self.unmatched = 0
        """GA solutions not in the listing (a stopped listing misses some; a full one, none)."""

    @property
    def n(self) -> int:
        """The board size."""
        return self.listing.n

    @property
    def count(self) -> int:
        """Solutions listed."""
        return self.listing.total

    @property
    def fundamental_count(self) -> int:
        """Fundamental classes listed (one representative each)."""
        return self.listing.fundamental

    @property
    def found(self) -> int:
        """Listed solutions the GA has found."""
        return int(self._found_index.shape[0])

    @property
    def _mirrored(self) -> bool:
        """Whether the listing holds the mirror images of the searched half after it."""
        return self.count != self._half

    def boards(self, start: int, stop: int) -> Boards:
        """Solutions ``start`` to ``stop - 1`` in lexicographic order."""
        start, stop = max(0, start), min(self.count, stop)
        if stop <= start:
            return np.zeros((0, self.n), dtype=np.uint8)
        searched = self.listing.searched
        parts = [searched[start : min(stop, self._half)]]
        if stop > self._half:
            # The mirror images come in reverse order: index half + k mirrors half - 1 - k.
            first, last = 2 * self._half - stop, 2 * self._half - max(start, self._half)
            parts.append((self.n - 1 - searched[first:last])[::-1])
        return np.concatenate(parts).astype(np.uint8, copy=False)

    def fundamental(self, start: int, stop: int) -> npt.NDArray[np.bool_]:
        """Which are the representatives the command line marks (all in the searched half)."""
        start, stop = max(0, start), min(self.count, stop)
        flags = np.zeros(max(0, stop - start), dtype=bool)
        upto = min(stop, self._half)
        if upto > start:
            flags[: upto - start] = self.listing.searched_canonical[start:upto]
        return flags

    def found_generations(self, start: int, stop: int) -> npt.NDArray[np.int64]:
        """The generation by which the GA found each of ``start`` to ``stop - 1``."""
        start, stop = max(0, start), min(self.count, stop)
        generations = np.full(max(0, stop - start), NOT_FOUND, dtype=np.int64)
        low, high = np.searchsorted(self._found_index, [start, stop])
        generations[self._found_index[low:high] - start] = self._found_generation[low:high]
        return generations

    def index_of(self, boards: Boards) -> npt.NDArray[np.int64]:
        """Where each board is in the listing, or -1 where it is not listed."""
        index = self._search(boards)
        if self._mirrored:
            mirrored = self._search((self.n - 1 - boards).astype(np.uint8))
            index = np.where((index < 0) & (mirrored >= 0), 2 * self._half - 1 - mirrored, index)
        return index

    def _search(self, boards: Boards) -> npt.NDArray[np.int64]:
        """Where each board is in the searched half, or -1."""
        if self._half == 0 or boards.shape[0] == 0:
            return np.full(boards.shape[0], -1, dtype=np.int64)
        keys = _as_keys(boards)
        place = np.searchsorted(self._keys, keys)
        clipped = np.minimum(place, self._half - 1)
        return np.where(self._keys[clipped] == keys, clipped, -1).astype(np.int64)

    def mark_found(self, ga_boards: npt.NDArray[np.integer], generation: int) -> int:
        """Mark the GA's new finds as found by ``generation``.

        Args:
            ga_boards: ``(K, n)`` solutions as the GA stores them (the row in each column),
                each given once: the GA's archive only ever adds new ones.
            generation: The generation of the snapshot they were first seen in.

        Returns:
            How many listed solutions were newly marked.
        """
        if ga_boards.shape[0] == 0:
            return 0
        index = self.index_of(columns_by_row(ga_boards))
        listed = index >= 0
        self.unmatched += int(np.count_nonzero(~listed))
        fresh = np.unique(index[listed])
        # Inserted in place, in time linear in the finds so far: this runs on each snapshot.
        place = np.searchsorted(self._found_index, fresh)
        marked = self._found_index.size
        if marked:
            seen = self._found_index[np.minimum(place, marked - 1)] == fresh
            fresh, place = fresh[~seen], place[~seen]
        if fresh.size == 0:
            return 0
        in_half = fresh[fresh < self._half]
        self.found_fundamental += int(np.count_nonzero(self.listing.searched_canonical[in_half]))
        self._found_index = np.insert(self._found_index, place, fresh)
        self._found_generation = np.insert(self._found_generation, place, generation)
        return int(fresh.size)


class FoundSolutionSet:
    """The solutions the GA found, in the order found: the gallery above the listing limit."""

    def __init__(self, n: int) -> None:
        """Args:
        n: The board size.
        """
        self._n = n
        self._ga_boards: npt.NDArray[np.integer] = np.zeros((0, n), dtype=np.int64)
        self._counts: list[int] = []
        self._generations: list[int] = []

    @property
    def n(self) -> int:
        """The board size."""
        return self._n

    @property
    def count(self) -> int:
        """Solutions the GA found."""
        return int(self._ga_boards.shape[0])

    def update(self, ga_boards: npt.NDArray[np.integer], generation: int) -> bool:
        """Take the GA's archive as it is now (a read-only view that only grows).

        Returns:
            Whether it holds solutions the set did not.
        """
        if ga_boards.shape[0] <= self.count:
            return False
        self._ga_boards = ga_boards
        self._counts.append(int(ga_boards.shape[0]))
        self._generations.append(generation)
        return True

    def boards(self, start: int, stop: int) -> Boards:
        """Finds ``start`` to ``stop - 1``, as the column of the queen in each row."""
        return columns_by_row(self._ga_boards[max(0, start) : max(0, stop)])

    def fundamental(self, start: int, stop: int) -> npt.NDArray[np.bool_]:
        """Which are the smallest of their 8 images, as the command line marks them.

        The 8 images of a board are the same permutations however it is written (the
        transpose, which turns one form into the other, is one of them), so the smallest
        is the same board.
        """
        boards = self.boards(start, stop).astype(np.int64)
        if boards.shape[0] == 0:
            return np.zeros(0, dtype=bool)
        flags: npt.NDArray[np.bool_] = np.all(canonical_boards(boards) == boards, axis=1)
        return flags

    def found_generations(self, start: int, stop: int) -> npt.NDArray[np.int64]:
        """The generation of the first update that held each find."""
        indices = np.arange(max(0, start), min(self.count, max(0, stop)))
        update = np.searchsorted(np.asarray(self._counts), indices, side="right")
        return np.asarray(self._generations, dtype=np.int64)[update]
