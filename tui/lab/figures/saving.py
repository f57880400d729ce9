"""Writing a figure whole or not at all: into a temporary file beside the target, then renamed
over it, so a figure cut short (a full disk, a signal) never leaves a half-written file."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from tui.lab.figures.plot_target import plot_format


def save_figure(figure: Any, path: Path) -> None:
    """Save a matplotlib figure at ``path`` in the format its suffix names, then close it.

    Raises:
        OSError: If the file cannot be written (nothing is left behind).
    """
    # Opened as any new file is (the umask's permissions), beside the target so the rename
    # stays on one file system.
    temporary = path.with_name(f".{path.name}.{os.getpid()}.partial")
    try:
        figure.savefig(
            temporary,
            format=plot_format(path),
            bbox_inches="tight",
            metadata=_fixed_metadata(plot_format(path)),
        )
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    finally:
        import matplotlib.pyplot as plt

        plt.close(figure)


def _fixed_metadata(form: str) -> dict[str, Any]:
    """No creation date in the file: the same figure, the same bytes."""
    if form == "svg":
        return {"Date": None}
    if form == "pdf":
        return {"CreationDate": None}
    return {}
