"""The selection-pressure view: live (``i``), on a recorded run reached by time travel (the same
measure as the live run's, a keyframe's generation re-stepped for it), marks and words, and a
series that stays bounded."""

from __future__ import annotations

import math
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest
from textual.app import App, ComposeResult

from engine import Config, GeneticAlgorithm, SelectionPressure
from tui.dashboard.app import QueensApp
from tui.dashboard.palette import palette_commands
from tui.dashboard.runs import pressure_series
from tui.dashboard.runs.pressure_series import PressureSeries, columns_of, with_selection
from tui.dashboard.runs.rewind import Rewinder
from tui.dashboard.widgets import FitnessPlot
from tui.lab.engine_state import new_algorithm
from tui.lab.recorder import Recorder
from tui.lab.store import RunStore
from tui.lab.timeline import Timeline

WaitFor = Callable[..., Awaitable[None]]

RECORDED = Config(n=12, population=20, seed=5, generations=30, stop_when_solved=False)


def live_measures(config: Config) -> dict[int, SelectionPressure]:
    """Every generation's measure, as the live run published it."""
    algorithm = GeneticAlgorithm(config)
    measures = {}
    while algorithm.has_next():
        snapshot = algorithm.step()
        assert snapshot.selection is not None
        measures[snapshot.generation] = snapshot.selection
    return measures


def record(path: Path, spacing: int = 16) -> None:
    with RunStore.open(path) as store:
        algorithm = new_algorithm(RECORDED)
        recorder = Recorder(store, algorithm, spacing=spacing, keyframe_share=None)
        while algorithm.has_next():
            recorder.record(algorithm.step())
        recorder.close()


def chart_lines(plot: FitnessPlot) -> list[str]:
    return [plot.render_line(y).text for y in range(plot.size.height)]


def shown_generation(app: QueensApp) -> int:
    latest = app.main_screen.run.latest
    return -1 if latest is None else latest.generation


async def test_i_shows_measured_and_expected_intensity_live(wait_for: WaitFor) -> None:
    app = QueensApp(Config(n=16, population=60, seed=5, stop_when_solved=False), frozen_clock=True)
    async with app.run_test(size=(100, 32)) as pilot:
        screen, plot = app.main_screen, app.main_screen.plot
        await pilot.press("i")
        assert plot.metric == "pressure"
        lines = chart_lines(plot)
        assert "measured from the run's next generation" in " ".join(lines), lines
        for generation in range(1, 7):
            await pilot.press("n")
            await wait_for(pilot, lambda g=generation: shown_generation(app) == g, "a step")
        screen.painter.repaint(force=True)
        await pilot.pause()
        rows = screen.run.pressure.rows()
        assert [g for g, _ in rows] == [1, 2, 3, 4, 5, 6]
        assert rows[-1][1] == screen.run.latest.selection  # type: ignore[union-attr]
        lines = chart_lines(plot)
        text = "\n".join(lines)
        assert lines[0].startswith("intensity") and "expected" in lines[0], lines
        latest = rows[-1][1]
        assert (
            f"gen 6: I {latest.intensity:.3f}, expected {latest.expected_intensity:.3f}"
            in (lines[1])
        )
        assert "picked by no one" in text and "100%┤" in text
        words = " ".join(line.strip() for line in lines)
        assert f"the best is picked {latest.best_ratio:.2f} times as often as an average" in words
        assert lines[-1].split()[0] == "1" and lines[-1].split()[-1] == "6"
        # ``i`` again: back to the view shown before; the palette offers it too.
        await pilot.press("i")
        assert plot.metric == "fitness"
        commands = {command.name: command for command in palette_commands(screen, app)}
        assert "Pressure" in commands


class PlotHost(App[None]):
    def compose(self) -> ComposeResult:
        yield FitnessPlot()

    def on_mount(self) -> None:
        self.stylesheet.add_source("FitnessPlot { width: 62; height: 24; }")


def pressure(intensity: float, expected: float = 0.5) -> SelectionPressure:
    return SelectionPressure("tournament", 100, intensity, expected, 0.05, 0.4, 0.41, 2.0, 3.0)


