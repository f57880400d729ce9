"""Run-length distributions as text: per measure, one line of block characters per row, the
share of the row's runs solved by each point of a shared log-scaled axis (plain text, 80
columns, no colour needed: the heights carry it)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Final

import numpy as np
import numpy.typing as npt

from tui.lab.statistics.run_lengths import share_solved_by

FloatArray = npt.NDArray[np.float64]

BLOCKS: Final = "▁▂▃▄▅▆▇█"
"""Heights for shares up to 1/8, 2/8, ... 1; a blank is no run solved yet."""

WIDTH: Final = 80
"""Columns the chart fits in."""

NAME_WIDTH: Final = 18
"""Columns of a row's name at most (longer names are cut with an ellipsis)."""

MEASURES: Final = (
    ("evaluations", "evaluations"),
    ("generations", "generations"),
    ("seconds", "seconds"),
)
"""The measures drawn, and their axis words."""


def block_line(shares: FloatArray) -> str:
    """One row's shares (0 to 1) as block characters."""
    return "".join(
        " " if share <= 0 else BLOCKS[min(len(BLOCKS), math.ceil(share * len(BLOCKS))) - 1]
        for share in shares
    )


def _tick(value: float, metric: str) -> str:
    if metric == "seconds":
        return f"{value:.3g} s"
    return f"{value:,.0f}"


def _axis_line(points: FloatArray, metric: str, width: int) -> str:
    left, middle, right = (_tick(float(points[i]), metric) for i in (0, width // 2, width - 1))
    line = [" "] * width
    for start, text in (
        (0, left),
        (width // 2 - len(middle) // 2, middle),
        (width - len(right), right),
    ):
        for offset, char in enumerate(text):
            if 0 <= start + offset < width:
                line[start + offset] = char
    return "".join(line)


def _name(text: str) -> str:
    return text if len(text) <= NAME_WIDTH else text[: NAME_WIDTH - 1] + "…"


def run_length_text(names: Sequence[str], samples: Sequence[dict[str, FloatArray]]) -> str:
    """The run-length distributions of the rows, or "" when no run was solved.

    Args:
        names: The rows' names, in the report's order.
        samples: Per row, per measure, each run's value to solution (``inf``: not solved).
    """
    label_width = min(NAME_WIDTH, max((len(name) for name in names), default=1))
    width = WIDTH - label_width - 2 - 5
    lines = [
        "",
        "run-length distributions: the share of each row's runs solved by each point of a",
        "log scale (blank: none yet, ▁ up to 1/8, █ all), then the share at the end:",
    ]
    drawn = False
    for metric, word in MEASURES:
        solved = [s[metric][np.isfinite(s[metric])] for s in samples]
        values = np.concatenate(solved) if solved else np.zeros(0)
        values = values[values > 0]
        if values.size == 0:
            continue
        drawn = True
        low, high = float(values.min()), float(values.max())
        points = np.geomspace(low, max(high, low * 1.0001), width)
        lines.append(f"{word:<{label_width}}  {_axis_line(points, metric, width)}")
        for name, sample in zip(names, samples, strict=True):
            shares = share_solved_by(sample[metric], points)
            end = float(shares[-1]) if shares.size else 0.0
            lines.append(f"{_name(name):<{label_width}}  {block_line(shares)} {end:>4.0%}")
    return "\n".join(lines) if drawn else ""
