"""The chart's selection-pressure view, drawn: the figures of
:class:`~tui.dashboard.pictures.pressure_figures.PressureFigures` in the chart's own panels.

Above, the intensity measured (solid) and expected (dashed) on one axis, with a row of marks
under it at each generation more than 4 standard deviations from its expectation; below, the
share nobody picked and its expectation, in per cent; then the newest generation in words and
how much more often the best is picked than an average individual.
"""

from __future__ import annotations

import textwrap
from collections.abc import Mapping, Sequence
from typing import Final, Protocol

import numpy as np
import numpy.typing as npt
from rich.segment import Segment
from rich.style import Style
from textual.strip import Strip

from tui.dashboard.pictures.chart_ticks import left_axis
from tui.dashboard.pictures.explained_figures import Piece
from tui.dashboard.pictures.pressure_figures import (
    INTENSITY_LINES,
    UNPICKED_LINES,
    PressureFigures,
)

MARK: Final = "▲"
"""Under the intensity panel, at a generation more than 4 sd from its expectation."""
RIGHT_AXIS: Final = 2
"""As the chart's right-hand axis (see :data:`~tui.dashboard.widgets.fitness_plot.RIGHT_AXIS`)."""


class FitnessPlot(Protocol):
    """What this view draws with: the chart's own panels, words and axis
    (:class:`tui.dashboard.widgets.FitnessPlot`, which imports this module)."""

    pressure: PressureFigures

    @property
    def rich_style(self) -> Style: ...

    def get_component_rich_style(self, *names: str, partial: bool = False) -> Style: ...

    def _widest(self, width: int) -> int: ...

    def _x_range(self) -> tuple[float, float]: ...

    def _x_axis(self, gutter: int, width: int, axis: Style, base: Style) -> Strip: ...

    def _text_strips(
        self, lines: Sequence[Sequence[Piece]], width: int, base: Style
    ) -> list[Strip]: ...

    def _panel(
        self,
        rows: int,
        width: int,
        gutter: int,
        x: npt.NDArray[np.float64],
        layers: Sequence[tuple[str, npt.NDArray[np.float64], float, float]],
        labels: Mapping[int, str],
        right: Mapping[int, str] | None,
        axis: Style,
        base: Style,
        *,
        broken: bool = False,
    ) -> list[Strip]: ...


def draw_pressure(plot: FitnessPlot, width: int, height: int) -> list[Strip]:
    """The selection-pressure view, ``height`` lines of ``width`` cells."""
    base = plot.rich_style
    axis = base + plot.get_component_rich_style("fitness-plot--axis", partial=True)
    figures = plot.pressure
    texts = figures.texts(width)
    if figures.size == 0 or width < 12:
        if texts.summary:
            lines = [texts.summary, texts.words]
        else:
            note = "measured from the run's next generation (space or n)"
            lines = [[(line, None)] for line in textwrap.wrap(note, max(1, width))]
        return plot._text_strips([texts.legend, *lines], width, base)[:height]
    # Legend, summary and marks of the intensity, the words and the x axis always; the
    # unpicked share's figures where the intensity keeps 3 rows, its chart (and legend) where
    # there is room for more. The rest is plot.
    sentence = textwrap.wrap(texts.sentence, max(1, width))
    said = [[(line, None)] for line in sentence] if height >= 16 else [texts.words]
    free = height - 4 - len(said)
    figures_row = free >= 4
    free -= figures_row
    share_rows = 0 if free < 7 else free * 2 // 5
    rows = max(1, free - share_rows - (share_rows > 0))
    low, high = figures.intensity_range()
    left = left_axis(low, high, rows, whole=False, widest=plot._widest(width))
    shares = left_axis(0.0, 100.0, max(share_rows, 1), whole=True, widest=4)
    share_labels = {row: f"{label}%" for row, label in shares.rows.items() if share_rows}
    gutter = max(len(label) for label in (*left.ticks.labels, *share_labels.values()))
    bottom, top = left.ticks.low, left.ticks.high
    layers = [(name, line, bottom, top) for name, line in figures.lines(INTENSITY_LINES)]
    strips = plot._text_strips([texts.legend, texts.summary], width, base)
    strips += plot._panel(
        rows, width, gutter, figures.x, layers, left.rows, None, axis, base, broken=True
    )
    strips.append(_marks(plot, gutter, width, base))
    if share_rows:
        strips += plot._text_strips([texts.unpicked_legend], width, base)
        layers = [(name, line, 0.0, 1.0) for name, line in figures.lines(UNPICKED_LINES)]
        x = figures.x
        strips += plot._panel(
            share_rows, width, gutter, x, layers, share_labels, None, axis, base, broken=True
        )
    unpicked = [texts.unpicked] if figures_row else []
    strips += plot._text_strips([*unpicked, *said], width, base)
    strips.append(plot._x_axis(gutter, width, axis, base))
    return strips[:height]


def _marks(plot: FitnessPlot, gutter: int, width: int, base: Style) -> Strip:
    """A row with a mark under each marked generation's column of the plot."""
    plot_width = max(1, width - gutter - 1 - RIGHT_AXIS)
    cells = [" "] * plot_width
    x0, x1 = plot._x_range()
    marked = plot.pressure.marked
    inside = marked[(marked >= x0) & (marked <= x1)]
    columns = np.rint((inside - x0) / (x1 - x0) * (plot_width - 1)).astype(np.int64)
    for column in columns.tolist():
        cells[column] = MARK
    colour = Style(color="#ffd700", bold=True)
    segments = [Segment(" " * (gutter + 1), base), Segment("".join(cells), base + colour)]
    return Strip(segments).crop(0, width).extend_cell_length(width, base)
