"""The record keys: ``l`` lists the recorded runs to replay or continue, ``e`` exports the run.

A replayed run opens in time travel at its last generation (see
:class:`~tui.dashboard.actions.travel_keys.TravelKeys`); a continued run goes on here,
recorded in the same run of the store.
"""

from __future__ import annotations

import io
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from textual.message import Message
from textual.screen import Screen

from tui.dashboard.actions.travel_keys import TravelKeys
from tui.dashboard.history_series import HistorySeries
from tui.dashboard.painter import Painter
from tui.dashboard.run_control import RunControl
from tui.dashboard.widgets import ParamForm, StatusLine
from tui.lab.store import RunStore


class RecordKeys:
    """Loads, replays, continues and exports recorded runs, and says when recording fails.

    Args:
        screen: The main screen (notifications, the runs screen, the files delivered).
        run_control: The current run, replaced by a replayed or continued one.
        travel_keys: Shows a replayed run's generations.
        painter: Paints the run.
        status: Says which run is shown.
    """

    @dataclass
    class RecordingFailed(Message):
        """The store refused a write (posted from the engine thread)."""

        text: str

    def __init__(
        self,
        screen: Screen[None],
        run_control: RunControl,
        travel_keys: TravelKeys,
        painter: Painter,
        status: StatusLine,
    ) -> None:
        self.screen = screen
        self.run_control = run_control
        self.runner = run_control.runner
        self.recording = run_control.recording
        self.travel = run_control.travel
        self.travel_keys = travel_keys
        self.painter = painter
        self.status = status

    def say_not_recorded(self, text: str) -> None:
        """Recording stopped (the store refused a write): the run goes on, unrecorded."""
        self.status.run_label = "not recorded: store failed"
        self.screen.notify(text, title="Run store", severity="error", timeout=8)

    def list_runs(self) -> None:
        """List the recorded runs: enter replays one, c continues (resumes) it."""
        from tui.dashboard.screens.runs import RunsScreen
        from tui.lab.store import StoreError

        try:
            infos = self.recording.store().runs()
        except StoreError as error:
            self.screen.notify(str(error), title="Run store", severity="error", timeout=8)
            return
        self.run_control.pause()

        def chosen(choice: tuple[str, int] | None) -> None:
            if choice is None:
                return
            what, run_id = choice
            if what == "resume":
                self.resume(run_id)
            else:
                self.replay(run_id)

        self.screen.app.push_screen(RunsScreen(infos, str(self.recording.path)), chosen)

    def open_replay(self, run: int | str) -> None:
        """Open on a recorded run: an id in the store, or a run file's path."""
        from tui.lab.store import RunStore, StoreError

        if isinstance(run, int) or str(run).isdigit():
            self.replay(int(run))
            return
        try:
            store = RunStore.open(run, create=False, wal=False)
            run_id = store.single_run_id()
        except StoreError as error:
            self.screen.notify(str(error), title="Replay", severity="error", timeout=8)
            return
        self.replay(run_id, store)

    def replay(self, run_id: int, store: RunStore | None = None) -> bool:
        """Show a recorded run in time-travel mode, at its last generation; the form shows
        its config (``r`` reruns it, as the help's line does)."""
        from tui.lab.store import StoreError

        try:
            if store is None:
                store = self.recording.store()
            info = store.run(run_id)
            self.runner.stop()
            self.recording.end()
            self.runner.algorithms = ()
            self.travel.attach(store, run_id, replay_only=True)
            last = self.travel.last_generation()
            stored = self.travel.history()
        except StoreError as error:
            self.screen.notify(str(error), title="Replay", severity="error", timeout=8)
            return False
        run = self.run_control.run
        run.latest = run.inspected = None  # the last run's generation is not the record's
        run.series = HistorySeries()
        if len(stored):
            run.series.update(stored, _AtGeneration(last))  # type: ignore[arg-type]
        run.state = "paused"  # space plays the record back, n steps it
        self.status.stop_reason = "replay"
        self.status.run_label = f"run {run_id}"
        self._show_config(info.config)
        self.painter.reset()
        self.travel_keys.show_generation(last)
        return True

    def _show_config(self, values: Mapping[str, Any]) -> None:
        """Put a record's config in the form: the run shown is the one ``r`` starts again."""
        from engine import Config, ConfigError

        try:
            config = Config.from_mapping(values)
        except ConfigError as error:
            self.screen.notify(
                f"The form keeps its values: the record's config is not valid here ({error}).",
                title="Replay",
                severity="warning",
                timeout=8,
            )
            return
        self.screen.query_one(ParamForm).fill(config)

    def resume(self, run_id: int) -> None:
        """Continue a recorded run here, recorded in the same run."""
        from tui.lab.resume import resume
        from tui.lab.store import StoreError

        try:
            resumed = resume(
                self.recording.store(),
                run_id,
                whole_history=True,
                record_budget=self.recording.budget,
            )
        except (StoreError, ValueError) as error:
            self.screen.notify(str(error), title="Resume", severity="error", timeout=8)
            return
        self.run_control.show_live()
        self.travel.detach()
        self.recording.continue_run(resumed.algorithm, resumed.recorder)
        self._show_config(resumed.algorithm.config.to_dict())
        self.runner.start_all([resumed.algorithm.config], run=False, algorithms=[resumed.algorithm])
        run = self.run_control.run
        run.latest = snapshot = resumed.algorithm.snapshot
        run.series = HistorySeries()  # filled from the resumed run's whole history
        self.status.stop_reason = None
        self.status.run_label = f"run {run_id}"
        run.state = "paused"
        self.travel.attach(self.recording.store(), run_id, replay_only=False)
        self.painter.reset()
        self.painter.repaint(force=True)
        note = f"run {run_id} resumed at generation {snapshot.generation:,}"
        if resumed.mismatch is not None:
            note += f"; {resumed.mismatch}"
        self.screen.notify(note + ": space runs it.", title="Resume", timeout=6)

    def export(self) -> None:
        """Export the run: its history as CSV and the screen as SVG.

        In a terminal the export screen asks for the folder; in a browser both files download.
        The screen's picture is taken first, so it shows the dashboard, not the export screen.
        """
        from tui.dashboard.delivery import deliver_files
        from tui.dashboard.export_files import ExportFile
        from tui.lab.export import write_csv
        from tui.lab.store import STAT_FIELDS, StoreError

        latest = self.run_control.run.latest
        if latest is None:
            self.screen.notify("There is no run to export yet.", timeout=3)
            return
        timeline = self.travel.timeline
        text = io.StringIO()
        if timeline is not None:
            self.recording.flush()
            name = f"queens-run-{timeline.run_id}"
            try:
                write_csv(timeline.store, timeline.run_id, text)
            except StoreError as error:
                self.screen.notify(str(error), title="Export", severity="error", timeout=8)
                return
        else:
            algorithm = self.runner.algorithm
            name = f"queens-seed-{latest.seed}-gen-{latest.generation}"
            text.write(",".join(STAT_FIELDS) + "\n")
            if algorithm is not None:
                columns = [algorithm.history.column(field).tolist() for field in STAT_FIELDS]
                for row in zip(*columns, strict=True):
                    text.write(",".join(_csv_number(value) for value in row) + "\n")
        if self.travel.position is not None:
            name += f"-gen-{self.travel.position}"
        app = self.screen.app
        files = [
            ExportFile(f"{name}.csv", "the run's history, CSV", text.getvalue()),
            ExportFile(f"{name}.svg", "the screen, SVG", app.export_screenshot()),
        ]
        deliver_files(app, files, title="Export")


@dataclass
class _AtGeneration:
    """Enough of a snapshot for :meth:`HistorySeries.update`: its generation."""

    generation: int


def _csv_number(value: float) -> str:
    """Integers without a decimal point, as the store's CSV writes them."""
    return str(int(value)) if float(value).is_integer() else repr(float(value))
