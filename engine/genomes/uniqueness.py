"""Sheppard's pool of unique individuals: a child that was ever seen before is dropped.

Genomes are identified by a 64-bit hash computed for all rows at once (a random linear form
modulo 2**64, so two different genomes collide with probability about 2**-64). The hashes of
every genome ever generated are kept in a :class:`HashSet`, an open-addressing hash table in
numpy, so checking and adding a generation's children costs the same at generation 50,000 as at
generation 10 (a sorted array rebuilt by ``np.union1d`` each time costs time in proportion to
everything seen so far).
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache
from typing import Final

import numpy as np
import numpy.typing as npt

from engine.arrays import BoolArray, Genomes, HashArray

_HASH_SEED: Final = 0x5EED_0F_0_0EE45
"""Fixed, so that hashes (and the runs that depend on them) are the same everywhere."""


CACHED_WEIGHTS_UP_TO: Final = 1 << 20
"""Genomes of up to this many genes have their hash weights cached (8 MB at most). Larger ones
are drawn at each call and let go after it, or drawn a block at a time and never held whole
(:func:`weight_blocks`): at N = 10^7 they are 80 MB, at the moment a memetic run's solutions are
recorded beside its populations."""

WEIGHT_BLOCK: Final = 1 << 16
"""Positions whose weights :func:`weight_blocks` gives at once (512 KB of them)."""


def _odd(draws: npt.NDArray[np.int64]) -> HashArray:
    """Draws in ``[1, 2**63)`` made odd 64-bit weights, ``2 d + 1``, in place over the draws
    (positive, so the same bits as unsigned)."""
    weights: HashArray = draws.view(np.uint64)
    weights *= np.uint64(2)
    weights += np.uint64(1)
    return weights


def _drawn_blocks(n: int) -> Iterator[tuple[int, HashArray]]:
    """The weights of ``n`` positions drawn a block at a time: the same numbers as drawn at
    once (each 64-bit integer takes its own draws from the generator, none buffered between
    calls), and faster, the draws staying in the processor's cache."""
    generator = np.random.default_rng(_HASH_SEED)
    for start in range(0, n, WEIGHT_BLOCK):
        size = min(WEIGHT_BLOCK, n - start)
        yield start, _odd(generator.integers(1, 2**63, size=size))


def _drawn_weights(n: int) -> HashArray:
    """The hash's odd 64-bit weights for genomes of ``n`` genes."""
    weights = np.empty(n, dtype=np.uint64)
    for start, block in _drawn_blocks(n):
        weights[start : start + block.shape[0]] = block
    weights.flags.writeable = False
    return weights


_cached_weights = lru_cache(maxsize=8)(_drawn_weights)
"""Cached: a run asks every generation, and drawing them costs more than hashing a small
population."""


def _weights(n: int) -> HashArray:
    """The hash's weights for ``n`` genes: cached up to :data:`CACHED_WEIGHTS_UP_TO`."""
    return _cached_weights(n) if n <= CACHED_WEIGHTS_UP_TO else _drawn_weights(n)


def hash_weights(n: int) -> HashArray:
    """The weight of each of ``n`` positions in :func:`row_hashes` (read-only): a caller that
    changes a few genes can change a hash by their terms alone. Large boards' are drawn anew
    at each call (:data:`CACHED_WEIGHTS_UP_TO`): a caller hashing several times keeps them."""
    return _weights(n)


def weight_blocks(n: int, weights: HashArray | None = None) -> Iterator[tuple[int, HashArray]]:
    """``(start, w[start : start + WEIGHT_BLOCK])`` over the ``n`` positions, in order: slices of
    ``weights`` (the caller's, or cached ones), or large boards' drawn block by block, so that
    their 8 bytes a position are never held at once."""
    if weights is None and n > CACHED_WEIGHTS_UP_TO:
        yield from _drawn_blocks(n)
        return
    if weights is None:
        weights = _cached_weights(n)
    for start in range(0, n, WEIGHT_BLOCK):
        yield start, weights[start : start + WEIGHT_BLOCK]


_EINSUM_GENES: Final = 8192
"""Batches of at least this many genes are hashed with einsum, smaller ones with matmul."""


