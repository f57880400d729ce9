"""``--plot FILE``: checked before any run starts, so a bad value costs nothing.

The file's suffix picks the format (``.svg`` and ``.pdf`` are vector, ``.png`` a 200-dpi
raster); its folder must exist; matplotlib must be installed. Each refusal is a
:class:`FigureError` naming the flag, the value and what is allowed (exit 2).
"""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import Final

from engine.errors import NotAllowed

PLOT_FORMATS: Final = ("svg", "pdf", "png")
"""The figure formats, by file suffix."""

INSTALL_HINT: Final = "pip install 'queens-ga[stats]'"
"""How to get what figures need."""


class FigureError(NotAllowed):
    """A figure that cannot be drawn where asked: named by its flag (``--plot``), said in one
    line (exit 2 on the command line)."""


def check_plot_target(text: str) -> Path:
    """The figure's path, once its suffix, its folder and matplotlib are known good.

    Args:
        text: The value of ``--plot``.

    Raises:
        FigureError: On an unknown suffix, a folder that does not exist, a path that is a
            folder, or matplotlib not installed.
    """
    allowed = f"a file ending in {', '.join('.' + f for f in PLOT_FORMATS)} in an existing folder"
    path = Path(text).expanduser()
    if path.suffix.lower().lstrip(".") not in PLOT_FORMATS:
        raise FigureError("--plot", text, allowed)
    if path.is_dir():
        raise FigureError("--plot", text, f"{allowed}, not a folder")
    if not path.parent.is_dir():
        raise FigureError("--plot", text, f"{allowed}: the folder {str(path.parent)!r} is missing")
    try:
        importlib.import_module("matplotlib")
    except ImportError:
        raise FigureError(
            "--plot", text, f"figures need matplotlib, which is not installed: {INSTALL_HINT}"
        ) from None
    return path


def plot_format(path: Path) -> str:
    """``svg``, ``pdf`` or ``png``: the format the path's suffix names."""
    return path.suffix.lower().lstrip(".")
