"""The run's figure from the dashboard: the palette's "Save a figure of this run" saves it, for
a recorded run and for one that is not recorded.

The figure is the one ``queens show RUN --plot`` draws (conflicts and diversity against
evaluations), written as SVG whole: it parses, and names what it shows.
"""

from __future__ import annotations

import xml.etree.ElementTree as ElementTree
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest
from textual.widgets import Input, Static

from engine import Config
from tui.dashboard.actions.record_keys import figures_available
from tui.dashboard.app import QueensApp
from tui.dashboard.screens.export import ExportScreen

WaitFor = Callable[..., Awaitable[None]]

ENDLESS = Config(n=10, population=16, seed=4, stop_when_solved=False)

pytestmark = pytest.mark.skipif(not figures_available(), reason="figures need matplotlib")


def shown_generation(app: QueensApp) -> int:
    latest = app.main_screen.run.latest
    return -1 if latest is None else latest.generation


async def save_figure_to(
    app: QueensApp, pilot: object, wait_for: WaitFor, folder: Path, steps: int
) -> str:
    """Step ``steps`` generations, save the figure from the palette's command into ``folder``;
    the export screen's list of files."""
    reached = shown_generation(app) + steps
    for _ in range(steps):
        await pilot.press("n")  # type: ignore[attr-defined]
    await wait_for(pilot, lambda: shown_generation(app) == reached, f"{steps} steps")
    app.main_screen.record_keys.save_figure()
    await wait_for(pilot, lambda: export_screen_shown(app), "the export screen")
    screen = app.screen
    assert isinstance(screen, ExportScreen)
    listing = str(screen.query_one("#export-files", Static).render())
    field = screen.query_one("#export-folder", Input)
    field.value = str(folder)
    await pilot.press("enter")  # type: ignore[attr-defined]
    await wait_for(pilot, lambda: not isinstance(app.screen, ExportScreen), "saved")
    return listing


def export_screen_shown(app: QueensApp) -> bool:
    """The export screen is up, its folder field composed."""
    return isinstance(app.screen, ExportScreen) and bool(app.screen.query("#export-folder"))


def figure_texts(path: Path) -> str:
    """The SVG parsed (it must be whole), and its text as one string."""
    ElementTree.parse(path)
    return path.read_text()


@pytest.mark.parametrize("recorded", [True, False])
async def test_the_palette_saves_the_runs_figure_alone(
    tmp_path: Path, wait_for: WaitFor, recorded: bool
) -> None:
    folder = tmp_path / "figures"
    folder.mkdir()
    app = QueensApp(ENDLESS, frozen_clock=True, record=recorded, store=str(tmp_path / "r.sqlite3"))
    async with app.run_test(size=(100, 32)) as pilot:
        listing = await save_figure_to(app, pilot, wait_for, folder, steps=6)
    name = "queens-run-1-figure.svg" if recorded else "queens-seed-4-figure.svg"
    assert name in listing and "a figure, SVG" in listing
    assert [path.name for path in folder.iterdir()] == [name]
    text = figure_texts(folder / name)
    assert text.startswith("<?xml") and "<svg" in text
    # The title names the run; fonts are drawn as paths, so the title is in the metadata.
    assert ("run 1: N = 10, seed 4" if recorded else "N = 10, seed 4") in text
