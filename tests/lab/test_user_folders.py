"""The user's folders are asked of the platform in one module, and everything uses it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tui.dashboard.delivery import downloads_folder
from tui.dashboard.files.settings import CONFIG_DIR_VARIABLE, settings_path
from tui.lab.store.location import STORE_ENV, default_store_path
from tui.lab.user_folders import (
    APPLICATION_FOLDER,
    user_config_folder,
    user_data_folder,
    user_downloads_folder,
)

ROOT = Path(__file__).resolve().parents[2]


def test_only_the_user_folders_module_asks_the_platform() -> None:
    importing = re.compile(r"^\s*(import|from)\s+platformdirs\b", re.MULTILINE)
    askers = sorted(
        str(path.relative_to(ROOT))
        for folder in ("engine", "tui")
        for path in (ROOT / folder).rglob("*.py")
        if importing.search(path.read_text(encoding="utf-8"))
    )
    assert askers == ["tui/lab/user_folders.py"]


def test_the_store_settings_and_exports_go_to_the_user_folders(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.delenv(STORE_ENV, raising=False)
    monkeypatch.delenv(CONFIG_DIR_VARIABLE, raising=False)
    assert user_data_folder() == tmp_path / "data" / APPLICATION_FOLDER
    assert user_config_folder() == tmp_path / "config" / APPLICATION_FOLDER
    assert default_store_path() == user_data_folder() / "runs.sqlite3"
    assert settings_path() == user_config_folder() / "settings.json"
    assert downloads_folder() == user_downloads_folder()
    assert downloads_folder().is_dir()
    assert downloads_folder().is_relative_to(tmp_path)
