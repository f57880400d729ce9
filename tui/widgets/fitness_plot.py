"""Best, mean and worst fitness and the diversity, against generations or evaluations."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from textual_plotext import PlotextPlot

COLOURS: Final = {"best": "green", "mean": "cyan", "worst": "red", "diversity": "magenta"}
"""Line colours: of the 16 standard colours, so they survive any terminal."""


def legend_markup() -> str:
    """The legend, as Textual markup for a border title (plotext's own hides the lines)."""
    return " ".join(f"[{colour}]━ {name}[/]" for name, colour in COLOURS.items()) + " (right)"


class FitnessPlot(PlotextPlot):
    """A plotext chart of the run; diversity on the right-hand axis (0 to 1)."""

    DEFAULT_CSS = """
    FitnessPlot {
        min-height: 6;
    }
    """

    def show(
        self,
        x: Sequence[float],
        series: dict[str, Sequence[float]],
        diversity: Sequence[float],
        *,
        x_label: str,
    ) -> None:
        """Redraw with new data.

        Args:
            x: Generations or evaluations.
            series: Fitness lines by name (``best``, ``mean``, ``worst``).
            diversity: Column entropy of the population, 0 to 1.
            x_label: What ``x`` counts.
        """
        plt = self.plt
        plt.clear_data()
        plt.clear_figure()
        xs = list(x)
        for name, values in series.items():
            plt.plot(xs, list(values), color=COLOURS[name], marker="braille")
        plt.plot(xs, list(diversity), color=COLOURS["diversity"], marker="braille", yside="right")
        plt.xlabel(x_label)
        plt.ylim(0, 1, yside="right")
        self.refresh()

    def mark(self, x: float) -> None:
        """Mark one x (the generation shown while travelling in time) with a vertical line."""
        self.plt.vline(x, color="yellow")
        self.refresh()
