"""Where exported files go: to the browser under ``queens serve``, else to a folder the user
chooses on the export screen.

Under a web driver the dashboard runs on the server, whose folders mean nothing to the person
at the browser: each file is delivered as a download (``open_method="download"``, so a picture
is saved rather than opened in a tab) and the toast names the files, never a server path. In a
terminal, :class:`~tui.dashboard.screens.export.ExportScreen` asks for the folder, starting at
the last one used (kept in the settings) or the user's downloads folder, and the toast gives the
full paths written.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from textual.app import App

from tui.dashboard.files.export_files import ExportFile
from tui.dashboard.files.settings import load_settings, save_setting
from tui.lab.user_folders import user_downloads_folder

FOLDER_SETTING = "export_folder"
"""The settings key of the last folder files were exported to."""


def start_folder() -> Path:
    """The folder the export screen offers: the last one used if it still exists, else the
    user's downloads folder (made if missing), else the home folder.

    Never the current directory: the dashboard is often started from a project's own tree
    (``make run``), and exports left there end up in its commits.
    """
    last = load_settings().get(FOLDER_SETTING)
    if last and Path(last).is_dir():
        return Path(last)
    return downloads_folder()


def downloads_folder() -> Path:
    """The user's downloads folder (:func:`~tui.lab.user_folders.user_downloads_folder`), made
    if missing; the home folder when it cannot be made."""
    folder = user_downloads_folder()
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:  # a read-only home, say: offer the home folder, which the user can edit
        return Path.home()
    return folder


def deliver_files(app: App[Any], files: Sequence[ExportFile], *, title: str = "Export") -> None:
    """Hand ``files`` to the user: downloads in a browser, else the export screen.

    Args:
        app: The running app (its driver tells a browser from a terminal).
        files: What to export, content included (a screenshot is taken before any screen
            opens over the dashboard).
        title: What the user asked for, as the screen and the toast name it.
    """
    if app.is_web:
        for file in files:
            app.deliver_text(
                io.StringIO(file.text),
                save_filename=file.name,
                open_method="download",
                mime_type=file.mime_type,
                encoding="utf-8",
            )
        names = " and ".join(file.name for file in files)
        app.notify(f"The browser downloads {names}.", title=title, timeout=6)
        return
    from tui.dashboard.screens.export import ExportScreen

    def saved(paths: list[Path] | None) -> None:
        if not paths:
            return
        problem = save_setting(FOLDER_SETTING, str(paths[0].parent))
        lines = [f"{path} ({file.description})" for path, file in zip(paths, files, strict=True)]
        if problem is not None:
            lines.append(f"(the folder is not kept for next time: {problem})")
        app.notify("\n".join(lines), title=f"{title}: saved", timeout=10, markup=False)

    app.push_screen(ExportScreen(files, start_folder(), title=title), saved)
