"""The dashboard: a Textual app over the engine's snapshot stream.

The app itself is layout, bindings and wiring. Its parts live in their own modules:

- :mod:`tui.dashboard.run_control`: start runs, follow the engine runner's messages;
- :mod:`tui.dashboard.repaint`: paint the views from the latest snapshot, each at its own rate;
- :mod:`tui.dashboard.actions`: what each key does (run keys, view keys, screen keys).

The engine steps in a thread worker (:class:`~tui.dashboard.widgets.EngineRunner`); the app keeps
the
latest snapshot and repaints from it on a timer, so the screen stays calm however fast the
engine goes. Everything is reachable with single keys.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from typing import ClassVar, Final

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.command import Provider
from textual.containers import Horizontal, Vertical
from textual.events import Resize
from textual.theme import Theme
from textual.widgets import Footer

from engine import Config
from tui.dashboard.actions import PaletteActions, RunKeys, ScreenKeys, ViewKeys
from tui.dashboard.actions.time_keys import TIME_ACTIONS, TimeKeys
from tui.dashboard.history_series import HistorySeries
from tui.dashboard.palette import DashboardCommands
from tui.dashboard.recording import DashboardRecording
from tui.dashboard.repaint import FRAME_RATE, Repainting
from tui.dashboard.run_control import RunControl
from tui.dashboard.screens import RaceScreen, SolutionsScreen
from tui.dashboard.screens.too_small import TooSmallScreen
from tui.dashboard.settings import load_settings, save_setting
from tui.dashboard.showcase import SHOWCASE, SHOWCASE_SPEED
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
from tui.dashboard.widgets.engine_runner import SPEED_LIMITS
from tui.dashboard.widgets.fitness_plot import legend_markup

MIN_WIDTH: Final = 80
MIN_HEIGHT: Final = 24
"""The smallest terminal that shows board, fitness and table together."""
WIDE_WIDTH: Final = 100
"""From this width on the form stays open beside the board."""
TOP_SHARE: Final = 0.7
"""Of the rows below the status line, the board and chart take at most this share."""


class QueensApp(RunControl, Repainting, RunKeys, ViewKeys, ScreenKeys, TimeKeys, PaletteActions):
    """Watch, steer and compare genetic algorithms on the N-Queens puzzle."""

    CSS_PATH = "app.tcss"
    TITLE = "Queens GA lab"
    COMMANDS: ClassVar[set[type[Provider] | Callable[[], type[Provider]]]] = {DashboardCommands}
    """Ctrl+p (a plain control character, so it works over SSH): every action, the presets,
    themes, a screenshot."""

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
        Binding(
            "left_square_bracket",
            "back_one",
            "Back",
            key_display="[",
            id="back-one",
            show=False,
            tooltip="one generation back (pauses; the run must be recorded)",
        ),
        Binding(
            "right_square_bracket",
            "forward_one",
            "Fwd",
            key_display="]",
            id="forward-one",
            show=False,
            tooltip="one generation forward",
        ),
        Binding(
            "left_curly_bracket",
            "back_ten",
            "Back 10",
            key_display="{",
            id="back-ten",
            show=False,
            tooltip="ten generations back",
        ),
        Binding(
            "right_curly_bracket",
            "forward_ten",
            "Fwd 10",
            key_display="}",
            id="forward-ten",
            show=False,
            tooltip="ten generations forward",
        ),
        Binding("g", "go_to", "Go to", id="go-to", show=False, tooltip="jump to a generation"),
        Binding(
            "end",
            "go_live",
            "Live",
            id="go-live",
            show=False,
            priority=True,  # the population table would take `end` for itself
            tooltip="back to the live run",
        ),
        Binding("l", "load_runs", "Runs", id="load-runs", show=False, tooltip="recorded runs"),
        Binding(
            "e", "export", "Export", id="export", show=False, tooltip="history CSV + screen SVG"
        ),
        Binding(
            "c", "toggle_y_axis", "Y axis", id="y-axis", show=False, tooltip="fitness / conflicts"
        ),
        Binding("question_mark", "help", "Help", key_display="?", id="help"),
        Binding("q", "quit", "Quit", id="quit"),
        Binding("escape", "leave_form", "Leave form", id="leave-form"),
    ]

    def __init__(
        self,
        config: Config | None = None,
        *,
        ascii: bool = False,
        frozen_clock: bool = False,
        record: bool = False,
        store: str | None = None,
        replay: int | str | None = None,
    ) -> None:
        """Args:
        config: Prefills the form (``None``: the showcase run, :mod:`tui.dashboard.showcase`, at its
            opening speed limit).
        ascii: Draw queens as ``Q``/``X`` instead of chess symbols.
        frozen_clock: Hide wall-clock figures, for reproducible screenshots and tests.
        record: Record runs in the run store (the form's toggle starts so).
        store: The run store's path (``None``: ``$QUEENS_STORE`` or the user data folder).
        replay: Open on this recorded run (an id, or a run file's path) in time travel.
        """
        super().__init__()
        self.initial_config = config if config is not None else SHOWCASE
        self.opening_speed = None if config is not None else SHOWCASE_SPEED
        self.ascii = ascii
        self.frozen_clock = frozen_clock
        self.latest = None
        self.series = HistorySeries()
        self.run_state = "idle"
        self.dirty = False
        self.frame = 0
        self.table_snapshot = None
        self.plotted = -1
        self.listed = None
        self.rates = deque()
        self.rate = 0.0
        self._mounted = False
        self.recording = DashboardRecording(store, enabled=record, on_error=self.recording_failed)
        self.travel = TimeTravel()
        self._keyframes_warned_of = set()
        self.replay = replay

    # Layout -------------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        """Status line, form, board, fitness, table, footer."""
        with Horizontal(id="body"):
            yield ParamForm(self.initial_config, record=self.recording.enabled, id="form")
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
        yield Footer(compact=True)
        yield EngineRunner()

    def on_mount(self) -> None:
        """Set up the first run (paused at generation 0) and the repaint timer."""
        # Held once, not queried each frame: cheaper, and messages still arriving while the app
        # closes find the widgets instead of failing a query on a removed screen.
        self.runner = self.query_one(EngineRunner)
        if self.opening_speed is not None:
            self.runner.set_speed(SPEED_LIMITS.index(self.opening_speed))
        self.runner.after_step = self.recording.observe
        self.board = self.query_one(Board)
        self.table = self.query_one(PopulationTable)
        self.form = self.query_one(ParamForm)
        self.status = self.query_one(StatusLine)
        self.sparks = self.query_one(FitnessSparks)
        self.plot = self.query_one(FitnessPlot)
        self.conflicts = self.query_one(ConflictList)
        self.top_row = self.query_one("#top", Horizontal)
        self.charts = self.query_one("#charts", Vertical)
        self.body = self.query_one("#body", Horizontal)
        self.footer = self.query_one(Footer)
        self._mounted = True
        self._restore_theme()
        self.board.border_title = "Board"
        self.charts.border_title = "Fitness"
        self.charts.border_subtitle = legend_markup()
        self.table.border_title = "Population"
        self.form.border_title = "Parameters"
        self._fit_layout(self.size.width, self.size.height)
        config = self.form.config()
        if self.replay is not None:
            self.call_after_refresh(self.open_replay, self.replay)
        elif config is not None:
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
        self.top_row.styles.height = max(10, min(n + 2, int(available * TOP_SHARE)))
        self.body.set_class(width < WIDE_WIDTH, "-compact")
        # At 80 columns the footer keeps `? Help` and `q Quit`; help names ctrl+p instead.
        self.footer.show_command_palette = width >= WIDE_WIDTH
        too_small = width < MIN_WIDTH or height < MIN_HEIGHT
        showing = isinstance(self.screen, TooSmallScreen)
        if too_small and showing:
            self.screen.show_size(width, height)
        elif too_small:
            self.push_screen(TooSmallScreen(width, height, MIN_WIDTH, MIN_HEIGHT))
        elif showing:
            self.pop_screen()

    def _restore_theme(self) -> None:
        """The theme of the last session, then keep each change for the next."""
        theme = load_settings().get("theme")
        if theme in self.available_themes:
            self.theme = theme
        self.theme_changed_signal.subscribe(self, self._keep_theme)

    def _keep_theme(self, theme: Theme) -> None:
        problem = save_setting("theme", theme.name)
        if problem is not None:
            self.notify(f"The theme is not kept: {problem}", severity="warning", timeout=5)

    # Wiring -------------------------------------------------------------------------------

    @on(ParamForm.Submitted)
    def _form_submitted(self) -> None:
        self.action_new_run()

    def in_form(self) -> bool:
        """Whether the cursor is in the form."""
        focused = self.focused
        return focused is not None and self.form in focused.ancestors

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Escape only means something (and is only in the footer) inside the form.

        On the solutions and race screens, and while the terminal is too small, the
        dashboard's keys would act on a run out of sight, so only quitting stays.
        """
        if isinstance(self.screen, (SolutionsScreen, RaceScreen, TooSmallScreen)):
            return action == "quit"
        if action == "leave_form":
            return self.in_form()
        # `end` (a priority key) must still move the cursor in the form's inputs, and in the
        # population table while the run is live: it means "back to live" only in time travel.
        if action == "go_live" and not self.travel.active:
            return False
        return not (action in TIME_ACTIONS and self.in_form())

    def on_unmount(self) -> None:
        """End the run's record (``interrupted`` unless it finished) and close the store."""
        self.runner.stop()
        self.recording.close()
