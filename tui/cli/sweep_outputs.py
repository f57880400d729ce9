"""What a sweep writes besides its report: ``--curves FILE.csv`` (every run's per-generation
series, as results arrive) and ``--plot FILE.svg|pdf|png`` (run-length distributions and
convergence curves).

Both are checked before any run starts (a bad value is one line and exit 2). matplotlib is
imported only when ``--plot`` is given; without it, ``--plot`` is refused with how to install
it, and the printed report needs none of it.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tui.cli.usage_error import UsageError

if TYPE_CHECKING:
    from tui.lab.sweep.curves import CurveKeeper, CurveWriter
    from tui.lab.sweep.plan import SweepPlan
    from tui.lab.sweep.task import Task


SWEEP_PLOT_HELP = "run-length distributions and convergence curves"
"""What a sweep's ``--plot`` draws."""


def add_output_flags(
    parser: argparse.ArgumentParser, curves: bool = True, drawn: str = SWEEP_PLOT_HELP
) -> None:
    """``--plot`` (drawing ``drawn``), and ``--curves`` where runs are made."""
    parser.add_argument(
        "--plot",
        default=None,
        metavar="FILE",
        help=f"also draw {drawn} into FILE.svg, .pdf or .png (pip install 'queens-ga[stats]')",
    )
    if curves:
        parser.add_argument(
            "--curves",
            default=None,
            metavar="FILE.csv",
            help="write every run's per-generation series to a CSV file (long form)",
        )


def check_curves_target(text: str) -> Path:
    """The ``--curves`` file, once its suffix and folder are known good.

    Raises:
        UsageError: Not a ``.csv`` file name, a folder, or a missing folder.
    """
    allowed = "a file ending in .csv in an existing folder"
    path = Path(text).expanduser()
    if path.suffix.lower() != ".csv" or path.is_dir():
        raise UsageError("--curves", text, allowed)
    if not path.parent.is_dir():
        raise UsageError("--curves", text, f"{allowed}: the folder {str(path.parent)!r} is missing")
    return path


@dataclass
class SweepOutputs:
    """The checked ``--curves`` and ``--plot`` targets of one sweep, and what gathers them."""

    curves_path: Path | None = None
    plot_path: Path | None = None
    writer: CurveWriter | None = None
    keeper: CurveKeeper | None = None
    names: dict[str, str] = field(default_factory=dict)

    @classmethod
    def from_args(cls, args: argparse.Namespace) -> SweepOutputs:
        """Check the flags (before any run).

        Raises:
            UsageError: On a bad ``--curves``.
            FigureError: On a bad ``--plot``, or matplotlib missing.
        """
        from tui.lab.figures.plot_target import check_plot_target

        curves = getattr(args, "curves", None)
        plot = getattr(args, "plot", None)
        return cls(
            check_curves_target(curves) if curves is not None else None,
            check_plot_target(plot) if plot is not None else None,
        )

    @property
    def wants_curves(self) -> bool:
        """Whether the runs must send their per-generation series."""
        return self.curves_path is not None or self.plot_path is not None

    @contextmanager
    def gathering(self, plan: SweepPlan, kept_before: int) -> Iterator[None]:
        """Open the CSV file and the keeper for the runs about to run."""
        from tui.lab.sweep.curves import CurveKeeper, CurveWriter
        from tui.lab.sweep.report import cell_name

        self.names = {cell.fingerprint: cell_name(plan, cell) for cell in plan.cells}
        if kept_before and self.wants_curves:
            print(
                f"queens: {kept_before:,} runs kept from before have no per-generation series "
                "here (--fresh runs them all again)",
                file=sys.stderr,
            )
        if self.plot_path is not None:
            self.keeper = CurveKeeper()
        if self.curves_path is not None:
            try:
                self.writer = CurveWriter(self.curves_path)
            except OSError as error:
                raise UsageError("--curves", str(self.curves_path), str(error)) from None
        try:
            yield
        finally:
            if self.writer is not None:
                self.writer.close()
                print(
                    f"queens: {self.writer.lines:,} generations written to {self.curves_path}",
                    file=sys.stderr,
                )

    def on_curve(self, task: Task, curve: Mapping[str, Any]) -> None:
        """Take one run's series as its result is kept."""
        if self.writer is not None:
            self.writer.add(self.names[task.fingerprint], task.seed, curve)
        if self.keeper is not None:
            self.keeper.add(task.fingerprint, curve)


def draw_sweep_plot(
    path: Path,
    plan: SweepPlan,
    results: Mapping[tuple[str, int], Mapping[str, Any]],
    keeper: CurveKeeper | None,
    sweep_id: int | None,
) -> None:
    """Draw the sweep's figure at ``path`` and say so on stderr.

    Raises:
        UsageError: If the file cannot be written.
    """
    from tui.lab.figures.sweep_figure import FigureRow, draw_sweep_figure
    from tui.lab.statistics.run_lengths import censored_sample
    from tui.lab.sweep.report import METRICS, row_name, summarize, title_text

    rows = []
    for row in summarize(plan, results):
        runs = [result for _, result in row.runs]
        samples = {metric: censored_sample(runs, metric) for metric in METRICS}
        curves = None if keeper is None else keeper.rows.get(row.cell.fingerprint)
        rows.append(FigureRow(row_name(plan, row), samples, curves))
    try:
        draw_sweep_figure(path, rows, title_text(plan, sweep_id))
    except OSError as error:
        raise UsageError("--plot", str(path), f"the figure could not be written: {error}") from None
    print(f"queens: figure written to {path}", file=sys.stderr)
