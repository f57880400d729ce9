"""The dashboard's small settings file (the theme, the last export folder), kept between sessions.

A JSON object in ``settings.json`` in the user's config folder (:mod:`tui.lab.user_folders`). The
environment variable :data:`CONFIG_DIR_VARIABLE` moves the directory (tests point it at a
temporary one, never at the user's real settings). The file is untrusted input: anything that
is not a JSON object of known keys with string values is ignored, and writes go through a
temporary file and a rename, so a crash never leaves half a file.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Final

from tui.lab.user_folders import make_private_folder, user_config_folder

CONFIG_DIR_VARIABLE: Final = "QUEENS_GA_CONFIG_DIR"
"""Environment variable naming the settings directory instead of the platform's."""
SETTINGS_FILE: Final = "settings.json"
KNOWN_KEYS: Final = ("theme", "export_folder")
"""The settings the dashboard keeps; others in the file are left alone but not read."""
MAX_BYTES: Final = 64 * 1024
"""A settings file larger than this is not read (it is not ours)."""


def settings_path() -> Path:
    """Where the settings live."""
    override = os.environ.get(CONFIG_DIR_VARIABLE)
    if override:
        return Path(override) / SETTINGS_FILE
    return user_config_folder() / SETTINGS_FILE


def load_settings() -> dict[str, str]:
    """The known settings with string values; empty when the file is missing or not ours."""
    path = settings_path()
    try:
        if path.stat().st_size > MAX_BYTES:
            return {}
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(data, dict):
        return {}
    return {key: data[key] for key in KNOWN_KEYS if isinstance(data.get(key), str)}


def save_setting(key: str, value: str) -> str | None:
    """Store one setting, keeping the others.

    Returns:
        ``None`` on success, else why the file could not be written (the app says so and
        goes on: a setting is not worth a crash).
    """
    path = settings_path()
    settings = load_settings()
    settings[key] = value
    try:
        make_private_folder(path.parent)
        temporary = path.with_suffix(".tmp")
        temporary.write_text(json.dumps(settings, indent=2) + "\n", encoding="utf-8")
        temporary.replace(path)
    except OSError as error:
        return f"{path}: {error.strerror or error}"
    return None
