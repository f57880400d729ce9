"""Pilot tests of the dashboard's run records: recording, time travel, replay, load, export."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path

import numpy as np
import pytest

from engine import Config, GeneticAlgorithm, Snapshot
from tui.dashboard.app import QueensApp
from tui.dashboard.screens.export import ExportScreen
from tui.dashboard.screens.runs import RunsScreen
from tui.lab.store import RunStore

WaitFor = Callable[..., Awaitable[None]]

ENDLESS = Config(n=12, population=20, seed=5, stop_when_solved=False)


def live_generations(config: Config, count: int) -> list[Snapshot]:
    algorithm = GeneticAlgorithm(config)
    return [algorithm.snapshot] + [algorithm.step() for _ in range(count)]


def assert_shows(app: QueensApp, expected: Snapshot) -> None:
    shown = app.main_screen.run.latest
    assert shown is not None and shown.generation == expected.generation
    assert np.array_equal(shown.population, expected.population)
    assert np.array_equal(shown.conflicts, expected.conflicts)
    table = app.main_screen.painter.table_snapshot
    assert table is shown  # the table shows the past generation too


def shown_generation(app: QueensApp) -> int:
    latest = app.main_screen.run.latest
    assert latest is not None
    return latest.generation


def status_text(app: QueensApp) -> str:
    return str(app.main_screen.status.render()).replace("\xa0", " ")


async def test_time_travel_keys_show_past_generations_exactly(
    tmp_path: Path, wait_for: WaitFor
) -> None:
    live = live_generations(ENDLESS, 25)
    app = QueensApp(ENDLESS, frozen_clock=True, record=True, store=str(tmp_path / "r.sqlite3"))
    async with app.run_test(size=(100, 32)) as pilot:
        assert app.main_screen.recording.run_id is None  # recorded from its first step
        for _ in range(25):
            await pilot.press("n")
        await wait_for(pilot, lambda: shown_generation(app) == 25, "25 steps")
        assert app.main_screen.recording.run_id == 1 and "run 1" in status_text(app)
        await pilot.press("left_square_bracket")
        await wait_for(pilot, lambda: shown_generation(app) == 24, "one back")
        assert_shows(app, live[24])
        assert "REPLAY gen 24 / 25" in status_text(app)
        assert app.main_screen.run.state == "paused"
        await pilot.press("left_curly_bracket", "left_curly_bracket")
        await wait_for(pilot, lambda: shown_generation(app) == 4, "twenty back")
        assert_shows(app, live[4])
        await pilot.press("t", "down", "enter")  # inspect an individual of the past
        await pilot.pause(0.1)
        assert (
            app.main_screen.run.inspected is not None
            and app.main_screen.run.inspected[0].generation == 4
        )
        await pilot.press("right_square_bracket")
        await wait_for(pilot, lambda: shown_generation(app) == 5, "one forward")
        assert_shows(app, live[5])
        await pilot.press("g")
        await pilot.press(*"17", "enter")
        await wait_for(pilot, lambda: shown_generation(app) == 17, "go to 17")
        assert_shows(app, live[17])
        await pilot.press("end")
        await wait_for(pilot, lambda: not app.main_screen.travel.active, "live again")
        assert shown_generation(app) == 25 and "REPLAY" not in status_text(app)
        await pilot.press("n")  # the run goes on, recorded
        await wait_for(pilot, lambda: shown_generation(app) == 26, "a step after travel")
    with RunStore.open(tmp_path / "r.sqlite3") as store:
        info = store.run(1)
        assert info.status == "interrupted" and info.generations == 26


async def test_an_unrecorded_run_says_there_is_nothing_to_go_back_to(
    tmp_path: Path, wait_for: WaitFor
) -> None:
    app = QueensApp(ENDLESS, frozen_clock=True, record=False, store=str(tmp_path / "r.sqlite3"))
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.press("n")
        await wait_for(pilot, lambda: shown_generation(app) == 1, "a step")
        await pilot.press("left_square_bracket")
        await pilot.pause(0.1)
        assert not app.main_screen.travel.active and shown_generation(app) == 1
    assert not (tmp_path / "r.sqlite3").exists()


def record_finished_run(path: Path) -> list[Snapshot]:
    from tui.lab.engine_state import new_algorithm
    from tui.lab.recorder import Recorder

    config = ENDLESS.replace(generations=30)
    with RunStore.open(path) as store:
        algorithm = new_algorithm(config)
        recorder = Recorder(store, algorithm)
        while algorithm.has_next():
            recorder.record(algorithm.step())
        recorder.close()
    return live_generations(config, 30)


async def test_replay_opens_a_recorded_run_at_its_end(tmp_path: Path, wait_for: WaitFor) -> None:
    path = tmp_path / "r.sqlite3"
    live = record_finished_run(path)
    app = QueensApp(ENDLESS, frozen_clock=True, record=True, store=str(path), replay=1)
    async with app.run_test(size=(100, 32)) as pilot:
        await wait_for(
            pilot,
            lambda: app.main_screen.run.latest is not None and app.main_screen.travel.active,
            "replay",
        )
        await wait_for(pilot, lambda: shown_generation(app) == 30, "the last generation")
        assert_shows(app, live[30])
        assert "REPLAY gen 30 / 30" in status_text(app)
        assert len(app.main_screen.run.series) == 31  # the chart has the recorded history
        await pilot.press("left_curly_bracket")
        await wait_for(pilot, lambda: shown_generation(app) == 20, "ten back")
        assert_shows(app, live[20])
        await pilot.press("end")
        await wait_for(pilot, lambda: shown_generation(app) == 30, "back to the end")


async def test_a_damaged_keyframe_is_set_aside_with_a_warning(
    tmp_path: Path, wait_for: WaitFor
) -> None:
    import sqlite3

    path = tmp_path / "r.sqlite3"
    live = record_finished_run(path)
    with RunStore.open(path) as store:
        kept = store.keyframe_generations(1)
    damaged = kept[-1]
    assert len(kept) > 1 and damaged > 0  # an earlier keyframe remains
    with sqlite3.connect(path) as connection:
        connection.execute(
            "UPDATE keyframe_arrays SET data = x'00' WHERE name = 'population' AND generation = ?",
            (damaged,),
        )
    app = QueensApp(ENDLESS, frozen_clock=True, record=True, store=str(path), replay=1)
    async with app.run_test(size=(100, 32)) as pilot:
        await wait_for(
            pilot,
            lambda: app.main_screen.run.latest is not None and app.main_screen.travel.active,
            "replay",
        )
        await wait_for(pilot, lambda: shown_generation(app) == 30, "the last generation")
        assert_shows(app, live[30])  # exact all the same, re-stepped from an earlier keyframe

        def warnings() -> list[str]:
            return [n.message for n in app._notifications if n.severity == "warning"]

        # Said as the record is read: on a busy machine a moment after the generation shows.
        await wait_for(pilot, lambda: bool(warnings()), "the warning")
        said = warnings()
        assert len(said) == 1 and f"generation {damaged}" in said[0]


async def test_l_lists_the_runs_and_enter_replays_one(tmp_path: Path, wait_for: WaitFor) -> None:
    path = tmp_path / "r.sqlite3"
    live = record_finished_run(path)
    app = QueensApp(ENDLESS, frozen_clock=True, record=True, store=str(path))
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.press("l")
        await wait_for(pilot, lambda: isinstance(app.screen, RunsScreen), "the runs screen")
        await pilot.press("enter")  # the only run: this app's is recorded from its first step
        await wait_for(pilot, lambda: app.main_screen.travel.replay_only, "replay mode")
        await wait_for(pilot, lambda: shown_generation(app) == 30, "run 1's end")
        assert_shows(app, live[30])


async def test_e_exports_the_history_and_the_screen(
    tmp_path: Path, wait_for: WaitFor, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    app = QueensApp(ENDLESS, frozen_clock=True, record=True, store=str(tmp_path / "r.sqlite3"))
    async with app.run_test(size=(100, 32)) as pilot:
        for _ in range(3):
            await pilot.press("n")
        await wait_for(pilot, lambda: shown_generation(app) == 3, "three steps")
        await pilot.press("e")
        await wait_for(pilot, lambda: isinstance(app.screen, ExportScreen), "the export screen")
        await pilot.press("enter")  # the folder offered: the downloads folder
        downloads = Path.home() / "Downloads"
        csv_file, svg_file = downloads / "queens-run-1.csv", downloads / "queens-run-1.svg"
        await wait_for(pilot, lambda: csv_file.exists() and svg_file.exists(), "the files")
    lines = csv_file.read_text().splitlines()
    assert lines[0].startswith("generation,") and len(lines) == 5
    assert svg_file.read_text().startswith("<svg")


async def test_c_in_the_run_list_continues_a_run_in_the_same_record(
    tmp_path: Path, wait_for: WaitFor
) -> None:
    from tui.lab.engine_state import new_algorithm
    from tui.lab.recorder import Recorder

    path = tmp_path / "r.sqlite3"
    with RunStore.open(path) as store:
        algorithm = new_algorithm(ENDLESS)
        recorder = Recorder(store, algorithm, keyframe_share=None)
        for _ in range(20):
            recorder.record(algorithm.step())
        recorder.close()
    live = live_generations(ENDLESS, 23)
    app = QueensApp(ENDLESS, frozen_clock=True, record=False, store=str(path))
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.press("l")
        await wait_for(pilot, lambda: isinstance(app.screen, RunsScreen), "the runs screen")
        await pilot.press("c")
        await wait_for(pilot, lambda: shown_generation(app) == 20, "run 1 at generation 20")
        assert "run 1" in status_text(app)
        for _ in range(3):
            await pilot.press("n")
        await wait_for(pilot, lambda: shown_generation(app) == 23, "three more generations")
        assert_shows(app, live[23])
        app.main_screen.painter.repaint(force=True)
        assert app.main_screen.run.series.columns["mean_fitness"] == [
            s.stats.mean_fitness for s in live[:24]
        ]
        await pilot.press("left_square_bracket")
        await wait_for(pilot, lambda: shown_generation(app) == 22, "one back, in the same run")
        assert_shows(app, live[22])
    with RunStore.open(path) as store:
        assert store.run(1).generations == 23
        assert store.stats(1)["mean_fitness"].tolist() == [s.stats.mean_fitness for s in live[:24]]
