"""One recorded run's figure (``queens show RUN --plot FILE``): its best and mean conflicts and
its population's diversity against evaluations, generation by generation."""

from __future__ import annotations

import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np

from tui.lab.figures.saving import save_figure
from tui.lab.figures.style import log_axis, pyplot, series_style


def draw_run_figure(path: Path, columns: Mapping[str, Any], title: str) -> None:
    """Draw and save a run's convergence at ``path`` (format from its suffix).

    Args:
        path: Where to write it.
        columns: The run's statistics columns (``evaluations``, ``best_conflicts``,
            ``mean_conflicts``, ``entropy``, ``unique_fraction``), one value per generation.
        title: The figure's title.
    """
    plt = pyplot()
    figure, (top, bottom) = plt.subplots(
        2, 1, figsize=(6.4, 5.6), sharex=True, layout="constrained"
    )
    evaluations = np.maximum(np.asarray(columns["evaluations"], dtype=np.float64), 1.0)
    every = max(1, evaluations.size // 8)
    for index, (name, label) in enumerate(
        [("best_conflicts", "best individual"), ("mean_conflicts", "population mean")]
    ):
        top.plot(evaluations, columns[name], label=label, markevery=every, **series_style(index))
    top.set_ylabel("conflicts (attacking pairs)")
    top.set_ylim(bottom=0)
    top.legend()
    top.set_title("(a) conflicts", loc="left", fontsize=9)
    diversity = [
        ("entropy", "column entropy (normalized, 0 to 1)"),
        ("unique_fraction", "share of unique genomes"),
    ]
    for index, (name, label) in enumerate(diversity, 2):
        bottom.plot(evaluations, columns[name], label=label, markevery=every, **series_style(index))
    bottom.set_ylabel("diversity")
    bottom.set_ylim(bottom=0)
    bottom.set_xlabel("evaluations (fitness evaluations, log scale)")
    bottom.set_xscale("log")
    log_axis(bottom.xaxis)
    bottom.legend()
    bottom.set_title("(b) diversity", loc="left", fontsize=9)
    figure.suptitle(title, fontsize=10)
    save_figure(figure, path)


def run_figure_svg(columns: Mapping[str, Any], title: str) -> str:
    """The same figure as SVG text (for the dashboard's export, which delivers text)."""
    with tempfile.TemporaryDirectory(prefix="queens-figure-") as folder:
        path = Path(folder) / "figure.svg"
        draw_run_figure(path, columns, title)
        return path.read_text(encoding="utf-8")
