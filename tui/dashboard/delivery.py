"""Where exported files go: to the browser under ``queens serve``, else to a folder the user
chooses on the export screen.

Under a web driver the dashboard runs on the server, whose folders mean nothing to the person
at the browser: each file is delivered as a download (``open_method="download"``, so a picture
is saved rather than opened in a tab) and the toast names the files, never a server path. In a
terminal, :class:`~tui.dashboard.screens.export.ExportScreen` asks for the folder, starting at
the last one used (kept in the settings) or the user's downloads folder, and the toast gives the
full paths written.

A file still being drawn when the export is asked for (the figure, a
:class:`~tui.dashboard.files.export_files.LateFile`) is listed with the others and follows them:
written to the same folder, or downloaded, once it is ready, with a toast of its own. Nothing
waits for it: the export screen opens at once and keys typed after ``e`` reach it.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Sequence
from concurrent.futures import TimeoutError as FuturesTimeout
from pathlib import Path
from typing import Any

from textual.app import App
from textual.worker import get_current_worker

from tui.dashboard.files.export_files import ExportError, ExportFile, LateFile, write_files
from tui.dashboard.files.settings import load_settings, save_setting
from tui.lab.user_folders import user_downloads_folder

WAIT_STEP = 0.25
"""Seconds a wait for a late file sleeps between looks at whether the dashboard is quitting."""
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


def deliver_files(
    app: App[Any],
    files: Sequence[ExportFile],
    *,
    title: str = "Export",
    late: Sequence[LateFile] = (),
) -> None:
    """Hand ``files`` to the user: downloads in a browser, else the export screen.

    Args:
        app: The running app (its driver tells a browser from a terminal).
        files: What to export, content included (a screenshot is taken before any screen
            opens over the dashboard).
        title: What the user asked for, as the screen and the toast name it.
        late: Files still being made, delivered after ``files`` once each is ready.
    """
    if app.is_web:
        for file in files:
            _download(app, file)
        names = " and ".join(file.name for file in files)
        app.notify(f"The browser downloads {names}.", title=title, timeout=6)

        def download_late(ready: ExportFile) -> str:
            _download(app, ready)
            return f"The browser downloads {ready.name}."

        for coming in late:
            _when_ready(app, coming, title, download_late)
        return
    from tui.dashboard.screens.export import ExportScreen

    def saved(paths: list[Path] | None) -> None:
        if not paths:
            return  # cancelled: a late file is dropped when it is ready
        folder = paths[0].parent
        problem = save_setting(FOLDER_SETTING, str(folder))
        lines = [f"{path} ({file.description})" for path, file in zip(paths, files, strict=True)]
        lines += [f"{folder / coming.name} ({coming.description}): follows" for coming in late]
        if problem is not None:
            lines.append(f"(the folder is not kept for next time: {problem})")
        app.notify("\n".join(lines), title=f"{title}: saved", timeout=10, markup=False)

        def write_late(ready: ExportFile) -> str:
            (path,) = write_files(folder, [ready])
            return f"{path} ({ready.description})"

        for coming in late:
            _when_ready(app, coming, title, write_late)

    app.push_screen(ExportScreen(files, start_folder(), title=title, late=late), saved)


def _download(app: App[Any], file: ExportFile) -> None:
    """Hand one file to the browser, as a download."""
    app.deliver_text(
        io.StringIO(file.text),
        save_filename=file.name,
        open_method="download",
        mime_type=file.mime_type,
        encoding="utf-8",
    )


def _when_ready(
    app: App[Any], late: LateFile, title: str, deliver: Callable[[ExportFile], str]
) -> None:
    """Wait for ``late`` off the event loop, then ``deliver`` it on the loop and say what
    ``deliver`` says of it (or why it could not be made or written)."""

    def wait() -> None:
        worker = get_current_worker()
        while True:  # a quarter of a second at a time: quitting cancels the wait
            if worker.is_cancelled:
                return
            try:
                text = late.text.result(timeout=WAIT_STEP)
                break
            except FuturesTimeout:
                continue
            except Exception as error:  # said to the user, the export stands
                app.call_from_thread(_say_failed, app, late, title, str(error))
                return
        app.call_from_thread(_deliver_now, app, ExportFile(late.name, late.description, text))

    def _deliver_now(app: App[Any], ready: ExportFile) -> None:
        try:
            said = deliver(ready)
        except ExportError as error:
            _say_failed(app, late, title, str(error))
            return
        app.notify(said, title=f"{title}: saved", timeout=10, markup=False)

    app.run_worker(wait, thread=True, group="late-export", exit_on_error=False)


def _say_failed(app: App[Any], late: LateFile, title: str, why: str) -> None:
    """A late file could not be made or written: the others stand."""
    app.notify(
        f"{late.name} was not saved: {why}", title=title, severity="error", timeout=8, markup=False
    )
