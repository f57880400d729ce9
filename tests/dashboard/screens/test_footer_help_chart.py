"""Smaller things a user sees: ``^p palette`` in the footer at 80x24, the chart's right-hand
(diversity) axis drawn once, a preset named only where N is the preset's too, and help's keys in
one column."""

from __future__ import annotations

import io
from collections.abc import Awaitable, Callable

import pytest
from rich.console import Console
from textual.widgets import Static

from engine import Config
from tests.dashboard.screens.test_chart import PlotHost, memetic_history, show
from tests.dashboard.screens.test_small_screens import screen_lines
from tui.dashboard.app import QueensApp
from tui.dashboard.screens import HelpScreen
from tui.dashboard.widgets import FitnessPlot, PresetSelect

WaitFor = Callable[..., Awaitable[None]]

ENDLESS = Config(n=12, population=20, seed=5, stop_when_solved=False)


@pytest.mark.parametrize("size", [(80, 24), (100, 32)])
async def test_the_footer_shows_the_palette_help_and_quit_and_what_space_does_now(
    size: tuple[int, int], wait_for: WaitFor
) -> None:
    app = QueensApp(ENDLESS, frozen_clock=True, speed=5.0)
    async with app.run_test(size=size) as pilot:
        await wait_for(pilot, lambda: "Help" in screen_lines(app)[-1], "the footer")
        footer = screen_lines(app)[-1]
        for shown in ("^p palette", "? Help", "q Quit", "space Run "):
            assert shown in footer, footer
        await pilot.press("space")
        await wait_for(pilot, lambda: "space Pause" in screen_lines(app)[-1], "Pause")
        assert "^p palette" in screen_lines(app)[-1]
        await pilot.press("space")
        await wait_for(pilot, lambda: "space Run " in screen_lines(app)[-1], "Run")


async def test_the_right_hand_axis_is_drawn_once_beside_the_panel_s_border() -> None:
    app = PlotHost(60)
    async with app.run_test(size=(70, 16)) as pilot:
        plot = app.query_one(FitnessPlot)
        show(plot, memetic_history())
        await pilot.pause()
        rows = [plot.render_line(y).text for y in range(1, plot.size.height - 1)]
        # No line of its own: the panel's border, the next column, is the axis.
        assert not any(row.rstrip(" 01").endswith(("│", "├")) for row in rows), rows
        assert rows[0].endswith(" 1") and rows[-1].endswith(" 0")
        assert all(row.endswith("  ") for row in rows[1:-1])


async def test_the_form_stops_naming_the_preset_when_n_changes() -> None:
    app = QueensApp()
    async with app.run_test(size=(100, 32)) as pilot:
        select = app.query_one(PresetSelect)
        assert select.value == "showcase"
        app.main_screen.form.set_value("n", 12)
        await pilot.pause()
        assert select.is_blank()
        app.main_screen.form.set_value("n", 28)
        await pilot.pause()
        assert select.value == "showcase"


def help_lines(app: QueensApp, width: int) -> list[str]:
    screen = app.screen
    assert isinstance(screen, HelpScreen)
    console = Console(width=width, record=True, file=io.StringIO())
    console.print(screen.query_one(Static).content)
    text = console.export_text()
    return [line.rstrip() for line in text.splitlines()]


@pytest.mark.parametrize("size", [(80, 24), (100, 32)])
async def test_help_starts_every_description_in_one_column(size: tuple[int, int]) -> None:
    app = QueensApp(ENDLESS, frozen_clock=True)
    async with app.run_test(size=size) as pilot:
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        lines = help_lines(app, 72)
        titles = [title for title, _ in app.screen.sections]
        first_key = next(line for line in lines if line.startswith("space "))
        column = len(first_key) - len(first_key[len("space") :].lstrip())
        # The key column is as wide as the widest key, not as a section's title.
        assert column <= len("shift+tab") + 2
        for line in lines:
            if not line or line in titles or line.startswith("escape, ? or q"):
                continue
            # A key (or a wrapped description's blank) and then the description, all in one
            # column.
            assert line[column - 1] == " " and line[column] != " ", (column, line)
        # One blank line before each section, none after its title.
        for title in titles:
            at = lines.index(title)
            assert lines[at - 1] == "" and lines[at + 1] != ""
