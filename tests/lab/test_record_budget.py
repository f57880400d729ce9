"""A record past its size budget is thinned, and every generation stays exact."""

from __future__ import annotations

import sqlite3

import numpy as np
import pytest

from engine import Config, GeneticAlgorithm
from tui.lab.engine_state import new_algorithm
from tui.lab.record_budget import RecordBudgetError, budget_text, parse_budget
from tui.lab.recorded_lineage import snapshot_with_lineage
from tui.lab.recorder import RecordBudgetReached, Recorder
from tui.lab.store import RunStore
from tui.lab.timeline import Timeline

BUDGET = 256 * 2**10
"""A small budget, which a few thousand generations pass."""
LONG = Config(n=10, population=20, seed=5, generations=3000, stop_when_solved=False)


def used_bytes(store: RunStore) -> int:
    """The pages of the store's file that hold something (the WAL folded in first)."""
    with sqlite3.connect(store.path) as connection:
        connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        pages = connection.execute("PRAGMA page_count").fetchone()[0]
        free = connection.execute("PRAGMA freelist_count").fetchone()[0]
        size = connection.execute("PRAGMA page_size").fetchone()[0]
    return int((pages - free) * size)


def recorded(store: RunStore, config: Config, budget: int) -> tuple[int, Recorder]:
    algorithm = new_algorithm(config)
    recorder = Recorder(store, algorithm, keyframe_share=None, record_budget=budget)
    while algorithm.has_next():
        recorder.record(algorithm.step())
    recorder.close()
    return recorder.run_id, recorder


@pytest.mark.slow  # a long recorded run
def test_a_record_past_its_budget_is_thinned_and_a_thinned_generation_is_exact(
    store: RunStore,
) -> None:
    empty = used_bytes(store)
    run_id, recorder = recorded(store, LONG, BUDGET)
    size = store.run_size(run_id)
    assert size.bytes <= BUDGET
    assert used_bytes(store) - empty <= BUDGET  # what the budget counts covers the file
    assert size.stats == 3001  # every generation's statistics stay
    assert recorder.lineage_spacing >= 2 and size.lineage < 3000
    assert store.run(run_id).keyframe_spacing > 16
    kept = set(store.keyframe_generations(run_id))
    # A generation whose lineage row and keyframe were both thinned away, in the old part.
    generation = next(
        g for g in range(1001, 1500) if g % recorder.lineage_spacing and g not in kept
    )
    shown = snapshot_with_lineage(Timeline(store, run_id), generation)
    fresh = GeneticAlgorithm(LONG)
    fresh.step_many(generation)
    live = fresh.snapshot
    assert shown.generation == live.generation == generation
    assert np.array_equal(shown.population, live.population)
    assert np.array_equal(shown.fitness, live.fitness)
    assert shown.stats._replace(elapsed=0.0) == live.stats._replace(elapsed=0.0)
    assert shown.lineage is not None and live.lineage is not None
    assert np.array_equal(shown.lineage.parents, live.lineage.parents)
    assert np.array_equal(shown.lineage.kind_flags, live.lineage.kind_flags)


@pytest.mark.slow  # a long recorded run
def test_a_stalled_run_keeps_its_record_within_the_budget(store: RunStore) -> None:
    stalled = Config(n=8, mutation_rate=0.0, seed=1, generations=4000, stop_when_solved=False)
    run_id, _ = recorded(store, stalled, BUDGET)
    assert store.run_size(run_id).bytes <= BUDGET
    assert store.stats(run_id)["generation"].tolist() == list(range(4001))
    timeline = Timeline(store, run_id)
    assert np.array_equal(
        timeline.snapshot_at(2999).population, timeline.snapshot_at(4000).population
    )


def test_statistics_that_fill_the_budget_end_the_record(store: RunStore) -> None:
    algorithm = new_algorithm(LONG)
    recorder = Recorder(store, algorithm, keyframe_share=None, record_budget=20_000)
    with pytest.raises(RecordBudgetReached, match="record budget"):
        while algorithm.has_next():
            recorder.record(algorithm.step())
    assert recorder.closed
    info = store.run(recorder.run_id)
    assert info.status == "interrupted"
    assert store.run_size(recorder.run_id).bytes > 20_000 * 0.75
    # What was recorded is still exact.
    last = info.generations
    fresh = GeneticAlgorithm(LONG)
    fresh.step_many(last)
    assert np.array_equal(
        Timeline(store, recorder.run_id).snapshot_at(last).population, fresh.snapshot.population
    )


@pytest.mark.parametrize(
    ("text", "size"),
    [("64MB", 64 * 2**20), ("256KB", 2**18), ("1 GB", 2**30), ("1.5gb", 3 * 2**29)],
)
def test_a_budget_is_read_in_kb_mb_and_gb(text: str, size: int) -> None:
    assert parse_budget(text) == size


@pytest.mark.parametrize("text", ["", "64", "lots", "-5MB", "2KB", "5000GB", "64 MBs"])
def test_a_budget_that_is_no_size_or_out_of_range_is_refused(text: str) -> None:
    with pytest.raises(RecordBudgetError, match=r"record-budget: .* is not allowed; a size from"):
        parse_budget(text)


def test_a_budget_is_written_back_as_read() -> None:
    assert [budget_text(size) for size in (2**26, 2**18, 3 * 2**29)] == ["64MB", "256KB", "1536MB"]
