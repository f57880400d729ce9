"""Sheppard's pool of unique individuals: a child that was ever seen before is dropped.

Genomes are identified by a 64-bit hash computed for all rows at once (a random linear form
modulo 2**64, so two different genomes collide with probability about 2**-64). The hashes of
every genome ever generated are kept in a sorted array.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Final

import numpy as np
import numpy.typing as npt

from engine.encodings import Genomes

HashArray = npt.NDArray[np.uint64]
BoolArray = npt.NDArray[np.bool_]

_HASH_SEED: Final = 0x5EED_0F_0_0EE45
"""Fixed, so that hashes (and the runs that depend on them) are the same everywhere."""


@lru_cache(maxsize=8)
def _weights(n: int) -> HashArray:
    """The hash's odd 64-bit weights for genomes of ``n`` genes (cached: a run asks every
    generation, and drawing them costs more than hashing a small population)."""
    draws = np.random.default_rng(_HASH_SEED).integers(1, 2**63, size=n)
    weights = np.asarray(draws, dtype=np.uint64) * np.uint64(2) + np.uint64(1)
    weights.flags.writeable = False
    return weights


def row_hashes(genomes: Genomes) -> HashArray:
    """A 64-bit hash per genome: ``sum(gene * w_position) mod 2**64``, one integer matmul."""
    weights = _weights(genomes.shape[1])
    # Genes are non-negative int64, so viewing them as uint64 is exact and costs no copy.
    unsigned = np.ascontiguousarray(genomes, dtype=np.int64).view(np.uint64)
    return np.asarray(unsigned @ weights, dtype=np.uint64)


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


def unique_fraction(genomes: Genomes) -> float:
    """The fraction of distinct genomes in a population."""
    if genomes.shape[0] == 0:
        return 0.0
    return float(np.unique(row_hashes(genomes)).shape[0] / genomes.shape[0])
