"""The race from the keyboard: ``a`` and ``b`` choose the sides (a digit picks), the focus comes
back to the race, ``space`` starts it; set up and started in at most four keys."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from textual.widgets import Select

from engine import Config
from tui.dashboard.app import QueensApp
from tui.dashboard.screens import HelpScreen, RaceScreen
from tui.dashboard.screens.race import FORM
from tui.dashboard.screens.race_choice import RaceChoice
from tui.dashboard.widgets import Board
from tui.dashboard.widgets.preset_select import preset_options

WaitFor = Callable[..., Awaitable[None]]

ENDLESS = Config(n=24, population=50, seed=7, stop_when_solved=False)
"""Keeps racing until paused: no stop rule at all."""
MOST_KEYS = 4
"""Keys from the main screen to a race of the form against a chosen preset, running."""


def race(app: QueensApp) -> RaceScreen:
    screen = app.screen
    assert isinstance(screen, RaceScreen)
    return screen


def side(app: QueensApp, name: str) -> object:
    return race(app).query_one(f"#race-{name}", Select).value


async def test_a_race_is_chosen_and_started_in_four_keys(wait_for: WaitFor) -> None:
    presets = [name for _label, name in preset_options(ENDLESS.n)]
    app = QueensApp(ENDLESS, frozen_clock=True)
    async with app.run_test(size=(100, 32)) as pilot:
        keys = ["x", "b", "2", "space"]  # race, side B, the second preset, go
        await pilot.press(*keys)
        assert len(keys) <= MOST_KEYS
        assert side(app, "a") == FORM
        assert side(app, "b") == presets[1]
        assert race(app).run_state == "running"
        await wait_for(
            pilot,
            lambda: race(app).latest is not None and race(app).latest[1].generation > 0,
            "both sides racing",
        )
        assert race(app).runner.algorithms[1].config.replace(seed=None) == (
            race(app).side_config("b").replace(seed=None)
        )


async def test_a_chooses_side_a_and_the_focus_comes_back_to_the_race() -> None:
    presets = [name for _label, name in preset_options(ENDLESS.n)]
    app = QueensApp(ENDLESS, frozen_clock=True)
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.press("x", "a")
        assert isinstance(app.screen, RaceChoice)
        await pilot.press("down", "down", "enter")  # arrows and enter choose too
        assert side(app, "a") == presets[1]
        assert isinstance(app.screen.focused, Board)
        # escape keeps the side as it was, and the focus on the race.
        await pilot.press("b", "escape")
        assert isinstance(app.screen, RaceScreen) and isinstance(app.screen.focused, Board)
        await pilot.press("a", "1")
        assert side(app, "a") == FORM
        await pilot.press("space")
        assert race(app).run_state == "running"


async def test_a_choice_made_on_a_select_gives_the_focus_back_to_the_race() -> None:
    presets = [name for _label, name in preset_options(ENDLESS.n)]
    app = QueensApp(ENDLESS, frozen_clock=True)
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.press("x")
        select = race(app).query_one("#race-b", Select)
        select.focus()
        select.value = presets[2]
        await pilot.pause()
        assert isinstance(app.screen.focused, Board)
        await pilot.press("space")
        assert race(app).run_state == "running"


async def test_help_lists_the_race_keys() -> None:
    app = QueensApp(ENDLESS, frozen_clock=True)
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        race_section = dict(app.screen.sections)["Race screen (x)"]
        assert {binding.key for binding in race_section} >= {"a", "b", "space", "n", "escape"}