def row_hashes(
    genomes: Genomes, weights: HashArray | None = None, rows: npt.NDArray[np.intp] | None = None
) -> HashArray:
    """A 64-bit hash per genome: ``sum(gene * w_position) mod 2**64``, one integer product.

    ``weights``: :func:`hash_weights` of the genomes' length, if the caller has them.
    ``rows``: hash only these rows (in this order), read where they are.
    """
    if rows is not None and genomes.dtype == np.int64:
        return row_hashes(genomes[rows], weights)  # small boards: the gathered copy is small
    if genomes.dtype != np.int64:
        # Narrow genes (large boards' int32): the same sums, a block of columns at a time, so
        # that no int64 copy of the genomes is made (a board of 10^8 queens: 800 MB each), nor
        # of large boards' weights (weight_blocks).
        chosen = slice(None) if rows is None else rows
        total = np.zeros(genomes.shape[0] if rows is None else rows.shape[0], dtype=np.uint64)
        for start, block_weights in weight_blocks(genomes.shape[1], weights):
            columns = slice(start, start + block_weights.shape[0])
            block = genomes[chosen, columns].astype(np.int64).view(np.uint64)
            total += block @ block_weights  # wraps modulo 2**64
        return total
    if weights is None:
        weights = _weights(genomes.shape[1])
    # Genes are non-negative int64, so viewing them as uint64 is exact and costs no copy.
    unsigned = np.ascontiguousarray(genomes, dtype=np.int64).view(np.uint64)
    if unsigned.size < _EINSUM_GENES:
        return np.asarray(unsigned @ weights, dtype=np.uint64)
    # The same sums (modulo 2**64, in any order): einsum's integer loop is 1.4-1.9x faster
    # than matmul's on 1000 x 64 and larger batches, slower below ~8000 genes.
    return np.asarray(np.einsum("ij,j->i", unsigned, weights), dtype=np.uint64)


def unseen(hashes: HashArray, seen: HashArray) -> BoolArray:
    """Which hashes are new: not in ``seen`` (sorted) and not repeating an earlier one here."""
    position = np.searchsorted(seen, hashes)
    known = np.zeros(hashes.shape, dtype=bool)
    inside = position < seen.shape[0]
    known[inside] = seen[position[inside]] == hashes[inside]
    _, first = np.unique(hashes, return_index=True)
    first_time = np.zeros(hashes.shape, dtype=bool)
    first_time[first] = True
    return ~known & first_time


def remember(seen: HashArray, hashes: HashArray) -> HashArray:
    """``seen`` with ``hashes`` added, still sorted and without repeats."""
    return np.union1d(seen, hashes).astype(np.uint64)


_MIX: Final = np.uint64(0x9E3779B97F4A7C15)
"""Fibonacci hashing: the slot is the top bits of ``hash * _MIX`` (mod 2**64)."""

_EMPTY: Final = np.uint64(0)
"""A free slot. The hash 0 itself is kept aside in :attr:`HashSet._has_zero`."""


