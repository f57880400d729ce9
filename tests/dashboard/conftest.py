"""Fixtures the dashboard's tests share, of its plain parts (``parts/``) and of its screens
(``screens/``)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
import textual.constants
from textual.pilot import Pilot

from tests.waiting import wait_until_pilot
from tui.dashboard.files.settings import CONFIG_DIR_VARIABLE

WAIT_LIMIT = 10.0
"""Seconds a condition may take before the test fails (generous: CI machines are slow)."""


async def _wait_for(pilot: Pilot[None], condition: Callable[[], bool], what: str) -> None:
    """Let the app run until ``condition()`` holds.

    Raises:
        AssertionError: If it does not hold within :data:`WAIT_LIMIT` seconds.
    """
    await wait_until_pilot(pilot, condition, WAIT_LIMIT, what)


@pytest.fixture(autouse=True)
def private_settings(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Every test keeps its dashboard settings (the theme) in a temporary directory, never in
    the user's real config."""
    directory = tmp_path / "queens-ga-settings"
    monkeypatch.setenv(CONFIG_DIR_VARIABLE, str(directory))
    return directory


@pytest.fixture(autouse=True)
def private_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Every test has a home folder of its own, so the export screen's downloads folder
    (``platformdirs.user_downloads_path()``, made when it is offered) is never the user's."""
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / ".config"))  # no user-dirs.dirs there
    return home


@pytest.fixture(autouse=True)
def truecolor(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every app renders in true colour, whatever terminal runs the tests (``TERM=xterm``
    would give 16 colours, and the board other colours in the snapshots); a test of 16
    colours sets ``textual.constants.COLOR_SYSTEM`` itself."""
    monkeypatch.setattr(textual.constants, "COLOR_SYSTEM", "truecolor")


@pytest.fixture
def wait_for() -> Callable[..., object]:
    """``await wait_for(pilot, condition, what)``: run the app until the condition holds."""
    return _wait_for
