"""Fixtures every test shares."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Final

import pytest

from engine.config import plugin_checks
from engine.operators import plugins
from tui.dashboard.files.settings import CONFIG_DIR_VARIABLE


@pytest.fixture(autouse=True, scope="session")
def private_settings_for_the_session(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """No test, nor a dashboard it starts in a child process, keeps settings (the theme) in the
    user's real config. Session-scoped so hypothesis tests may use it; the dashboard's tests
    override it with a fresh directory per test."""
    before = os.environ.get(CONFIG_DIR_VARIABLE)
    os.environ[CONFIG_DIR_VARIABLE] = str(tmp_path_factory.mktemp("queens-ga-settings"))
    yield
    if before is None:
        del os.environ[CONFIG_DIR_VARIABLE]
    else:
        os.environ[CONFIG_DIR_VARIABLE] = before


@pytest.fixture(autouse=True, scope="session")
def one_matplotlib_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """matplotlib keeps its font list in one folder for the session, built once, not in each
    test's own home (where a test that checks the files a dashboard wrote would find it, and
    each test would spend a second building it again)."""
    before = os.environ.get("MPLCONFIGDIR")
    os.environ["MPLCONFIGDIR"] = str(tmp_path_factory.mktemp("matplotlib"))
    yield
    if before is None:
        del os.environ["MPLCONFIGDIR"]
    else:
        os.environ["MPLCONFIGDIR"] = before


@pytest.fixture(autouse=True)
def plug_ins_unrestricted(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every test starts with plug-ins allowed, as a new process does: ``queens serve`` run in
    a test's own process restricts them for the rest of that process (and its environment),
    which would otherwise reach the next test the same worker runs."""
    monkeypatch.setattr(plugins, "_RESTRICTION", [])
    monkeypatch.delenv(plugins.RESTRICTED_VARIABLE, raising=False)
    monkeypatch.delenv(plugins.ALLOWED_VARIABLE, raising=False)


@pytest.fixture
def plug_ins_as_in_a_new_process(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """No plug-in source, module or check kept from an earlier test of the same worker, as in
    a new process (a test of loading, checking or swapping plug-ins asks for it)."""
    monkeypatch.setattr(plugins, "_SOURCES", {})
    monkeypatch.setattr(plugins, "_MODULES", {})
    plugin_checks._checked.cache_clear()
    yield
    plugin_checks._checked.cache_clear()


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    """A 2 MiB tmpfs, a disk that fills up for real (skipped where this process may not mount
    one)."""
    mount_point = tmp_path / "small"
    mount_point.mkdir()
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs", str(mount_point)],
        capture_output=True,
        check=False,
    )
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {mounted.stderr.decode().strip()}")
    try:
        yield mount_point
    finally:
        subprocess.run(["umount", "-l", str(mount_point)], check=False)


TESTS: Final = Path(__file__).parent
"""The folder of every test."""
SLOW_FOLDERS: Final = ("dashboard/screens", "serve", "corpus")
"""Folders of tests that drive a whole app, a browser or many recorded runs (the dashboard's
plain parts, in ``dashboard/parts``, are tested without an app, and fast)."""
UNSORTED_FOLDERS: Final = ("dashboard",)
"""Folders whose own test files, in none of their subfolders, are taken for slow ones: a test of
the dashboard not yet put in ``parts/`` or ``screens/`` may drive the app."""
SLOW_FILES: Final = frozenset(
    {
        "test_signals.py",
        "test_sweep_signals.py",
        "test_terminal_goes_away.py",
        "test_fresh_account.py",
        "test_count_on_workers.py",
        "test_scheduler_doors.py",
        "test_sweep_run.py",
        "test_presets.py",
        "test_memetic_footprint.py",
        "test_memetic_peak.py",
        "test_json_output.py",
        "test_rerun_line.py",
    }
)
"""Files of tests that start processes, clusters or large runs."""


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark the slow tests ``slow`` (``make check`` runs the others, in about a minute) and
    the run corpus's ``corpus`` (``make test-oldest`` runs it with the engine's quick tests)."""
    for item in items:
        path = Path(str(item.path))
        folder = path.parent.relative_to(TESTS).as_posix() if path.is_relative_to(TESTS) else ""
        if path.name in SLOW_FILES or in_folder(folder, SLOW_FOLDERS) or folder in UNSORTED_FOLDERS:
            item.add_marker(pytest.mark.slow)
        if in_folder(folder, ("corpus",)):
            item.add_marker(pytest.mark.corpus)


def in_folder(folder: str, folders: tuple[str, ...]) -> bool:
    """Whether ``folder`` (relative to ``tests/``) is one of ``folders`` or inside one."""
    return any(folder == name or folder.startswith(f"{name}/") for name in folders)