class HashSet:
    """A set of 64-bit hashes: an open-addressing table with linear probing, batch at a time.

    The table is at most half full and doubles when it would be fuller, so a lookup or an
    insertion probes a couple of slots on average, whatever the set's size. Every operation
    takes a whole array of hashes and loops only over probe rounds, not over hashes.

    Args:
        hashes: Hashes to start with (repeats allowed).
    """

    def __init__(self, hashes: HashArray | None = None) -> None:
        self._table: HashArray = np.zeros(16, dtype=np.uint64)
        self._count = 0
        self._has_zero = False
        if hashes is not None and hashes.shape[0]:
            self.add(np.unique(np.asarray(hashes, dtype=np.uint64)))

    def __len__(self) -> int:
        return self._count + int(self._has_zero)

    def _slots(self, hashes: HashArray) -> npt.NDArray[np.int64]:
        bits = self._table.shape[0].bit_length() - 1
        mixed = hashes * _MIX  # wraps modulo 2**64, as hashing wants
        return np.asarray(mixed >> np.uint64(64 - bits), dtype=np.int64)

    def contains(self, hashes: HashArray) -> BoolArray:
        """Which of ``hashes`` are in the set."""
        hashes = np.asarray(hashes, dtype=np.uint64)
        found = np.zeros(hashes.shape, dtype=bool)
        zero = hashes == _EMPTY
        found[zero] = self._has_zero
        pending = np.flatnonzero(~zero)
        slots = self._slots(hashes[pending])
        mask = self._table.shape[0] - 1
        while pending.shape[0]:
            held = self._table[slots]
            wanted = hashes[pending]
            found[pending[held == wanted]] = True
            going = (held != wanted) & (held != _EMPTY)
            pending, slots = pending[going], (slots[going] + 1) & mask
        return found

    def add(self, hashes: HashArray) -> None:
        """Add hashes that are distinct and not in the set yet (as :meth:`unseen` picks them).

        The caller filters first (:meth:`remember` does both): a hash added twice would take
        two slots and be counted twice.
        """
        hashes = np.asarray(hashes, dtype=np.uint64)
        zero = hashes == _EMPTY
        if zero.any():
            self._has_zero = True
            hashes = hashes[~zero]
        if not hashes.shape[0]:
            return
        if 2 * (self._count + hashes.shape[0]) > self._table.shape[0]:
            self._grow(self._count + hashes.shape[0])
        self._place(hashes)
        self._count += hashes.shape[0]

    def _grow(self, needed: int) -> None:
        size = self._table.shape[0]
        while 2 * needed > size:
            size *= 2
        old = self._table[self._table != _EMPTY]
        self._table = np.zeros(size, dtype=np.uint64)
        self._place(old)

    def _place(self, hashes: HashArray) -> None:
        """Write distinct, absent, non-zero hashes into free slots (the table has room)."""
        slots = self._slots(hashes)
        mask = self._table.shape[0] - 1
        while hashes.shape[0]:
            free = self._table[slots] == _EMPTY
            # Of the hashes aiming at one free slot, the first takes it; the rest probe on.
            candidates = np.flatnonzero(free)
            _, first = np.unique(slots[candidates], return_index=True)
            winners = candidates[first]
            self._table[slots[winners]] = hashes[winners]
            moving = np.ones(hashes.shape[0], dtype=bool)
            moving[winners] = False
            hashes = hashes[moving]
            slots = slots[moving]
            slots[~free[moving]] += 1
            slots &= mask

    def unseen(self, hashes: HashArray) -> BoolArray:
        """Which hashes are new: not in the set and not repeating an earlier one here."""
        _, first = np.unique(hashes, return_index=True)
        first_time = np.zeros(hashes.shape, dtype=bool)
        first_time[first] = True
        return first_time & ~self.contains(hashes)

    def remember(self, hashes: HashArray) -> BoolArray:
        """Add the new ones among ``hashes``; return which were new (see :meth:`unseen`)."""
        fresh = self.unseen(hashes)
        self.add(hashes[fresh])
        return fresh

    def sorted(self) -> HashArray:
        """Every hash in the set, sorted (a new array): the set's canonical form."""
        held = self._table[self._table != _EMPTY]
        if self._has_zero:
            held = np.concatenate([np.zeros(1, dtype=np.uint64), held])
        return np.sort(held)

    def nbytes(self) -> int:
        """Bytes of the table."""
        return int(self._table.nbytes)


_COMPARED_FROM: Final = 1 << 20
"""Boards of this many genes or more, in populations of :data:`_MOST_COMPARED` or fewer, are
told apart by comparing them (:func:`distinct_rows`), not by their hashes."""

_MOST_COMPARED: Final = 16
"""The largest population whose rows :func:`unique_fraction` compares pair by pair."""


def distinct_rows(genomes: Genomes) -> int:
    """How many distinct rows ``genomes`` has, told by comparing them a block at a time.

    For a few large boards: the hashes' weights are 8 bytes a gene (cached, 80 MB for boards
    of 10^7 queens, held for the rest of the run), where the pairs of a small population are
    compared with a few blocks' temporaries, and almost always told apart by their first
    block. The count is the one the hashes give but for a 64-bit collision.
    """
    size, n = genomes.shape
    alike = [(first, second) for second in range(size) for first in range(second)]
    for start in range(0, n, WEIGHT_BLOCK):
        if not alike:
            break
        stop = start + WEIGHT_BLOCK
        alike = [
            (first, second)
            for first, second in alike
            if np.array_equal(genomes[first, start:stop], genomes[second, start:stop])
        ]
    return int(size) - len({second for _, second in alike})


def unique_fraction(genomes: Genomes) -> float:
    """The fraction of distinct genomes in a population."""
    if genomes.shape[0] == 0:
        return 0.0
    if genomes.shape[1] >= _COMPARED_FROM and genomes.shape[0] <= _MOST_COMPARED:
        return float(distinct_rows(genomes) / genomes.shape[0])
    # A sort and a count, not np.unique: that one imports numpy.ma (~10 ms of every start-up).
    hashes = row_hashes(genomes)
    hashes.sort()
    distinct = 1 + int(np.count_nonzero(hashes[1:] != hashes[:-1]))
    return float(distinct / genomes.shape[0])
