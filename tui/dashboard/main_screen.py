"""The main screen: the form, board, charts, table and status line of one run, and its keys.

The screen composes the views and owns the run; its parts are objects it calls by name:
:class:`~tui.dashboard.run_control.RunControl` (starts the run, follows the runner's messages
received here), :class:`~tui.dashboard.painter.Painter` (paints the views at their rates), and
the time-travel and record keys' :class:`~tui.dashboard.actions.travel_keys.TravelKeys` and
:class:`~tui.dashboard.actions.record_keys.RecordKeys`. Its keys are
:data:`tui.dashboard.actions.bindings.MAIN_BINDINGS`; those that walk the run's past and an
individual's family are handed on by
:class:`~tui.dashboard.actions.past_and_family.PastAndFamilyKeys`.
"""

from __future__ import annotations

from contextlib import suppress
from typing import ClassVar, Final

from textual import on
from textual.actions import SkipAction
from textual.app import ComposeResult
from textual.binding import BindingType
from textual.containers import Container, Horizontal, Vertical
from textual.css.query import NoMatches
from textual.screen import Screen
from textual.widgets import Footer

from engine import Config, GeneticAlgorithm, Snapshot
from tui.dashboard.actions import bindings
from tui.dashboard.actions.origin_keys import OriginKeys
from tui.dashboard.actions.past_and_family import PastAndFamilyKeys
from tui.dashboard.actions.plugin_keys import PluginKeys
from tui.dashboard.actions.record_keys import RecordKeys
from tui.dashboard.actions.travel_keys import TravelKeys
from tui.dashboard.painter import FRAME_RATE, Painter
from tui.dashboard.pictures.board_layout import FORM_WIDTH, form_leaves_board_room, plan_screen
from tui.dashboard.run_control import RunControl
from tui.dashboard.runs.current_run import CurrentRun
from tui.dashboard.runs.lineage_ring import LineageRing
from tui.dashboard.runs.operator_swaps import OperatorSwaps
from tui.dashboard.runs.recording import DashboardRecording
from tui.dashboard.runs.time_travel import TimeTravel
from tui.dashboard.screens import HelpScreen, RaceScreen, SolutionsScreen
from tui.dashboard.widgets import (
    Board,
    ConflictList,
    EngineRunner,
    FitnessPlot,
    FitnessSparks,
    ParamForm,
    PopulationTable,
    PopulationView,
    StatusLine,
)
from tui.dashboard.widgets.engine_runner import DASHBOARD_HISTORY
from tui.dashboard.widgets.fitness_plot import legend_markup
from tui.dashboard.widgets.population_view import VIEWS
from tui.lab.record_budget import RECORD_BUDGET

WIDE_WIDTH: Final = 100
"""From this width on the form opens beside the board (it closes while a run goes)."""
TOAST_RACK: Final = "textual-toastrack"
"""The screen's container of notifications (Textual's ``ToastRack``)."""


