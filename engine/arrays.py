"""The numpy array types the engine speaks in, named once.

Every array a run holds is one of these: the genomes (a ``(P, N)`` population or a batch of
children), counts and indices, fitness values, masks, lineage flag bytes and 64-bit hashes.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

Genomes = npt.NDArray[np.int64]
"""A population (or a batch of children): a ``(P, N)`` integer array."""

IntArray = npt.NDArray[np.int64]
"""Counts, indices and row numbers."""

FloatArray = npt.NDArray[np.float64]
"""Fitness values, shares and measures."""

BoolArray = npt.NDArray[np.bool_]
"""Masks: which rows, which positions."""

FlagArray = npt.NDArray[np.uint8]
"""Lineage flag bytes, one per individual."""

HashArray = npt.NDArray[np.uint64]
"""64-bit hashes of rows and blocks, summed modulo 2**64."""
