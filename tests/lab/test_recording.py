"""Recording, time travel and resume against live runs: exact, bounded, checked."""

from __future__ import annotations

import sqlite3
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from lab_runs import live_run

from engine import Config, GeneticAlgorithm, Snapshot
from engine.config.presets import PRESETS
from tui.lab.engine_state import new_algorithm
from tui.lab.recorder import Recorder, stats_row
from tui.lab.resume import resume
from tui.lab.store import STAT_FIELDS, RunStore, StoreError
from tui.lab.timeline import RecordMismatch, Timeline

SMALL = Config(n=10, population=20, seed=11, generations=60, stop_when_solved=False)


def record(
    store: RunStore, config: Config, steps: int | None = None, **options: Any
) -> tuple[int, GeneticAlgorithm, Recorder]:
    """Record a run for ``steps`` generations (None: to its stop); the recorder stays open."""
    algorithm = new_algorithm(config)
    options.setdefault("keyframe_share", None)  # keyframes where the test expects them
    recorder = Recorder(store, algorithm, **options)
    done = 0
    while algorithm.has_next() and (steps is None or done < steps):
        recorder.record(algorithm.step())
        done += 1
    return recorder.run_id, algorithm, recorder


def kill(store: RunStore, recorder: Recorder) -> None:
    """What SIGKILL leaves: the committed batches, no stop keyframe, status not updated."""
    recorder.flush(keyframe=False)
    store.end_run(recorder.run_id, "interrupted", None)


def assert_same_generation(shown: Snapshot, live: Snapshot) -> None:
    assert shown.generation == live.generation
    assert np.array_equal(shown.population, live.population)
    assert np.array_equal(shown.fitness, live.fitness)
    assert np.array_equal(shown.conflicts, live.conflicts)
    assert shown.best_index == live.best_index
    # The computing time is the record's; the live runs here are unrecorded twins.
    assert shown.stats._replace(elapsed=0.0) == live.stats._replace(elapsed=0.0)
    assert np.array_equal(shown.solutions, live.solutions)
    assert shown.fundamental_solutions == live.fundamental_solutions


def assert_same_record(store: RunStore, run_id: int, live: list[Snapshot]) -> None:
    """The recorded stats are the live run's, generation for generation (time aside)."""
    columns = store.stats(run_id)
    assert columns["generation"].tolist() == [s.generation for s in live]
    for index, name in enumerate(STAT_FIELDS):
        if name != "elapsed":
            assert columns[name].tolist() == [stats_row(s)[index] for s in live], name


def test_the_record_holds_every_generation_the_live_run_published(store: RunStore) -> None:
    live = live_run(SMALL)
    run_id, algorithm, recorder = record(store, SMALL)
    recorder.close()
    columns = store.stats(run_id)
    assert columns["elapsed"].tolist()[-1] == algorithm.snapshot.elapsed
    assert_same_record(store, run_id, live)
    info = store.run(run_id)
    assert (info.status, info.stop_reason, info.generations) == ("finished", "max-generations", 60)
    assert [board for _, board in store.solutions(run_id)] == live[-1].solutions.tolist()


def test_batches_are_committed_once_a_second_and_at_a_pause(store: RunStore) -> None:
    now = [0.0]
    run_id, algorithm, recorder = record(store, SMALL, steps=5, clock=lambda: now[0])
    with RunStore.open(store.path) as reader:
        assert reader.run(run_id).generations == 0  # generation 0 is committed at the start
        now[0] = 1.0
        recorder.record(algorithm.step())
        assert reader.run(run_id).generations == 6
        recorder.record(algorithm.step())
        assert reader.run(run_id).generations == 6
        recorder.flush()
        assert reader.run(run_id).generations == 7
        assert reader.keyframe_generations(run_id)[-1] == 7


