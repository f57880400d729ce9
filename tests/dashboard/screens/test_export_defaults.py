"""Pilot tests of where exports go by default, and of what the saved screen shows.

The export screen offers the last folder used, else the user's downloads folder (made if
missing), never the current directory (often the project's own source tree); the saved SVG is
the dashboard without the notifications that were on show over it.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.widgets import Input

from engine import Config
from tui.dashboard.actions.record_keys import figures_available
from tui.dashboard.app import QueensApp
from tui.dashboard.files.settings import load_settings, settings_path
from tui.dashboard.palette import save_screenshot_here
from tui.dashboard.screens.export import ExportScreen

WaitFor = Callable[..., Awaitable[None]]

ENDLESS = Config(n=12, population=20, seed=5, stop_when_solved=False)
MARKER = "Noticeboard4711"
"""A notification's text, to look for in the saved picture."""


def _app(tmp_path: Path) -> QueensApp:
    return QueensApp(ENDLESS, frozen_clock=True, record=True, store=str(tmp_path / "r.sqlite3"))


def _project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A source tree the dashboard is started from, as ``make run`` does."""
    project = tmp_path / "project"
    project.mkdir()
    (project / "pyproject.toml").write_text("[project]\nname = 'queens-ga'\n")
    monkeypatch.chdir(project)
    return project


async def _export(app: QueensApp, pilot: Pilot[None], wait_for: WaitFor) -> ExportScreen:
    await pilot.press("n")
    await wait_for(pilot, lambda: app.main_screen.recording.run_id == 1, "a recorded step")
    await pilot.press("e")
    await wait_for(pilot, lambda: isinstance(app.screen, ExportScreen), "the export screen")
    assert isinstance(app.screen, ExportScreen)
    return app.screen


async def test_the_first_export_is_offered_the_downloads_folder_made_if_missing(
    tmp_path: Path, wait_for: WaitFor, monkeypatch: pytest.MonkeyPatch
) -> None:
    project = _project(tmp_path, monkeypatch)
    downloads = Path.home() / "Downloads"
    assert not downloads.exists()
    app = _app(tmp_path)
    async with app.run_test(size=(100, 32)) as pilot:
        screen = await _export(app, pilot, wait_for)
        assert screen.query_one("#export-folder", Input).value == str(downloads)
        assert downloads.is_dir()
        await pilot.press("enter")
        await wait_for(pilot, lambda: not isinstance(app.screen, ExportScreen), "saved")
        figure = downloads / "queens-run-1-figure.svg"
        if figures_available():  # it follows the others, into the same folder
            await wait_for(pilot, figure.exists, "the figure")
    assert (
        sorted(path.name for path in downloads.iterdir())
        == [
            "queens-run-1-figure.svg",
            "queens-run-1.csv",
            "queens-run-1.svg",
        ][0 if figures_available() else 1 :]
    )
    assert sorted(path.name for path in project.iterdir()) == ["pyproject.toml"]
    assert load_settings()["export_folder"] == str(downloads)


@pytest.mark.parametrize("still_there", [True, False])
async def test_the_last_folder_kept_is_offered_while_it_exists(
    tmp_path: Path, wait_for: WaitFor, monkeypatch: pytest.MonkeyPatch, still_there: bool
) -> None:
    _project(tmp_path, monkeypatch)
    last = tmp_path / "exports"
    if still_there:
        last.mkdir()
    settings_path().parent.mkdir(parents=True, exist_ok=True)
    settings_path().write_text(json.dumps({"export_folder": str(last)}))
    app = _app(tmp_path)
    async with app.run_test(size=(100, 32)) as pilot:
        screen = await _export(app, pilot, wait_for)
        offered = screen.query_one("#export-folder", Input).value
        await pilot.press("escape")
    assert offered == str(last if still_there else Path.home() / "Downloads")


async def test_the_saved_screen_carries_no_notification(
    tmp_path: Path, wait_for: WaitFor, monkeypatch: pytest.MonkeyPatch
) -> None:
    _project(tmp_path, monkeypatch)
    app = _app(tmp_path)
    async with app.run_test(size=(100, 32), notifications=True) as pilot:
        await pilot.press("n")
        await wait_for(pilot, lambda: app.main_screen.recording.run_id == 1, "a recorded step")
        app.notify(MARKER, timeout=60)
        # On show, and in Textual's own picture of the screen.
        await wait_for(pilot, lambda: MARKER in app.export_screenshot(), "the notification")
        await pilot.press("e")
        await wait_for(pilot, lambda: isinstance(app.screen, ExportScreen), "the export screen")
        await pilot.press("enter")
        await wait_for(pilot, lambda: not isinstance(app.screen, ExportScreen), "saved")
        save_screenshot_here(app)  # the palette's screenshot too
        await wait_for(pilot, lambda: isinstance(app.screen, ExportScreen), "the export screen")
        await pilot.press("enter")
        await wait_for(pilot, lambda: not isinstance(app.screen, ExportScreen), "saved")
        await wait_for(pilot, lambda: MARKER in app.export_screenshot(), "it on show again")
    pictures = sorted(
        path for path in (Path.home() / "Downloads").glob("*.svg") if "figure" not in path.name
    )
    assert [path.name.split("-")[1] for path in pictures] == ["run", "screen"]
    for picture in pictures:
        text = picture.read_text()
        assert text.startswith("<svg") and MARKER not in text, picture.name
