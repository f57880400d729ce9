"""Every theme the palette offers draws the board's labels, the borders and the chart at 3:1 or
more against their background, measured on the screen the app draws; the others are not
offered, nor restored from the settings."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterator

import pytest
from rich.style import Style
from textual.color import Color
from textual.geometry import Region
from textual.strip import Strip
from textual.widget import Widget

from engine import Config
from tui.dashboard.app import QueensApp
from tui.dashboard.files.settings import save_setting
from tui.dashboard.palette import palette_commands
from tui.dashboard.pictures.contrast import LEGIBLE, contrast_ratio

WaitFor = Callable[..., Awaitable[None]]

RUN = Config(n=8, population=20, seed=1, stop_when_solved=False)
"""A small run whose chart has every line after a few steps."""


def cells(strips: list[Strip], region: Region) -> Iterator[tuple[int, int, str, Style]]:
    """Every cell of ``region`` on the screen that shows a character: ``(x, y, text, style)``."""
    for y in range(region.y, region.bottom):
        x = region.x
        for segment in strips[y].crop(region.x, region.right):
            for character in segment.text:
                if character.strip() and character != "\u2800":
                    yield x, y, character, segment.style or Style()
                x += 1


def ring(region: Region) -> list[Region]:
    """A region's border: its first and last lines and columns."""
    return [
        Region(region.x, region.y, region.width, 1),
        Region(region.x, region.bottom - 1, region.width, 1),
        Region(region.x, region.y, 1, region.height),
        Region(region.right - 1, region.y, 1, region.height),
    ]


def too_faint(strips: list[Strip], regions: list[Region], what: str) -> list[str]:
    """The cells of ``regions`` below 3:1 against their own background."""
    faint = []
    for region in regions:
        for x, y, text, style in cells(strips, region):
            assert style.color is not None and style.bgcolor is not None, (what, x, y, text)
            ink, ground = style.color.get_truecolor(), style.bgcolor.get_truecolor()
            ratio = contrast_ratio((ink.red, ink.green, ink.blue), ground)
            if ratio < LEGIBLE:
                faint.append(f"{what} {text!r} at {x},{y}: {ratio:.2f}")
    return faint


async def test_every_offered_theme_draws_labels_borders_and_chart_at_3_to_1(
    wait_for: WaitFor,
) -> None:
    app = QueensApp(RUN, frozen_clock=True)
    async with app.run_test(size=(100, 32)) as pilot:
        for generation in range(1, 4):
            await pilot.press("n")
            await wait_for(
                pilot,
                lambda g=generation: app.main_screen.run.latest.generation == g,  # type: ignore[misc]
                "a step",
            )
        await pilot.press("t")  # the table has the focus: its border in $accent
        offered = app.offered_themes
        assert len(offered) >= 10, offered
        faint: list[str] = []
        for theme in offered:
            app.theme = theme
            await pilot.pause(0.1)
            screen = app.main_screen
            screen.painter.repaint(force=True)
            await pilot.pause(0.1)
            strips = screen._compositor.render_strips()
            board = screen.board
            panels: list[Widget] = [board, screen.query_one("#charts"), screen.table]
            borders = [part for panel in panels for part in ring(panel.region)]
            inner = board.region.shrink(board.styles.gutter)
            labels = [
                Region(inner.x, inner.y, inner.width, 1),  # the column numbers
                Region(inner.x, inner.y, board.label_width, inner.height),  # the row numbers
            ]
            chart = [screen.plot.region]
            # Drawn afresh in this theme's colours: the board's and chart's cached lines too.
            background = Color.parse(app.theme_variables["background"]).rgb
            for region in (labels[0], chart[0]):
                _, _, _, style = next(cells(strips, region))
                assert style.bgcolor is not None, theme
                assert style.bgcolor.get_truecolor() == background, (theme, region)
            faint += [
                f"{theme}: {line}"
                for line in too_faint(strips, borders, "border")
                + too_faint(strips, labels, "label")
                + too_faint(strips, chart, "chart")
            ]
        assert not faint, "\n".join(faint[:20])


async def test_the_palette_offers_only_the_legible_themes() -> None:
    app = QueensApp(RUN, frozen_clock=True)
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.pause()
        names = [
            command.name.removeprefix("Theme ")
            for command in palette_commands(app.main_screen, app)
            if command.name.startswith("Theme ")
        ]
        assert names == app.offered_themes
        assert "textual-light" in app.available_themes and "textual-light" not in names


@pytest.mark.parametrize(
    ("saved", "restored"), [("textual-light", "textual-dark"), ("nord", "nord")]
)
async def test_a_saved_theme_is_restored_only_if_offered(saved: str, restored: str) -> None:
    assert save_setting("theme", saved) is None
    app = QueensApp(RUN, frozen_clock=True)
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.pause()
        assert app.theme == restored
