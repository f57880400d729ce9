"""``queens show RUN --plot FILE``: a recorded run's convergence as a figure.

The run's statistics are read from the store in chunks and thinned to at most
:data:`PLOT_POINTS` generations (evenly spread, the first and last always in), so a run of
millions of generations draws in bounded memory and time.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Final

from engine import ConfigError

if TYPE_CHECKING:
    from tui.lab.store import RunStore
    from tui.lab.store.records import RunInfo

PLOT_POINTS: Final = 4000
"""Generations a run's figure draws at most."""

PLOT_COLUMNS: Final = (
    "evaluations",
    "best_conflicts",
    "mean_conflicts",
    "entropy",
    "unique_fraction",
)
"""The statistics the figure draws."""

READ_CHUNK: Final = 65536
"""Generations read from the store at a time."""


def thinned_stats(store: RunStore, run_id: int, last: int) -> dict[str, list[float]]:
    """The run's :data:`PLOT_COLUMNS` at no more than :data:`PLOT_POINTS` generations."""
    step = max(1, -(-(last + 1) // PLOT_POINTS))
    kept: dict[str, list[float]] = {name: [] for name in PLOT_COLUMNS}
    for start in range(0, last + 1, READ_CHUNK):
        columns = store.stats(run_id, start, start + READ_CHUNK)
        generations = columns["generation"]
        picked = (generations % step == 0) | (generations == last)
        for name in PLOT_COLUMNS:
            kept[name] += columns[name][picked].tolist()
    return kept


def draw_run_plot(path: Path, store: RunStore, info: RunInfo) -> None:
    """Draw the run's figure at ``path`` and say so on stderr.

    Raises:
        ConfigError: If the run has no generations recorded or the file cannot be written.
    """
    from tui.lab.figures.run_figure import draw_run_figure

    columns = thinned_stats(store, info.id, info.generations)
    if not columns["evaluations"]:
        raise ConfigError("plot", str(path), f"run {info.id} has no generations to draw")
    title = f"run {info.id}: N = {info.n}, seed {info.seed}, {info.generations:,} generations"
    try:
        draw_run_figure(path, columns, title)
    except OSError as error:
        raise ConfigError("plot", str(path), f"the figure could not be written: {error}") from None
    print(f"queens: figure written to {path}", file=sys.stderr)
