"""The population in a chosen order, a window at a time: numpy only, no Textual.

A population may hold a million individuals; a table shows a few dozen of them. The order
(:func:`sort_keys`) is never sorted whole: :func:`ordered_window` finds the rows in view with
partitions, in time linear in the population.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

import numpy as np
import numpy.typing as npt

from engine import Snapshot

SORTS: Final = ("fitness", "conflicts", "index")
"""What the population can be sorted by, in the order `o` cycles through."""

SMALL_SORT: Final = 4096
"""Below this many candidates a window is found by sorting them outright."""


def sort_keys(snapshot: Snapshot, sort_by: str) -> list[npt.NDArray[np.generic]]:
    """The keys of an order, most significant first; ties fall back to the index.

    ``fitness``: highest fitness, then fewest conflicts (the engine's ranking).
    ``conflicts``: fewest conflicts, then highest fitness. ``index``: population order.
    """
    if sort_by == "fitness":
        return [-np.asarray(snapshot.fitness), np.asarray(snapshot.conflicts)]
    if sort_by == "conflicts":
        return [np.asarray(snapshot.conflicts), -np.asarray(snapshot.fitness)]
    if sort_by == "index":
        return []
    raise ValueError(f"sort_by: {sort_by!r} is not one of {', '.join(SORTS)}")


def ordered_window(
    keys: Sequence[npt.NDArray[np.generic]], size: int, start: int, stop: int
) -> npt.NDArray[np.intp]:
    """Rows ``start`` to ``stop`` of the lexicographic order of ``keys`` (then index), exactly.

    Equal to ``np.lexsort((arange, *reversed(keys)))[start:stop]`` but in time linear in
    ``size``: the window's first and last key values are found with one ``np.partition``, the
    rows strictly between them (at most ``stop - start``) are sorted, and the ties at either end
    are resolved by the next key the same way.

    Args:
        keys: One array of length ``size`` per key, most significant first, ascending.
        size: Number of rows.
        start: First position wanted (0-based).
        stop: One past the last position wanted.

    Returns:
        The row indexes at positions ``start`` up to ``stop`` (clipped to ``size``).
    """
    start, stop = max(0, start), min(size, stop)
    if start >= stop:
        return np.empty(0, dtype=np.intp)
    return _window(keys, None, size, start, stop)


def _window(
    keys: Sequence[npt.NDArray[np.generic]],
    candidates: npt.NDArray[np.intp] | None,
    size: int,
    start: int,
    stop: int,
) -> npt.NDArray[np.intp]:
    """The window of ``candidates`` (ascending indexes; ``None``: all ``size`` rows)."""
    if start >= stop:
        return np.empty(0, dtype=np.intp)
    if not keys:
        if candidates is None:
            return np.arange(start, stop, dtype=np.intp)
        return candidates[start:stop]
    if (size if candidates is None else candidates.size) <= SMALL_SORT:
        chosen = np.arange(size, dtype=np.intp) if candidates is None else candidates
        columns = [key[chosen] for key in reversed(keys)]
        return chosen[np.lexsort(columns)][start:stop]
    # The whole population needs no gathering copy of the key: most calls start there.
    key = keys[0] if candidates is None else keys[0][candidates]
    ends = np.partition(key, (start, stop - 1))
    low, high = ends[start], ends[stop - 1]
    before = int(np.count_nonzero(key < low))

    def where(mask: npt.NDArray[np.bool_]) -> npt.NDArray[np.intp]:
        found = np.flatnonzero(mask)
        return found if candidates is None else candidates[found]

    at_low = where(key == low)
    if low == high:
        return _window(keys[1:], at_low, size, start - before, stop - before)
    # Rows strictly between the two end values all lie inside the window: few, sort them.
    between = where((key > low) & (key < high))
    columns = [k[between] for k in reversed(keys)]
    between = between[np.lexsort(columns)]
    at_high = where(key == high)
    high_start = before + at_low.size + between.size
    return np.concatenate(
        (
            _window(keys[1:], at_low, size, start - before, at_low.size),
            between,
            _window(keys[1:], at_high, size, 0, stop - high_start),
        )
    )