@pytest.mark.slow  # a long recorded run
def test_keyframes_stay_within_the_budget_and_every_generation_stays_reachable(
    store: RunStore,
) -> None:
    config = SMALL.replace(generations=400)
    live = live_run(config)
    one_keyframe = 20 * 10 * 1 + 2000  # a byte a gene, and the rest
    budget = 12 * one_keyframe
    run_id, _, recorder = record(store, config, spacing=4, budget=budget)
    recorder.close()
    info = store.run(run_id)
    assert store.keyframe_bytes(run_id) <= budget
    assert info.keyframe_spacing >= 32  # 400 generations in about 12 keyframes
    kept = store.keyframe_generations(run_id)
    assert all(g % info.keyframe_spacing == 0 for g in kept[:-1]) and kept[-1] == 400
    timeline = Timeline(store, run_id)
    for generation in (0, 1, 63, 64, 65, 250, 399, 400, 3):
        assert_same_generation(timeline.snapshot_at(generation), live[generation])


@pytest.mark.slow  # every preset recorded
@settings(
    max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(data=st.data())
def test_show_generation_equals_what_the_live_run_published(
    recorded_presets: dict[str, tuple[RunStore, int, list[Snapshot]]], data: st.DataObject
) -> None:
    name = data.draw(st.sampled_from(sorted(recorded_presets)))
    store, run_id, live = recorded_presets[name]
    generation = data.draw(st.integers(0, len(live) - 1))
    assert_same_generation(Timeline(store, run_id).snapshot_at(generation), live[generation])


def preset_config(name: str, generations: int = 40) -> Config:
    """A preset made short enough for a test, its other stop rules kept, at the first N and
    seed whose run lasts at least 6 generations; a preset that solves every one of those at
    once (local search) runs at its own N without stopping when solved."""
    preset = PRESETS[name]
    for n in (preset.native_n, 12, 16):
        if preset.allowed_n is not None and n not in preset.allowed_n:
            continue
        for seed in range(4):
            config = preset.config(n, seed=seed)
            config = config.replace(generations=min(config.generations or generations, generations))
            if len(live_run(config)) > 6:
                return config
    config = preset.config(None, seed=0)
    return config.replace(
        generations=min(config.generations or generations, generations), stop_when_solved=False
    )


@pytest.fixture(scope="module")
def recorded_presets(
    tmp_path_factory: pytest.TempPathFactory,
) -> dict[str, tuple[RunStore, int, list[Snapshot]]]:
    store = RunStore.open(tmp_path_factory.mktemp("presets") / "runs.sqlite3")
    recorded = {}
    for name in PRESETS:
        config = preset_config(name, 30)
        run_id, _, recorder = record(store, config, spacing=4)
        recorder.close()
        recorded[name] = (store, run_id, live_run(config))
    return recorded


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_resume_after_a_kill_equals_the_uninterrupted_run_for_every_preset(
    store: RunStore, name: str
) -> None:
    config = preset_config(name)
    live = live_run(config)
    stop_at = max(1, (len(live) - 1) // 2)
    run_id, _, recorder = record(store, config, steps=stop_at, spacing=4)
    kill(store, recorder)
    assert store.run(run_id).status == "interrupted"
    resumed = resume(store, run_id)
    assert resumed.mismatch is None
    assert resumed.restepped == stop_at % 4
    while resumed.algorithm.has_next():
        resumed.recorder.record(resumed.algorithm.step())
    resumed.recorder.close()
    assert_same_generation_but_time(resumed.algorithm.snapshot, live[-1])
    assert_same_record(store, run_id, live)
    assert store.run(run_id).stop_reason == live[-1].stop_reason


def assert_same_generation_but_time(final: Snapshot, live: Snapshot) -> None:
    assert final.generation == live.generation
    assert final.stop_reason == live.stop_reason
    assert np.array_equal(final.population, live.population)
    assert np.array_equal(final.fitness, live.fitness)
    assert np.array_equal(final.solutions, live.solutions)
    assert stats_row(final)[:2] == stats_row(live)[:2]
    assert stats_row(final)[3:] == stats_row(live)[3:]


STOP_RULES = {
    "solved": Config(n=16, population=8, seed=1, crossover_rate=0.5, mutation="swap"),
    "max-generations": SMALL,
    "max-evaluations": Config(n=10, population=20, seed=4, max_evals=900, stop_when_solved=False),
    "stagnation": Config(n=9, population=16, seed=5, stagnation=12, stop_when_solved=False),
    "all-found": Config(n=6, population=16, seed=6, harvest=True, stop_when_solved=False),
}


@pytest.mark.parametrize("rule", sorted(STOP_RULES))
def test_resume_equals_the_uninterrupted_run_for_every_stop_rule(
    store: RunStore, rule: str
) -> None:
    config = STOP_RULES[rule]
    live = live_run(config)
    assert live[-1].stop_reason == rule
    for stop_at in sorted({1, (len(live) - 1) // 2, len(live) - 2} - {0}):
        run_id, _, recorder = record(store, config, steps=stop_at, spacing=8)
        recorder.close()  # stopped from outside: no keyframe there, resume re-steps
        resumed = resume(store, run_id)
        while resumed.algorithm.has_next():
            resumed.recorder.record(resumed.algorithm.step())
        resumed.recorder.close()
        assert_same_generation_but_time(resumed.algorithm.snapshot, live[-1])
        assert_same_record(store, run_id, live)


def test_resume_with_a_larger_budget_continues_the_same_run(store: RunStore) -> None:
    live = live_run(SMALL.replace(generations=90))
    run_id, _, recorder = record(store, SMALL.replace(generations=50), spacing=8)
    recorder.close()
    assert store.run(run_id).status == "finished"
    with pytest.raises(StoreError, match="larger budget"):
        resume(store, run_id)
    resumed = resume(store, run_id, {"generations": 90})
    # The computing time goes on from the record's, not from the re-stepping's.
    assert resumed.algorithm.snapshot.elapsed == store.stats(run_id)["elapsed"][-1]
    while resumed.algorithm.has_next():
        resumed.recorder.record(resumed.algorithm.step())
    resumed.recorder.close()
    assert_same_generation_but_time(resumed.algorithm.snapshot, live[-1])
    assert_same_record(store, run_id, live)
    # Time travel into the part recorded before the budget was raised still works.
    assert_same_generation(Timeline(store, run_id).snapshot_at(49), live[49])


def test_a_record_that_re_stepping_does_not_reproduce_is_reported(store: RunStore) -> None:
    run_id, _, recorder = record(store, SMALL, steps=30, spacing=8)
    kill(store, recorder)
    with sqlite3.connect(store.path) as connection:
        connection.execute(
            "UPDATE stats SET mean_conflicts = mean_conflicts + 1 WHERE generation = 27"
        )
    with pytest.raises(RecordMismatch, match="generation 27 \\(mean_conflicts"):
        Timeline(store, run_id).snapshot_at(28)
    resumed = resume(store, run_id)
    assert resumed.mismatch is not None and resumed.mismatch.generation == 27
    assert resumed.algorithm.snapshot.generation == 26
    while resumed.algorithm.has_next():
        resumed.recorder.record(resumed.algorithm.step())
    resumed.recorder.close()
    assert_same_record(store, run_id, live_run(SMALL))


def damage_keyframe(store: RunStore, generation: int) -> None:
    """Overwrite a keyframe's population with zeros (not permutations)."""
    from tui.lab.npy import to_npy

    with sqlite3.connect(store.path) as connection:
        connection.execute(
            "UPDATE keyframe_arrays SET data = ? WHERE name = 'population' AND generation = ?",
            (to_npy(np.zeros((20, 10), dtype=np.int64)), generation),
        )


def test_a_damaged_keyframe_is_set_aside_for_the_one_before(store: RunStore) -> None:
    live = live_run(SMALL)
    run_id, _, recorder = record(store, SMALL, steps=10, spacing=4)
    kill(store, recorder)
    assert store.keyframe_generations(run_id) == [0, 4, 8]
    damage_keyframe(store, 8)
    timeline = Timeline(store, run_id)
    # Generation 9 comes from keyframe 4, re-stepped and checked: the same as the live run.
    assert_same_generation(timeline.snapshot_at(9), live[9])
    assert list(timeline.damaged) == [8] and "generation 8" in timeline.damaged[8]
    resumed = resume(store, run_id)
    assert resumed.mismatch is None
    assert list(resumed.damaged_keyframes) == [8]
    assert resumed.restepped == 6  # from keyframe 4 to the record's end at 10
    while resumed.algorithm.has_next():
        resumed.recorder.record(resumed.algorithm.step())
    resumed.recorder.close()
    assert_same_record(store, run_id, live)


def test_when_no_keyframe_can_be_used_the_latest_ones_damage_is_reported(
    store: RunStore,
) -> None:
    run_id, _, recorder = record(store, SMALL, steps=10, spacing=4)
    kill(store, recorder)
    for generation in (0, 4, 8):
        damage_keyframe(store, generation)
    with pytest.raises(StoreError, match="generation 8"):
        Timeline(store, run_id).snapshot_at(9)
    with pytest.raises(StoreError, match="generation 8"):
        resume(store, run_id)
    assert store.run(run_id).status == "interrupted"  # refused: the record is left as it was


def test_a_run_recorded_by_a_live_process_cannot_be_resumed_or_deleted(store: RunStore) -> None:
    run_id, _, recorder = record(store, SMALL, steps=3)
    assert store.run(run_id).status == "running"
    with pytest.raises(StoreError, match="being recorded"):
        resume(store, run_id)
    with pytest.raises(StoreError, match="being recorded"):
        store.delete_run(run_id)
    recorder.close()
    assert store.run(run_id).status == "interrupted"


def test_costly_keyframes_grow_the_spacing_and_the_record_says_so(store: RunStore) -> None:
    live = live_run(SMALL)
    # A share of 0: every keyframe costs "too much", so each grid keyframe doubles the spacing.
    run_id, _, recorder = record(store, SMALL, spacing=2, keyframe_share=0.0)
    recorder.close()
    assert recorder.spacing == 64
    assert store.run(run_id).keyframe_spacing == 64
    # The stop keyframe (60, off the grid) thins the rest to the grid of 64.
    assert store.keyframe_generations(run_id) == [0, 60]
    timeline = Timeline(store, run_id)
    for generation in (1, 33, 59, 60):
        assert_same_generation(timeline.snapshot_at(generation), live[generation])


@pytest.mark.parametrize(("n", "kind"), [(10, np.uint8), (300, np.uint16)])
def test_keyframes_keep_genes_narrow_and_give_the_same_run(
    store: RunStore, n: int, kind: type[np.unsignedinteger[Any]]
) -> None:
    config = Config(n=n, population=12, seed=5, generations=9, stop_when_solved=False)
    run_id, _, _ = record(store, config, spacing=4)
    keyframe = store.keyframe_before(run_id, 8)
    assert keyframe is not None and keyframe.generation == 8
    assert keyframe.state["population"].dtype == kind  # an eighth (a quarter) of int64's bytes
    timeline = Timeline(store, run_id)
    live = GeneticAlgorithm(config)
    for generation in range(1, 10):
        expected = live.step()
        assert (
            timeline.snapshot_at(generation).population.tobytes() == expected.population.tobytes()
        )


def test_keyframes_keep_the_solutions_found_narrow_too(store: RunStore) -> None:
    config = Config(n=6, population=30, seed=2, generations=9, stop_when_solved=False)
    run_id, algorithm, _ = record(store, config, spacing=4)
    keyframe = store.keyframe_before(run_id, 8)
    assert keyframe is not None
    solutions = keyframe.state["solutions"]
    assert solutions.shape[0] > 0 and solutions.dtype == np.uint8
    restored = Timeline(store, run_id).snapshot_at(9)
    assert restored.solutions.tobytes() == algorithm.snapshot.solutions.tobytes()
