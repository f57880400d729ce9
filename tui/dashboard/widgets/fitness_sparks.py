"""Best and mean fitness as two sparklines: the shape of the run, always in view."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from textual.app import ComposeResult, RenderResult
from textual.containers import Horizontal
from textual.renderables.sparkline import Sparkline as SparklineBars
from textual.widget import Widget
from textual.widgets import Label, Sparkline

from tui.dashboard.terminal import draws_ascii
from tui.dashboard.widgets.status_line import fitness_text

ASCII_BARS: Final = "__..--''"
"""A sparkline's eight heights where only ASCII is drawn: marks low to high in the cell, so
the line keeps its shape (block eighths would all round to empty or full)."""


class FitnessSparkline(Sparkline):
    """Textual's sparkline, in :data:`ASCII_BARS` where the app draws ASCII only."""

    def render(self) -> RenderResult:
        """The bars, in ASCII where asked."""
        bars = super().render()
        if isinstance(bars, SparklineBars) and draws_ascii(self):
            bars.BARS = ASCII_BARS
        return bars


class FitnessSparks(Widget):
    """Two labelled sparklines, best above mean."""

    DEFAULT_CSS = """
    FitnessSparks {
        height: 2;
    }
    FitnessSparks Horizontal {
        height: 1;
    }
    FitnessSparks Label {
        width: 5;
        color: $text-muted;
    }
    FitnessSparks Sparkline {
        width: 1fr;
    }
    FitnessSparks .value {
        width: 9;
        padding-left: 1;
        color: $text;
    }
    """

    def compose(self) -> ComposeResult:
        """A row per series: name, sparkline, latest value."""
        with Horizontal():
            yield Label("best")
            yield FitnessSparkline([], id="spark-best")
            yield Label("", id="value-best", classes="value")
        with Horizontal():
            yield Label("mean")
            yield FitnessSparkline([], id="spark-mean")
            yield Label("", id="value-mean", classes="value")

    def on_mount(self) -> None:
        """Hold the parts: updates come several times a second."""
        self._best = self.query_one("#spark-best", Sparkline)
        self._mean = self.query_one("#spark-mean", Sparkline)
        self._best_value = self.query_one("#value-best", Label)
        self._mean_value = self.query_one("#value-mean", Label)

    def show(self, best: Sequence[float], mean: Sequence[float]) -> None:
        """Replace both series (plain lists, already thinned to a few hundred points)."""
        self._best.data = list(best)
        self._mean.data = list(mean)
        # Fixed-width labels: a new value repaints the label, not the whole layout.
        self._best_value.update(fitness_text(best[-1]) if best else "", layout=False)
        self._mean_value.update(fitness_text(mean[-1]) if mean else "", layout=False)
