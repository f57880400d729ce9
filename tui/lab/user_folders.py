"""The user's own folders, as the platform names them (``platformdirs``): where the run store,
the dashboard's settings and its exports go by default. The one module that asks the platform.

Each folder is looked up when asked for, not at import, so a test or a user that moves ``HOME``
(or ``XDG_DATA_HOME``, ``XDG_CONFIG_HOME``) is followed; platformdirs itself is imported only
then (it is not needed to start most commands).
"""

from __future__ import annotations

from pathlib import Path
from typing import Final

APPLICATION_FOLDER: Final = "queens-ga"
"""The name of the project's own folder inside the user's data and config folders."""

PRIVATE_FOLDER_MODE: Final = 0o700
"""A folder the project makes for the user's own files: theirs alone to read."""


def user_data_folder() -> Path:
    """The project's data folder: the run store's default home (``~/.local/share/queens-ga``
    on Linux)."""
    import platformdirs

    return platformdirs.user_data_path(APPLICATION_FOLDER)


def user_config_folder() -> Path:
    """The project's config folder: the dashboard's settings (``~/.config/queens-ga`` on
    Linux)."""
    import platformdirs

    return platformdirs.user_config_path(APPLICATION_FOLDER)


def user_downloads_folder() -> Path:
    """The user's downloads folder (``~/Downloads`` on Linux, or the folder ``user-dirs.dirs``
    names), whether or not it exists yet."""
    import platformdirs

    return platformdirs.user_downloads_path()


def make_private_folder(folder: Path) -> None:
    """Make ``folder`` (and its missing parents) if it is missing, readable by its owner only.

    Only the folder itself is made private; parents made on the way (``~/.local/share`` on a
    new account) get the usual permissions, as other programs would make them.

    Raises:
        OSError: The folder cannot be made (a read-only file system, a file in the way).
    """
    if folder.is_dir():
        return
    folder.parent.mkdir(parents=True, exist_ok=True)
    try:
        folder.mkdir(mode=PRIVATE_FOLDER_MODE)
    except FileExistsError:  # made meanwhile by another process, or a file in the way
        if not folder.is_dir():
            raise
