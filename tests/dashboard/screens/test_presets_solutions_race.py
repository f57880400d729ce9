"""Pilot tests of the preset select, the solutions screen (`s`) and the race screen (`x`).

Runs are seeded; the races never stop on their own within the steps taken, so the tests do not
depend on how fast the machine is.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import pytest
from textual.widgets import Input, Select

from engine import Config
from engine.config.presets import PRESETS
from tui.dashboard.app import QueensApp
from tui.dashboard.screens import RaceScreen, SolutionsScreen
from tui.dashboard.screens.race import CHART_TITLE
from tui.dashboard.widgets import ParamForm, PresetSelect, SolutionGallery

WaitFor = Callable[..., Awaitable[None]]

ENDLESS = Config(n=24, population=50, seed=7, stop_when_solved=False)
"""Keeps running until paused: no stop rule at all."""


def make_app(config: Config = ENDLESS) -> QueensApp:
    return QueensApp(config, frozen_clock=True)


def field(app: QueensApp, name: str) -> str:
    return str(app.query_one(ParamForm).values()[name])


# Presets --------------------------------------------------------------------------------------


async def test_choosing_a_preset_fills_every_field() -> None:
    app = make_app(Config(n=16, seed=3))
    async with app.run_test(size=(100, 32)) as pilot:
        app.query_one(PresetSelect).value = "queens-ai"
        await pilot.pause()
        expected = PRESETS["queens-ai"].config(16, seed=3)
        assert field(app, "population") == "100"
        assert field(app, "crossover") == "cut-crossfill"
        assert field(app, "n") == "16"
        assert field(app, "seed") == "3"
        assert app.query_one(ParamForm).config() == expected
        assert not app._notifications
        # Still editable afterwards, and the edit is what a run gets.
        app.query_one("#field-population", Input).value = "60"
        await pilot.press("r")
        assert app.main_screen.runner.algorithm is not None
        assert app.main_screen.runner.algorithm.config.population == 60
        assert app.main_screen.runner.algorithm.config.crossover == "cut-crossfill"


async def test_a_preset_that_does_not_fit_n_switches_n_and_says_why() -> None:
    app = make_app(Config(n=10, seed=3))
    async with app.run_test(size=(100, 32)) as pilot:
        app.query_one(PresetSelect).value = "codeproject-2011"
        await pilot.pause()
        assert field(app, "n") == "8"
        assert field(app, "generations") == "10"
        assert any("not N = 10" in n.message for n in app._notifications)
        assert app.query_one(ParamForm).config() == PRESETS["codeproject-2011"].config(seed=3)


# Solutions ------------------------------------------------------------------------------------


async def test_s_finds_every_solution_at_n_6_and_escape_returns(wait_for: WaitFor) -> None:
    app = make_app(Config(n=6, seed=1))
    async with app.run_test(size=(100, 32)) as pilot:
        main_run = app.main_screen.runner.run_id
        await pilot.press("s")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, SolutionsScreen)
        assert screen.run_state == "paused"
        await pilot.press("space")
        await wait_for(pilot, lambda: screen.run_state == "done", "every solution")
        await pilot.pause(0.3)
        assert "GA: all 4 found (1 of 1 fundamental)" in str(screen.progress.render())
        assert screen.query_one(SolutionGallery).drawn == 4
        await pilot.press("escape")
        await pilot.pause()
        assert not isinstance(app.screen, SolutionsScreen)
        # The main run was neither replaced nor fed the screen's snapshots.
        assert app.main_screen.runner.run_id == main_run
        assert app.main_screen.run.latest is not None and app.main_screen.run.latest.generation == 0


async def test_s_beyond_n_12_says_finding_all_is_out_of_reach() -> None:
    app = make_app(Config(n=14, seed=1))
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.press("s")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, SolutionsScreen)
        assert "out of reach" in str(screen.query_one("#solutions-note").render())
        assert screen.config.time_limit is not None
        await pilot.press("escape")


# Race -----------------------------------------------------------------------------------------


def generations(screen: RaceScreen) -> tuple[int, int]:
    assert screen.latest is not None
    return screen.latest[0].generation, screen.latest[1].generation


async def test_x_opens_the_race_and_n_steps_both_sides_once(wait_for: WaitFor) -> None:
    app = make_app()
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.press("x")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, RaceScreen)
        assert screen.query_one("#race-a", Select).value == "form"
        assert screen.query_one("#race-b", Select).value == "default"
        assert generations(screen) == (0, 0)
        assert screen.plot.border_title == CHART_TITLE and "conflicts" in CHART_TITLE
        for expected in (1, 2):
            await pilot.press("n")
            await wait_for(
                pilot, lambda e=expected: generations(screen) == (e, e), f"turn {expected}"
            )
        await pilot.pause(0.3)
        assert generations(screen) == (2, 2)
        first, second = screen.runner.algorithms or ()
        assert first.config == ENDLESS and second.config == PRESETS["default"].config(24, seed=7)
        # The main run did not move.
        assert app.main_screen.run.latest is not None and app.main_screen.run.latest.generation == 0
        await pilot.press("escape")
        await pilot.pause()
        assert not isinstance(app.screen, RaceScreen)


async def test_choosing_another_rival_restarts_the_race(wait_for: WaitFor) -> None:
    app = make_app()
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.press("x")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, RaceScreen)
        await pilot.press("n")
        await wait_for(pilot, lambda: generations(screen) == (1, 1), "a turn")
        screen.query_one("#race-b", Select).value = "deap-nqueens"
        await pilot.pause()
        assert generations(screen) == (0, 0)
        assert screen.runner.algorithms is not None
        assert screen.runner.algorithms[1].config.fitness == "excess"
        assert screen.runner.algorithms[1].config.seed == 7


@pytest.mark.parametrize("size", [(100, 32), (80, 24)])
async def test_the_race_runs_to_a_verdict(wait_for: WaitFor, size: tuple[int, int]) -> None:
    app = make_app(Config(n=8, seed=1))
    async with app.run_test(size=size) as pilot:
        await pilot.press("x")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, RaceScreen)
        await pilot.press("space")
        await wait_for(pilot, lambda: screen.run_state == "over", "the end of the race")
        assert any(n.title == "Race over" for n in app._notifications)
        assert screen.plot.region.height >= 6
