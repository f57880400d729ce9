"""The run's chart: best, mean and worst fitness (or conflicts) and the diversity, in Braille.

Drawn by this widget itself rather than by plotext, so that every series keeps its own colour
and its own line style (solid, dashed, dotted: readable without colour too), best is drawn
last (on top), every row of the area is plot (one legend line, one axis line), and the tick
labels stay short however large the numbers (``1.2k``, ``5.0G``). The y axis shows fitness or
conflicts (comparable across fitness shapes: 0 is a solution); ``c`` or a click switches.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import ClassVar, Final

import numpy as np
import numpy.typing as npt
from rich.segment import Segment
from rich.style import Style
from textual import events
from textual.reactive import reactive
from textual.strip import Strip
from textual.widget import Widget

BRAILLE_BASE: Final = 0x2800
"""The blank Braille pattern; the dots are bits added to it."""
BRAILLE_DOTS: Final = np.array([[0x01, 0x08], [0x02, 0x10], [0x04, 0x20], [0x40, 0x80]])
"""The bit of the dot at (row within the character 0-3, column within it 0-1)."""
BRAILLE_COLUMN: Final = BRAILLE_DOTS.sum(axis=0)
"""The four dots of the left (0) or right (1) column of a character: a vertical bar."""


@dataclass(frozen=True)
class LineStyle:
    """How one series is drawn.

    Attributes:
        colour: A truecolor hex colour (the same in every terminal, screenshot and browser).
        glyph: What the legend shows for the line.
        on: Dot columns drawn out of every ``period``.
        period: Length of the dash pattern in dot columns.
    """

    colour: str
    glyph: str
    on: int
    period: int


STYLES: Final = {
    "best": LineStyle("#5fd75f", "━", 1, 1),
    "mean": LineStyle("#5fd7ff", "╍", 4, 6),
    "worst": LineStyle("#ff5f5f", "┄", 1, 3),
    "diversity": LineStyle("#d787ff", "·", 1, 5),
    "mark": LineStyle("#ffd700", "│", 1, 1),
}
"""Line styles; later entries are drawn first, so best is on top."""

METRICS: Final = ("fitness", "conflicts")
"""What the left axis can show."""

COLOURS: Final = {name: style.colour for name, style in STYLES.items()}
"""The colour of each series."""


def compact_number(value: float, digits: int = 3) -> str:
    """A number short enough for an axis: ``28``, ``27.5``, ``1.2k``, ``5G``.

    Args:
        value: The number.
        digits: Significant digits at most.
    """
    size = abs(value)
    for limit, suffix in ((1e12, "T"), (1e9, "G"), (1e6, "M"), (1e3, "k")):
        if size >= limit:
            return f"{value / limit:.{digits}g}{suffix}"
    if size < 1e-3:
        return "0" if value == 0 else f"{value:.1e}"
    return f"{value:.{digits}g}"


def distinct_labels(values: Sequence[float], widest: int = 9) -> list[str]:
    """Labels for tick values, with just enough digits that different values read differently.

    Args:
        values: The tick values.
        widest: Longest label allowed; beyond it the labels may repeat.
    """
    labels = [compact_number(value) for value in values]
    for digits in range(3, 10):
        labels = [compact_number(value, digits) for value in values]
        distinct = len(set(labels)) == len(set(values))
        if distinct or max(map(len, labels)) >= widest:
            break
    return labels


def legend_markup() -> str:
    """What the chart panel's border says: how to switch the left axis."""
    return "[b]c[/]: fitness ⇄ conflicts"


