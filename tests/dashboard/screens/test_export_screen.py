"""Pilot tests of the export screen: ``e`` (and the palette's screenshot) ask where to save.

``e`` saves the run's history and the screen, and (with matplotlib) the run's figure, drawn
while the folder is chosen and written to the same folder once ready.

The files land where the user asked, and nowhere else; a folder that cannot be used is
refused on the screen with a message naming the field, the value and what is allowed; escape
writes nothing; a failed write leaves no half-written file; the last folder is offered next
time.
"""

from __future__ import annotations

import os
import subprocess
import xml.etree.ElementTree as ElementTree
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.widgets import Input, Static

from engine import Config
from tui.dashboard.actions.record_keys import figures_available
from tui.dashboard.app import QueensApp
from tui.dashboard.files.settings import load_settings
from tui.dashboard.palette import save_screenshot_here
from tui.dashboard.screens.export import ExportScreen

WaitFor = Callable[..., Awaitable[None]]

ENDLESS = Config(n=12, population=20, seed=5, stop_when_solved=False)


def recording_app(tmp_path: Path) -> QueensApp:
    return QueensApp(ENDLESS, frozen_clock=True, record=True, store=str(tmp_path / "r.sqlite3"))


def every_file(root: Path) -> set[Path]:
    """Every file under ``root`` but the run store and the settings."""
    return {
        path
        for path in root.rglob("*")
        if path.is_file() and "r.sqlite3" not in path.name and "settings" not in str(path)
    }


def shown_generation(app: QueensApp) -> int:
    latest = app.main_screen.run.latest
    return -1 if latest is None else latest.generation


async def open_export(
    app: QueensApp, pilot: Pilot[None], wait_for: WaitFor, *, steps: int = 3
) -> ExportScreen:
    """Step the run ``steps`` generations, press ``e``; the export screen."""
    reached = shown_generation(app) + steps
    for _ in range(steps):
        await pilot.press("n")
    await wait_for(pilot, lambda: shown_generation(app) == reached, f"{steps} steps")
    await pilot.press("e")
    await wait_for(pilot, lambda: isinstance(app.screen, ExportScreen), "the export screen")
    assert isinstance(app.screen, ExportScreen)
    return app.screen


async def type_folder(pilot: Pilot[None], text: str) -> None:
    """Replace the folder field's text as a user does: home, delete to the end, type."""
    await pilot.press("ctrl+a", "ctrl+k", *text)


def error_text(screen: ExportScreen) -> str:
    return str(screen.query_one("#export-error", Static).render())


async def test_e_saves_its_files_in_the_folder_typed_and_offers_it_next_time(
    tmp_path: Path, wait_for: WaitFor, monkeypatch: pytest.MonkeyPatch
) -> None:
    here, chosen = tmp_path / "here", tmp_path / "chosen"
    here.mkdir()
    chosen.mkdir()
    monkeypatch.chdir(here)
    app = recording_app(tmp_path)
    figure = chosen / "queens-run-1-figure.svg"
    async with app.run_test(size=(100, 32)) as pilot:
        screen = await open_export(app, pilot, wait_for)
        field = screen.query_one("#export-folder", Input)
        assert field.value == str(Path.home() / "Downloads")  # nothing kept yet: downloads
        shown = str(screen.query_one("#export-files", Static).render())
        assert "queens-run-1.csv" in shown and "queens-run-1.svg" in shown
        assert ("queens-run-1-figure.svg" in shown) == figures_available()
        await type_folder(pilot, str(chosen))
        targets = str(screen.query_one("#export-targets", Static).render())
        assert str(chosen / "queens-run-1.csv") in targets
        await pilot.press("enter")
        await wait_for(pilot, lambda: not isinstance(app.screen, ExportScreen), "saved")
        toast = app._notifications
        assert any(str(chosen / "queens-run-1.svg") in note.message for note in toast)
        if figures_available():  # drawn while the folder was chosen, written once ready
            said = f"{figure} (the run's convergence as a figure, SVG)"
            await wait_for(
                pilot,
                lambda: any(note.message == said for note in app._notifications),
                "the figure saved",
            )
        assert load_settings()["export_folder"] == str(chosen)
        screen = await open_export(app, pilot, wait_for, steps=0)
        assert screen.query_one("#export-folder", Input).value == str(chosen)
        await pilot.press("escape")
    written = {chosen / "queens-run-1.csv", chosen / "queens-run-1.svg"}
    assert every_file(tmp_path) == written | ({figure} if figures_available() else set())
    lines = (chosen / "queens-run-1.csv").read_text().splitlines()
    assert lines[0].startswith("generation,") and len(lines) == 5
    svg = (chosen / "queens-run-1.svg").read_text()
    assert svg.startswith("<svg") and "Writes:" not in svg  # the dashboard, not this screen
    if figures_available():
        drawn = ElementTree.parse(figure).getroot()
        assert drawn.tag.endswith("svg") and "run 1: N = 12, seed 5" in figure.read_text()


