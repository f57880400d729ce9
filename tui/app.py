"""The dashboard: a Textual app over the engine's snapshot stream.

The engine steps in a thread worker (:class:`~tui.widgets.EngineRunner`) and reports through
messages; the app keeps the latest snapshot and repaints from it on a timer, so the screen
stays calm however fast the engine goes. Everything is reachable with single keys.
"""

from __future__ import annotations

import math
import time
from collections import deque
from typing import ClassVar, Final

from textual import on
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.events import Resize
from textual.reactive import var
from textual.widgets import Footer, Static

from engine import Config, History, Snapshot
from tui.screens import HelpScreen, RaceScreen, SolutionsScreen
from tui.screens.help import described
from tui.widgets import (
    Board,
    ConflictList,
    EngineRunner,
    FitnessPlot,
    FitnessSparks,
    ParamForm,
    PopulationTable,
    Position,
    StatusLine,
)
from tui.widgets.fitness_plot import legend_markup

FRAME_RATE: Final = 10
"""Repaints per second of the status line and the board."""
TABLE_EVERY: Final = 2
"""The table and sparklines repaint every this many frames (5 Hz)."""
PLOT_EVERY: Final = 5
"""The plotext chart repaints every this many frames (2 Hz): it rebuilds the whole figure."""
PLOT_POINTS: Final = 240
"""Points per line in the chart at most; longer histories are thinned evenly."""
SPARK_POINTS: Final = 240
"""Points per sparkline at most."""
MIN_WIDTH: Final = 80
MIN_HEIGHT: Final = 24
"""The smallest terminal that shows board, fitness and table together."""
WIDE_WIDTH: Final = 100
"""From this width on the form stays open beside the board."""
TOP_SHARE: Final = 0.7
"""Of the rows below the status line, the board and chart take at most this share."""
RATE_WINDOW: Final = 1.0
"""Seconds over which generations per second are measured."""
SERIES: Final = ("generation", "evaluations", "best_fitness", "mean_fitness", "worst_fitness")
SERIES_DIVERSITY: Final = "entropy"


def thinned(values: list[float], limit: int) -> list[float]:
    """Every k-th value (and the last) so that at most about ``limit`` remain."""
    if len(values) <= limit:
        return values
    step = math.ceil(len(values) / limit)
    kept = values[::step]
    if (len(values) - 1) % step:
        kept.append(values[-1])
    return kept


class HistorySeries:
    """The run's history as plain lists, read incrementally.

    Only the generations added since the last read are converted, so a long run costs the UI
    the same per frame as a short one. Reads stop at the generation of a published snapshot,
    so a row the engine thread is still appending is never half read.
    """

    def __init__(self) -> None:
        self.columns: dict[str, list[float]] = {name: [] for name in (*SERIES, SERIES_DIVERSITY)}

    def __len__(self) -> int:
        return len(self.columns["generation"])

    def update(self, history: History, snapshot: Snapshot) -> None:
        """Read the rows up to and including ``snapshot``'s generation."""
        start = len(self)
        stop = snapshot.generation + 1
        if stop <= start:
            return
        for name, values in self.columns.items():
            values.extend(history.column(name, start)[: stop - start].tolist())


