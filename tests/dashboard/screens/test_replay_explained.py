"""Pilot tests of diversity explained on a recorded run: played back, stepped and reached by
time travel, the chart shows the figures the live run measured for the same generations, and
says in words why a generation has none."""

from __future__ import annotations

import sqlite3
from collections.abc import Awaitable, Callable
from pathlib import Path

import numpy as np
import pytest

from engine import Config
from tests.dashboard.explained_runs import RECORDED, measured_live, rows_of
from tui.dashboard.app import QueensApp
from tui.dashboard.runs.variation_series import COLUMNS

WaitFor = Callable[..., Awaitable[None]]


def shown_generation(app: QueensApp) -> int:
    latest = app.main_screen.run.latest
    return -1 if latest is None else latest.generation


async def step_live(
    app: QueensApp, pilot: object, wait_for: WaitFor, last: int, *, shown_from: int = 0
) -> None:
    """Step a live run with ``n`` up to generation ``last``, diversity explained shown from
    generation ``shown_from`` on (0: never)."""
    for generation in range(1, last + 1):
        if generation == shown_from:
            await show_explained(app, pilot, wait_for)
        await pilot.press("n")  # type: ignore[attr-defined]
        await wait_for(pilot, lambda g=generation: shown_generation(app) == g, "a step")


def chart_lines(app: QueensApp) -> list[str]:
    plot = app.main_screen.plot
    return [plot.render_line(y).text for y in range(plot.size.height)]


async def show_explained(app: QueensApp, pilot: object, wait_for: WaitFor) -> None:
    """Switch the chart to diversity explained, and wait for the frame that turns the
    measuring on."""
    screen = app.main_screen
    while screen.plot.metric != "explained":
        await pilot.press("c")  # type: ignore[attr-defined]
    # The frame that turns the live measuring on turns time travel's on too.
    await wait_for(pilot, lambda: screen.run.variation.enabled, "the measuring on")


async def live_figures(path: Path, wait_for: WaitFor) -> dict[str, list[float]]:
    """Record run 1 from a live dashboard, diversity explained shown from generation 0 on:
    the figures it measured, every generation."""
    app = QueensApp(RECORDED, frozen_clock=True, record=True, store=str(path))
    async with app.run_test(size=(100, 32)) as pilot:
        screen = app.main_screen
        while screen.plot.metric != "explained":
            await pilot.press("c")
        await wait_for(pilot, lambda: screen.run.variation.enabled, "the measuring on")
        await pilot.press("space")
        await wait_for(pilot, lambda: screen.run.state in ("stopped", "solved"), "the end")
        columns = screen.run.variation.columns()
    assert columns["generation"] == [float(g) for g in range(1, 31)]
    return columns


async def test_a_played_record_shows_the_figures_the_live_run_measured(
    tmp_path: Path, wait_for: WaitFor
) -> None:
    path = tmp_path / "r.sqlite3"
    live = await live_figures(path, wait_for)
    app = QueensApp(RECORDED, frozen_clock=True, record=True, store=str(path), replay=1)
    async with app.run_test(size=(100, 32)) as pilot:
        screen = app.main_screen
        await wait_for(pilot, lambda: screen.travel.replay_only, "replay mode")
        await wait_for(pilot, lambda: shown_generation(app) == 30, "the record's end")
        await pilot.press("g", "0", "enter")
        await wait_for(pilot, lambda: shown_generation(app) == 0, "generation 0")
        await show_explained(app, pilot, wait_for)
        await wait_for(
            pilot, lambda: "gen 0: the first population" in chart_lines(app)[1], "the gen 0 note"
        )
        await pilot.press("space")
        await wait_for(pilot, lambda: not screen.travel.playing, "played to the end")
        assert shown_generation(app) == 30
        # The chart shows every generation played, the last one's figures in words.
        await wait_for(pilot, lambda: screen.plot.explained.size == 30, "30 generations shown")
        shown = screen.plot.explained.columns
        np.testing.assert_array_equal(shown["generation"], np.arange(1, 31))
        for name in COLUMNS:
            np.testing.assert_array_equal(shown[name], np.asarray(live[name]))
        lines = chart_lines(app)
        assert lines[1].startswith("sel ") or lines[1].startswith("gen 30: "), lines
        assert lines[-1].split()[0] == "1" and lines[-1].split()[-1] == "30"
        measured = screen.travel.variation.columns()
        np.testing.assert_array_equal(
            rows_of(measured, list(range(1, 31))), rows_of(live, list(range(1, 31)))
        )


async def test_steps_and_jumps_show_the_live_figures_up_to_the_generation_shown(
    tmp_path: Path, wait_for: WaitFor
) -> None:
    path = tmp_path / "r.sqlite3"
    live = await live_figures(path, wait_for)
    app = QueensApp(RECORDED, frozen_clock=True, record=True, store=str(path), replay=1)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = app.main_screen
        await wait_for(pilot, lambda: shown_generation(app) == 30, "the record's end")
        # Switched on at a generation restored from its keyframe (without its lineage): it is
        # re-stepped from the generation before and measured as it is shown.
        await show_explained(app, pilot, wait_for)
        await wait_for(pilot, lambda: len(screen.travel.variation) == 1, "generation 30")
        # A generation re-stepped from a keyframe, and the generations stepped after it.
        await pilot.press("g", "1", "6", "enter")
        await wait_for(pilot, lambda: shown_generation(app) == 16, "generation 16")
        for generation in (17, 18):
            await pilot.press("n")
            await wait_for(pilot, lambda g=generation: shown_generation(app) == g, "a step")
        await wait_for(pilot, lambda: len(screen.travel.variation) == 4, "four generations")
        measured = screen.travel.variation.columns()
        assert measured["generation"] == [16.0, 17.0, 18.0, 30.0]
        np.testing.assert_array_equal(
            rows_of(measured, [16, 17, 18, 30]), rows_of(live, [16, 17, 18, 30])
        )
        # At 18 the chart shows 16 to 18, as the live chart would have up to there.
        screen.painter.repaint(force=True)
        await pilot.pause()
        np.testing.assert_array_equal(screen.plot.explained.x, [16.0, 17.0, 18.0])
        assert "18" in chart_lines(app)[1] or chart_lines(app)[1].startswith("sel ")


