"""Ancestry: the line of an individual back to generation 0, checked against the live run's
snapshots; the same from a recorded run, whether its lineage was kept or is re-stepped; and
how often a best descends from the best before it."""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np
import pytest
from lab_runs import live_run

from engine import Config, GeneticAlgorithm, Snapshot
from engine.lineage.lineage import COPY, CROSSED, FROM_BEST, KIND, MOSTLY_SECOND, NEW, SURVIVOR
from tui.lab.engine_state import HISTORY_LIMIT
from tui.lab.lineage import SnapshotSource, ancestry, best_descent, trace
from tui.lab.recorded_lineage import RecordedSource, snapshot_with_lineage
from tui.lab.recorder import Recorder
from tui.lab.store import RunStore
from tui.lab.timeline import Timeline

CONFIGS = {
    "default": Config(n=10, population=24, seed=5, generations=40, stop_when_solved=False),
    "crossing": Config(
        n=12, population=20, crossover_rate=0.6, seed=9, generations=30, stop_when_solved=False
    ),
    "generational": Config(
        n=8,
        population=30,
        survivor="generational",
        elitism=2,
        crossover="pmx",
        crossover_rate=0.7,
        mutation="swap",
        mutation_rate=0.3,
        seed=3,
        generations=25,
        stop_when_solved=False,
    ),
    "harvest": Config(
        n=6, population=40, harvest=True, stop_when_solved=False, seed=4, generations=30
    ),
}


def record(store: RunStore, config: Config, *, lineage: bool = True, **options: Any) -> int:
    """Record a whole run (keeping its lineage or not); returns its id."""
    algorithm = GeneticAlgorithm(config, history_limit=HISTORY_LIMIT, lineage=lineage)
    options.setdefault("keyframe_share", None)
    recorder = Recorder(store, algorithm, **options)
    while algorithm.has_next():
        recorder.record(algorithm.step())
    recorder.close()
    return recorder.run_id


def check_line(snapshots: list[Snapshot], generation: int, index: int) -> None:
    """Every ancestor as the live snapshots show it."""
    line = ancestry(SnapshotSource(snapshots), generation, index)
    assert (line[0].generation, line[0].individual) == (generation, index)
    for ancestor, below in zip(line, [*line[1:], None], strict=True):
        snapshot = snapshots[ancestor.generation]
        assert ancestor.genome == tuple(snapshot.population[ancestor.individual].tolist())
        assert ancestor.fitness == snapshot.fitness[ancestor.individual]
        assert ancestor.conflicts == snapshot.conflicts[ancestor.individual]
        lineage = snapshot.lineage
        assert lineage is not None
        first, second = lineage.parents[ancestor.individual].tolist()
        assert ancestor.parents == tuple(p for p in (first, second) if p >= 0)
        assert ancestor.operator == lineage.operator(ancestor.individual)
        flags = int(lineage.flags[ancestor.individual])
        if below is None:
            # The line ends at generation 0 or at a newcomer.
            assert flags & KIND == NEW and ancestor.followed is None
            continue
        assert below.generation == ancestor.generation - 1
        assert below.individual == ancestor.followed
        if flags & KIND == CROSSED:
            child = snapshot.population[ancestor.individual]
            before = snapshots[below.generation].population
            given = [(child == before[p]).sum() for p in (first, second)]
            expected = second if given[1] > given[0] else first
            assert ancestor.followed == expected
            assert ancestor.other == (first if expected == second else second)
        else:
            assert ancestor.followed == first and ancestor.other is None