class QueensApp(App[None]):
    """Watch, steer and compare genetic algorithms on the N-Queens puzzle."""

    CSS_PATH = "app.tcss"
    TITLE = "Queens GA lab"
    ENABLE_COMMAND_PALETTE = False
    """Every action has its own key; the palette's ctrl+p chord is unreliable over SSH."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("space", "toggle_run", "Run/Pause", id="toggle-run"),
        Binding("n", "step", "Step", id="step", tooltip="exactly one generation"),
        Binding("r", "new_run", "New", id="new-run", tooltip="start a new run from the form"),
        Binding("f", "focus_form", "Form", id="focus-form", tooltip="edit the parameters"),
        Binding("t", "focus_table", "Table", id="focus-table", tooltip="enter inspects a row"),
        Binding("b", "back_to_best", "Best", id="back-to-best", tooltip="board shows the best"),
        Binding(
            "plus,equals_sign",
            "faster",
            "Fast",
            key_display="+",
            id="faster",
            # Out of the footer (still in help) so that 80 columns keep `? Help` and `q Quit`.
            show=False,
            tooltip="raise the speed limit",
        ),
        Binding(
            "minus",
            "slower",
            "Slow",
            key_display="-",
            id="slower",
            show=False,
            tooltip="lower the speed limit",
        ),
        Binding(
            "z",
            "zoom",
            "Zoom",
            id="zoom",
            show=False,
            tooltip="large board: overview / full size (arrows scroll)",
        ),
        Binding(
            "s",
            "solutions",
            "All",
            id="solutions",
            tooltip="find every solution for the form's N and seed",
        ),
        Binding("x", "race", "Race", id="race", tooltip="the form's GA against a preset"),
        Binding(
            "a", "toggle_x_axis", "X axis", id="x-axis", show=False, tooltip="gens / evaluations"
        ),
        Binding("question_mark", "help", "Help", key_display="?", id="help"),
        Binding("q", "quit", "Quit", id="quit"),
        Binding("escape", "leave_form", "Leave form", id="leave-form"),
    ]

    inspected: var[tuple[Snapshot, int] | None] = var(None)
    """The individual on the board instead of the best: a snapshot and a population index."""
    x_axis: var[str] = var("generation")
    """What the chart's x axis counts: ``generation`` or ``evaluations``."""

    def __init__(
        self,
        config: Config | None = None,
        *,
        ascii: bool = False,
        frozen_clock: bool = False,
    ) -> None:
        """Args:
        config: Prefills the form (defaults: ``Config()``).
        ascii: Draw queens as ``Q``/``X`` instead of chess symbols.
        frozen_clock: Hide wall-clock figures, for reproducible screenshots and tests.
        """
        super().__init__()
        self.initial_config = config if config is not None else Config()
        self.ascii = ascii
        self.frozen_clock = frozen_clock
        self.latest: Snapshot | None = None
        """The newest snapshot of the current run."""
        self.series = HistorySeries()
        self.run_state = "idle"
        """idle, running, paused, solved, stopped or error."""
        self._dirty = False
        self._frame = 0
        self._table_snapshot: Snapshot | None = None
        self._plotted = -1
        self._mounted = False
        self._listed: tuple[Snapshot, int] | None = None
        self._rates: deque[tuple[float, int]] = deque()
        self._rate = 0.0

    # Layout -------------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        """Status line, form, board, fitness, table, footer."""
        with Horizontal(id="body"):
            yield ParamForm(self.initial_config, id="form")
            with Vertical(id="main"):
                # The status line sits above the board, not across the form: Textual repaints
                # the bounding box of what changed, and a full-width line changing ten times a
                # second would make it repaint every field of the form with it.
                yield StatusLine(frozen_clock=self.frozen_clock, id="status")
                with Horizontal(id="top"):
                    yield Board(ascii=self.ascii, id="board")
                    with Vertical(id="charts"):
                        yield FitnessSparks(id="sparks")
                        yield FitnessPlot(id="plot")
                        yield ConflictList(id="conflicts")
                yield PopulationTable(id="table")
        yield Static("", id="too-small")
        yield Footer(compact=True)
        yield EngineRunner()

    def on_mount(self) -> None:
        """Set up the first run (paused at generation 0) and the repaint timer."""
        # Held once, not queried each frame: cheaper, and messages still arriving while the app
        # closes find the widgets instead of failing a query on a removed screen.
        self.runner = self.query_one(EngineRunner)
        self.board = self.query_one(Board)
        self.table = self.query_one(PopulationTable)
        self.form = self.query_one(ParamForm)
        self.status = self.query_one(StatusLine)
        self._sparks = self.query_one(FitnessSparks)
        self._plot = self.query_one(FitnessPlot)
        self._conflicts = self.query_one(ConflictList)
        self._top = self.query_one("#top")
        self._charts = self.query_one("#charts")
        self._body = self.query_one("#body")
        self._too_small = self.query_one("#too-small", Static)
        self._mounted = True
        self.query_one("#board").border_title = "Board"
        charts = self.query_one("#charts")
        charts.border_title = "Fitness"
        charts.border_subtitle = legend_markup()
        self.query_one("#table").border_title = "Population"
        self.query_one("#form").border_title = "Parameters"
        self._fit_layout(self.size.width, self.size.height)
        config = self.form.config()
        if config is not None:
            self._start(config, run=False)
        else:
            self._paint_status()
        self.table.focus()
        self.set_interval(1 / FRAME_RATE, self._repaint, name="repaint")

    def on_resize(self, event: Resize) -> None:
        """Collapse the form when narrow; say so when the terminal is too small."""
        self._fit_layout(event.size.width, event.size.height)

    def _fit_layout(self, width: int, height: int) -> None:
        if not self._mounted:
            return
        # The board's row gets what the board needs, up to a share that leaves the table room.
        n = self.latest.n if self.latest is not None else self.initial_config.n
        available = height - 3
        self._top.styles.height = max(10, min(n + 2, int(available * TOP_SHARE)))
        too_small = width < MIN_WIDTH or height < MIN_HEIGHT
        self.set_class(too_small, "-too-small")
        self._body.set_class(width < WIDE_WIDTH, "-compact")
        if too_small:
            self._too_small.update(
                f"Terminal too small: {width}x{height}.\n"
                f"The dashboard needs at least {MIN_WIDTH}x{MIN_HEIGHT}.\n\nq quits."
            )

    # Runs ---------------------------------------------------------------------------------

    def _start(self, config: Config, *, run: bool) -> bool:
        """Replace the run; an engine error is reported, never raised."""
        try:
            algorithm = self.runner.start(config, run=run)
        except Exception as error:
            self._engine_failed(f"{type(error).__name__}: {error}")
            return False
        self.latest = algorithm.snapshot
        self._fit_layout(self.size.width, self.size.height)
        self.series = HistorySeries()
        self.inspected = None
        self.status.stop_reason = None
        self.run_state = "running" if run else "paused"
        self._rates.clear()
        self._rate = 0.0
        self._table_snapshot = None
        self._plotted = -1
        self._repaint(force=True)
        return True

    def _engine_failed(self, error: str) -> None:
        self.run_state = "error"
        self.notify(error, title="Engine error", severity="error", timeout=10)
        self._repaint(force=True)

    @on(EngineRunner.Progress)
    def _progress(self, message: EngineRunner.Progress) -> None:
        if message.run_id == self.runner.run_id:
            self.latest = message.snapshot
            self._dirty = True
            if self.run_state != "running":
                # A single step (`n`): show it now rather than at the next frame.
                self._repaint(force=True)

    @on(EngineRunner.Finished)
    def _finished(self, message: EngineRunner.Finished) -> None:
        if message.run_id != self.runner.run_id:
            return
        snapshot = message.snapshot
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

    @on(ParamForm.Submitted)
    def _form_submitted(self) -> None:
        self.action_new_run()

    @on(PopulationTable.Inspect)
    def _inspect(self, message: PopulationTable.Inspect) -> None:
        self.inspected = (message.snapshot, message.index)
        self._paint_board()

    # Painting -----------------------------------------------------------------------------

    def _repaint(self, force: bool = False) -> None:
        """One frame: status and board always, table and sparklines at 5 Hz, chart at 3 Hz."""
        self._frame += 1
        self._measure_rate()
        snapshot = self.latest
        with self.batch_update():
            self._paint_status()
            if snapshot is None or not (self._dirty or force):
                return
            algorithm = self.runner.algorithm
            if algorithm is not None:
                self.series.update(algorithm.history, snapshot)
            self._paint_board()
            if force or self._frame % TABLE_EVERY == 0:
                self._paint_table(snapshot)
                self._paint_sparks()
            if force or self._frame % PLOT_EVERY == 0:
                self._paint_plot()
            self._dirty = self._table_snapshot is not snapshot or self._plotted != len(self.series)

    def _measure_rate(self) -> None:
        snapshot = self.latest
        if snapshot is None or self.run_state != "running":
            self._rate = 0.0
            return
        now = time.monotonic()
        self._rates.append((now, snapshot.generation))
        while len(self._rates) > 2 and now - self._rates[0][0] > RATE_WINDOW:
            self._rates.popleft()
        (start, first), (end, last) = self._rates[0], self._rates[-1]
        if end > start:
            self._rate = (last - first) / (end - start)

    def _paint_status(self) -> None:
        self.status.show(
            self.latest, rate=self._rate, speed=self.runner.speed_limit, state=self.run_state
        )

    def _paint_board(self) -> None:
        board = self.board
        if self.inspected is not None:
            snapshot, index = self.inspected
            label = f"#{index} of gen {snapshot.generation:,}"
        elif self.latest is not None:
            snapshot, index = self.latest, self.latest.best_index
            label = "best"
        else:
            return
        position = Position.of(snapshot.population[index], snapshot.n, snapshot.encoding)
        conflicts = int(snapshot.conflicts[index])
        attacked_glyph = board.glyphs[1]
        caption = (
            "solved" if conflicts == 0 else f"{attacked_glyph} {position.attacked_count} attacked"
        )
        # The board adds its scale to the caption in its border.
        board.show(position, caption=caption)
        board.set_class(conflicts == 0, "-solved")
        # Titles are set only when they change: each assignment repaints the widget.
        if board.border_title != label:
            board.border_title = label
        # On the chart panel, not the app: a class on the app restyles every widget (~100 ms).
        self._charts.set_class(self.inspected is not None, "-inspecting")
        if self.inspected is not None and self._listed is not self.inspected:
            self._listed = self.inspected
            self._conflicts.show(position, title=label, conflicts=conflicts)

    def _paint_table(self, snapshot: Snapshot) -> None:
        if self._table_snapshot is snapshot:
            return
        self._table_snapshot = snapshot
        if self.run_state == "running":
            self.table.show_top(snapshot)
        else:
            self.table.show_all(snapshot)

    def _paint_sparks(self) -> None:
        columns = self.series.columns
        self._sparks.show(
            thinned(columns["best_fitness"], SPARK_POINTS),
            thinned(columns["mean_fitness"], SPARK_POINTS),
        )

    def _paint_plot(self) -> None:
        if self._plotted == len(self.series) or self.inspected is not None:
            return
        self._plotted = len(self.series)
        columns = self.series.columns
        self._plot.show(
            thinned(columns[self.x_axis], PLOT_POINTS),
            {
                "best": thinned(columns["best_fitness"], PLOT_POINTS),
                "mean": thinned(columns["mean_fitness"], PLOT_POINTS),
                "worst": thinned(columns["worst_fitness"], PLOT_POINTS),
            },
            thinned(columns[SERIES_DIVERSITY], PLOT_POINTS),
            x_label="generations" if self.x_axis == "generation" else "evaluations",
        )

    # Actions ------------------------------------------------------------------------------

    def _over(self) -> bool:
        """Whether the current run can go no further (and say what to do)."""
        if self.run_state in ("solved", "stopped", "error", "idle"):
            reason = {
                "idle": "There is no run yet",
                "error": "The run failed",
            }.get(self.run_state, "The run is over")
            self.notify(f"{reason}: press r for a new run.", timeout=3)
            return True
        return False

    def action_toggle_run(self) -> None:
        """Run or pause the current run."""
        if self._over():
            return
        if self.runner.running:
            self.runner.pause()
            self.run_state = "paused"
        else:
            self.runner.resume()
            self.run_state = "running"
        self._repaint(force=True)

    def action_step(self) -> None:
        """Pause, then step exactly one generation."""
        if self._over():
            return
        self.runner.step_once()
        self.run_state = "paused"
        self._repaint(force=True)

    def action_new_run(self) -> None:
        """Start a new run from the form, or point at what is wrong with it."""
        form = self.form
        config = form.config()
        if config is None:
            self.notify(
                "\n".join(str(error) for error in form.errors[:3]),
                title="Fix the form first",
                severity="error",
            )
            self.action_focus_form()
            return
        if self._start(config, run=True):
            self.table.focus()
            self._body.set_class(False, "-form-open")

    def action_focus_form(self) -> None:
        """Open the form (it may be collapsed) and put the cursor in it."""
        self._body.set_class(True, "-form-open")
        form = self.form
        target = form.first_invalid() or form.field_widget("n")
        self.call_after_refresh(target.focus)

    def _in_form(self) -> bool:
        focused = self.focused
        return focused is not None and self.form in focused.ancestors

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Escape only means something (and is only in the footer) inside the form.

        On the solutions and race screens the dashboard's keys would act on a run out of
        sight, so only quitting stays.
        """
        if isinstance(self.screen, (SolutionsScreen, RaceScreen)):
            return action == "quit"
        if action == "leave_form":
            return self._in_form()
        return True

    def action_leave_form(self) -> None:
        """Escape from the form: back to the table, collapsing the form if narrow."""
        if self._in_form():
            self._body.set_class(False, "-form-open")
            self.table.focus()

    def action_focus_table(self) -> None:
        """Put the cursor in the population table (enter inspects a row)."""
        self._body.set_class(False, "-form-open")
        self.table.focus()

    def action_back_to_best(self) -> None:
        """The board follows the best individual again."""
        self.inspected = None
        self._charts.set_class(False, "-inspecting")
        self._plotted = -1
        self._repaint(force=True)

    def action_faster(self) -> None:
        """Raise the engine's speed limit one step."""
        self.runner.set_speed(self.runner.speed_index + 1)
        self._paint_status()

    def action_slower(self) -> None:
        """Lower the engine's speed limit one step (down to 1 generation per second)."""
        self.runner.set_speed(self.runner.speed_index - 1)
        self._paint_status()

    def action_zoom(self) -> None:
        """Switch a large board between its overview and a scrollable full-size view."""
        board = self.board
        if not board.overview and not board.zoomed:
            self.notify("The board fits: it is already at full size.", timeout=2)
            return
        board.zoomed = not board.zoomed
        if board.zoomed:
            board.focus()
        self._paint_board()

    def action_toggle_x_axis(self) -> None:
        """Plot against generations or against evaluations."""
        self.x_axis = "evaluations" if self.x_axis == "generation" else "generation"
        self._plotted = -1
        self._paint_plot()

    def _config_for_screen(self) -> Config | None:
        """The form's config for another screen, with the main run paused; or say what is wrong."""
        config = self.form.config()
        if config is None:
            self.notify(
                "\n".join(str(error) for error in self.form.errors[:3]),
                title="Fix the form first",
                severity="error",
            )
            return None
        if self.runner.running:
            # The other screen's engine should not share the machine with a run out of sight.
            self.runner.pause()
            self.run_state = "paused"
            self._repaint(force=True)
        return config

    def action_solutions(self) -> None:
        """Open the solutions screen: find every solution for the form's N and seed."""
        config = self._config_for_screen()
        if config is not None:
            self.push_screen(SolutionsScreen(config))

    def action_race(self) -> None:
        """Open the race screen: the form's GA against a preset, on the same N and seed."""
        config = self._config_for_screen()
        if config is not None:
            self.push_screen(RaceScreen(config, ascii=self.ascii))

    def action_help(self) -> None:
        """Show every key, generated from the bindings."""
        sections = [
            ("Everywhere", described(self.BINDINGS)),
            ("Population table", described(PopulationTable.BINDINGS)),
            ("Solutions screen (s)", described(SolutionsScreen.BINDINGS)),
            ("Race screen (x)", described(RaceScreen.BINDINGS)),
        ]
        self.push_screen(HelpScreen(sections))
