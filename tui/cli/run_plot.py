"""``queens show RUN --plot FILE``: a recorded run's convergence as a figure, its statistics
thinned as :mod:`tui.lab.figures.run_series` does."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

from tui.cli.usage_error import UsageError
from tui.lab.figures.run_series import thinned_stats

if TYPE_CHECKING:
    from tui.lab.store import RunStore
    from tui.lab.store.records import RunInfo


def draw_run_plot(path: Path, store: RunStore, info: RunInfo) -> None:
    """Draw the run's figure at ``path`` and say so on stderr.

    Raises:
        UsageError: If the run has no generations recorded or the file cannot be written.
    """
    from tui.lab.figures.run_figure import draw_run_figure

    columns = thinned_stats(store, info.id, info.generations)
    if not columns["evaluations"]:
        raise UsageError("--plot", str(path), f"run {info.id} has no generations to draw")
    title = f"run {info.id}: N = {info.n}, seed {info.seed}, {info.generations:,} generations"
    try:
        draw_run_figure(path, columns, title)
    except OSError as error:
        raise UsageError("--plot", str(path), f"the figure could not be written: {error}") from None
    print(f"queens: figure written to {path}", file=sys.stderr)
