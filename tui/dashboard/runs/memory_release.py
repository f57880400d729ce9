"""Giving a replaced run's memory back to the system.

A large run (P = 200,000 at N = 28 holds a few hundred MB of populations, keyframes and sort
orders) leaves two kinds of remains when the next run replaces it: reference cycles that wait for
the garbage collector's next full pass, and freed blocks that the C allocator keeps for itself.
glibc keeps what the engine's thread freed in that thread's own arena, and its dynamic mmap
threshold puts arrays of up to 32 MB on those heaps, so without help a small run that follows a
large one goes on showing the large one's resident size. The engine also keeps tables per
shape, which a large run makes large (about 90 MB after P = 200,000 at N = 28:
:mod:`engine.shape_caches`). :func:`release_memory` lets those go, collects the cycles and asks
glibc to hand back every free page (``malloc_trim``); elsewhere it only collects.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import gc
from collections.abc import Callable
from functools import cache

from engine.shape_caches import clear_shape_caches
from tui.lab.store.lineage_table import forget_sizes


@cache
def _malloc_trim() -> Callable[[int], int] | None:
    """glibc's ``malloc_trim``, or ``None`` where the C library has none (musl, macOS)."""
    name = ctypes.util.find_library("c")
    if name is None:
        return None
    try:
        trim: Callable[[int], int] = ctypes.CDLL(name).malloc_trim
    except (OSError, AttributeError):
        return None
    return trim


def release_memory() -> None:
    """Forget the engine's tables of past shapes, collect unreachable cycles, then return the
    allocator's free pages to the system."""
    clear_shape_caches()
    forget_sizes()
    gc.collect()
    trim = _malloc_trim()
    if trim is not None:
        trim(0)
