"""Run control: start a run, follow the engine runner's reports, say when the run is over.

The engine steps in a thread worker (:class:`~tui.dashboard.widgets.EngineRunner`) and reports
through messages, which the main screen hands to :class:`RunControl`; it keeps the newest
snapshot and the run's state in one :class:`~tui.dashboard.runs.current_run.CurrentRun` and leaves
the painting to :class:`~tui.dashboard.painter.Painter`.
"""

from __future__ import annotations

from typing import Protocol

from textual.screen import Screen

from engine import Config, ConfigError, GeneticAlgorithm, Snapshot
from engine.termination import STAGNATION
from tui.dashboard.painter import Painter
from tui.dashboard.runs.current_run import CurrentRun
from tui.dashboard.runs.history_series import HistorySeries
from tui.dashboard.runs.recording import DashboardRecording
from tui.dashboard.runs.reproduce import (
    recorded_run_command,
    reproduce_command,
    swapped_run_command,
)
from tui.dashboard.runs.speed import faster, slower
from tui.dashboard.runs.time_travel import TimeTravel
from tui.dashboard.widgets import EngineRunner, StatusLine


class PastPlayer(Protocol):
    """What ``space`` and ``n`` do while a past generation is shown (the time-travel keys)."""

    def toggle_play(self) -> None:
        """Play the record back from the generation shown, or pause it."""

    def step(self) -> None:
        """One recorded generation on."""


