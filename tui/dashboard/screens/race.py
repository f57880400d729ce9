"""The `x` screen: two GAs race on the same N and seed, one generation each per turn.

Side A is the form's config by default, side B a preset; either select switches its side to
another preset (or back to the form) and restarts the race at generation 0. ``a`` and ``b``
choose from the keyboard (:class:`~tui.dashboard.screens.race_choice.RaceChoice`: a digit
picks), and the focus comes back to the race, where ``space`` starts it. Both runs step in
one thread worker (:class:`~tui.dashboard.widgets.EngineRunner`), alternately, so the race is
fair and the same every time. The chart overlays the best conflicts of both sides: fitness
shapes differ from GA to GA (pairs, collisions, exponential...), so their fitness values cannot
be compared, but conflicts can.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import ClassVar, Final

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.screen import Screen
from textual.widgets import Footer, Label, Select, Static
from textual_plotext import PlotextPlot

from engine import Config, GeneticAlgorithm, Snapshot
from engine.config.presets import PRESETS
from tui.dashboard.pictures.board_pictures import HEADER_LINES, Position
from tui.dashboard.pictures.chart_ticks import axis_ticks
from tui.dashboard.screens.race_choice import RaceChoice
from tui.dashboard.widgets.board import Board
from tui.dashboard.widgets.engine_runner import EngineRunner
from tui.dashboard.widgets.preset_select import preset_options

FORM: Final = "form"
"""The select value of the form's own config."""
FORM_LABEL: Final = "form: the parameters in the form"
SIDES: Final = ("a", "b")
COLOURS: Final = {"a": "green", "b": "magenta"}
"""Line colours of the two sides: of the 16 standard colours, so they survive any terminal."""
FRAME_RATE: Final = 10
"""Repaints per second of the boards and the status lines."""
PLOT_EVERY: Final = 4
"""The chart repaints every this many frames (2.5 Hz): plotext rebuilds the whole figure."""
PLOT_POINTS: Final = 240
"""Points per line at most; longer histories are thinned evenly."""
CHART_TITLE: Final = "best conflicts per generation (lower is better; fitness shapes differ)"


