"""A large run leaves no tables of its shape behind once it is gone and the memory released."""

from __future__ import annotations

import tracemalloc


def test_a_large_run_leaves_no_tables_of_its_shape_behind() -> None:
    """The engine's tables for a run's shapes (a population's line cells: two (P, N) int64
    arrays) and the recorder's offsets go once the run is gone and the memory released."""
    from engine import Config, GeneticAlgorithm
    from tui.dashboard.runs.memory_release import release_memory
    from tui.lab.recorder import lineage_row

    release_memory()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        algorithm = GeneticAlgorithm(Config(n=28, population=20_000, seed=1))
        lineage_row(algorithm.step())
        del algorithm
        release_memory()
        kept = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert kept < 2**20, f"{kept / 2**20:.1f} MB kept"
