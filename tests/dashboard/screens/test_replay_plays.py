"""Pilot tests of a recorded run played back: space and n in the past, the form and the rerun
line of a replayed record, and jumps that say they are computing while the keys stay alive."""

from __future__ import annotations

import threading
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from engine import Config, GeneticAlgorithm, Snapshot
from tui.cli.command_line import main
from tui.dashboard.actions.travel_keys import TravelKeys
from tui.dashboard.app import QueensApp
from tui.dashboard.runs.rewind import Rewinder
from tui.dashboard.screens import HelpScreen
from tui.dashboard.screens.runs import RunsScreen
from tui.lab.store import RunStore
from tui.lab.timeline import Timeline

WaitFor = Callable[..., Awaitable[None]]

RECORDED = Config(n=12, population=20, seed=5, generations=30, stop_when_solved=False)
"""The run on record (its last generation: 30)."""
OTHER = Config(n=9, population=14, seed=77)
"""What the form held before the record was opened."""


def record_run(path: Path, config: Config = RECORDED) -> None:
    from tui.lab.engine_state import new_algorithm
    from tui.lab.recorder import Recorder

    with RunStore.open(path) as store:
        algorithm = new_algorithm(config)
        recorder = Recorder(store, algorithm)
        while algorithm.has_next():
            recorder.record(algorithm.step())
        recorder.close()


def stored_generations(path: Path) -> list[Snapshot]:
    """Every generation of run 1 as the store gives it back (recorded statistics)."""
    with RunStore.open(path) as store:
        timeline = Timeline(store, 1)
        return [timeline.snapshot_at(g) for g in range(timeline.last_generation + 1)]


def live_generations(config: Config) -> list[Snapshot]:
    algorithm = GeneticAlgorithm(config)
    return [algorithm.snapshot] + [algorithm.step() for _ in range(config.generations or 0)]


def assert_same(shown: Snapshot, stored: Snapshot, live: Snapshot) -> None:
    """The generation shown is the record's, bit for bit, and the live run's."""
    assert shown.generation == stored.generation == live.generation
    for name in ("population", "fitness", "conflicts"):
        assert np.array_equal(getattr(shown, name), getattr(stored, name))
        assert np.array_equal(getattr(shown, name), getattr(live, name))
    assert shown.stats == stored.stats
    assert shown.best_index == live.best_index


def shown_generation(app: QueensApp) -> int:
    """The generation on screen (-1: none yet)."""
    latest = app.main_screen.run.latest
    return -1 if latest is None else latest.generation


def status_text(app: QueensApp) -> str:
    return str(app.main_screen.status.render()).replace("\xa0", " ")


def frames_shown(app: QueensApp, monkeypatch: pytest.MonkeyPatch) -> list[Snapshot]:
    """Every generation the screen accepts from now on, in order."""
    keys = app.main_screen.travel_keys
    shown: list[Snapshot] = []
    original = keys.show_travelled

    def spy(message: TravelKeys.Travelled) -> None:
        original(message)
        latest = app.main_screen.run.latest
        if message.snapshot is not None and latest is message.snapshot:
            shown.append(message.snapshot)

    monkeypatch.setattr(keys, "show_travelled", spy)
    return shown


async def open_replay_at(app: QueensApp, pilot: Any, wait_for: WaitFor, generation: int) -> None:
    await wait_for(pilot, lambda: app.main_screen.travel.replay_only, "replay mode")
    await wait_for(pilot, lambda: shown_generation(app) == 30, "the record's end")
    await pilot.press("g", *str(generation), "enter")
    await wait_for(pilot, lambda: shown_generation(app) == generation, f"generation {generation}")


