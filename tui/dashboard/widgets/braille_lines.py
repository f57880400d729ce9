"""Lines drawn in Braille dots: each character cell holds 2 x 4 dots, so a chart of R rows
and C columns has 4R x 2C points. A series is a dotted, dashed or solid line in its own colour;
where series cross, the later one owns the cell's colour."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

import numpy as np
import numpy.typing as npt
from rich.segment import Segment
from rich.style import Style

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


def plot_line(
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


def measured_runs(
    x: npt.NDArray[np.float64], x_range: tuple[float, float], dot_columns: int
) -> npt.NDArray[np.int64]:
    """Per point, the run of neighbouring measured generations it belongs to: a new run
    starts after generations that were not measured, where the gap shows (more than one
    generation, across more than one dot column). Points of one run are joined by a line; a
    line across a gap would draw values nobody measured."""
    if x.size < 2:
        return np.zeros(x.size, dtype=np.int64)
    (x0, x1) = x_range
    at = np.floor((x - x0) / (x1 - x0) * (dot_columns - 1))
    gaps = (np.diff(x) > 1) & (np.diff(at) > 1)
    return np.concatenate(([0], np.cumsum(gaps))).astype(np.int64)


def line_segments(
    codes: npt.NDArray[np.int64],
    owner: npt.NDArray[np.int64],
    colours: Sequence[str],
    base: Style,
) -> list[Segment]:
    """One row of cells as segments: the Braille characters of ``codes``, each run of cells
    in the colour of the series that owns them (``-1``: none, the base style)."""
    text = "".join(chr(BRAILLE_BASE + code) if code else " " for code in codes.tolist())
    segments = []
    start = 0
    owners = owner.tolist()
    while start < len(owners):
        end = start
        while end < len(owners) and owners[end] == owners[start]:
            end += 1
        who = owners[start]
        style = base if who < 0 else base + Style(color=colours[who])
        segments.append(Segment(text[start:end], style))
        start = end
    return segments
