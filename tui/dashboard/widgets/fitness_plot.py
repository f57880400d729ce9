"""The run's chart: best, mean and worst fitness (or conflicts) and the diversity, in Braille.

Drawn by this widget itself rather than by plotext, so that every series keeps its own colour
and its own line style (solid, dashed, dotted: readable without colour too), best is drawn
last (on top), every row of the area is plot (one legend line, one axis line), and the ticks
are round and read differently however large the numbers (see
:mod:`~tui.dashboard.pictures.chart_ticks`). ``c`` or a click cycles the views: fitness, conflicts
(comparable across fitness shapes: 0 is a solution; the first view where fitness cannot be
told apart, as pairs fitness at large N), and diversity explained (see
:mod:`~tui.dashboard.pictures.explained_figures`). ``i`` shows selection pressure (see
:mod:`~tui.dashboard.widgets.pressure_chart`) and back.
"""

from __future__ import annotations

import textwrap
from collections.abc import Mapping, Sequence
from typing import ClassVar, Final

import numpy as np
import numpy.typing as npt
from rich.segment import Segment
from rich.style import Style
from textual import events
from textual.reactive import reactive
from textual.strip import Strip
from textual.widget import Widget

from engine import SelectionPressure
from tui.dashboard.pictures.chart_ticks import compact_number, indistinct, left_axis, origin_text
from tui.dashboard.pictures.explained_figures import ExplainedFigures, Piece
from tui.dashboard.pictures.pressure_figures import PressureFigures
from tui.dashboard.terminal import draws_ascii
from tui.dashboard.widgets.braille_lines import (
    BRAILLE_COLUMN,
    LineStyle,
    line_segments,
    measured_runs,
    plot_line,
)
from tui.dashboard.widgets.pressure_chart import draw_pressure

STYLES: Final = {
    "best": LineStyle("#5fd75f", "━", 1, 1),
    "mean": LineStyle("#5fd7ff", "╍", 4, 6),
    "worst": LineStyle("#ff5f5f", "┄", 1, 3),
    "diversity": LineStyle("#d787ff", "·", 1, 5),
    "mark": LineStyle("#ffd700", "│", 1, 1),
    # Diversity explained: the diversity at each stage of a generation...
    "previous": LineStyle("#a8a8a8", "·", 1, 4),
    "parents": LineStyle("#ffaf5f", "╍", 4, 6),
    "crossed": LineStyle("#5fd7ff", "┄", 1, 3),
    "current": LineStyle("#d787ff", "━", 1, 1),
    # ... and the shares of children improved (green) or made worse (red) by each operator.
    "crossover improved": LineStyle("#5fd75f", "━", 1, 1),
    "mutation improved": LineStyle("#5fd75f", "╍", 4, 6),
    "crossover worse": LineStyle("#ff5f5f", "━", 1, 1),
    "mutation worse": LineStyle("#ff5f5f", "╍", 4, 6),
    # Selection pressure: measured (solid) against expected (dashed).
    "measured": LineStyle("#5fd75f", "━", 1, 1),
    "expected": LineStyle("#5fd7ff", "╍", 4, 6),
    "unpicked": LineStyle("#ffaf5f", "━", 1, 1),
    "expected unpicked": LineStyle("#a8a8a8", "╍", 4, 6),
}
"""Line styles by series; in each view, the lines listed last are drawn on top."""
ASCII_DOTTED: Final = ":"
"""The dotted line's mark in an ASCII legend (the other marks read as ``=``, ``-``, ``.``)."""
RIGHT_AXIS: Final = 2
"""Columns of the right-hand axis: a gap and a label (the diversity's 1 at the top, 0 at the
bottom). It draws no line of its own: the chart's panel border, the next column, is the axis;
a line here ran beside the border, and the axis looked drawn twice."""

METRICS: Final = ("fitness", "conflicts", "explained")
"""The chart's views, in the order ``c`` cycles them."""

COLOURS: Final = {name: style.colour for name, style in STYLES.items()}
"""The colour of each series."""