class FitnessPlot(Widget):
    """A Braille line chart of the run; diversity on the right-hand axis (0 to 1)."""

    DEFAULT_CSS = """
    FitnessPlot {
        width: 1fr;
        height: 1fr;
        min-height: 6;
    }
    """

    COMPONENT_CLASSES: ClassVar[set[str]] = {"fitness-plot--axis"}

    metric: reactive[str] = reactive("fitness")
    """What the left axis shows: ``fitness`` or ``conflicts``."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._x: npt.NDArray[np.float64] = np.empty(0)
        self._fitness: dict[str, npt.NDArray[np.float64]] = {}
        self._conflicts: dict[str, npt.NDArray[np.float64]] = {}
        self._diversity: npt.NDArray[np.float64] = np.empty(0)
        self.x_label = "generations"
        """What the x axis counts."""
        self._lines: list[Strip] | None = None
        self._mark: float | None = None

    def show(
        self,
        x: Sequence[float],
        series: Mapping[str, Sequence[float]],
        diversity: Sequence[float],
        *,
        x_label: str,
        conflicts: Mapping[str, Sequence[float]] | None = None,
    ) -> None:
        """Redraw with new data (plain lists, already thinned to a few hundred points).

        Args:
            x: Generations or evaluations, increasing.
            series: Fitness lines by name (``best``, ``mean``, ``worst``).
            diversity: Column entropy of the population, 0 to 1.
            x_label: What ``x`` counts.
            conflicts: Conflict lines by name (``best``, ``mean``), for the conflicts axis.
        """
        self._x = np.asarray(x, dtype=np.float64)
        self._fitness = {name: np.asarray(values, np.float64) for name, values in series.items()}
        self._conflicts = {
            name: np.asarray(values, np.float64) for name, values in (conflicts or {}).items()
        }
        self._diversity = np.asarray(diversity, dtype=np.float64)
        self.x_label = x_label
        self._mark = None
        self._lines = None
        self.refresh()

    def mark(self, x: float | None) -> None:
        """Mark one x (the generation shown while travelling in time) with a vertical line.

        The mark lasts until the next :meth:`show` (or ``mark(None)``).
        """
        self._mark = x
        self._lines = None
        self.refresh()

    def toggle_metric(self) -> None:
        """Switch the left axis between fitness and conflicts."""
        self.metric = METRICS[(METRICS.index(self.metric) + 1) % len(METRICS)]

    def watch_metric(self) -> None:
        """Redraw on the other axis."""
        self._lines = None
        self.refresh()

    def on_click(self, event: events.Click) -> None:
        """A click switches the left axis."""
        event.stop()
        self.toggle_metric()

    def on_resize(self) -> None:
        """Redraw for the new area."""
        self._lines = None

    def plotted_series(self) -> dict[str, npt.NDArray[np.float64]]:
        """The left-axis lines of the current metric, by name."""
        if self.metric == "conflicts" and self._conflicts:
            return self._conflicts
        return self._fitness

    def render_line(self, y: int) -> Strip:
        """One line of the chart (all lines are drawn together, on the first call)."""
        if self._lines is None:
            self._lines = self._draw(self.size.width, self.size.height)
        if y < len(self._lines):
            return self._lines[y]
        return Strip.blank(self.size.width, self.rich_style)

    # Drawing ------------------------------------------------------------------------------

    def _draw(self, width: int, height: int) -> list[Strip]:
        base = self.rich_style
        axis = base + self.get_component_rich_style("fitness-plot--axis", partial=True)
        legend = self._legend(width, base)
        series = self.plotted_series()
        rows = height - 2
        if self._x.size == 0 or not series or rows < 1 or width < 12:
            return [legend]
        values = np.concatenate([line for line in series.values() if line.size])
        low, high = float(values.min()), float(values.max())
        if self.metric == "conflicts":
            low = 0.0
        if high == low:
            low, high = low - 1, high + 1
        tick_rows = self._tick_rows(rows)
        span = max(1, rows - 1)
        tick_values = [high - r / span * (high - low) for r in tick_rows]
        labels = distinct_labels(tick_values)
        gutter = max(map(len, labels))
        right = 2
        plot_width = width - gutter - 1 - right
        if plot_width < 4:
            return [legend]
        codes = np.zeros((rows, plot_width), dtype=np.int64)
        owner = np.full((rows, plot_width), -1, dtype=np.int64)
        x0 = float(self._x[0])
        x1 = max(float(self._x[-1]), x0 + 1)
        layers = [("diversity", self._diversity, 1.0, 0.0)]
        layers += [(name, series[name], high, low) for name in ("worst", "mean") if name in series]
        layers += [("best", series["best"], high, low)] if "best" in series else []
        for priority, (name, line, top, bottom) in enumerate(layers):
            if line.size == self._x.size and line.size:
                self._plot(
                    codes, owner, self._x, line, (x0, x1), (bottom, top), STYLES[name], priority
                )
        names = [name for name, *_ in layers]
        if self._mark is not None and x0 <= self._mark <= x1:
            column = round((self._mark - x0) / (x1 - x0) * (2 * plot_width - 1))
            codes[:, column // 2] |= BRAILLE_COLUMN[column % 2]
            owner[:, column // 2] = len(names)
            names.append("mark")
        strips = [legend]
        label_at = dict(zip(tick_rows, labels, strict=True))
        for r in range(rows):
            segments = [Segment(label_at.get(r, "").rjust(gutter), axis)]
            segments.append(Segment("┤" if r in label_at else "│", axis))
            segments += self._plot_segments(codes[r], owner[r], names, base)
            side = "1" if r == 0 else "0" if r == rows - 1 else ""
            segments.append(Segment(("│" if not side else "├") + side.ljust(1), axis))
            strips.append(Strip(segments).crop(0, width).extend_cell_length(width, base))
        strips.append(self._x_axis(gutter, plot_width, width, (x0, x1), axis, base))
        return strips

    @staticmethod
    def _tick_rows(rows: int) -> list[int]:
        """Rows that get a label: top and bottom, and the middle or quarters when room."""
        if rows <= 2:
            return list(range(rows))
        count = 3 if rows < 9 else 5
        return sorted({round(i * (rows - 1) / (count - 1)) for i in range(count)})

    @staticmethod
    def _plot(
        codes: npt.NDArray[np.int64],
        owner: npt.NDArray[np.int64],
        x: npt.NDArray[np.float64],
        values: npt.NDArray[np.float64],
        x_range: tuple[float, float],
        y_range: tuple[float, float],
        style: LineStyle,
        priority: int,
    ) -> None:
        """Draw one series as Braille dots, joined vertically between neighbouring columns.

        Every dot column between the first and the last point gets the interpolated value;
        a column also fills the rows between its value and its left neighbour's, so steep
        steps stay connected. The dash pattern keeps ``on`` columns of every ``period``.
        """
        rows, width = codes.shape
        dots_x, dots_y = 2 * width, 4 * rows
        (x0, x1), (bottom, top) = x_range, y_range
        at = (x - x0) / (x1 - x0) * (dots_x - 1)
        columns = np.arange(math.floor(at[0]), math.floor(at[-1]) + 1)
        level = np.interp(columns, at, values) if at.size > 1 else np.full(1, values[0])
        dot_rows = np.rint((top - level) / (top - bottom) * (dots_y - 1)).astype(np.int64)
        dot_rows = np.clip(dot_rows, 0, dots_y - 1)
        previous = np.concatenate((dot_rows[:1], dot_rows[:-1]))
        low, high = np.minimum(previous, dot_rows), np.maximum(previous, dot_rows)
        keep = (columns % style.period) < style.on
        columns, low, high = columns[keep], low[keep], high[keep]
        lengths = high - low + 1
        column_dots = np.repeat(columns, lengths)
        starts = np.repeat(np.cumsum(lengths) - lengths, lengths)
        row_dots = np.repeat(low, lengths) + (np.arange(column_dots.size) - starts)
        cells = (row_dots // 4, column_dots // 2)
        np.bitwise_or.at(codes, cells, BRAILLE_DOTS[row_dots % 4, column_dots % 2])
        np.maximum.at(owner, cells, priority)

    def _plot_segments(
        self,
        codes: npt.NDArray[np.int64],
        owner: npt.NDArray[np.int64],
        names: list[str],
        base: Style,
    ) -> list[Segment]:
        text = "".join(chr(BRAILLE_BASE + code) if code else " " for code in codes.tolist())
        segments = []
        start = 0
        owners = owner.tolist()
        while start < len(owners):
            end = start
            while end < len(owners) and owners[end] == owners[start]:
                end += 1
            who = owners[start]
            style = base if who < 0 else base + Style(color=STYLES[names[who]].colour)
            segments.append(Segment(text[start:end], style))
            start = end
        return segments

    def _x_axis(
        self,
        gutter: int,
        plot_width: int,
        width: int,
        x_range: tuple[float, float],
        axis: Style,
        base: Style,
    ) -> Strip:
        """First and last x under the plot, what x counts between them."""
        first, last = compact_number(x_range[0]), compact_number(x_range[1])
        room = plot_width - len(first) - len(last)
        label = self.x_label if room >= len(self.x_label) + 2 else ""
        text = first + label.center(max(0, room)) + last
        line = " " * (gutter + 1) + text
        return Strip([Segment(line, axis)]).crop(0, width).extend_cell_length(width, base)

    def _legend(self, width: int, base: Style) -> Strip:
        """The metric and each line's colour and style, shortened to fit."""
        series = self.plotted_series()
        metric = "conflicts" if series is self._conflicts else "fitness"
        names = [name for name in ("best", "mean", "worst") if name in series]
        short = {"fitness": "fit", "conflicts": "conf"}[metric]
        for what, diversity in (
            (metric, "diversity (right)"),
            (metric, "diversity"),
            (metric, "div"),
            (short, "div"),
        ):
            length = len(what) + 1 + sum(len(name) + 2 for name in names) + len(diversity) + 1
            if length <= width:
                break
        segments = [Segment(f"{what} ", base + Style(bold=True))]
        for name in names:
            style = STYLES[name]
            segments.append(Segment(f"{style.glyph}{name} ", base + Style(color=style.colour)))
        style = STYLES["diversity"]
        segments.append(Segment(f"{style.glyph}{diversity}", base + Style(color=style.colour)))
        return Strip(segments).crop(0, width).extend_cell_length(width, base)
