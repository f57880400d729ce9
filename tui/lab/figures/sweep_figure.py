"""A sweep's figure: run-length distributions (share of runs solved by each number of
evaluations, generations and seconds) and convergence curves (median best conflicts against
evaluations, with the interquartile band), one series per row.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from tui.lab.figures.saving import save_figure
from tui.lab.figures.style import log_axis, pyplot, series_style
from tui.lab.statistics.run_lengths import distribution_steps
from tui.lab.sweep.curves import RowCurves, quartile_curves

FloatArray = npt.NDArray[np.float64]

DISTRIBUTION_AXES: Final = (
    ("evaluations", "evaluations (fitness evaluations, log scale)"),
    ("generations", "generations (log scale)"),
    ("seconds", "seconds of wall-clock time (log scale)"),
)
"""The run-length panels: measure and axis label."""

NO_CURVES_TEXT: Final = (
    "no per-generation series:\nruns kept from before carry none\n(--fresh runs them again)"
)
"""The convergence panel's text when no run of this invocation sent its series."""

GRID_POINTS: Final = 200
"""Evaluation counts the convergence curves are read at."""


@dataclass(frozen=True)
class FigureRow:
    """One row of the sweep as the figure draws it.

    Attributes:
        name: Its label in the legend.
        samples: Per measure, each run's value to solution (``inf``: not solved).
        curves: Its runs' thinned curves, or ``None`` when none were gathered.
    """

    name: str
    samples: Mapping[str, FloatArray]
    curves: RowCurves | None


def _distribution_panel(axes: Any, rows: Sequence[FigureRow], metric: str, label: str) -> None:
    solved = [s[np.isfinite(s)] for row in rows if (s := row.samples[metric]).size]
    everything = np.concatenate(solved) if solved else np.zeros(0)
    right = float(everything.max()) if everything.size else 1.0
    for index, row in enumerate(rows):
        values, shares = distribution_steps(row.samples[metric])
        style = series_style(index)
        if values.size == 0:
            axes.plot([], [], label=row.name, **style)
            continue
        # From no run solved at the first solution, to the row's success rate at the right.
        xs = np.r_[values[0], values, right]
        ys = np.r_[0.0, shares, shares[-1]]
        axes.step(xs, ys, where="post", label=row.name, markevery=max(1, xs.size // 6), **style)
    axes.set_xscale("log")
    log_axis(axes.xaxis, seconds=metric == "seconds")
    axes.set_ylim(-0.02, 1.02)
    axes.set_xlabel(label)
    axes.set_ylabel("share of runs solved")


def _convergence_panel(axes: Any, rows: Sequence[FigureRow]) -> str | None:
    """Draw the curves; a note for the panel when some or all runs have none."""
    with_curves = [(i, row) for i, row in enumerate(rows) if row.curves and row.curves.evaluations]
    axes.set_xlabel("evaluations (fitness evaluations, log scale)")
    axes.set_ylabel("best conflicts (attacking pairs)")
    if not with_curves:
        axes.text(
            0.5,
            0.5,
            NO_CURVES_TEXT,
            ha="center",
            va="center",
            transform=axes.transAxes,
        )
        return None
    firsts = [max(1.0, float(e[0])) for _, r in with_curves for e in r.curves.evaluations]  # type: ignore[union-attr]
    lasts = [float(e[-1]) for _, r in with_curves for e in r.curves.evaluations]  # type: ignore[union-attr]
    grid = np.geomspace(min(firsts), max(max(lasts), min(firsts) * 1.01), GRID_POINTS)
    for index, row in with_curves:
        assert row.curves is not None
        q1, median, q3 = quartile_curves(row.curves, grid)
        style = series_style(index)
        axes.plot(grid, median, label=row.name, markevery=GRID_POINTS // 8, **style)
        axes.fill_between(grid, q1, q3, color=style["color"], alpha=0.18, linewidth=0)
    axes.set_xscale("log")
    log_axis(axes.xaxis)
    axes.set_ylim(bottom=0)
    shown = sum(len(row.curves.evaluations) for _, row in with_curves if row.curves)
    dropped = sum(row.curves.dropped for _, row in with_curves if row.curves)
    runs = sum(int(row.samples["evaluations"].size) for row in rows)
    if shown < runs:
        return f"curves of {shown:,} of {runs:,} runs" + (
            f" ({dropped:,} over the cap per row)" if dropped else ""
        )
    return None


def draw_sweep_figure(path: Path, rows: Sequence[FigureRow], title: str) -> None:
    """Draw and save the sweep's figure at ``path`` (format from its suffix).

    Args:
        path: Where to write it (checked by :func:`~tui.lab.figures.plot_target.check_plot_target`).
        rows: The rows, ranked best first.
        title: The figure's title (the sweep and its runs).
    """
    plt = pyplot()
    figure, grid = plt.subplots(2, 2, figsize=(8.0, 6.4), layout="constrained")
    panels = [grid[0][0], grid[0][1], grid[1][0]]
    for axes, (metric, label) in zip(panels, DISTRIBUTION_AXES, strict=True):
        _distribution_panel(axes, rows, metric, label)
    note = _convergence_panel(grid[1][1], rows)
    for axes, letter in zip([*panels, grid[1][1]], "abcd", strict=True):
        axes.set_title(f"({letter})", loc="left", fontsize=9)
    grid[0][0].set_title("run-length distribution", fontsize=9)
    grid[1][1].set_title("median and IQR over runs" + (f"; {note}" if note else ""), fontsize=8)
    handles, labels = grid[0][0].get_legend_handles_labels()
    figure.legend(handles, labels, loc="outside lower center", ncol=min(4, max(1, len(labels))))
    figure.suptitle(title, fontsize=10)
    save_figure(figure, path)
