"""The rewinder: exact generations, the states it keeps on the way, its budget, abandoned walks."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np
import pytest

from engine import Config, Snapshot
from tui.dashboard.runs.rewind import Abandoned, Rewinder, compact_state, state_size
from tui.lab.engine_state import new_algorithm
from tui.lab.recorder import Recorder
from tui.lab.store import RunStore
from tui.lab.timeline import Timeline

CONFIG = Config(n=10, population=30, seed=11, generations=60, stop_when_solved=False)


@pytest.fixture
def store(tmp_path: Path) -> RunStore:
    """Run 1 of :data:`CONFIG`, with keyframes at 0 and at its end (60) only."""
    store = RunStore.open(tmp_path / "r.sqlite3")
    algorithm = new_algorithm(CONFIG)
    recorder = Recorder(store, algorithm, spacing=1024, keyframe_share=None)
    while algorithm.has_next():
        recorder.record(algorithm.step())
    recorder.close()
    assert store.keyframe_generations(1) == [0, 60]
    return store


def same(a: Snapshot, b: Snapshot) -> bool:
    return (
        a.generation == b.generation
        and np.array_equal(a.population, b.population)
        and np.array_equal(a.fitness, b.fitness)
        and a.stats == b.stats
    )


class Counter:
    """``abandon`` that never abandons, counting the generations re-stepped."""

    def __init__(self) -> None:
        self.steps = 0

    def __call__(self) -> bool:
        self.steps += 1
        return False


def test_every_generation_is_the_records_in_any_order(store: RunStore) -> None:
    rewinder = Rewinder(Timeline(store, 1))
    for generation in (60, 50, 40, 49, 12, 30, 31, 0, 59, 23):
        expected = Timeline(store, 1).snapshot_at(generation)
        assert same(rewinder.snapshot_at(generation), expected)


def test_the_keys_next_jumps_start_from_states_kept_on_the_way(store: RunStore) -> None:
    rewinder = Rewinder(Timeline(store, 1))
    rewinder.snapshot_at(60)
    first = Counter()
    rewinder.snapshot_at(50, first)
    assert first.steps == 50  # from the keyframe of generation 0: nothing nearer
    for target in (40, 30, 20):  # `{` again and again: each one kept on the way
        again = Counter()
        rewinder.snapshot_at(target, again)
        assert again.steps == 0
    back_one = Counter()
    rewinder.snapshot_at(49, back_one)  # `[` from 50: the state of 49 was kept too
    assert back_one.steps == 0


def test_the_nearest_start_wins_keyframe_or_run_in_memory(store: RunStore) -> None:
    rewinder = Rewinder(Timeline(store, 1))
    rewinder.snapshot_at(5)
    counter = Counter()
    rewinder.snapshot_at(60, counter)
    assert counter.steps == 0  # the keyframe of 60, not 55 generations from the run at 5
    counter = Counter()
    rewinder.snapshot_at(58, counter)
    assert counter.steps == 53  # from the state kept at 5, not from the keyframe of 0


def test_states_stay_within_the_budget_nearest_the_target_kept(store: RunStore) -> None:
    size = state_size(compact_state(Timeline(store, 1).algorithm_at(55)))
    rewinder = Rewinder(Timeline(store, 1), budget=3 * size + size // 2)
    rewinder.snapshot_at(55)
    assert rewinder.used() <= rewinder.budget and len(rewinder.checkpoints) == 3
    assert sorted(rewinder.checkpoints) == [50, 54, 55]


def test_an_abandoned_walk_keeps_its_progress(store: RunStore) -> None:
    rewinder = Rewinder(Timeline(store, 1))
    calls = 0

    def after_five() -> bool:
        nonlocal calls
        calls += 1
        return calls >= 5

    with pytest.raises(Abandoned):
        rewinder.snapshot_at(40, after_five)
    assert rewinder.timeline.cached_generation == 5
    rest = Counter()
    snapshot = rewinder.snapshot_at(40, rest)
    assert rest.steps == 35 and same(snapshot, Timeline(store, 1).snapshot_at(40))


def test_a_state_keeps_its_genes_in_one_byte_and_restores_the_same_run(store: RunStore) -> None:
    from tui.lab.engine_state import restore

    algorithm = Timeline(store, 1).algorithm_at(30)
    state = compact_state(algorithm)
    assert state["population"].dtype == np.uint8 and state["solutions"].dtype == np.uint8
    restored = restore(state)
    stepped = restored.step()
    expected = Timeline(store, 1).snapshot_at(31)  # the record's, its time included
    timed = dataclasses.replace(stepped, stats=stepped.stats._replace(elapsed=expected.elapsed))
    assert same(timed, expected)