class MainScreen(PastAndFamilyKeys, Screen[None]):
    """One run of a GA on the N-Queens puzzle: its parameters, its board, its population.

    Args:
        config: Prefills the form; the first run starts from it, paused at generation 0.
        opening_speed: The speed limit to open with (``None``: unlimited).
        ascii: Draw queens as ``Q``/``X`` instead of chess symbols.
        frozen_clock: Hide wall-clock figures, for reproducible screenshots and tests.
        record: Record runs in the run store (the form's toggle starts so).
        store: The run store's path (``None``: ``$QUEENS_STORE`` or the user data folder).
        replay: Open on this recorded run (an id, or a run file's path) in time travel.
        label: The label of the runs it records (``queens tui --label``), or ``None``.
        record_budget: Bytes each run's record may take (``None``: the default; the form's
            ``record-budget`` changes it for the next runs).
    """

    BINDINGS: ClassVar[list[BindingType]] = bindings.MAIN_BINDINGS

    def __init__(
        self,
        config: Config,
        *,
        opening_speed: float | None = None,
        ascii: bool = False,
        frozen_clock: bool = False,
        record: bool = False,
        store: str | None = None,
        replay: int | str | None = None,
        label: str | None = None,
        record_budget: int | None = None,
    ) -> None:
        super().__init__()
        self.initial_config = config
        """The config the form starts with."""
        self.opening_speed = opening_speed
        self.ascii = ascii
        self.frozen_clock = frozen_clock
        self.replay = replay
        self.run = CurrentRun()
        """What the screen shows of the current run."""
        self.recording = DashboardRecording(
            store,
            enabled=record,
            budget=record_budget or RECORD_BUDGET,
            on_error=self._recording_failed,
        )
        self.recording.label = label
        """Records the current run in the run store (when the form's toggle says so)."""
        self.travel = TimeTravel()
        """The past generation shown, if any."""
        self.travel.variation.known = self.run.variation.has
        self.ring = LineageRing()
        """The live run's last generations, for the parent keys and the ancestry."""
        self._mounted = False

    # Layout -------------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        """Status line, form (a drawer), then board, fitness and table in a grid; footer."""
        with Horizontal(id="body"):
            yield ParamForm(
                self.initial_config,
                record=self.recording.enabled,
                record_budget=self.recording.budget,
                id="form",
            )
            with Vertical(id="main"):
                # The status line sits above the board, not across the form: Textual repaints
                # the bounding box of what changed, and a full-width line changing ten times a
                # second would make it repaint every field of the form with it.
                yield StatusLine(frozen_clock=self.frozen_clock, id="status")
                # Arranged by fit_layout (see tui.dashboard.pictures.board_layout).
                with Container(id="views"):
                    yield Board(ascii=self.ascii, id="board")
                    yield PopulationView(id="population-view")
                    with Vertical(id="charts"):
                        yield FitnessSparks(id="sparks")
                        yield FitnessPlot(id="plot")
                        yield ConflictList(id="conflicts")
                    yield PopulationTable(ascii=self.ascii, id="table")
        yield Footer(compact=True)
        yield EngineRunner(history_limit=DASHBOARD_HISTORY)

    def on_mount(self) -> None:
        """Set up the first run (paused at generation 0) and the repaint timer."""
        # Held once, not queried each frame: cheaper, and messages still arriving while the app
        # closes find the widgets instead of failing a query on a removed screen.
        self.runner = self.query_one(EngineRunner)
        self.runner.set_speed(self.opening_speed)
        self.runner.after_step = self._after_step
        self.board = self.query_one(Board)
        self.population_view = self.query_one(PopulationView)
        self.table = self.query_one(PopulationTable)
        self.form = self.query_one(ParamForm)
        self.status = self.query_one(StatusLine)
        self.plot = self.query_one(FitnessPlot)
        self.charts = self.query_one("#charts", Vertical)
        self.views = self.query_one("#views", Container)
        self.body = self.query_one("#body", Horizontal)
        self.watch(self.status, "state", self.refresh_bindings, init=False)  # Run or Pause
        self.painter = Painter(
            self.run,
            self.runner,
            self.app.batch_update,
            status=self.status,
            board=self.board,
            table=self.table,
            sparks=self.query_one(FitnessSparks),
            plot=self.plot,
            conflicts=self.query_one(ConflictList),
            charts=self.charts,
            population=self.population_view,
            travel=self.travel,
        )
        self.run_control = RunControl(
            self, self.run, self.runner, self.painter, self.status, self.recording, self.travel
        )
        self.travel_keys = TravelKeys(self, self.run_control, self.painter, self.status, self.plot)
        self.record_keys = RecordKeys(
            self, self.run_control, self.travel_keys, self.painter, self.status
        )
        swaps = OperatorSwaps(self.run, self.runner, self.recording, self.travel)
        self.plugin_keys = PluginKeys(self, self.form, swaps)
        self.origin_keys = OriginKeys(
            self,
            self.run,
            self.painter,
            self.ring,
            self.travel,
            self.recording,
            ascii=self.ascii,
        )
        self._mounted = True
        self.board.border_title = "Board"
        self.charts.border_title = "Fitness"
        self.charts.border_subtitle = legend_markup()
        self.table.border_title = "Population"
        self.form.border_title = "Parameters"
        # The form opens where it leaves the board room; a run closes it (f opens it again).
        width, height = self.app.size
        self.form.display = (
            width >= WIDE_WIDTH
            and self.replay is None
            and form_leaves_board_room(self.initial_config.n, width, height, ascii=self.ascii)
        )
        self.fit_layout(width, height)
        config = self.form.config()
        if self.replay is not None:
            self.call_after_refresh(self.record_keys.open_replay, self.replay)
        elif config is not None:
            self.start_run(config, run=False)
        else:
            self.painter.paint_status()
        self.table.focus()
        self.set_interval(1 / FRAME_RATE, self.painter.repaint, name="repaint")

    def fit_layout(self, width: int, height: int) -> None:
        """Fit the views to the terminal: the board gets the arrangement that draws it most
        exactly (:func:`~tui.dashboard.pictures.board_layout.plan_views`), beside the open form."""
        if not self._mounted:
            return
        latest = self.run.latest
        n = latest.n if latest is not None else self.initial_config.n
        form_open = self.form.display
        population = self.painter.view != "board"
        plan = plan_screen(n, width, height, form_open, ascii=self.ascii, population=population)
        views = self.views
        views.set_class(plan.side, "-side")
        views.set_class(not plan.side, "-stacked")
        views.styles.grid_columns = f"{plan.board_width} 1fr"
        views.styles.grid_rows = f"{plan.first_row} 1fr"
        # Notifications over the chart, right of the board (and the form), never over the board.
        left = (FORM_WIDTH if form_open else 0) + plan.board_width
        with suppress(NoMatches):  # None without notifications (tests), or not mounted yet.
            rack = self.get_child_by_id(TOAST_RACK)
            rack.styles.margin = (1, 0, 0, left)
            rack.styles.width = max(1, width - left)
        self.body.set_class(width < WIDE_WIDTH, "-compact")

    def _after_step(self, algorithm: GeneticAlgorithm, snapshot: Snapshot) -> None:
        """From the engine thread, every generation: keep it in memory, record it, measure
        diversity explained (while that view is shown)."""
        self.ring.observe(algorithm, snapshot)
        self.recording.observe(algorithm, snapshot)
        self.run.variation.observe(algorithm, snapshot)
        self.run.pressure.keep(snapshot)

    def open_form(self, open: bool) -> None:
        """Open or close the form's drawer, and give the board what the form leaves."""
        if self.form.display != open:
            if not open and self.in_form():
                self.table.focus()  # not left in a hidden field
            # Shown or hidden by its own style: a class on the body would restyle every widget
            # on the screen (about 250) to move one.
            self.form.display = open
            self.fit_layout(self.app.size.width, self.app.size.height)

    def on_unmount(self) -> None:
        """End the run's record (``interrupted`` unless it finished) and close the store."""
        self.runner.stop()
        self.recording.close()

    # The run ------------------------------------------------------------------------------

    def start_run(self, config: Config, *, run: bool) -> bool:
        """Replace the run (the form's record toggle says whether it is recorded, and its
        record-budget within how many bytes)."""
        self.recording.budget = self.form.record_budget or self.recording.budget
        if not self.run_control.start(config, run=run, record=self.form.record):
            return False
        self.record_keys.replaced_parked()
        self.fit_layout(self.app.size.width, self.app.size.height)
        return True

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

    def run_command(self) -> str | None:
        """The ``queens solve`` command that reruns the current run (``None``: no run yet)."""
        return self.run_control.run_command()

    def ask_plugin(self, field: str) -> None:
        """Ask for a plug-in operator of ``field`` for the form, and the run if paused."""
        self.plugin_keys.ask(field)

    def choose_preset(self, name: str, *, run: bool) -> None:
        """Fill the form from a preset (as its select does) and, if asked, start a run."""
        self.form.choose_preset(name)
        if run:
            self.action_new_run()

    def _recording_failed(self, text: str) -> None:
        """From any thread: say that recording stopped (the run goes on)."""
        self.post_message(RecordKeys.RecordingFailed(text))

    # Messages -----------------------------------------------------------------------------

    @on(EngineRunner.Stepped)
    def _stepped(self, message: EngineRunner.Stepped) -> None:
        self.run_control.stepped(message.run_id, message.snapshot)

    @on(EngineRunner.Finished)
    def _finished(self, message: EngineRunner.Finished) -> None:
        self.run_control.finished(message.run_id, message.snapshot)

    @on(EngineRunner.Failed)
    def _failed(self, message: EngineRunner.Failed) -> None:
        self.run_control.engine_failed(message.run_id, message.error)

    @on(TravelKeys.Travelled)
    def _travelled(self, message: TravelKeys.Travelled) -> None:
        self.travel_keys.show_travelled(message)

    @on(RecordKeys.RecordingFailed)
    def _not_recorded(self, message: RecordKeys.RecordingFailed) -> None:
        self.record_keys.say_not_recorded(message.text)

    @on(PopulationTable.Inspect)
    def _inspect(self, message: PopulationTable.Inspect) -> None:
        self.run.inspected = (message.snapshot, message.index)
        self.painter.paint_board()
        self.origin_keys.fill_in()

    @on(ConflictList.KeysHint)
    def _say_inspection_keys(self, message: ConflictList.KeysHint) -> None:
        """While an individual is inspected (its panel in the chart's place), the chart panel's
        border says the keys that walk its family instead of the chart's key, at every size:
        at 80x24 the panel has no row to spare for them."""
        subtitle = message.hint or legend_markup()
        if self.charts.border_subtitle != subtitle:
            self.charts.border_subtitle = subtitle

    @on(Board.Resized)
    def _board_resized(self) -> None:
        # Another N (a new run, a replay, a resumed run): another arrangement may suit it.
        self.fit_layout(self.app.size.width, self.app.size.height)

    @on(ParamForm.Submitted)
    def _form_submitted(self) -> None:
        self.action_new_run()

    # Keys ---------------------------------------------------------------------------------

    def in_form(self) -> bool:
        """Whether the cursor is in the form."""
        focused = self.focused
        return self._mounted and focused is not None and self.form in focused.ancestors

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Escape acts (and shows in the footer) in the form only; there, travel keys are text."""
        if action == "leave_form":
            return self.in_form()
        if action == "toggle_run" and parameters:  # the footer's word for space
            return bindings.footer_says(parameters, self.run.state)
        # `end` (a priority key) must still move the cursor in the form's inputs, and in the
        # population table while the run is live: it means "back to live" only in time travel.
        if action == "go_live" and not self.travel.active:
            return False
        return not (action in bindings.TRAVEL_ACTIONS and self.in_form())

    def action_toggle_run(self, said: str = "") -> None:
        """Run or pause the current run (a run going closes the form: the board needs it)."""
        self.run_control.toggle()
        if self.run.state == "running":
            self.open_form(False)

    def action_step(self) -> None:
        """Pause, then step exactly one generation."""
        self.run_control.step_once()

    def action_new_run(self) -> None:
        """Start a new run from the form, or point at what is wrong with it."""
        config = self.form_config()
        if config is None:
            self.action_focus_form()
            return
        if self.start_run(config, run=True):
            self.table.focus()
            self.open_form(False)

    def action_faster(self) -> None:
        """Raise the engine's speed limit one step."""
        self.run_control.change_speed(+1)

    def action_slower(self) -> None:
        """Lower the engine's speed limit one step (down to 1 generation per second)."""
        self.run_control.change_speed(-1)

    def action_focus_form(self) -> None:
        """Open the form's drawer and put the cursor in it."""
        self.open_form(True)
        target = self.form.first_invalid() or self.form.field_widget("n")
        self.form.put_cursor_in(target)

    def action_leave_form(self) -> None:
        """Escape from the form: back to the table, closing the form's drawer."""
        if self.in_form():
            self.open_form(False)
            self.table.focus()

    def action_focus_table(self) -> None:
        """Put the cursor in the population table (enter inspects a row); where narrow, the
        form's drawer closes (beside the board it stays)."""
        if self.body.has_class("-compact"):
            self.open_form(False)
        self.table.focus()

    def action_back_to_best(self) -> None:
        """The board follows the best individual again."""
        self.run.inspected = None
        self.charts.set_class(False, "-inspecting")
        self.painter.redraw_chart()
        self.painter.repaint(force=True)

    def action_zoom(self) -> None:
        """Switch a large board between its overview and a scrollable full-size view."""
        board = self.board
        if not board.overview and not board.zoomed:
            self.notify("The board fits: it is already at full size.", timeout=2)
            return
        board.zoomed = not board.zoomed
        if board.zoomed:
            board.focus()
        self.painter.paint_board()

    def action_population_view(self) -> None:
        """The board panel's next view: the board, the placement map, the conflict histogram."""
        painter = self.painter
        painter.view = VIEWS[(VIEWS.index(painter.view) + 1) % len(VIEWS)]
        on_board = painter.view == "board"
        self.board.display = on_board
        self.population_view.display = not on_board
        self.fit_layout(self.app.size.width, self.app.size.height)
        painter.paint_board()

    def action_toggle_y_axis(self) -> None:
        """Chart fitness or conflicts (comparable across fitness shapes: 0 is solved)."""
        self.plot.toggle_metric()

    def action_toggle_pressure(self) -> None:
        """Chart selection pressure, measured beside its expectation (and back)."""
        self.plot.toggle_pressure()

    def action_toggle_x_axis(self) -> None:
        """Plot against generations or against evaluations."""
        self.painter.toggle_x_axis()

    def action_go_live(self) -> None:
        """Back to the live run (a replay: the run left behind for it, else its last one).

        ``end`` is a priority key: outside time travel, and in the form, it goes on to the
        focused widget (the table's last row, the end of a form field).
        """
        if self.in_form():
            raise SkipAction
        if self.travel.replay_only and self.record_keys.back_to_parked():
            return
        self.travel_keys.go_live()

    def action_load_runs(self) -> None:
        """List the recorded runs: enter replays one, c continues (resumes) it."""
        self.record_keys.list_runs()

    def action_export(self) -> None:
        """Export the run: its history as CSV and the screen as SVG (downloads under serve)."""
        self.record_keys.export()

    def _open_on_form(self, screen: type[SolutionsScreen | RaceScreen]) -> None:
        """Open another screen on the form's config, the run paused (the other screen's engine
        should not share the machine with a run out of sight); or say what is wrong."""
        config = self.form_config()
        if config is not None:
            self.run_control.pause()
            self.app.push_screen(screen(config, ascii=self.ascii))

    def action_solutions(self) -> None:
        """Open the solutions screen: find every solution for the form's N and seed."""
        self._open_on_form(SolutionsScreen)

    def action_race(self) -> None:
        """Open the race screen: the form's GA against a preset, on the same N and seed."""
        self._open_on_form(RaceScreen)

    def action_help(self) -> None:
        """Show every key, generated from the bindings."""
        self.app.push_screen(
            HelpScreen(bindings.help_sections(), bindings.help_notes(self.run_command()))
        )