def legend_markup() -> str:
    """What the chart panel's border says: how to switch the view."""
    return "[b]c[/]: fitness/conflicts/diversity"


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
    """The view: ``fitness``, ``conflicts``, ``explained`` (diversity explained) or
    ``pressure`` (selection pressure)."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._x: npt.NDArray[np.float64] = np.empty(0)
        self._fitness: dict[str, npt.NDArray[np.float64]] = {}
        self._conflicts: dict[str, npt.NDArray[np.float64]] = {}
        self._diversity: npt.NDArray[np.float64] = np.empty(0)
        self.x_label = "generations"
        """What the x axis counts."""
        self._lines: list[Strip] | None = None
        self._drawn_size = (0, 0)
        self._mark: float | None = None
        self._chosen = False
        self._opened = False
        self.explained = ExplainedFigures()
        """The diversity-explained view's data and drawing."""
        self.pressure = PressureFigures()
        """The selection-pressure view's data."""
        self._before_pressure = "fitness"

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
        self._open_on_a_readable_view()
        self.refresh()

    def show_explained(
        self, columns: Mapping[str, Sequence[float]], note: Sequence[str] | None = None
    ) -> None:
        """New data for the diversity-explained view (see
        :class:`~tui.dashboard.runs.variation_series.VariationSeries`), already thinned; ``note``:
        why the generation shown has no figures, in words (longest variant first)."""
        self.explained.update(columns, note)
        if self.metric == "explained":
            self._lines = None
            self.refresh()

    def show_pressure(
        self,
        columns: Mapping[str, Sequence[float]],
        marked: Sequence[float],
        latest: tuple[int, SelectionPressure] | None,
        note: Sequence[str] | None = None,
    ) -> None:
        """New data for the selection-pressure view, already thinned (see
        :meth:`~tui.dashboard.pictures.pressure_figures.PressureFigures.update`)."""
        self.pressure.update(columns, marked, latest, note)
        if self.metric == "pressure":
            self._lines = None
            self.refresh()

    def toggle_pressure(self) -> None:
        """Selection pressure, or back to the view shown before it."""
        self._chosen = True
        if self.metric == "pressure":
            self.metric = self._before_pressure
        else:
            self._before_pressure, self.metric = self.metric, "pressure"

    def new_run(self) -> None:
        """A new run: open it on fitness again, or on conflicts where fitness cannot be told
        apart (unless the view was chosen with ``c``)."""
        self._opened = False

    def _open_on_a_readable_view(self) -> None:
        if self._opened or self._chosen or self._x.size == 0:
            return
        self._opened = True
        best = self._fitness.get("best")
        if best is not None and best.size and self._conflicts:
            lines = [line for line in self._fitness.values() if line.size]
            low = min(float(line.min()) for line in lines)
            high = max(float(line.max()) for line in lines)
            self.metric = "conflicts" if indistinct(low, high) else "fitness"

    def mark(self, x: float | None) -> None:
        """Mark one x (the generation shown while travelling in time) with a vertical line.

        The mark lasts until the next :meth:`show` (or ``mark(None)``).
        """
        self._mark = x
        self._lines = None
        self.refresh()

    def toggle_metric(self) -> None:
        """The next view: fitness, conflicts, diversity explained (the choice then holds for
        later runs too)."""
        self._chosen = True
        if self.metric == "pressure":  # back to where ``i`` came from, then on
            self.metric = self._before_pressure
        self.metric = METRICS[(METRICS.index(self.metric) + 1) % len(METRICS)]

    def watch_metric(self) -> None:
        """Redraw on the other axis; the panel's title says whether this is selection pressure
        (the fitness, conflicts and explained views share "Fitness")."""
        self._lines = None
        self.refresh()
        panel = self.parent
        if isinstance(panel, Widget) and panel.border_title is not None:
            panel.border_title = "Selection pressure" if self.metric == "pressure" else "Fitness"

    def on_click(self, event: events.Click) -> None:
        """A click switches the view."""
        event.stop()
        self.toggle_metric()

    def on_resize(self) -> None:
        """Redraw for the new area."""
        self._lines = None
        self.refresh()

    def notify_style_update(self) -> None:
        """Redraw in the new colours (another theme): the lines drawn keep the old ones."""
        super().notify_style_update()
        self._lines = None

    def plotted_series(self) -> dict[str, npt.NDArray[np.float64]]:
        """The left-axis lines of the fitness or conflicts view, by name."""
        if self.metric == "conflicts" and self._conflicts:
            return self._conflicts
        return self._fitness

    def render_line(self, y: int) -> Strip:
        """One line of the chart (all lines are drawn together, on the first call).

        Drawn again whenever the size changed: the screen may paint a resized widget before its
        resize event arrives, and lines of the old width would be cut (the right axis and the
        last x lost) and stay so.
        """
        size = (self.size.width, self.size.height)
        if self._lines is None or self._drawn_size != size:
            self._lines = self._draw(*size)
            self._drawn_size = size
        if y < len(self._lines):
            return self._lines[y]
        return Strip.blank(self.size.width, self.rich_style)

    # Drawing ------------------------------------------------------------------------------

    def _draw(self, width: int, height: int) -> list[Strip]:
        if self.metric == "explained":
            return self._draw_explained(width, height)
        if self.metric == "pressure":
            return draw_pressure(self, width, height)
        base = self.rich_style
        axis = base + self.get_component_rich_style("fitness-plot--axis", partial=True)
        series = self.plotted_series()
        rows = height - 2
        if self._x.size == 0 or not series or rows < 1 or width < 12:
            return [self._legend(width, base, None)]
        values = np.concatenate([line for line in series.values() if line.size])
        low, high = float(values.min()), float(values.max())
        conflicts = series is self._conflicts
        if conflicts:
            low = 0.0
        # Whole ticks where the quantity is whole: conflicts, and fitness whose best and worst
        # are whole numbers (pairs, collisions); mean conflicts may be 8.33, its axis need not.
        whole = conflicts or all(
            bool(np.all(series[name] == np.round(series[name])))
            for name in ("best", "worst")
            if name in series
        )
        left = left_axis(low, high, rows, whole=whole, widest=self._widest(width))
        gutter = max(map(len, left.ticks.labels))
        bottom, top = left.ticks.low, left.ticks.high
        layers = [("diversity", self._diversity, 0.0, 1.0)]
        layers += [
            (name, series[name], bottom, top) for name in ("worst", "mean") if name in series
        ]
        layers += [("best", series["best"], bottom, top)] if "best" in series else []
        right = {0: "1", rows - 1: "0"}
        strips = [self._legend(width, base, left.ticks.offset)]
        strips += self._panel(rows, width, gutter, self._x, layers, left.rows, right, axis, base)
        strips.append(self._x_axis(gutter, width, axis, base))
        return strips

    def _draw_explained(self, width: int, height: int) -> list[Strip]:
        """Diversity at each stage of a generation above, the operators' shares below."""
        base = self.rich_style
        axis = base + self.get_component_rich_style("fitness-plot--axis", partial=True)
        explained = self.explained
        texts = explained.texts(width)
        if explained.size == 0 or width < 12:
            if texts.summary:
                lines = [texts.summary]
            else:
                note = "measured while shown, from the run's next generation (space or n)"
                # Wrapped, not cut: at 80x24 the chart is 36 to 44 cells wide.
                lines = [[(line, None)] for line in textwrap.wrap(note, max(1, width))]
            return self._text_strips([texts.legend, *lines], width, base)
        # Legend and summary of each panel, then the x axis: the rest is plot.
        free = height - 5
        share_rows = 0 if free < 6 else free * 2 // 5
        # Without room for the shares' chart (80x24), its legend would name lines not drawn:
        # its row goes to the diversity's chart, the newest shares' figures stay.
        rows = max(1, free - share_rows + (share_rows == 0))
        low, high = explained.diversity_range()
        left = left_axis(low, high, rows, whole=False, widest=self._widest(width))
        shares = left_axis(0.0, 100.0, max(share_rows, 1), whole=True, widest=4)
        shares_rows = {row: f"{label}%" for row, label in shares.rows.items() if share_rows}
        gutter = max(len(label) for label in (*left.ticks.labels, *shares_rows.values()))
        bottom, top = left.ticks.low, left.ticks.high
        layers = [(name, line, bottom, top) for name, line in explained.stage_lines()]
        strips = self._text_strips([texts.legend, texts.summary], width, base)
        strips += self._panel(
            rows, width, gutter, explained.x, layers, left.rows, None, axis, base, broken=True
        )
        if share_rows:
            strips += self._text_strips([texts.shares_legend], width, base)
            layers = [(name, line, 0.0, 1.0) for name, line in explained.share_lines()]
            strips += self._panel(
                share_rows,
                width,
                gutter,
                explained.x,
                layers,
                shares_rows,
                None,
                axis,
                base,
                broken=True,
            )
        strips += self._text_strips([texts.shares], width, base)
        strips.append(self._x_axis(gutter, width, axis, base))
        return strips[:height]

    def _glyph(self, name: str) -> str:
        """The legend's mark of a series' line style. In ASCII the dotted line's ``·`` is
        written ``:``: the ASCII filter writes ``·`` as ``-``, as it writes the dashed line's
        ``╍``, and ``-mean`` could not be told from ``-diversity`` (``-picked`` from ``-g-1``).
        """
        glyph = STYLES[name].glyph
        return ASCII_DOTTED if glyph == "·" and draws_ascii(self) else glyph

    @staticmethod
    def _widest(width: int) -> int:
        """Longest tick label for a chart this wide: at most 9, a quarter of a narrow one."""
        return max(4, min(9, (width - 10) // 3))

    def _text_strips(
        self, lines: Sequence[Sequence[Piece]], width: int, base: Style
    ) -> list[Strip]:
        """Lines of pieces, each cropped to the width: a piece of a series takes its glyph and
        colour."""
        strips = []
        for line in lines:
            segments = [
                Segment(text, base)
                if name is None
                else Segment(self._glyph(name) + text, base + Style(color=STYLES[name].colour))
                for text, name in line
            ]
            strips.append(Strip(segments).crop(0, width).extend_cell_length(width, base))
        return strips

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
    ) -> list[Strip]:
        """``rows`` rows of plot: the left labels, the lines (the later on top), the mark, and
        the right axis (with its labels, if any).

        Args:
            layers: Name (in :data:`STYLES`), values by x, and the values at the bottom and top.
            broken: ``x`` are the generations measured, not every one: lines break where
                generations were not (:func:`measured_runs`). A value missing from a measured
                generation (``NaN``: no child of that operator) is joined across.
        """
        plot_width = max(1, width - gutter - 1 - RIGHT_AXIS)
        codes = np.zeros((rows, plot_width), dtype=np.int64)
        owner = np.full((rows, plot_width), -1, dtype=np.int64)
        x0, x1 = self._x_range()
        runs = (
            measured_runs(x, (x0, x1), 2 * plot_width)
            if broken and x1 > x0
            else np.zeros(x.size, dtype=np.int64)
        )
        for priority, (name, line, bottom, top) in enumerate(layers):
            if line.size != x.size or not line.size or top <= bottom:
                continue
            known = ~np.isnan(line)
            for run in np.unique(runs[known]).tolist():
                points = known & (runs == run)
                plot_line(
                    codes,
                    owner,
                    x[points],
                    line[points],
                    (x0, x1),
                    (bottom, top),
                    STYLES[name],
                    priority,
                )
        names = [name for name, *_ in layers]
        if self._mark is not None and x0 <= self._mark <= x1:
            column = round((self._mark - x0) / (x1 - x0) * (2 * plot_width - 1))
            codes[:, column // 2] |= BRAILLE_COLUMN[column % 2]
            owner[:, column // 2] = len(names)
            names.append("mark")
        colours = [STYLES[name].colour for name in names]
        strips = []
        for r in range(rows):
            segments = [Segment(labels.get(r, "").rjust(gutter), axis)]
            segments.append(Segment("┤" if r in labels else "│", axis))
            segments += line_segments(codes[r], owner[r], colours, base)
            side = right.get(r) if right else None
            segments.append(Segment(" " + (side or " "), axis))
            strips.append(Strip(segments).crop(0, width).extend_cell_length(width, base))
        return strips

    def _x_range(self) -> tuple[float, float]:
        """The first and last x of the view shown (a span of 1 at least)."""
        x = {"explained": self.explained.x, "pressure": self.pressure.x}.get(self.metric, self._x)
        x0 = float(x[0]) if x.size else 0.0
        return x0, max(float(x[-1]) if x.size else 0.0, x0 + 1)

    def _x_axis(self, gutter: int, width: int, axis: Style, base: Style) -> Strip:
        """First and last x under the plot, what x counts between them when there is room.

        Never cut: with too little room the label goes first, then the last x.
        """
        x0, x1 = self._x_range()
        first, last = compact_number(x0), compact_number(x1)
        plot_width = max(1, width - gutter - 1 - RIGHT_AXIS)
        room = plot_width - len(first) - len(last)
        label = self.x_label if room >= len(self.x_label) + 2 else ""
        text = first + label.center(room) + last if room >= 1 else first
        line = " " * (gutter + 1) + text
        return Strip([Segment(line, axis)]).crop(0, width).extend_cell_length(width, base)

    def _legend(self, width: int, base: Style, offset: float | None) -> Strip:
        """The metric (and the value its axis counts from, if it has one) and each line's
        colour and style, shortened to fit."""
        series = self.plotted_series()
        metric = "conflicts" if series is self._conflicts else "fitness"
        names = [name for name in ("best", "mean", "worst") if name in series]
        short = {"fitness": "fit", "conflicts": "conf"}[metric]
        origin = "" if offset is None else f" ({origin_text(offset)})"
        for what, diversity in (
            (metric + origin, "diversity (right)"),
            (metric + origin, "diversity"),
            (metric + origin, "div"),
            (short + origin, "div"),
        ):
            length = len(what) + 1 + sum(len(name) + 2 for name in names) + len(diversity) + 1
            if length <= width:
                break
        segments = [Segment(f"{what} ", base + Style(bold=True))]
        for name in names:
            style = STYLES[name]
            segments.append(
                Segment(f"{self._glyph(name)}{name} ", base + Style(color=style.colour))
            )
        style = STYLES["diversity"]
        segments.append(
            Segment(f"{self._glyph('diversity')}{diversity}", base + Style(color=style.colour))
        )
        return Strip(segments).crop(0, width).extend_cell_length(width, base)
