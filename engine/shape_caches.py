"""The engine's caches of arrays shaped by a run, and letting them go.

Some operators keep small read-only tables for the shapes a run asks for every generation
(each queen's line cells for a population, the shares of a population size, lineage's offsets
and flags for a size, hash weights for a board): a few LRU entries each. Sized by P and N,
they outlive the run that made them: after a P = 200,000 run at N = 28 they held about 90 MB
(the line cells alone, two ``(P, N)`` int64 arrays). A process that replaces a large run by
a small one (the dashboard) calls :func:`clear_shape_caches`; the next run makes its own.
"""

from __future__ import annotations

from engine.genomes import conflicts, diversity, uniqueness
from engine.lineage import origins as lineage_origins
from engine.operators import crossover


def clear_shape_caches() -> None:
    """Forget every cached table (safe while a run steps: the arrays handed out stay valid,
    and a run that asks again makes them again)."""
    for cached in (
        conflicts._column_bases,
        crossover._rotations,
        diversity._share_terms,
        lineage_origins.in_place,
        lineage_origins.in_place_bytes,
        lineage_origins._survivors,
        lineage_origins._nobody,
        lineage_origins._copies,
        uniqueness._cached_weights,
    ):
        cached.cache_clear()
