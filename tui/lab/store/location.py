"""Where the store lives: the ``--store`` flag, else ``QUEENS_STORE``, else the user data folder."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Final

STORE_ENV: Final = "QUEENS_STORE"
STORE_FILE: Final = "runs.sqlite3"


def default_store_path() -> Path:
    """``QUEENS_STORE`` when set, else ``runs.sqlite3`` in the user data directory."""
    from_env = os.environ.get(STORE_ENV)
    if from_env:
        return Path(from_env)
    import platformdirs

    return platformdirs.user_data_path("queens-ga") / STORE_FILE


def store_path(flag: str | os.PathLike[str] | None) -> Path:
    """The store to use: the ``--store`` flag, else :func:`default_store_path`."""
    return Path(flag) if flag else default_store_path()