async def test_space_plays_the_record_back_to_its_end(
    tmp_path: Path, wait_for: WaitFor, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "r.sqlite3"
    record_run(path)
    stored, live = stored_generations(path), live_generations(RECORDED)
    app = QueensApp(RECORDED, frozen_clock=True, record=True, store=str(path), replay=1)
    async with app.run_test(size=(100, 32)) as pilot:
        await open_replay_at(app, pilot, wait_for, 0)
        shown = frames_shown(app, monkeypatch)
        await pilot.press("space")
        await wait_for(pilot, lambda: shown_generation(app) == 30, "played to the end")
        await wait_for(pilot, lambda: not app.main_screen.travel.playing, "stopped at the end")
        assert shown and [s.generation for s in shown] == sorted({s.generation for s in shown})
        for snapshot in shown:
            assert_same(snapshot, stored[snapshot.generation], live[snapshot.generation])
        assert "REPLAY gen 30 / 30" in status_text(app)
        assert app.main_screen.run.state == "paused"
        messages = [n.message for n in app._notifications]
        assert any("End of the record" in m for m in messages)
        assert not any("The run is over" in m for m in messages)
        await pilot.press("space")  # at the end: says so, plays nothing
        await pilot.pause(0.1)
        assert shown_generation(app) == 30 and not app.main_screen.travel.playing


async def test_space_pauses_a_play_back_at_the_speed_limit(
    tmp_path: Path, wait_for: WaitFor
) -> None:
    path = tmp_path / "r.sqlite3"
    record_run(path)
    stored, live = stored_generations(path), live_generations(RECORDED)
    app = QueensApp(RECORDED, frozen_clock=True, record=True, store=str(path), replay=1)
    async with app.run_test(size=(100, 32)) as pilot:
        await open_replay_at(app, pilot, wait_for, 2)
        for _ in range(4):
            await pilot.press("minus")  # down to the slowest limit: 1 generation a second
        assert app.main_screen.runner.speed_limit == 1.0
        await pilot.press("space")
        await wait_for(pilot, lambda: shown_generation(app) == 3, "the first generation played")
        assert app.main_screen.travel.playing and "REPLAY ▶ gen 3 / 30" in status_text(app)
        await pilot.press("space")
        paused_at = shown_generation(app)
        assert not app.main_screen.travel.playing
        assert f"REPLAY gen {paused_at} / 30" in status_text(app)
        await pilot.pause(1.3)  # a tick and more: nothing more is played
        assert not app.main_screen.travel.playing and shown_generation(app) == paused_at
        latest = app.main_screen.run.latest
        assert latest is not None
        assert_same(latest, stored[paused_at], live[paused_at])


async def test_n_steps_one_recorded_generation(tmp_path: Path, wait_for: WaitFor) -> None:
    path = tmp_path / "r.sqlite3"
    record_run(path)
    stored, live = stored_generations(path), live_generations(RECORDED)
    app = QueensApp(RECORDED, frozen_clock=True, record=True, store=str(path), replay=1)
    async with app.run_test(size=(100, 32)) as pilot:
        await open_replay_at(app, pilot, wait_for, 0)
        for generation in (1, 2, 3):
            await pilot.press("n")
            await wait_for(pilot, lambda: shown_generation(app) == generation, "one step")  # noqa: B023
            latest = app.main_screen.run.latest
            assert latest is not None
            assert_same(latest, stored[generation], live[generation])
            assert f"REPLAY gen {generation} / 30" in status_text(app)
        await pilot.press("g", "2", "9", "enter")
        await wait_for(pilot, lambda: shown_generation(app) == 29, "generation 29")
        await pilot.press("n", "n")
        await wait_for(pilot, lambda: shown_generation(app) == 30, "the last generation")
        await pilot.pause(0.1)
        messages = [n.message for n in app._notifications]
        assert any("The record ends at generation 30" in m for m in messages)
        assert not any("The run is over" in m for m in messages)


def form_values(app: QueensApp) -> dict[str, str]:
    return app.main_screen.form.values()


async def test_a_replay_puts_the_records_config_in_the_form(
    tmp_path: Path, wait_for: WaitFor
) -> None:
    path = tmp_path / "r.sqlite3"
    record_run(path)
    app = QueensApp(OTHER, frozen_clock=True, record=True, store=str(path), replay=1)
    async with app.run_test(size=(100, 32)) as pilot:
        await wait_for(pilot, lambda: app.main_screen.travel.replay_only, "replay mode")
        await wait_for(pilot, lambda: form_values(app)["n"] == "12", "the record's N")
        values = form_values(app)
        assert (values["population"], values["seed"], values["generations"]) == ("20", "5", "30")
        assert app.main_screen.form.config() == RECORDED
        await pilot.press("r")  # a new run of the record's config, not of the form's old one
        await wait_for(pilot, lambda: app.main_screen.runner.algorithm is not None, "a run")
        algorithm = app.main_screen.runner.algorithm
        assert algorithm is not None and algorithm.config == RECORDED


async def test_l_and_enter_put_the_records_config_in_the_form(
    tmp_path: Path, wait_for: WaitFor
) -> None:
    path = tmp_path / "r.sqlite3"
    record_run(path)
    app = QueensApp(OTHER, frozen_clock=True, record=True, store=str(path))
    async with app.run_test(size=(100, 32)) as pilot:
        assert form_values(app)["n"] == "9"
        await pilot.press("l")
        await wait_for(pilot, lambda: isinstance(app.screen, RunsScreen), "the runs screen")
        await pilot.press("enter")  # the only run: this app's is recorded from its first step
        await wait_for(pilot, lambda: app.main_screen.travel.replay_only, "replay mode")
        await wait_for(pilot, lambda: form_values(app)["n"] == "12", "the record's N")
        assert app.main_screen.form.config() == RECORDED


def show_rerun_line(path: Path, capsys: pytest.CaptureFixture[str]) -> str:
    """The ``rerun`` line of ``queens show 1``."""
    capsys.readouterr()
    assert main(["show", "1", "--store", str(path)]) == 0
    lines = [line for line in capsys.readouterr().out.splitlines() if "rerun" in line]
    assert len(lines) == 1
    return lines[0].split("rerun", 1)[1].strip()


async def test_the_rerun_line_of_a_replay_is_queens_shows(
    tmp_path: Path, wait_for: WaitFor, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "r.sqlite3"
    record_run(path)
    expected = show_rerun_line(path, capsys)
    assert expected.startswith("queens solve ") and "--seed 5" in expected
    app = QueensApp(OTHER, frozen_clock=True, record=True, store=str(path), replay=1)
    async with app.run_test(size=(100, 32)) as pilot:
        await wait_for(pilot, lambda: shown_generation(app) == 30, "the record's end")
        assert app.main_screen.run_command() == expected
        await pilot.press("question_mark")
        await wait_for(pilot, lambda: isinstance(app.screen, HelpScreen), "the help screen")
        assert isinstance(app.screen, HelpScreen)
        assert ("This run", f"reruns bit for bit: {expected}") in app.screen.notes


async def test_a_jump_says_it_is_computing_and_the_keys_stay_alive(
    tmp_path: Path, wait_for: WaitFor, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "r.sqlite3"
    record_run(path)
    stored, live = stored_generations(path), live_generations(RECORDED)
    app = QueensApp(RECORDED, frozen_clock=True, record=True, store=str(path), replay=1)
    async with app.run_test(size=(100, 32)) as pilot:
        await wait_for(pilot, lambda: shown_generation(app) == 30, "the record's end")
        released = threading.Event()
        asked: list[int] = []
        computing = Rewinder.snapshot_at

        def slow(self: Rewinder, generation: int, *args: Any, **kwargs: Any) -> Snapshot:
            asked.append(generation)
            released.wait(20)  # a jump that takes its time, as at P = 200,000
            return computing(self, generation, *args, **kwargs)

        monkeypatch.setattr(Rewinder, "snapshot_at", slow)
        shown = frames_shown(app, monkeypatch)
        await pilot.press("left_curly_bracket")
        await pilot.pause(0.1)
        assert shown_generation(app) == 30  # still the old generation...
        assert "computing gen 20…" in status_text(app)  # ...and it says what is coming
        metric = app.main_screen.plot.metric
        await pilot.press("c")  # other keys act meanwhile
        assert app.main_screen.plot.metric != metric
        await pilot.press("left_curly_bracket")  # a newer jump replaces the one waiting
        await pilot.pause(0.05)
        assert "computing gen 10…" in status_text(app)
        released.set()
        await wait_for(pilot, lambda: shown_generation(app) == 10, "generation 10")
        await pilot.pause(0.1)
        assert [s.generation for s in shown] == [10]  # 20 was never painted
        assert asked[-1] == 10 and asked.count(10) == 1
        latest = app.main_screen.run.latest
        assert latest is not None
        assert_same(latest, stored[10], live[10])
        assert "computing" not in status_text(app) and "REPLAY gen 10 / 30" in status_text(app)


async def test_space_in_the_past_of_a_live_run_plays_into_the_live_run(
    tmp_path: Path, wait_for: WaitFor
) -> None:
    endless = RECORDED.replace(generations=None)
    app = QueensApp(endless, frozen_clock=True, record=True, store=str(tmp_path / "r.sqlite3"))
    async with app.run_test(size=(100, 32)) as pilot:
        for _ in range(12):
            await pilot.press("n")
        await wait_for(pilot, lambda: shown_generation(app) == 12, "12 steps")
        await pilot.press("left_curly_bracket")
        await wait_for(pilot, lambda: shown_generation(app) == 2, "ten back")
        await pilot.press("n")  # one recorded generation
        await wait_for(pilot, lambda: shown_generation(app) == 3, "a recorded step")
        assert app.main_screen.travel.active and not app.main_screen.runner.running
        await pilot.press("space")  # plays the record, then the live run goes on
        await wait_for(pilot, lambda: not app.main_screen.travel.active, "live again")
        await wait_for(pilot, lambda: shown_generation(app) > 13, "the live run going on")
        assert app.main_screen.runner.running and app.main_screen.run.state == "running"
        await pilot.press("space")
        await wait_for(pilot, lambda: not app.main_screen.runner.running, "paused")
        latest = app.main_screen.run.latest
        assert latest is not None
        live = live_generations(endless.replace(generations=latest.generation))
        assert np.array_equal(latest.population, live[-1].population)  # the same run