def thinned_pairs(values: Sequence[float], limit: int) -> tuple[list[float], list[float]]:
    """Generations and values, every k-th (and the last) so that at most about ``limit`` remain."""
    xs = list(range(len(values)))
    if len(values) <= limit:
        return [float(x) for x in xs], list(values)
    step = -(-len(values) // limit)
    kept = list(range(0, len(values), step))
    if kept[-1] != len(values) - 1:
        kept.append(len(values) - 1)
    return [float(x) for x in kept], [values[i] for i in kept]


def default_rival(form: Config) -> str:
    """Side B's preset: ours when the form differs from it, else the first other that fits N."""
    if form.replace(seed=None) != PRESETS["default"].config(form.n):
        return "default"
    for _label, name in preset_options(form.n):
        if name != "default":
            return name
    return "default"


def side_status(snapshot: Snapshot) -> str:
    """Generation, best conflicts, evaluations and how the side stopped (if it did)."""
    if snapshot.stop_reason is None:
        state = "racing"
    elif snapshot.solved:
        state = f"solved at gen {snapshot.generation:,}"
    else:
        state = f"stopped: {snapshot.stop_reason}"
    return (
        f"gen {snapshot.generation:,}\nbest {snapshot.best_conflicts} conflicts\n"
        f"{snapshot.evaluations:,} evals\n{state}"
    )


class RaceScreen(Screen[None]):
    """Two boards, two status lines and one chart of both sides' best conflicts."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("a", "choose('a')", "Side A", id="race-choose-a", tooltip="the form or a preset"),
        Binding("b", "choose('b')", "Side B", id="race-choose-b", tooltip="a preset (a digit)"),
        Binding("space", "toggle_run", "Run/Pause", id="race-toggle-run"),
        Binding("n", "step", "Step both", id="race-step", tooltip="one generation of each side"),
        Binding("escape", "back", "Back", id="race-back"),
    ]

    DEFAULT_CSS = """
    RaceScreen {
        layout: vertical;
    }
    RaceScreen #race-choices {
        height: 1;
    }
    RaceScreen #race-choices Label {
        width: auto;
        padding: 0 1;
        text-style: bold;
    }
    RaceScreen #race-choices Select {
        width: 1fr;
    }
    RaceScreen #race-sides {
        height: 12;  /* set from N by RaceScreen._fit_layout */
    }
    RaceScreen .race-side {
        width: 1fr;
        border: round $panel-lighten-2;
    }
    RaceScreen .race-side.-solved {
        border: round $success;
    }
    RaceScreen .race-side Board {
        max-width: 60%;
        height: 100%;
        margin-right: 1;
    }
    RaceScreen .race-side Static {
        width: 1fr;
    }
    RaceScreen #race-plot {
        height: 1fr;
        min-height: 6;
        border: round $panel-lighten-2;
    }
    """

    def __init__(self, config: Config, *, ascii: bool = False) -> None:
        """Args:
        config: The form's config: side A, and the N and seed of both sides.
        ascii: Draw queens as ``Q``/``X`` instead of chess symbols.
        """
        super().__init__()
        seed = config.seed if config.seed is not None else random.randrange(2**31)
        self.form_config = config.replace(seed=seed)
        """The form's config with the race's seed (drawn once when the form has none)."""
        self.ascii = ascii
        self.latest: tuple[Snapshot, Snapshot] | None = None
        """Both sides' newest snapshots."""
        self.run_state = "paused"
        """paused, running, over or error."""
        self._frame = 0
        self._dirty = True
        self._plotted: tuple[int, int] = (-1, -1)
        self._raced: tuple[object, ...] | None = None

    @property
    def n(self) -> int:
        """The board size of both sides."""
        return self.form_config.n

    @property
    def seed(self) -> int:
        """The seed of both sides."""
        seed = self.form_config.seed
        assert seed is not None
        return seed

    def compose(self) -> ComposeResult:
        """Two selects, two sides (board and status), the chart, the footer."""
        choices = preset_options(self.n)
        with Horizontal(id="race-choices"):
            yield Label("A", id="label-a")
            yield Select(
                [(FORM_LABEL, FORM), *choices],
                value=FORM,
                allow_blank=False,
                compact=True,
                id="race-a",
            )
            yield Label("B", id="label-b")
            yield Select(
                choices,
                value=default_rival(self.form_config),
                allow_blank=False,
                compact=True,
                id="race-b",
            )
        with Horizontal(id="race-sides"):
            for side in SIDES:
                with Horizontal(classes="race-side", id=f"side-{side}"):
                    yield Board(ascii=self.ascii, id=f"board-{side}")
                    yield Static("", id=f"status-{side}")
        yield PlotextPlot(id="race-plot")
        yield Footer(compact=True)
        yield EngineRunner()

    def on_mount(self) -> None:
        """Start the race, paused at generation 0, and the repaint timer."""
        self.runner = self.query_one(EngineRunner)
        self.plot = self.query_one("#race-plot", PlotextPlot)
        self.plot.border_title = CHART_TITLE
        self.plot.border_subtitle = " ".join(
            f"[{COLOURS[side]}]━ {side.upper()}[/]" for side in SIDES
        )
        self._fit_layout()
        self._restart()
        # Not a select: space on a select opens it, and space here means run/pause.
        self._focus_race()
        self.set_interval(1 / FRAME_RATE, self._repaint, name="race-repaint")

    def on_resize(self) -> None:
        """The sides take what the boards need, leaving the chart room."""
        self._fit_layout()

    def _fit_layout(self) -> None:
        height = self.size.height or 24
        sides = self.query_one("#race-sides")
        # The board, its border and its line of column numbers.
        sides.styles.height = max(6, min(self.n + 2 + HEADER_LINES, (height - 2) // 2))

    # Runs ---------------------------------------------------------------------------------

    def side_config(self, side: str) -> Config:
        """The config a side's select stands for, at the race's N and seed.

        Raises:
            ConfigError: If the preset cannot run at this N.
        """
        value = self.query_one(f"#race-{side}", Select).value
        if value == FORM or not isinstance(value, str):
            return self.form_config
        return PRESETS[value].config(self.n, seed=self.seed)

    def _restart(self, *, run: bool = False) -> None:
        """A new race from the selects; an engine error is reported, never raised."""
        try:
            configs = [self.side_config(side) for side in SIDES]
            first, second = self.runner.start_all(configs, run=run)
            self.latest = (first.snapshot, second.snapshot)
        except Exception as error:
            self._failed(f"{type(error).__name__}: {error}")
            return
        self._raced = tuple(self.query_one(f"#race-{side}", Select).value for side in SIDES)
        for side, config in zip(SIDES, configs, strict=True):
            name = self.query_one(f"#race-{side}", Select).value
            self.query_one(
                f"#side-{side}"
            ).border_title = f"{side.upper()}: {name} · {config.fitness} fitness"
        self.run_state = "running" if run else "paused"
        self._plotted = (-1, -1)
        self._repaint(force=True)

    @on(Select.Changed, "#race-a, #race-b")
    def _choice_changed(self, event: Select.Changed) -> None:
        event.stop()
        choice = tuple(self.query_one(f"#race-{side}", Select).value for side in SIDES)
        if hasattr(self, "runner") and choice != self._raced:
            self._restart()
        # Back to the race, chosen with the mouse or the keyboard: space there means run/pause
        # (on a select it would open the list again).
        self._focus_race()

    def _focus_race(self) -> None:
        self.query_one("#board-a", Board).focus()

    # Messages from the runner stop here: they concern this screen's race alone.

    @on(EngineRunner.Stepped)
    def _stepped(self, message: EngineRunner.Stepped) -> None:
        message.stop()
        if message.run_id == self.runner.run_id:
            first, second = message.snapshots
            self.latest = (first, second)
            self._dirty = True

    @on(EngineRunner.Finished)
    def _finished(self, message: EngineRunner.Finished) -> None:
        message.stop()
        if message.run_id != self.runner.run_id:
            return
        first, second = message.snapshots
        self.latest = (first, second)
        self.run_state = "over"
        self.notify(self.verdict(), title="Race over")
        self._repaint(force=True)

    @on(EngineRunner.Failed)
    def _engine_failed(self, message: EngineRunner.Failed) -> None:
        message.stop()
        if message.run_id == self.runner.run_id:
            if self.runner.algorithms:
                first, second = self.runner.algorithms
                self.latest = (first.snapshot, second.snapshot)
            self._failed(message.error)

    def _failed(self, error: str) -> None:
        self.run_state = "error"
        self.notify(error, title="Engine error", severity="error", timeout=10)
        self._repaint(force=True)

    def verdict(self) -> str:
        """Who won: the first to solve (in generations, then evaluations), else fewer conflicts."""
        if self.latest is None:
            return ""
        a, b = self.latest

        def score(snapshot: Snapshot) -> tuple[int, int, int]:
            if snapshot.solved:
                return (0, snapshot.generation, snapshot.evaluations)
            return (1, snapshot.best_conflicts, snapshot.evaluations)

        if score(a) == score(b):
            return "A tie."
        winner, best = ("A", a) if score(a) < score(b) else ("B", b)
        if best.solved:
            return (
                f"{winner} solved first: gen {best.generation:,}, {best.evaluations:,} evaluations."
            )
        return f"Neither solved; {winner} ended with fewer conflicts ({best.best_conflicts})."

    # Painting -----------------------------------------------------------------------------

    def _repaint(self, force: bool = False) -> None:
        self._frame += 1
        if self.latest is None or not (self._dirty or force):
            return
        with self.app.batch_update():
            for side, snapshot in zip(SIDES, self.latest, strict=True):
                self._paint_side(side, snapshot)
            if force or self._frame % PLOT_EVERY == 0:
                self._paint_plot()
        generations = (self.latest[0].generation, self.latest[1].generation)
        self._dirty = self._plotted != generations

    def _paint_side(self, side: str, snapshot: Snapshot) -> None:
        board = self.query_one(f"#board-{side}", Board)
        index = snapshot.best_index
        board.show(Position.of(snapshot.population[index], snapshot.n, snapshot.encoding))
        board.set_class(snapshot.solved, "-solved")
        self.query_one(f"#side-{side}").set_class(snapshot.solved, "-solved")
        self.query_one(f"#status-{side}", Static).update(side_status(snapshot))

    def _paint_plot(self) -> None:
        algorithms = self.runner.algorithms
        if not algorithms or self.latest is None:
            return
        generations = (self.latest[0].generation, self.latest[1].generation)
        if generations == self._plotted:
            return
        self._plotted = generations
        plt = self.plot.plt
        plt.clear_data()
        plt.clear_figure()
        highest = 0.0
        for side, algorithm, generation in zip(SIDES, algorithms, generations, strict=True):
            values = self._best_conflicts(algorithm, generation)
            xs, ys = thinned_pairs(values, PLOT_POINTS)
            plt.plot(xs, ys, color=COLOURS[side], marker="braille")
            highest = max(highest, *ys)
        # Conflicts and generations are whole numbers, from 0: no 0.17 ticks, and at generation
        # 0 (one point a side) no axes from -1 to 1, which plotext draws around a lone point.
        conflicts = axis_ticks(0, highest, 5, whole=True)
        plt.ylim(conflicts.low, conflicts.high)
        plt.yticks(list(conflicts.values), list(conflicts.labels))
        generations_axis = axis_ticks(0, max(1, *generations), 5, whole=True)
        plt.xlim(generations_axis.low, generations_axis.high)
        plt.xticks(list(generations_axis.values), list(generations_axis.labels))
        plt.xlabel(f"generations (N = {self.n}, seed {self.seed})")
        self.plot.refresh()

    @staticmethod
    def _best_conflicts(algorithm: GeneticAlgorithm, generation: int) -> list[float]:
        """The side's best conflicts up to a published generation (never a half-written row)."""
        values: list[float] = algorithm.history.column("best_conflicts")[: generation + 1].tolist()
        return values

    # Actions ------------------------------------------------------------------------------

    def action_choose(self, side: str) -> None:
        """Choose what side ``side`` races (a digit picks); the race restarts with it."""
        select = self.query_one(f"#race-{side}", Select)
        choices = preset_options(self.n)
        if side == "a":
            choices.insert(0, (FORM_LABEL, FORM))

        def chosen(value: str | None) -> None:
            if value is not None:
                select.value = value  # its Changed restarts the race if the choice is new
            self._focus_race()

        self.app.push_screen(RaceChoice(side.upper(), choices, select.value), chosen)

    def action_toggle_run(self) -> None:
        """Run or pause the race."""
        if self.run_state in ("over", "error"):
            self._restart(run=True)
            return
        if self.runner.running:
            self.runner.pause()
            self.run_state = "paused"
        else:
            self.runner.resume()
            self.run_state = "running"

    def action_step(self) -> None:
        """Pause, then step one generation of each side."""
        if self.run_state in ("over", "error"):
            self.notify("The race is over: space races again.", timeout=3)
            return
        self.runner.step_once()
        self.run_state = "paused"

    def action_back(self) -> None:
        """Stop the race and go back to the dashboard."""
        self.runner.stop()
        self.dismiss()
