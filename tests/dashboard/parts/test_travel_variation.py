"""The variation measured backwards from a record: the same figures as live, bounded, explained
from keyframes where the lineage was not kept, each row once up to the generation shown."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import numpy as np
import pytest

from tests.dashboard.explained_runs import RECORDED, measured_live, rows_of
from tui.dashboard.runs import variation_series
from tui.dashboard.runs.rewind import Rewinder
from tui.dashboard.runs.travel_variation import TravelVariation, shown_columns
from tui.dashboard.runs.variation_series import COLUMNS
from tui.lab.engine_state import new_algorithm
from tui.lab.recorder import Recorder
from tui.lab.store import RunStore
from tui.lab.timeline import Timeline


def test_generations_reached_backwards_measure_as_live_and_stay_bounded(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    live = measured_live(RECORDED)
    path = tmp_path / "r.sqlite3"
    with RunStore.open(path) as store:
        recorded = new_algorithm(RECORDED)
        recorder = Recorder(store, recorded, spacing=4, keyframe_share=None)  # 0, 4, 8, ...
        while recorded.has_next():
            recorder.record(recorded.step())
        recorder.close()
        assert store.keyframe_generations(1) == [*range(0, 31, 4), 30]
        monkeypatch.setattr(variation_series, "LIMIT", 8)
        timeline = Timeline(store, 1)
        rewinder = Rewinder(timeline)
        variation = TravelVariation()
        variation.reset(timeline)
        variation.enabled = True
        restored = 0
        # Backwards: each generation is restored from a keyframe or a state kept on the way,
        # most without their lineage, and re-stepped from the generation before for it.
        for generation in range(30, 0, -1):
            snapshot = rewinder.snapshot_at(generation)
            restored += snapshot.lineage is None
            variation.explain(snapshot, rewinder)
            assert variation.columns()["generation"][0] == generation
        assert restored > 0
        measured = variation.columns()
        assert len(measured["generation"]) <= 8
        kept = [int(g) for g in measured["generation"]]
        np.testing.assert_array_equal(rows_of(measured, kept), rows_of(live.columns(), kept))
        assert variation.note(1) is None and not variation.wants(1)


def test_a_record_kept_without_its_lineage_is_explained_from_its_keyframes(
    tmp_path: Path,
) -> None:
    live = measured_live(RECORDED)
    path = tmp_path / "r.sqlite3"
    with RunStore.open(path) as store:
        recorded = new_algorithm(RECORDED)
        recorder = Recorder(store, recorded)
        while recorded.has_next():
            recorder.record(recorded.step())
        recorder.close()
    # As a store written before lineage was kept: no lineage table at all.
    with sqlite3.connect(path) as connection:
        connection.execute("DROP TABLE lineage")
    with RunStore.open(path) as store:
        assert list(store.lineage_pieces(1, 30)) == []
        timeline = Timeline(store, 1)
        rewinder = Rewinder(timeline)
        variation = TravelVariation()
        variation.reset(timeline)
        variation.enabled = True
        for generation in range(31):
            variation.explain(rewinder.snapshot_at(generation), rewinder)
        generations = list(range(1, 31))
        np.testing.assert_array_equal(
            rows_of(variation.columns(), generations), rows_of(live.columns(), generations)
        )
        note = variation.note(0)
        assert note is not None and "first population" in note[0]


def test_the_past_shows_the_rows_up_to_the_generation_shown_once_each() -> None:
    live = {name: [1.0, 2.0, 5.0] if name == "generation" else [0.1, 0.2, 0.5] for name in COLUMNS}
    travelled = {name: [2.0, 3.0] if name == "generation" else [0.2, 0.3] for name in COLUMNS}
    columns = shown_columns(3, live, travelled)
    assert columns["generation"] == [1.0, 2.0, 3.0]
    assert columns["previous"] == [0.1, 0.2, 0.3]