async def test_a_generation_the_record_cannot_explain_says_why(
    tmp_path: Path, wait_for: WaitFor
) -> None:
    path = tmp_path / "r.sqlite3"
    await live_figures(path, wait_for)
    # The record keeps its last generation but no longer what came before it: every keyframe
    # before the last is gone, so 30 is restored without its lineage and 29 cannot be rebuilt.
    with sqlite3.connect(path) as connection:
        connection.execute("DELETE FROM keyframe_arrays WHERE generation < 30")
        connection.execute("DELETE FROM keyframes WHERE generation < 30")
    app = QueensApp(RECORDED, frozen_clock=True, record=True, store=str(path), replay=1)
    async with app.run_test(size=(100, 32)) as pilot:
        screen = app.main_screen
        await wait_for(pilot, lambda: shown_generation(app) == 30, "the record's end")
        await show_explained(app, pilot, wait_for)
        await wait_for(pilot, lambda: screen.travel.variation.note(30) is not None, "a note")
        screen.painter.repaint(force=True)
        await pilot.pause()
        lines = chart_lines(app)
        assert lines[1].startswith("gen 30 cannot be explained: run 1: no keyframe"), lines
        assert len(screen.travel.variation) == 0


async def test_the_past_of_a_live_run_is_explained_once_the_view_is_shown(
    tmp_path: Path, wait_for: WaitFor
) -> None:
    live = measured_live(RECORDED, generations=12)
    app = QueensApp(RECORDED, frozen_clock=True, record=True, store=str(tmp_path / "r.sqlite3"))
    async with app.run_test(size=(100, 32)) as pilot:
        screen = app.main_screen
        await step_live(app, pilot, wait_for, 12)  # the view not shown: nothing measured live
        await pilot.press("left_curly_bracket")
        await wait_for(pilot, lambda: shown_generation(app) == 2, "ten back")
        await show_explained(app, pilot, wait_for)
        await wait_for(pilot, lambda: screen.plot.explained.size == 1, "generation 2 explained")
        await pilot.press("n")
        await wait_for(pilot, lambda: screen.plot.explained.size == 2, "generation 3 explained")
        assert len(screen.run.variation) == 0
        shown = screen.plot.explained.columns
        expected = rows_of(live.columns(), [2, 3])
        np.testing.assert_array_equal(np.array([shown[name] for name in COLUMNS]).T, expected)
        assert chart_lines(app)[1].startswith("gen 3: selection ")


async def test_the_past_of_a_live_run_is_not_measured_again_where_the_live_run_measured_it(
    tmp_path: Path, wait_for: WaitFor
) -> None:
    live = measured_live(RECORDED, generations=12)
    app = QueensApp(RECORDED, frozen_clock=True, record=True, store=str(tmp_path / "r.sqlite3"))
    async with app.run_test(size=(100, 32)) as pilot:
        screen = app.main_screen
        await step_live(app, pilot, wait_for, 12, shown_from=7)
        assert screen.run.variation.columns()["generation"] == [7.0, 8.0, 9.0, 10.0, 11.0, 12.0]
        # 2 and 4 are measured by time travel; 8, between them, is the live run's.
        for generation in (2, 8, 4):
            await pilot.press("g", *str(generation), "enter")
            await wait_for(pilot, lambda g=generation: shown_generation(app) == g, "a jump")
        await wait_for(pilot, lambda: len(screen.travel.variation) >= 2, "two measured")
        assert screen.travel.variation.columns()["generation"] == [2.0, 4.0]
        await pilot.press("g", "8", "enter")
        await wait_for(pilot, lambda: shown_generation(app) == 8, "generation 8 again")
        screen.painter.repaint(force=True)
        await pilot.pause()
        shown = screen.plot.explained.columns
        expected = rows_of(live.columns(), [2, 4, 7, 8])
        np.testing.assert_array_equal(np.array([shown[name] for name in COLUMNS]).T, expected)


@pytest.mark.parametrize(("record", "said"), [(True, "[ or g goes back"), (False, "r starts")])
async def test_a_run_over_before_the_view_was_shown_says_how_to_measure_it(
    tmp_path: Path, wait_for: WaitFor, record: bool, said: str
) -> None:
    # It said "from the run's next generation (space or n)": keys that only say it is over.
    solving = Config(n=8, population=40, seed=1)
    app = QueensApp(solving, frozen_clock=True, record=record, store=str(tmp_path / "r.sqlite3"))
    async with app.run_test(size=(120, 32)) as pilot:
        await pilot.press("space")
        await wait_for(pilot, lambda: app.main_screen.run.state == "solved", "the solution")
        await show_explained(app, pilot, wait_for)
        app.main_screen.painter.repaint(force=True)
        await pilot.pause()
        assert said in chart_lines(app)[1], chart_lines(app)[:3]
