"""The look every figure shares.

Colours are the Okabe-Ito palette (Okabe and Ito, 2008: told apart by readers with any common
colour-vision deficiency); each series also has its own line style and marker, so a grey print
keeps them apart. Text is embedded: SVG glyphs as paths (``svg.fonttype = 'path'``), PDF fonts
as TrueType (``pdf.fonttype = 42``), so a figure reads the same on any machine and in any
journal's pipeline. The Agg backend: no window, no display needed.
"""

from __future__ import annotations

from typing import Any, Final

OKABE_ITO: Final = (
    "#E69F00",  # orange
    "#56B4E9",  # sky blue
    "#009E73",  # bluish green
    "#0072B2",  # blue
    "#D55E00",  # vermillion
    "#CC79A7",  # reddish purple
    "#F0E442",  # yellow (last: faint on white)
    "#000000",  # black
)
"""Colours in the order series take them."""

LINE_STYLES: Final = ("-", "--", ":", "-.", (0, (5, 1, 1, 1, 1, 1)), (0, (1, 3)))
"""Line styles in the order series take them."""

MARKERS: Final = ("o", "s", "^", "D", "v", "P", "X", "*")
"""Markers in the order series take them."""

RC_PARAMS: Final[dict[str, Any]] = {
    "svg.fonttype": "path",
    "pdf.fonttype": 42,
    "ps.fonttype": 42,
    "font.size": 9,
    "axes.grid": True,
    "grid.alpha": 0.3,
    "legend.fontsize": 8,
    "figure.dpi": 100,
    "savefig.dpi": 200,
    "svg.hashsalt": "queens-ga",  # the same figure, the same file
}
"""matplotlib settings for every figure."""


def series_style(index: int) -> dict[str, Any]:
    """Colour, line style and marker of the ``index``-th series."""
    return {
        "color": OKABE_ITO[index % len(OKABE_ITO)],
        "linestyle": LINE_STYLES[index % len(LINE_STYLES)],
        "marker": MARKERS[index % len(MARKERS)],
    }


def log_axis(axis: Any, seconds: bool = False) -> None:
    """A log-scaled axis ticked at 1, 2 and 5 of each decade, in plain numbers (``2,000``,
    ``0.05``), with no minor labels to collide."""
    from matplotlib.ticker import FuncFormatter, LogLocator, NullFormatter

    axis.set_major_locator(LogLocator(base=10, subs=(1.0, 2.0, 5.0)))
    axis.set_major_formatter(
        FuncFormatter(lambda value, _: f"{value:g}" if seconds else f"{value:,.0f}")
    )
    axis.set_minor_formatter(NullFormatter())


def pyplot() -> Any:
    """matplotlib's pyplot on the Agg backend, with :data:`RC_PARAMS` set."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    settings: Any = plt.rcParams  # typed by its known keys; these are all known
    settings.update(RC_PARAMS)
    return plt
