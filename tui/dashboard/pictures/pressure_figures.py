"""The chart's selection-pressure view, as figures and words: what to plot and what to say.

No Textual here; :class:`~tui.dashboard.widgets.FitnessPlot` draws it. Per generation ``g``,
of the selection that picked its parents from generation ``g - 1``:

- above, the measured selection intensity (solid) beside its exact expectation on that
  population (dashed), and a mark under each generation whose measure is more than 4 standard
  deviations from its expectation;
- below, the share of the population nobody picked, beside its expectation;
- in words, the newest generation's figures, and how many times as often as an average
  individual a best one is picked.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Final, NamedTuple

import numpy as np

from engine import SelectionPressure, pressure_words
from engine.arrays import FloatArray
from tui.dashboard.pictures.explained_figures import Piece, fitting, percent

INTENSITY_LINES: Final = ("expected", "measured")
"""The intensity lines, in drawing order (the measure on top)."""
UNPICKED_LINES: Final = ("expected unpicked", "unpicked")
"""The unpicked share's lines, in drawing order."""
COLUMN_OF: Final = {
    "expected": "expected_intensity",
    "measured": "intensity",
    "expected unpicked": "expected_unselected",
    "unpicked": "unselected",
}
"""Which column of the series each line draws."""


class PressureTexts(NamedTuple):
    """The view's words: each a line of pieces.

    Attributes:
        legend: The intensity lines' legend.
        summary: The newest generation's intensity, expected and measured, or a note.
        unpicked_legend: The unpicked share's legend.
        unpicked: The newest generation's unpicked share, measured and expected.
        words: How much more often the best is picked than an average individual, as long as
            fits one line.
        sentence: The same, whole (to be wrapped where there is room).
    """

    legend: list[Piece]
    summary: list[Piece]
    unpicked_legend: list[Piece]
    unpicked: list[Piece]
    words: list[Piece]
    sentence: str = ""


def intensity_text(pressure: SelectionPressure, generation: int, *, short: bool = False) -> str:
    """``gen 12: I 0.480, expected 0.520, sd 0.070 (-0.6 sd)``; marked generations say so (no
    ``±``: a plain terminal would write it ``+``)."""
    if math.isnan(pressure.intensity):
        return f"gen {generation:,}: equal fitness, intensity undefined"
    deviation = "" if math.isnan(pressure.deviation) else f" ({pressure.deviation:+.1f} sd)"
    mark = " MARKED" if pressure.marked else ""
    if short:
        return f"I {pressure.intensity:.2f} exp {pressure.expected_intensity:.2f}{deviation}{mark}"
    return (
        f"gen {generation:,}: I {pressure.intensity:.3f}, expected "
        f"{pressure.expected_intensity:.3f}, sd {pressure.intensity_spread:.3f}{deviation}{mark}"
    )


class PressureFigures:
    """The selection-pressure series the chart shows, as arrays, and their words."""

    def __init__(self) -> None:
        self.columns: dict[str, FloatArray] = {}
        self.x: FloatArray = np.empty(0)
        """The generations measured."""
        self.marked: FloatArray = np.empty(0)
        """The generations marked (more than 4 sd off), every one, not thinned."""
        self.latest: tuple[int, SelectionPressure] | None = None
        """The newest generation measured (the one shown, in time travel)."""
        self.note: Sequence[str] = ()
        """Why the generation shown has no measure (variants, longest first; empty: it has)."""

    @property
    def size(self) -> int:
        """Generations shown."""
        return int(self.x.shape[0])

    def update(
        self,
        columns: Mapping[str, Sequence[float]],
        marked: Sequence[float],
        latest: tuple[int, SelectionPressure] | None,
        note: Sequence[str] | None = None,
    ) -> None:
        """New columns (see :func:`~tui.dashboard.runs.pressure_series.columns_of`), already
        thinned; every marked generation; the newest measure; why the generation shown has
        none, if it has none."""
        self.columns = {name: np.asarray(values, np.float64) for name, values in columns.items()}
        self.x = self.columns.get("generation", np.empty(0))
        self.marked = np.asarray(marked, dtype=np.float64)
        self.latest = latest
        self.note = tuple(note or ())

    def lines(self, names: Sequence[str]) -> list[tuple[str, FloatArray]]:
        """The lines named, by name, in the order given."""
        columns = self.columns
        return [(name, columns[COLUMN_OF[name]]) for name in names if COLUMN_OF[name] in columns]

    def intensity_range(self) -> tuple[float, float]:
        """The lowest and highest intensity, measured or expected (0 included)."""
        lines = [line for _, line in self.lines(INTENSITY_LINES) if line.size]
        values = np.concatenate([*lines, [0.0]])
        known = values[~np.isnan(values)]
        return float(known.min()), float(known.max())

    def texts(self, width: int) -> PressureTexts:
        """The legends, and the newest generation's figures in words, as long as fits."""
        legend = fitting(
            [
                [("intensity ", None), ("measured ", "measured"), ("expected", "expected")],
                [("I ", None), ("measured ", "measured"), ("expected", "expected")],
                [("I ", None), ("meas ", "measured"), ("exp", "expected")],
            ],
            width,
        )
        unpicked_legend = fitting(
            [
                [
                    ("picked by no one ", None),
                    ("measured ", "unpicked"),
                    ("expected", "expected unpicked"),
                ],
                [("unpicked ", None), ("meas ", "unpicked"), ("exp", "expected unpicked")],
            ],
            width,
        )
        if self.note:
            said = fitting([[(variant, None)] for variant in self.note], width)
            return PressureTexts(legend, said, unpicked_legend, [], [])
        if self.latest is None:
            return PressureTexts(legend, [], unpicked_legend, [], [])
        generation, pressure = self.latest
        summary = fitting(
            [
                [(intensity_text(pressure, generation), None)],
                [(intensity_text(pressure, generation, short=True), None)],
            ],
            width,
        )
        unpicked = fitting(
            [
                [
                    (
                        f"picked by no one {percent(pressure.unselected)}, expected "
                        f"{pressure.expected_unselected:.1%}",
                        None,
                    )
                ],
                [
                    (
                        f"unpicked {percent(pressure.unselected)} exp "
                        f"{percent(pressure.expected_unselected)}",
                        None,
                    )
                ],
            ],
            width,
        )
        ratio, now = pressure.best_ratio, pressure.measured_best_ratio
        words = fitting(
            [
                [(pressure_words(pressure), None)],
                [(f"the best is picked {ratio:.2f} times as often as an average one", None)],
                [(f"best picked {ratio:.2f}x as often as average (now {now:.2f})", None)],
                [(f"best picked {ratio:.2f}x average", None)],
            ],
            width,
        )
        return PressureTexts(
            legend, summary, unpicked_legend, unpicked, words, pressure_words(pressure)
        )