async def test_a_generation_far_from_its_expectation_is_marked_under_its_column() -> None:
    app = PlotHost()
    async with app.run_test(size=(70, 26)) as pilot:
        plot = app.query_one(FitnessPlot)
        plot.toggle_pressure()
        rows = [(g, pressure(0.5 if g != 31 else 0.9)) for g in range(1, 41)]
        marked = [float(g) for g, p in rows if p.marked]
        assert marked == [31.0]
        plot.show_pressure(columns_of(rows), marked, rows[-1])
        await pilot.pause()
        lines = chart_lines(plot)
        mark_rows = [line for line in lines if "▲" in line]
        assert len(mark_rows) == 1 and mark_rows[0].count("▲") == 1, lines
        # At 30/39 of the way across the plot's columns.
        gutter = next(line.index("┤") for line in lines if "┤" in line) + 1
        plot_width = 62 - gutter - 2
        assert mark_rows[0].index("▲") - gutter == round(30 / 39 * (plot_width - 1))
        plot.show_pressure(columns_of(rows[:30]), [], rows[29])
        await pilot.pause()
        assert not any("▲" in line for line in chart_lines(plot))
        plot.show_pressure(columns_of(rows), marked, rows[30])
        await pilot.pause()
        assert "(+8.0 sd) MARKED" in chart_lines(plot)[1]


async def test_a_recorded_run_shows_the_live_measure_at_a_keyframe_and_after(
    tmp_path: Path, wait_for: WaitFor
) -> None:
    path = tmp_path / "r.sqlite3"
    record(path)
    live = live_measures(RECORDED)
    app = QueensApp(RECORDED, frozen_clock=True, record=True, store=str(path), replay=1)
    async with app.run_test(size=(100, 32)) as pilot:
        screen = app.main_screen
        await wait_for(pilot, lambda: shown_generation(app) == 30, "the record's end")
        await pilot.press("i")
        await pilot.press("g", "1", "6", "enter")  # a keyframe's generation
        await wait_for(pilot, lambda: shown_generation(app) == 16, "generation 16")
        await pilot.press("n")
        await wait_for(pilot, lambda: shown_generation(app) == 17, "generation 17")
        await wait_for(pilot, lambda: 16 in dict(screen.travel.pressure.rows()), "16 measured")
        kept = dict(screen.travel.pressure.rows())
        assert kept[16] == live[16] and kept[17] == live[17]
        screen.painter.repaint(force=True)
        await pilot.pause()
        assert screen.plot.pressure.latest == (17, live[17])
        await pilot.press("g", "0", "enter")
        await wait_for(pilot, lambda: shown_generation(app) == 0, "generation 0")
        await wait_for(
            pilot,
            lambda: "no one was selected yet" in " ".join(chart_lines(screen.plot)),
            "the gen 0 note",
        )


def test_generations_reached_backwards_measure_as_live(tmp_path: Path) -> None:
    path = tmp_path / "r.sqlite3"
    record(path, spacing=4)
    live = live_measures(RECORDED)
    with RunStore.open(path) as store:
        rewinder = Rewinder(Timeline(store, 1))
        restored = 0
        for generation in range(30, 0, -1):
            snapshot = rewinder.snapshot_at(generation)
            restored += snapshot.selection is None
            assert with_selection(snapshot, rewinder).selection == live[generation]
        assert restored > 0
        assert with_selection(rewinder.snapshot_at(0), rewinder).selection is None


def test_the_series_stays_bounded_and_keeps_the_newest(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pressure_series, "LIMIT", 8)
    series = PressureSeries()
    algorithm = GeneticAlgorithm(RECORDED)
    while algorithm.has_next():
        series.keep(algorithm.step())
    generations = [g for g, _ in series.rows()]
    assert len(generations) <= 8 and generations[-1] == 30
    assert all(not math.isnan(p.intensity) for _, p in series.rows())
    assert [g for g, _ in series.rows(upto=20)] == [g for g in generations if g <= 20]
