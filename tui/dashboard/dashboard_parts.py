"""What every part of the dashboard app shares: its widgets and the state of the run.

:class:`~tui.dashboard.app.QueensApp` is assembled from mixins (run control, repainting, the key
actions), each in its own module; they all derive from :class:`DashboardParts`, which names the
attributes they share so that each part reads on its own.
"""

from __future__ import annotations

from collections import deque

from textual.app import App
from textual.containers import Horizontal, Vertical
from textual.reactive import var
from textual.widgets import Footer

from engine import Config, GeneticAlgorithm, Snapshot
from tui.dashboard.history_series import HistorySeries
from tui.dashboard.recording import DashboardRecording
from tui.dashboard.time_travel import TimeTravel
from tui.dashboard.widgets import (
    Board,
    ConflictList,
    EngineRunner,
    FitnessPlot,
    FitnessSparks,
    ParamForm,
    PopulationTable,
    StatusLine,
)

RUN_STATES = ("idle", "running", "paused", "solved", "stopped", "error")
"""What :attr:`DashboardParts.run_state` may be."""


class DashboardParts(App[None]):
    """The dashboard's widgets and run state (set up by :class:`~tui.dashboard.app.QueensApp`)."""

    inspected: var[tuple[Snapshot, int] | None] = var(None)
    """The individual on the board instead of the best: a snapshot and a population index."""
    x_axis: var[str] = var("generation")
    """What the chart's x axis counts: ``generation`` or ``evaluations``."""

    # Set in QueensApp.__init__ -------------------------------------------------------------
    initial_config: Config
    """The config the form starts with."""
    ascii: bool
    """Draw queens as ``Q``/``X`` instead of chess symbols."""
    frozen_clock: bool
    """Hide wall-clock figures, for reproducible screenshots and tests."""
    latest: Snapshot | None
    """The newest snapshot of the current run."""
    series: HistorySeries
    """The current run's history, as the charts read it."""
    run_state: str
    """One of :data:`RUN_STATES`."""

    # Set in QueensApp.on_mount --------------------------------------------------------------
    runner: EngineRunner
    board: Board
    table: PopulationTable
    form: ParamForm
    status: StatusLine
    sparks: FitnessSparks
    plot: FitnessPlot
    conflicts: ConflictList
    top_row: Horizontal
    charts: Vertical
    body: Horizontal
    footer: Footer

    # Run records (tui.dashboard.time_travel, tui.dashboard.actions.time_keys) ---------------------
    recording: DashboardRecording
    """Records the current run in the run store (when the form's toggle says so)."""
    travel: TimeTravel
    """The past generation shown, if any."""

    # Repaint bookkeeping (tui.dashboard.repaint) --------------------------------------------------
    frame: int
    dirty: bool
    table_snapshot: Snapshot | None
    plotted: int
    listed: tuple[Snapshot, int] | None
    rates: deque[tuple[float, int]]
    rate: float

    # Provided by the other parts; declared here so that each part type-checks on its own. --

    def _repaint(self, force: bool = False) -> None:
        """One frame (see :class:`tui.dashboard.repaint.Repainting`)."""
        raise NotImplementedError

    def reset_painting(self) -> None:
        """Forget what the views show (see :class:`tui.dashboard.repaint.Repainting`)."""
        raise NotImplementedError

    def _start(self, config: Config, *, run: bool) -> bool:
        """Replace the run (see :class:`tui.dashboard.run_control.RunControl`)."""
        raise NotImplementedError

    def begin_recording(self, algorithm: GeneticAlgorithm) -> None:
        """Record a new run (see :class:`tui.dashboard.actions.time_keys.TimeKeys`)."""
        raise NotImplementedError

    def run_is_over(self) -> bool:
        """Whether the run can go no further (see :class:`tui.dashboard.run_control.RunControl`)."""
        raise NotImplementedError

    def pause_run(self) -> None:
        """Pause a running run (see :class:`tui.dashboard.run_control.RunControl`)."""
        raise NotImplementedError

    def form_config(self) -> Config | None:
        """The form's config or ``None`` (see :class:`tui.dashboard.run_control.RunControl`)."""
        raise NotImplementedError

    def action_new_run(self) -> None:
        """Start a new run (see :class:`tui.dashboard.actions.RunKeys`)."""
        raise NotImplementedError

    def action_focus_form(self) -> None:
        """Open the form (see :class:`tui.dashboard.actions.ViewKeys`)."""
        raise NotImplementedError

    def run_command(self) -> str | None:
        """The command that reruns the run (see :class:`tui.dashboard.actions.PaletteActions`)."""
        raise NotImplementedError

    def in_form(self) -> bool:
        """Whether the cursor is in the form (see :class:`tui.dashboard.app.QueensApp`)."""
        raise NotImplementedError

    def _paint_status(self) -> None:
        raise NotImplementedError

    def _paint_board(self) -> None:
        raise NotImplementedError

    def _paint_plot(self) -> None:
        raise NotImplementedError

    def _fit_layout(self, width: int, height: int) -> None:
        raise NotImplementedError
