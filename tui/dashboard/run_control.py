"""Run control: start a run, follow its messages, say when it is over.

The engine steps in a thread worker (:class:`~tui.dashboard.widgets.EngineRunner`) and reports
through
messages; these handlers keep the newest snapshot in :attr:`latest` and the run's state in
:attr:`run_state`, and leave the painting to :mod:`tui.dashboard.repaint`.
"""

from __future__ import annotations

from textual import on

from engine import Config
from tui.dashboard.dashboard_parts import DashboardParts
from tui.dashboard.history_series import HistorySeries
from tui.dashboard.widgets import EngineRunner, PopulationTable


class RunControl(DashboardParts):
    """Starts runs and follows the runner's messages."""

    def _start(self, config: Config, *, run: bool) -> bool:
        """Replace the run; an engine error is reported, never raised."""
        try:
            # Paused at generation 0 until the recorder has it; then running if asked.
            algorithm = self.runner.start(config, run=False)
        except Exception as error:
            self._engine_failed(f"{type(error).__name__}: {error}")
            return False
        self.begin_recording(algorithm)
        if run:
            self.runner.resume()
        self.latest = algorithm.snapshot
        self._fit_layout(self.size.width, self.size.height)
        self.series = HistorySeries()
        self.inspected = None
        self.status.stop_reason = None
        self.run_state = "running" if run else "paused"
        self.reset_painting()
        self._repaint(force=True)
        return True

    def _engine_failed(self, error: str) -> None:
        self.run_state = "error"
        self.notify(error, title="Engine error", severity="error", timeout=10)
        self._repaint(force=True)

    def run_is_over(self) -> bool:
        """Whether the current run can go no further (and say what to do)."""
        if self.run_state in ("solved", "stopped", "error", "idle"):
            reason = {
                "idle": "There is no run yet",
                "error": "The run failed",
            }.get(self.run_state, "The run is over")
            self.notify(f"{reason}: press r for a new run.", timeout=3)
            return True
        return False

    def pause_run(self) -> None:
        """Pause the run if it is running (another screen or a past generation is shown)."""
        if self.runner.running:
            self.runner.pause()
            self.recording.flush()
            self.run_state = "paused"
            self._repaint(force=True)

    def form_config(self) -> Config | None:
        """The form's config, or ``None`` after saying what is wrong with it."""
        config = self.form.config()
        if config is None:
            self.notify(
                "\n".join(str(error) for error in self.form.errors[:3]),
                title="Fix the form first",
                severity="error",
            )
        return config

    @on(EngineRunner.Stepped)
    def _stepped(self, message: EngineRunner.Stepped) -> None:
        if message.run_id == self.runner.run_id and not self.travel.active:
            self.latest = message.snapshot
            self.dirty = True
            if self.run_state != "running":
                # A single step (`n`): show it now rather than at the next frame.
                self._repaint(force=True)

    @on(EngineRunner.Finished)
    def _finished(self, message: EngineRunner.Finished) -> None:
        if message.run_id != self.runner.run_id:
            return
        snapshot = message.snapshot
        self.recording.end(finished=True)
        if self.travel.active:
            return
        self.latest = snapshot
        self.status.stop_reason = snapshot.stop_reason
        if snapshot.solved:
            self.run_state = "solved"
            self.notify(
                f"N = {snapshot.n} solved at generation {snapshot.generation:,} "
                f"({snapshot.evaluations:,} evaluations).",
                title="Solved",
            )
        else:
            self.run_state = "stopped"
            self.notify(
                f"Stopped at generation {snapshot.generation:,}: {snapshot.stop_reason}; "
                f"best has {snapshot.best_conflicts} conflicts.",
                title="Run over",
                severity="warning",
            )
        self._repaint(force=True)

    @on(EngineRunner.Failed)
    def _failed(self, message: EngineRunner.Failed) -> None:
        if message.run_id == self.runner.run_id:
            if self.runner.algorithm is not None:
                # Show the last generation that did complete.
                self.latest = self.runner.algorithm.snapshot
            self._engine_failed(message.error)

    @on(PopulationTable.Inspect)
    def _inspect(self, message: PopulationTable.Inspect) -> None:
        self.inspected = (message.snapshot, message.index)
        self._paint_board()