@pytest.mark.parametrize("name", sorted(CONFIGS))
def test_the_line_is_the_live_runs(name: str) -> None:
    snapshots = live_run(CONFIGS[name])
    last = snapshots[-1]
    check_line(snapshots, last.generation, last.best_index)
    for generation in (1, last.generation // 2, last.generation):
        for index in (0, snapshots[generation].population.shape[0] - 1):
            check_line(snapshots, generation, index)
    check_line(snapshots, 0, 3)


def test_a_line_walks_through_every_kind() -> None:
    snapshots = live_run(CONFIGS["crossing"])
    kinds = set()
    for index in range(20):
        line = ancestry(SnapshotSource(snapshots), snapshots[-1].generation, index)
        kinds |= {ancestor.operator.split(" ")[0] for ancestor in line}
    assert {"survivor", "copy", "ox", "new"} <= kinds


def test_best_descent_counts_the_live_bests() -> None:
    snapshots = live_run(CONFIGS["generational"])
    from_best = bred = 0
    for before, now in itertools.pairwise(snapshots):
        lineage = now.lineage
        assert lineage is not None
        parents = lineage.parents[now.best_index].tolist()
        if before.best_index in parents:
            from_best += 1
            bred += lineage.kinds[now.best_index] in (COPY, CROSSED)
    counted = best_descent(SnapshotSource(snapshots), snapshots[-1].generation)
    assert (counted.generations, counted.from_best, counted.bred) == (
        len(snapshots) - 1,
        from_best,
        bred,
    )
    assert 0 < counted.share <= 1 and counted.bred_share <= counted.share
    last = snapshots[-1]
    assert trace(SnapshotSource(snapshots), last.generation, last.best_index).descent == counted


@pytest.mark.parametrize("kept", [True, False], ids=["kept", "re-stepped"])
@pytest.mark.parametrize("name", sorted(CONFIGS))
def test_a_replayed_ancestry_is_the_live_one(store: RunStore, name: str, kept: bool) -> None:
    config = CONFIGS[name]
    snapshots = live_run(config)
    run_id = record(store, config, lineage=kept, spacing=4)
    last = snapshots[-1]
    end = last.generation
    cases = [(end, last.best_index), (end, 1), (end // 2, 2), (max(end - 1, 0), 0), (0, 1)]
    for generation, index in cases:
        live = trace(SnapshotSource(snapshots), generation, index)
        source = RecordedSource(Timeline(store, run_id))
        assert trace(source, generation, index) == live
        # Kept in the record, or recomputed from the keyframes: never a mix here.
        assert (source.recomputed if kept else source.kept) == 0
        assert (source.kept if kept else source.recomputed) == generation


def test_a_keyframes_own_generation_gets_its_lineage_from_the_one_before(store: RunStore) -> None:
    config = CONFIGS["crossing"]
    snapshots = live_run(config)
    run_id = record(store, config, spacing=4)
    timeline = Timeline(store, run_id)
    for generation in (4, 8, 3, 12):
        replayed = snapshot_with_lineage(timeline, generation).lineage
        live = snapshots[generation].lineage
        assert replayed is not None and live is not None
        assert np.array_equal(replayed.parents, live.parents)
        assert np.array_equal(replayed.flags, live.flags)


def test_generation_0_is_its_own_line() -> None:
    snapshots = live_run(CONFIGS["default"])
    [only] = ancestry(SnapshotSource(snapshots), 0, 5)
    assert (only.generation, only.individual, only.operator, only.parents) == (0, 5, "new", ())


def test_flags_tell_the_followed_parent() -> None:
    # A crossed child mostly of its second parent is followed through that parent.
    snapshots = live_run(CONFIGS["crossing"])
    seen = False
    for snapshot in snapshots[1:]:
        lineage = snapshot.lineage
        assert lineage is not None
        for index in np.flatnonzero(lineage.flags & MOSTLY_SECOND):
            assert lineage.main_parent(int(index)) == lineage.parents[index, 1]
            seen = True
        survivors = np.flatnonzero(lineage.kinds == SURVIVOR)
        assert not (lineage.flags[survivors] & MOSTLY_SECOND).any()
        assert lineage.flags[snapshot.best_index] & FROM_BEST in (0, FROM_BEST)
    assert seen
