"""Where the store lives: the ``--store`` flag, else ``QUEENS_STORE``, else the user data folder."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Final

from tui.lab.user_folders import user_data_folder

STORE_ENV: Final = "QUEENS_STORE"
STORE_FILE: Final = "runs.sqlite3"


def user_store_path() -> Path:
    """``runs.sqlite3`` in the user data directory (``~/.local/share/queens-ga`` on Linux)."""
    return user_data_folder() / STORE_FILE


def default_store_path() -> Path:
    """``QUEENS_STORE`` when set, else :func:`user_store_path`."""
    from_env = os.environ.get(STORE_ENV)
    if from_env:
        return Path(from_env)
    return user_store_path()


SHOWN_CHARACTERS: Final = 80
"""A path longer than this is shortened in an error message (a pasted one can be huge)."""


def shown_path(path: str | os.PathLike[str]) -> str:
    """``path`` quoted for an error message, shortened when it is long."""
    text = os.fspath(path)
    if len(text) <= SHOWN_CHARACTERS:
        return repr(text)
    return f"{text[: SHOWN_CHARACTERS - 20]!r}... ({len(text):,} characters)"


def store_path(flag: str | os.PathLike[str] | None) -> Path:
    """The store to use: the ``--store`` flag, else :func:`default_store_path`.

    Raises:
        StoreError: A path the file system cannot even look up (a name too long, a loop of
            links), named, shortened, with the reason: every later look at it would fail.
    """
    from tui.lab.store.errors import StoreError

    path = Path(flag) if flag else default_store_path()
    try:
        path.exists()
    except OSError as error:
        where = "--store" if flag else STORE_ENV if os.environ.get(STORE_ENV) else "store"
        raise StoreError(
            f"{where}: {shown_path(path)} is not allowed; the file system cannot look it up "
            f"({error.strerror or error})"
        ) from None
    return path
