"""Keys of the run records: time travel (``[`` ``]`` ``{`` ``}`` ``g`` ``end``), ``l``, ``e``.

Going back pauses the run and shows a past generation exactly (recomputed from the store in a
thread, see :class:`tui.dashboard.time_travel.TimeTravel`): board, table, inspect and conflict list
show
it, the status line says ``REPLAY gen 37 / 412`` and the chart marks it. ``end`` returns to
the live run. ``l`` lists the recorded runs to replay or resume; ``e`` exports the run.
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from textual import on
from textual.actions import SkipAction
from textual.message import Message

from engine import GeneticAlgorithm, Snapshot
from tui.dashboard.dashboard_parts import DashboardParts
from tui.dashboard.history_series import HistorySeries
from tui.dashboard.recording import DashboardRecording
from tui.dashboard.time_travel import TimeTravel
from tui.lab.store import RunStore

BIG_STEP: Final = 10
"""Generations ``{`` and ``}`` travel."""
TIME_ACTIONS: Final = frozenset(
    {"back_one", "back_ten", "forward_one", "forward_ten", "go_to", "go_live"}
)


class TimeKeys(DashboardParts):
    """``[``, ``]``, ``{``, ``}``, ``g``, ``end``, ``l`` and ``e``."""

    recording: DashboardRecording
    travel: TimeTravel
    _travel_request: int = 0
    _keyframes_warned_of: set[int]

    @dataclass
    class RecordingFailed(Message):
        """The store refused a write (posted from the engine thread)."""

        text: str

    @dataclass
    class Travelled(Message):
        """A past generation was computed (or could not be)."""

        request: int
        generation: int
        snapshot: Snapshot | None
        error: str | None

    # Recording ------------------------------------------------------------------------------

    def recording_failed(self, text: str) -> None:
        """From any thread: say that recording stopped (the run goes on)."""
        self.post_message(self.RecordingFailed(text))

    @on(RecordingFailed)
    def _recording_failed(self, message: RecordingFailed) -> None:
        self.status.run_label = "not recorded"
        self.notify(message.text, title="Run store", severity="error", timeout=8)

    def begin_recording(self, algorithm: GeneticAlgorithm) -> None:
        """A new run (at generation 0, not yet stepping): record it if the form says so."""
        self.leave_time_travel()
        self.travel.detach()
        self.recording.enabled = self.form.record
        run_id = self.recording.begin(algorithm)
        self.status.run_label = None if run_id is None else f"run {run_id}"
        if run_id is not None:
            self.travel.attach(self.recording.store(), run_id, replay_only=False)

    # Time travel ----------------------------------------------------------------------------

    def action_back_one(self) -> None:
        """One generation back (pauses the run)."""
        self._travel(-1)

    def action_back_ten(self) -> None:
        """Ten generations back (pauses the run)."""
        self._travel(-BIG_STEP)

    def action_forward_one(self) -> None:
        """One generation forward (past the record's end: the live run)."""
        self._travel(1)

    def action_forward_ten(self) -> None:
        """Ten generations forward (past the record's end: the live run)."""
        self._travel(BIG_STEP)

    def action_go_to(self) -> None:
        """Ask for a generation and jump to it."""
        from tui.dashboard.screens.generation_prompt import GenerationPrompt

        if not self._can_travel():
            return
        self._pause_for_travel()
        last = self.travel.last_generation()

        def chosen(generation: int | None) -> None:
            if generation is not None:
                self._show_generation(generation)

        self.push_screen(GenerationPrompt(last), chosen)

    def action_go_live(self) -> None:
        """Back to the live run (a replayed run: its last generation).

        ``end`` is a priority key: outside time travel it goes on to the focused widget
        (the table's last row, the end of a form field).
        """
        if not self.travel.active or self.in_form():
            raise SkipAction
        if self.travel.replay_only:
            self._show_generation(self.travel.last_generation())
            return
        self.leave_time_travel()

    def leave_time_travel(self) -> None:
        """Follow the live run again."""
        if not self.travel.active:
            return
        self.travel.position = None
        self._travel_request += 1
        self.status.note = None
        algorithm = self.runner.algorithm
        if algorithm is not None:
            self.latest = algorithm.snapshot
        self.inspected = None
        self.plotted = -1
        self.dirty = True
        self._repaint(force=True)

    def _can_travel(self) -> bool:
        if self.travel.timeline is None:
            self.notify(
                "This run is not recorded (the form's record toggle): nothing to go back to.",
                timeout=4,
            )
            return False
        return True

    def _pause_for_travel(self) -> None:
        self.pause_run()
        self.recording.flush()

    def _travel(self, delta: int) -> None:
        if not self._can_travel() or self.latest is None:
            return
        current = self.travel.position
        if current is None:
            if delta > 0:
                return  # already live
            self._pause_for_travel()
            current = self.latest.generation
        target = self.travel.target(current, delta)
        if target is None:
            self.leave_time_travel()
        else:
            self._show_generation(target)

    def _show_generation(self, generation: int) -> None:
        """Compute generation ``generation`` in a thread; :meth:`_travelled` shows it."""
        self._travel_request += 1
        request = self._travel_request
        self.travel.position = generation
        travel = self.travel

        def compute() -> None:
            try:
                snapshot = travel.snapshot_at(generation)
            except Exception as error:  # a damaged record must not kill the dashboard
                self.post_message(self.Travelled(request, generation, None, str(error)))
            else:
                self.post_message(self.Travelled(request, generation, snapshot, None))

        self.run_worker(compute, thread=True, group="time-travel", exit_on_error=False)

    @on(Travelled)
    def _travelled(self, message: Travelled) -> None:
        if message.request != self._travel_request or not self.travel.active:
            return
        if message.snapshot is None:
            self.notify(message.error or "", title="Time travel", severity="error", timeout=8)
            return
        self._warn_of_damaged_keyframes()
        snapshot = message.snapshot
        last = self.travel.last_generation()
        self.status.note = f"REPLAY gen {snapshot.generation:,} / {last:,}"
        self.latest = snapshot
        self.inspected = None
        self.dirty = True
        self.plotted = -1
        self._repaint(force=True)
        self._paint_plot()
        x = snapshot.generation if self.x_axis == "generation" else snapshot.evaluations
        self.plot.mark(x)

    def _warn_of_damaged_keyframes(self) -> None:
        """Say once per keyframe that a damaged one was set aside (the generation shown is
        still exact: it was re-stepped from an earlier keyframe and checked)."""
        timeline = self.travel.timeline
        if timeline is None:
            return
        for generation, why in list(timeline.damaged.items()):
            if generation in self._keyframes_warned_of:
                continue
            self._keyframes_warned_of.add(generation)
            self.notify(
                f"The keyframe of generation {generation:,} is damaged and was set aside; "
                f"generations after it are re-stepped from an earlier one. {why}",
                title="Time travel",
                severity="warning",
                timeout=8,
            )

    # Loading and exporting ----------------------------------------------------------------

    def action_load_runs(self) -> None:
        """List the recorded runs: enter replays one, c continues (resumes) it."""
        from tui.dashboard.screens.runs import RunsScreen
        from tui.lab.store import StoreError

        try:
            infos = self.recording.store().runs()
        except StoreError as error:
            self.notify(str(error), title="Run store", severity="error", timeout=8)
            return
        self.pause_run()

        def chosen(choice: tuple[str, int] | None) -> None:
            if choice is None:
                return
            what, run_id = choice
            if what == "resume":
                self.resume_recorded(run_id)
            else:
                self.replay_recorded(run_id)

        self.push_screen(RunsScreen(infos, str(self.recording.path)), chosen)

    def open_replay(self, run: int | str) -> None:
        """Open on a recorded run: an id in the store, or a run file's path."""
        from tui.lab.store import RunStore, StoreError

        if isinstance(run, int) or str(run).isdigit():
            self.replay_recorded(int(run))
            return
        try:
            store = RunStore.open(run, create=False, wal=False)
            run_id = store.single_run_id()
        except StoreError as error:
            self.notify(str(error), title="Replay", severity="error", timeout=8)
            return
        self.replay_recorded(run_id, store)

    def replay_recorded(self, run_id: int, store: RunStore | None = None) -> bool:
        """Show a recorded run in time-travel mode, at its last generation."""
        from tui.lab.store import StoreError

        try:
            if store is None:
                store = self.recording.store()
            store.run(run_id)
            self.runner.stop()
            self.recording.end()
            self.runner.algorithms = ()
            self.travel.attach(store, run_id, replay_only=True)
            last = self.travel.last_generation()
            stored = self.travel.history()
        except StoreError as error:
            self.notify(str(error), title="Replay", severity="error", timeout=8)
            return False
        self.series = HistorySeries()
        if len(stored):
            self.series.update(stored, _AtGeneration(last))  # type: ignore[arg-type]
        self.run_state = "stopped"
        self.status.stop_reason = "replay"
        self.status.run_label = f"run {run_id}"
        self.reset_painting()
        self._show_generation(last)
        return True

    def resume_recorded(self, run_id: int) -> None:
        """Continue a recorded run here, recorded in the same run."""
        from tui.lab.resume import resume
        from tui.lab.store import StoreError

        try:
            resumed = resume(self.recording.store(), run_id, whole_history=True)
        except (StoreError, ValueError) as error:
            self.notify(str(error), title="Resume", severity="error", timeout=8)
            return
        self.leave_time_travel()
        self.travel.detach()
        self.recording.continue_run(resumed.algorithm, resumed.recorder)
        self.runner.start_all([resumed.algorithm.config], run=False, algorithms=[resumed.algorithm])
        self.latest = resumed.algorithm.snapshot
        self.series = HistorySeries()  # filled from the resumed run's whole history
        self.status.stop_reason = None
        self.status.run_label = f"run {run_id}"
        self.run_state = "paused"
        self.travel.attach(self.recording.store(), run_id, replay_only=False)
        self.reset_painting()
        self._repaint(force=True)
        note = f"run {run_id} resumed at generation {self.latest.generation:,}"
        if resumed.mismatch is not None:
            note += f"; {resumed.mismatch}"
        self.notify(note + ": space runs it.", title="Resume", timeout=6)

    def action_export(self) -> None:
        """Export the run: its history as CSV and the screen as SVG (downloads under serve)."""
        from tui.lab.export import write_csv
        from tui.lab.store import STAT_FIELDS, StoreError

        if self.latest is None:
            self.notify("There is no run to export yet.", timeout=3)
            return
        timeline = self.travel.timeline
        text = io.StringIO()
        if timeline is not None:
            self.recording.flush()
            name = f"queens-run-{timeline.run_id}"
            try:
                write_csv(timeline.store, timeline.run_id, text)
            except StoreError as error:
                self.notify(str(error), title="Export", severity="error", timeout=8)
                return
        else:
            algorithm = self.runner.algorithm
            name = f"queens-seed-{self.latest.seed}-gen-{self.latest.generation}"
            text.write(",".join(STAT_FIELDS) + "\n")
            if algorithm is not None:
                columns = [algorithm.history.column(field).tolist() for field in STAT_FIELDS]
                for row in zip(*columns, strict=True):
                    text.write(",".join(_csv_number(value) for value in row) + "\n")
        if self.travel.position is not None:
            name += f"-gen-{self.travel.position}"
        folder = Path.cwd()
        text.seek(0)
        self.deliver_text(text, save_directory=folder, save_filename=f"{name}.csv")
        svg = io.StringIO(self.export_screenshot())
        self.deliver_text(svg, save_directory=folder, save_filename=f"{name}.svg")
        self.notify(
            f"{name}.csv (history) and {name}.svg (the screen) in {folder}",
            title="Exported",
            timeout=6,
        )


@dataclass
class _AtGeneration:
    """Enough of a snapshot for :meth:`HistorySeries.update`: its generation."""

    generation: int


def _csv_number(value: float) -> str:
    """Integers without a decimal point, as the store's CSV writes them."""
    return str(int(value)) if float(value).is_integer() else repr(float(value))
