"""The record keys: ``l`` lists the recorded runs to replay or continue, ``e`` exports the run.

A replayed run opens in time travel at its last generation (see
:class:`~tui.dashboard.actions.travel_keys.TravelKeys`); the live run waits behind it, paused,
and ``end`` comes back to it (:class:`~tui.dashboard.actions.parked_run.ParkedRun`). A
continued run goes on here, recorded in the same run of the store.
"""

from __future__ import annotations

import contextlib
import io
from collections.abc import Mapping
from concurrent.futures import Future
from dataclasses import dataclass
from typing import Any

from textual.message import Message
from textual.screen import Screen

from tui.dashboard.actions.parked_run import ParkedRun
from tui.dashboard.actions.travel_keys import TravelKeys
from tui.dashboard.painter import Painter
from tui.dashboard.run_control import RunControl
from tui.dashboard.runs.history_series import HistorySeries
from tui.dashboard.runs.speed import REPLAY_SPEED
from tui.dashboard.widgets import ParamForm, StatusLine
from tui.lab.figures.plot_target import INSTALL_HINT
from tui.lab.store import RunStore

FIGURE_DESCRIPTION = "the run's convergence as a figure, SVG"
"""How the export screen and its toasts name the run's figure."""


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
        self.parked: ParkedRun | None = None
        """The live run waiting behind a replay, if any."""

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
        was_running = self.runner.running
        self.run_control.pause()

        def chosen(choice: tuple[str, int] | None) -> None:
            if choice is None:
                if was_running and not self.runner.running:
                    self.run_control.toggle()  # nothing chosen: the run goes on as it went
                return
            what, run_id = choice
            if what == "resume":
                self.resume(run_id)
            elif self.replay(run_id) and self.runner.speed_limit is None:
                self.runner.set_speed(REPLAY_SPEED)  # unlimited, it would play back as a blur

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
        from tui.lab.record_version import refuse_newer
        from tui.lab.store import StoreError

        parked = None
        try:
            if store is None:
                store = self.recording.store()
            info = store.run(run_id)
            refuse_newer(info, f"{store.path}: run {run_id}")  # before the live run is let go
            parked = ParkedRun.park(self.run_control, self.status)
            if parked is None:
                self.runner.stop()
                if self.parked is None:  # else its record stays open for it
                    self.recording.end()
                self.runner.algorithms = ()
            self.travel.attach(store, run_id, replay_only=True)
            last = self.travel.last_generation()
            stored = self.travel.history()
        except StoreError as error:
            if parked is not None:
                parked.restore(self.run_control, self.status, self.screen.query_one(ParamForm))
            self.screen.notify(str(error), title="Replay", severity="error", timeout=8)
            return False
        if parked is not None:
            self.parked = parked
            self.screen.notify(
                f"The live run waits behind, paused at generation {parked.generation:,}: "
                "end comes back to it.",
                title=f"Replaying run {run_id}",
                timeout=6,
            )
        run = self.run_control.run
        run.latest = run.inspected = None  # the last run's generation is not the record's
        run.series = HistorySeries()
        if len(stored):
            run.series.update(stored, _AtGeneration(last))  # type: ignore[arg-type]
        run.move_to("paused")  # space plays the record back, n steps it
        self.status.stop_reason = "replay"
        self.status.run_label = f"run {run_id}"
        self._show_config(info.config)
        self._note_changed_plugins(store, run_id)
        self.painter.reset()
        self.travel_keys.show_generation(last)
        return True

    def _note_changed_plugins(self, store: RunStore, run_id: int) -> None:
        """Say which of the record's plug-in files changed or went since: its recorded source
        is what runs (the command line's words: :func:`engine.file_changes`)."""
        from tui.lab.store import StoreError
        from tui.lab.swapped_operators import recorded_plugin_notes

        try:
            notes = recorded_plugin_notes(store.run(run_id))
        except StoreError:
            return  # replaying or resuming it says what is wrong
        if notes:
            title = f"Run {run_id}: recorded source used"
            self.screen.notify("\n".join(notes), title=title, severity="warning", timeout=10)

    def back_to_parked(self) -> bool:
        """``end`` in a replay: back to the live run left behind (``False``: there is none)."""
        parked, self.parked = self.parked, None
        if parked is None:
            return False
        parked.restore(self.run_control, self.status, self.screen.query_one(ParamForm))
        self.screen.notify(
            f"Back to the live run at generation {parked.generation:,}: space goes on.",
            timeout=4,
        )
        return True

    def replaced_parked(self) -> None:
        """A new run replaced the run left behind, if there was one: say so."""
        left_behind = self.forget_parked()
        if left_behind:
            self.screen.notify(left_behind, timeout=4)

    def forget_parked(self) -> str:
        """A new or continued run replaces the one left behind: a sentence that says so, or
        ``""`` when there was none (its record is ended by the recording)."""
        parked, self.parked = self.parked, None
        if parked is None:
            return ""
        label = f" ({parked.run_label}, kept: l lists it)" if parked.run_label else ""
        return f"The run left behind at generation {parked.generation:,} is ended{label}."

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
        from tui.lab.resume import RunSolved, resume
        from tui.lab.store import StoreError

        try:
            resumed = resume(
                self.recording.store(),
                run_id,
                whole_history=True,
                record_budget=self.recording.budget,
            )
        except RunSolved:
            self.screen.notify(
                f"Run {run_id} is solved: there is nothing to continue (l, then enter, replays "
                "it).",
                title="Resume",
                timeout=6,
            )
            return
        except (StoreError, ValueError) as error:
            self.screen.notify(str(error), title="Resume", severity="error", timeout=8)
            return
        left_behind = self.forget_parked()
        self.run_control.show_live()
        self.travel.detach()
        self.recording.continue_run(resumed.algorithm, resumed.recorder)
        self._show_config(resumed.algorithm.config.to_dict())
        self.runner.start_all([resumed.algorithm.config], run=False, algorithms=[resumed.algorithm])
        run = self.run_control.run
        run.latest = snapshot = resumed.algorithm.snapshot
        run.series = HistorySeries()  # filled from the resumed run's whole history
        try:
            swaps = self.recording.store().run(run_id).swaps
        except (StoreError, LookupError):
            swaps = ()  # it was read a moment ago: only the rerun line would miss the swaps
        run.started_with, run.first_swap = None, swaps[0].generation if swaps else None
        self.status.stop_reason = None
        self.status.run_label = f"run {run_id}"
        run.move_to("paused")
        self.travel.attach(self.recording.store(), run_id, replay_only=False)
        self.painter.reset()
        self.painter.repaint(force=True)
        note = f"run {run_id} resumed at generation {snapshot.generation:,}"
        if resumed.mismatch is not None:
            note += f"; {resumed.mismatch}"
        note += ": space runs it."
        if left_behind:
            note += f" {left_behind}"
        self.screen.notify(note, title="Resume", timeout=6)
        self._note_changed_plugins(self.recording.store(), run_id)

    def ask_label(self) -> None:
        """Ask for a label for the run shown and keep it in its record (the palette's
        ``Label this run``): a replayed record, the live run's record, or the live run not
        recorded yet (its record gets the label at its first step)."""
        from tui.dashboard.screens.label_prompt import LabelPrompt
        from tui.lab.store import StoreError

        timeline = self.travel.timeline
        replayed = timeline if self.travel.replay_only else None
        run_id = replayed.run_id if replayed is not None else self.recording.run_id
        if run_id is None and not self.recording.expecting:
            failure = self.recording.failure
            why = f"the run store refused it: {failure}" if failure else "recording is off"
            self.screen.notify(f"This run is not recorded ({why}): nothing to label.", timeout=6)
            return
        try:
            store = replayed.store if replayed is not None else self.recording.store()
            current = None if run_id is None else store.run(run_id).label
        except StoreError as error:
            self.screen.notify(str(error), title="Label", severity="error", timeout=8)
            return

        def chosen(label: str | None) -> None:
            if label is None:
                return
            try:
                if replayed is not None:
                    replayed.store.set_label(replayed.run_id, label)
                    labelled: int | None = replayed.run_id
                else:
                    labelled = self.recording.set_label(label)
            except (StoreError, ValueError, LookupError) as error:
                self.screen.notify(str(error), title="Label", severity="error", timeout=8)
                return
            where = (
                "this run (recorded from its first step)"
                if labelled is None
                else (f"run {labelled}")
            )
            self.screen.notify(f"Labelled {where}: {label}", title="Label", timeout=4)

        name = "this run" if run_id is None else f"run {run_id}"
        self.screen.app.push_screen(LabelPrompt(name, current), chosen)

    def export(self) -> None:
        """Export the run: its history as CSV, the screen as SVG and, with matplotlib, the
        run's figure (as the palette's "Save a figure of this run" draws it).

        In a terminal the export screen asks for the folder; in a browser both files download.
        The screen's picture is taken first, so it shows the dashboard, not the export screen,
        and without the notifications on show. The figure is drawn while the folder is chosen
        and follows the other files (see :func:`~tui.dashboard.delivery.deliver_files`).
        """
        from tui.dashboard.delivery import deliver_files
        from tui.dashboard.files.export_files import ExportFile, LateFile
        from tui.dashboard.screen_picture import take_screen_picture
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
        history = ExportFile(f"{name}.csv", "the run's history, CSV", text.getvalue())
        late = []
        drawn = self._figure_source() if figures_available() else None
        if drawn is not None:  # drawn while the folder is chosen: the screen opens at once
            figure = self._drawing(drawn)
            late.append(LateFile(f"{name}-figure.svg", FIGURE_DESCRIPTION, figure))

        def deliver(svg: str) -> None:
            picture = ExportFile(f"{name}.svg", "the screen, SVG", svg)
            deliver_files(app, [history, picture], title="Export", late=late)

        take_screen_picture(app, deliver)

    def save_figure(self) -> None:
        """Save the run's convergence (conflicts and diversity against evaluations) as an SVG
        figure drawn by matplotlib; the export screen asks where (in a browser: it downloads)."""
        if not figures_available():
            self.screen.notify(
                f"Figures need matplotlib, which is not installed: {INSTALL_HINT}",
                title="Figure",
                severity="warning",
                timeout=8,
            )
            return
        drawn = self._figure_source()
        if drawn is None:
            self.screen.notify("There is no run to draw yet.", timeout=3)
            return
        self._draw_then_deliver(drawn, f"{drawn.name}-figure.svg")

    def _figure_source(self) -> _FigureSource | None:
        """What the run's figure is drawn from: a recorded run's store, else the live history
        (``None``: no run yet, or a store that cannot be read)."""
        from tui.lab.figures.run_series import thinned_history, thinned_stats
        from tui.lab.store import StoreError

        latest = self.run_control.run.latest
        if latest is None:
            return None
        title = f"N = {latest.n}, seed {latest.seed}"
        timeline = self.travel.timeline
        if timeline is not None:
            self.recording.flush()
            try:
                last = timeline.refresh().generations
                columns = thinned_stats(timeline.store, timeline.run_id, last)
            except StoreError as error:
                self.screen.notify(str(error), title="Figure", severity="error", timeout=8)
                return None
            title = f"run {timeline.run_id}: {title}, {last:,} generations"
            return _FigureSource(f"queens-run-{timeline.run_id}", title, columns)
        algorithm = self.runner.algorithm
        if algorithm is None:
            return None
        history = algorithm.history
        columns = thinned_history(history.column, len(history))
        title = f"{title}, {latest.generation:,} generations (not recorded)"
        return _FigureSource(f"queens-seed-{latest.seed}", title, columns)

    def _draw_then_deliver(self, drawn: _FigureSource, file_name: str) -> None:
        """Draw the figure off the event loop (matplotlib takes a second or two), then deliver
        it: the export screen asks where, as for ``e`` (in a browser: it downloads)."""
        from tui.dashboard.delivery import deliver_files
        from tui.dashboard.files.export_files import ExportFile

        app = self.screen.app
        self.screen.notify("Drawing the figure...", title="Figure", timeout=2)

        def deliver(drawing: Future[str]) -> None:
            try:
                svg = drawing.result()
            except Exception as error:  # said to the user
                app.notify(f"The figure could not be drawn: {error}", severity="error")
                return
            deliver_files(app, [ExportFile(file_name, FIGURE_DESCRIPTION, svg)], title="Figure")

        def handed_over(done: Future[str]) -> None:  # on the drawing's thread
            with contextlib.suppress(RuntimeError):  # the dashboard has quit meanwhile
                app.call_from_thread(deliver, done)

        self._drawing(drawn).add_done_callback(handed_over)

    def _drawing(self, drawn: _FigureSource) -> Future[str]:
        """Start drawing the run's figure on a thread; its SVG text, when done (or the error
        that stopped it: the future is always settled)."""
        from tui.lab.figures.run_figure import run_figure_svg

        drawing: Future[str] = Future()

        def draw() -> None:
            try:
                drawing.set_result(run_figure_svg(drawn.columns, drawn.title))
            except Exception as error:  # handed on to whoever waits
                drawing.set_exception(error)

        self.screen.app.run_worker(draw, thread=True, group="figure", exit_on_error=False)
        return drawing


@dataclass(frozen=True)
class _FigureSource:
    """What a run's figure is drawn from: its file name's stem, its title and its columns."""

    name: str
    title: str
    columns: dict[str, list[float]]


def figures_available() -> bool:
    """Whether matplotlib is installed (the ``stats`` extra): figures need it."""
    import importlib.util

    return importlib.util.find_spec("matplotlib") is not None


@dataclass
class _AtGeneration:
    """Enough of a snapshot for :meth:`HistorySeries.update`: its generation."""

    generation: int


def _csv_number(value: float) -> str:
    """Integers without a decimal point, as the store's CSV writes them."""
    return str(int(value)) if float(value).is_integer() else repr(float(value))
