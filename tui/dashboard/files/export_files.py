"""Files the dashboard exports (the run's history, a picture of the screen, a figure), and how
they are written to a folder the user chose.

The folder is untrusted input typed into the export screen: :func:`check_folder` says, naming
the field and the value, why it cannot be used (missing, not a folder, not writable). Writing
never leaves half a file: each file goes to a temporary file beside its target, and only once
every one is whole are they renamed into place (a full disk leaves the folder as it was).
No Textual here: the screens and the browser delivery build on it.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Sequence
from concurrent.futures import Future
from dataclasses import dataclass
from pathlib import Path
from typing import Final

FOLDER_FIELD: Final = "Folder"
"""The name of the export screen's path field, as messages name it."""
MAX_SHOWN: Final = 120
"""Characters of a typed folder a message repeats (a longer one is cut, with an ellipsis)."""


@dataclass(frozen=True)
class ExportFile:
    """One file to export: its name, what it holds (said to the user) and its text."""

    name: str
    """The file name, without a folder (e.g. ``queens-run-3.csv``)."""
    description: str
    """What it holds, in a few words (e.g. ``the run's history, CSV``)."""
    text: str
    """The whole content."""

    @property
    def mime_type(self) -> str:
        """The MIME type a browser is told (from the name's extension)."""
        return {".csv": "text/csv", ".svg": "image/svg+xml"}.get(
            Path(self.name).suffix.lower(), "text/plain"
        )


@dataclass(frozen=True)
class LateFile:
    """A file still being made when the export screen opens (a figure takes matplotlib a second
    or two): written to the folder chosen, or downloaded, once its text is ready."""

    name: str
    """The file name, without a folder."""
    description: str
    """What it holds, in a few words."""
    text: Future[str]
    """The content, when done (an exception: it could not be made)."""


class ExportError(ValueError):
    """The files cannot be written where asked (the message names the field and the value)."""


def check_folder(text: str, *, current: Path | None = None) -> Path:
    """The folder ``text`` names, if the files can be written there.

    Args:
        text: What the user typed: absolute, relative to ``current``, or starting with ``~``.
        current: The folder relative paths start from (the current directory when ``None``).

    Raises:
        ExportError: Naming the field, the value and what is allowed.
    """
    allowed = "an existing folder you may write to"
    given = text.strip()
    shown = repr(given) if len(given) <= MAX_SHOWN else repr(given[:MAX_SHOWN] + "…")
    if not given:
        raise ExportError(f"{FOLDER_FIELD}: empty; give {allowed} (e.g. ~ or .)")
    try:
        folder = Path(given).expanduser()
    except RuntimeError:  # ~name of no user, or no home directory
        raise ExportError(f"{FOLDER_FIELD} {shown}: no such home folder; give {allowed}") from None
    try:
        if not folder.is_absolute():
            folder = (current or Path.cwd()) / folder
        if not folder.exists():
            raise ExportError(f"{FOLDER_FIELD} {shown} does not exist; give {allowed}")
        if not folder.is_dir():
            raise ExportError(f"{FOLDER_FIELD} {shown} is a file, not a folder; give {allowed}")
        if not os.access(folder, os.W_OK | os.X_OK):
            raise ExportError(f"{FOLDER_FIELD} {shown} is not writable by you; give {allowed}")
    except OSError as error:  # a name too long, a loop of links, a current folder deleted
        reason = error.strerror or str(error)
        raise ExportError(f"{FOLDER_FIELD} {shown}: {reason}; give {allowed}") from None
    return Path(os.path.normpath(folder))


def write_files(folder: Path, files: Sequence[ExportFile]) -> list[Path]:
    """Write ``files`` into ``folder``, replacing files of the same names; all or none.

    Returns:
        The full paths written, in the order of ``files``.

    Raises:
        ExportError: When a file cannot be written (disk full, permissions); nothing new is
            left in the folder then.
    """
    written: list[tuple[Path, Path]] = []
    try:
        for file in files:
            descriptor, part = tempfile.mkstemp(dir=folder, prefix=f".{file.name}.", suffix=".part")
            written.append((Path(part), folder / file.name))
            with os.fdopen(descriptor, "w", encoding="utf-8", newline="") as stream:
                stream.write(file.text)
                stream.flush()
                os.fsync(stream.fileno())
            os.chmod(part, 0o666 & ~_umask())
        for temporary, target in written:
            temporary.replace(target)
    except OSError as error:
        for temporary, _target in written:
            with contextlib.suppress(OSError):
                temporary.unlink()
        reason = error.strerror or str(error)
        raise ExportError(f"{FOLDER_FIELD} {str(folder)!r}: cannot write ({reason})") from None
    return [target for _temporary, target in written]


def _umask() -> int:
    """The process's umask, so an exported file gets the mode a new file would (``mkstemp``
    makes it private). Read from ``/proc``: setting it to read it back would race with the
    threads that write the run store."""
    with contextlib.suppress(OSError, ValueError):
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("Umask:"):
                return int(line.split()[1], 8)
    return 0o022