class RunControl:
    """Starts, runs, pauses and steps the current run, and follows what the runner reports.

    Args:
        screen: The main screen (notifications).
        run: The record of the current run.
        runner: Steps the run in a thread.
        painter: Paints the run.
        status: Says how the run stopped and under which number it is recorded.
        recording: Records the run in the run store.
        travel: The past generation shown, if any: the live run's reports wait meanwhile.
    """

    def __init__(
        self,
        screen: Screen[None],
        run: CurrentRun,
        runner: EngineRunner,
        painter: Painter,
        status: StatusLine,
        recording: DashboardRecording,
        travel: TimeTravel,
    ) -> None:
        self.screen = screen
        self.run = run
        self.runner = runner
        self.painter = painter
        self.status = status
        self.recording = recording
        self.travel = travel
        self.past: PastPlayer | None = None
        """Plays the record back while a past generation is shown (set by the travel keys)."""

    def start(self, config: Config, *, run: bool, record: bool) -> bool:
        """Replace the run; an engine error is reported, never raised.

        Args:
            config: The new run's config.
            run: Start stepping at once (else wait at generation 0).
            record: Record the run in the run store.

        Returns:
            Whether the run started.
        """
        try:
            # Paused at generation 0 until the recorder has it; then running if asked.
            algorithm = self.runner.start(config, run=False)
        except Exception as error:
            self.report_failure(f"{type(error).__name__}: {error}")
            return False
        self._expect_recording(algorithm, record)
        if run:
            self.record_from_here()
            self.runner.resume()
        self.run.latest = algorithm.snapshot
        self.run.series = HistorySeries()
        self.run.inspected = None
        self.run.started_with, self.run.first_swap = config, None
        self.status.stop_reason = None
        self.run.move_to("running" if run else "paused")
        self.painter.reset()
        self.painter.repaint(force=True)
        return True

    def _expect_recording(self, algorithm: GeneticAlgorithm, record: bool) -> None:
        """A new run (at generation 0, not yet stepping): record it from its first step, if
        asked to (:meth:`record_from_here`)."""
        self.show_live()
        self.travel.detach()
        self.recording.enabled = record
        self.recording.expect(algorithm)
        self.status.run_label = None

    def record_from_here(self) -> None:
        """The run is about to take its first step: make its record now, at generation 0
        (nothing when it has one, or is not to be recorded)."""
        run_id = self.recording.begin_expected()
        if run_id is not None:
            self.status.run_label = f"run {run_id}"
            self.travel.attach(self.recording.store(), run_id, replay_only=False)

    def show_live(self) -> None:
        """Follow the live run again (after time travel)."""
        if not self.travel.active:
            return
        self.travel.leave()
        self.status.note = None
        if self.run.state == "running" and not self.runner.running:
            self.run.move_to("paused")  # it was the record playing back, not the run
        algorithm = self.runner.algorithm
        if algorithm is not None:
            self.run.latest = algorithm.snapshot
        self.run.inspected = None
        self.painter.redraw_chart()
        self.painter.dirty = True
        self.painter.repaint(force=True)

    def toggle(self) -> None:
        """Run or pause the current run (in the past: play the record back or pause it)."""
        if self.travel.active and self.past is not None:
            self.past.toggle_play()
            return
        if self.is_over():
            return
        if self.runner.running:
            self.runner.pause()
            self.recording.flush()
            self.run.move_to("paused")
        else:
            self.record_from_here()
            self.runner.resume()
            self.run.move_to("running")
        self.painter.repaint(force=True)

    def step_once(self) -> None:
        """Pause, then step exactly one generation (in the past: one recorded generation)."""
        if self.travel.active and self.past is not None:
            self.past.step()
            return
        if self.is_over():
            return
        self.record_from_here()
        self.runner.step_once()
        self.run.move_to("paused")
        self.painter.repaint(force=True)

    def pause(self) -> None:
        """Pause the run if it is running (another screen or a past generation is shown)."""
        if self.runner.running:
            self.runner.pause()
            self.recording.flush()
            self.run.move_to("paused")
            self.painter.repaint(force=True)

    def change_speed(self, steps: int) -> None:
        """Raise (or, for negative ``steps``, lower) the engine's speed limit by that many of
        :data:`~tui.dashboard.runs.speed.SPEED_STEPS`."""
        limit = self.runner.speed_limit
        for _ in range(abs(steps)):
            limit = faster(limit) if steps > 0 else slower(limit)
        self.runner.set_speed(limit)
        self.painter.paint_status()

    def run_command(self) -> str | None:
        """The ``queens solve`` command that reruns the run shown (``None``: no run yet).

        A replayed record has no live run: its line is written from the record's config, as
        ``queens show`` writes it.
        """
        timeline = self.travel.timeline
        if self.travel.replay_only and timeline is not None:
            try:
                line = recorded_run_command(timeline.info.config)
            except ConfigError:
                return None  # a damaged record: replaying it said so already
            swaps = timeline.info.swaps
            if swaps:
                return swapped_run_command(timeline.run_id, swaps[0].generation, line)
            return line
        algorithm = self.runner.algorithm
        if algorithm is None:
            return None
        first_swap = self.run.first_swap
        if first_swap is None:
            return reproduce_command(algorithm.config)
        start_line = reproduce_command(self.run.started_with or algorithm.config)
        return swapped_run_command(self.recording.run_id, first_swap, start_line)

    def is_over(self) -> bool:
        """Whether the current run can go no further (and say what to do)."""
        if self.run.state in ("solved", "stopped", "error", "idle"):
            reason = {
                "idle": "There is no run yet",
                "error": "The run failed",
            }.get(self.run.state, "The run is over")
            self.screen.notify(f"{reason}: press r for a new run.", timeout=3)
            return True
        return False

    def report_failure(self, error: str) -> None:
        """The engine raised: say so, and keep the app alive."""
        self.run.move_to("error")
        self.screen.notify(error, title="Engine error", severity="error", timeout=10)
        self.painter.repaint(force=True)

    # What the runner reports (the main screen receives its messages) ---------------------

    def stepped(self, run_id: int, snapshot: Snapshot) -> None:
        """A newer snapshot of run ``run_id``: painted at the next frame."""
        if run_id == self.runner.run_id and not self.travel.active:
            self.run.latest = snapshot
            self.painter.dirty = True
            if self.run.state != "running":
                # A single step (`n`): show it now rather than at the next frame.
                self.painter.repaint(force=True)

    def finished(self, run_id: int, snapshot: Snapshot) -> None:
        """Run ``run_id``'s stop rule fired: say how it ended."""
        if run_id != self.runner.run_id:
            return
        self.recording.end(finished=True)
        if self.travel.active:
            return
        self.run.latest = snapshot
        self.status.stop_reason = self._stop_words(snapshot)
        if snapshot.solved:
            self.run.move_to("solved")
            self.screen.notify(
                f"N = {snapshot.n} solved at generation {snapshot.generation:,} "
                f"({snapshot.evaluations:,} evaluations).",
                title="Solved",
            )
        else:
            self.run.move_to("stopped")
            self.screen.notify(
                f"Stopped at generation {snapshot.generation:,}: {self.status.stop_reason}; "
                f"best has {snapshot.best_conflicts} conflicts.",
                title="Run over",
                severity="warning",
            )
        self.painter.repaint(force=True)

    def _stop_words(self, snapshot: Snapshot) -> str | None:
        """Why the run stopped, as the status line says it: the stagnation limit with its
        value (the dashboard sets one by default: the user should see it was that)."""
        algorithm = self.runner.algorithm
        limit = None if algorithm is None else algorithm.config.stagnation
        if snapshot.stop_reason == STAGNATION and limit is not None:
            return f"{STAGNATION}: no better in {limit:,} generations"
        return snapshot.stop_reason

    def engine_failed(self, run_id: int, error: str) -> None:
        """Run ``run_id``'s engine raised: show the last generation that did complete."""
        if run_id == self.runner.run_id:
            if self.runner.algorithm is not None:
                self.run.latest = self.runner.algorithm.snapshot
            self.report_failure(error)