@pytest.mark.parametrize(
    ("make", "typed", "said"),
    [
        (None, "missing", "does not exist"),
        ("file", "a-file", "is a file, not a folder"),
        (None, "", "empty"),
        (None, "~no-such-user-here", "no such home folder"),
    ],
)
async def test_a_folder_that_cannot_be_used_is_refused_on_the_screen(
    tmp_path: Path,
    wait_for: WaitFor,
    monkeypatch: pytest.MonkeyPatch,
    make: str | None,
    typed: str,
    said: str,
) -> None:
    monkeypatch.chdir(tmp_path)
    if make == "file":
        (tmp_path / typed).write_text("not a folder")
    app = recording_app(tmp_path)
    async with app.run_test(size=(100, 32)) as pilot:
        screen = await open_export(app, pilot, wait_for)
        await type_folder(pilot, typed)
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen is screen  # still asking
        message = error_text(screen)
        assert message.startswith("Folder") and said in message
        if typed:
            assert repr(typed) in message
        assert "an existing folder you may write to" in message
        await pilot.press("escape")
    assert every_file(tmp_path) == ({tmp_path / typed} if make == "file" else set())
    assert "export_folder" not in load_settings()


@pytest.fixture
def unwritable_folder(tmp_path: Path) -> Iterator[Path]:
    """A folder this process may not write to: read-only for a user, a read-only mount for
    root (which may write into any folder of a writable disk)."""
    folder = tmp_path / "locked"
    folder.mkdir()
    if os.geteuid() != 0:
        folder.chmod(0o500)
        yield folder
        folder.chmod(0o700)
        return
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "ro,size=1m", "tmpfs", str(folder)],
        capture_output=True,
        check=False,
    )
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount a read-only tmpfs here: {mounted.stderr.decode().strip()}")
    try:
        yield folder
    finally:
        subprocess.run(["umount", "-l", str(folder)], check=False)


async def test_a_folder_without_write_permission_is_refused(
    tmp_path: Path, wait_for: WaitFor, monkeypatch: pytest.MonkeyPatch, unwritable_folder: Path
) -> None:
    monkeypatch.chdir(tmp_path)
    app = recording_app(tmp_path)
    async with app.run_test(size=(100, 32)) as pilot:
        screen = await open_export(app, pilot, wait_for)
        await type_folder(pilot, str(unwritable_folder))
        await pilot.press("enter")
        await pilot.pause()
        message = error_text(screen)
        assert app.screen is screen and "is not writable by you" in message
        assert repr(str(unwritable_folder)) in message
    assert list(unwritable_folder.iterdir()) == []


async def test_escape_writes_nothing(
    tmp_path: Path, wait_for: WaitFor, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    app = recording_app(tmp_path)
    async with app.run_test(size=(100, 32)) as pilot:
        await open_export(app, pilot, wait_for)
        await pilot.press("escape")
        await wait_for(pilot, lambda: not isinstance(app.screen, ExportScreen), "closed")
        await pilot.pause()
        assert not any(note.title.startswith("Export") for note in app._notifications)
    assert every_file(tmp_path) == set()
    assert "export_folder" not in load_settings()


async def test_the_palettes_screenshot_asks_where_then_saves_one_svg(
    tmp_path: Path, wait_for: WaitFor, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    app = QueensApp(ENDLESS, frozen_clock=True)
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.pause()
        save_screenshot_here(app)
        await wait_for(pilot, lambda: isinstance(app.screen, ExportScreen), "the export screen")
        await pilot.press("enter")
        await wait_for(pilot, lambda: not isinstance(app.screen, ExportScreen), "saved")
    saved = every_file(tmp_path)
    assert len(saved) == 1
    (svg,) = saved
    assert svg.parent == Path.home() / "Downloads" and svg.name.startswith("queens-screen-")
    assert svg.read_text().startswith("<svg")
