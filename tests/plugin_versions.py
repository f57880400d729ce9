"""Two versions of one plug-in file, and a broken third: what a swap in a paused run loads.

The engine's, the lab's and the dashboard's swap tests write :data:`FIRST` to ``ops.py``,
run, then write :data:`SECOND` (or :data:`BROKEN`) over it, as a person editing the file
would. Both good versions are permutation mutations that draw from the rng they are given,
but draw differently, so a run that swapped is told apart from one that did not.
"""

from __future__ import annotations

from pathlib import Path
from typing import Final

FIRST: Final = """import numpy as np


def mutate(children, rng, rate):
    count, n = children.shape
    chosen = rng.random(count) < rate
    first = rng.integers(0, n, size=count)
    second = rng.integers(0, n, size=count)
    rows = np.nonzero(chosen)[0]
    result = children.copy()
    result[rows, first[rows]] = children[rows, second[rows]]
    result[rows, second[rows]] = children[rows, first[rows]]
    return result
"""
"""Version 1: the built-in ``swap``, draw for draw."""

SECOND: Final = """import numpy as np


def mutate(children, rng, rate):
    count, n = children.shape
    chosen = rng.random(count) < rate
    start = rng.integers(0, n, size=count)
    rows = np.nonzero(chosen)[0]
    result = children.copy()
    ahead = (start[rows] + 1) % n
    result[rows, start[rows]] = children[rows, ahead]
    result[rows, ahead] = children[rows, start[rows]]
    return result
"""
"""Version 2: swaps two neighbouring queens (fewer draws, other moves)."""

BROKEN: Final = """def mutate(children, rng, rate):
    return children[:-1].copy()
"""
"""A version that fails the ``shape`` check."""


def write_version(path: Path, source: str) -> str:
    """Write ``source`` to ``path``; the plug-in's name, ``path:mutate``."""
    path.write_text(source, encoding="utf-8")
    return f"{path}:mutate"
