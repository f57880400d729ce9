"""Repaint scheduling: one frame at a time from the latest snapshot, each view at its own rate.

The engine may run thousands of generations a second; the screen does not follow each one.
A timer calls :meth:`Painter.repaint` ten times a second; the status line and the board are
painted every frame, the table and the sparklines every other, the plotext chart (which
rebuilds its whole figure) at 2 Hz.
"""

from __future__ import annotations

import dataclasses
import time
from collections import deque
from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import Final

from textual.containers import Vertical

from engine import Snapshot
from tui.dashboard.pictures.board_pictures import Position
from tui.dashboard.pictures.origin import Origin, origin_of
from tui.dashboard.runs.current_run import OVER, CurrentRun
from tui.dashboard.runs.history_series import SERIES_DIVERSITY, thinned
from tui.dashboard.runs.pressure_series import columns_of, shown_rows
from tui.dashboard.runs.time_travel import TimeTravel
from tui.dashboard.runs.travel_variation import (
    Note,
    finished_note,
    measuring_note,
    shown_columns,
    unmeasured_note,
)
from tui.dashboard.widgets import (
    Board,
    ConflictList,
    EngineRunner,
    FitnessPlot,
    FitnessSparks,
    PopulationTable,
    PopulationView,
    StatusLine,
)

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
RATE_WINDOW: Final = 1.0
"""Seconds over which generations per second are measured."""


class Painter:
    """Paints the main screen's views from the current run, each only when it has something new.

    Args:
        run: The run to paint.
        runner: The engine runner (its run's history, seed and speed limit).
        batch_update: The app's ``batch_update``: a frame is painted in one go.
        status: The status line.
        board: The board.
        table: The population table.
        sparks: The sparklines shown beside an inspected individual.
        plot: The fitness chart.
        conflicts: The inspected individual's attacking pairs.
        charts: The panel holding the chart, the sparklines and the conflict list.
        population: The population's views, shown in the board's place when :attr:`view`
            is not ``board``.
        travel: The past generation shown, if any (diversity explained for it is measured
            in the time-travel thread).
    """

    def __init__(
        self,
        run: CurrentRun,
        runner: EngineRunner,
        batch_update: Callable[[], AbstractContextManager[None]],
        *,
        status: StatusLine,
        board: Board,
        table: PopulationTable,
        sparks: FitnessSparks,
        plot: FitnessPlot,
        conflicts: ConflictList,
        charts: Vertical,
        population: PopulationView | None = None,
        travel: TimeTravel | None = None,
    ) -> None:
        self.run = run
        self.runner = runner
        self._batch_update = batch_update
        self.status = status
        self.board = board
        self.table = table
        self.sparks = sparks
        self.plot = plot
        self.conflicts = conflicts
        self.charts = charts
        self.population = population
        self.travel = travel
        self.view = "board"
        """What the board panel shows: ``board``, ``placement`` or ``conflicts``."""
        self.x_axis = "generation"
        """What the chart's x axis counts: ``generation`` or ``evaluations``."""
        self.frame = 0
        """Frames painted so far (the slower views paint on every few)."""
        self.dirty = False
        """Something is not painted yet: the next frame paints it."""
        self.table_snapshot: Snapshot | None = None
        """The snapshot the table shows."""
        self.plotted = -1
        """The version of the series the chart shows (-1: it must be drawn again)."""
        self.explained: tuple[int, int, int, bool] | None = None
        """What the diversity-explained view was drawn from (see :meth:`explained_key`;
        ``None``: not drawn)."""
        self.pressured: tuple[int, int, int] | None = None
        """What the selection-pressure view was drawn from (see :meth:`pressure_key`)."""
        self.listed: tuple[Snapshot, int] | None = None
        """The individual whose attacking pairs are listed."""
        self.origin: tuple[tuple[Snapshot, int], Origin | None] | None = None
        """The inspected individual's origin, worked out once per individual."""
        self.rates: deque[tuple[float, int]] = deque()
        self.rate = 0.0
        """Generations per second, measured over :data:`RATE_WINDOW`."""

    def reset(self) -> None:
        """A new run: every view repaints from scratch at the next frame."""
        self.rates.clear()
        self.rate = 0.0
        self.table_snapshot = None
        self.plotted = -1
        self.explained = None
        self.pressured = None
        self.run.variation.reset(self.runner.algorithm)
        self.run.pressure.reset()
        self.plot.new_run()

    def redraw_chart(self) -> None:
        """The chart must be drawn again (a new axis, the best again, a past generation)."""
        self.plotted = -1

    def repaint(self, force: bool = False) -> None:
        """One frame: status and board always, table and sparklines at 5 Hz, chart at 2 Hz."""
        self.frame += 1
        self._measure_rate()
        # Diversity explained costs the engine thread a share of each generation: only while
        # the chart shows it.
        explained = self.plot.metric == "explained"
        self.run.variation.enabled = explained
        pressure = self.plot.metric == "pressure"
        if self.travel is not None:
            self.travel.variation.enabled = explained
            self.travel.pressure.enabled = pressure
        snapshot = self.run.latest
        with self._batch_update():
            self.paint_status()
            if snapshot is None or not (self.dirty or force):
                if explained and self.explained != self.explained_key():
                    self.paint_plot()  # measured meanwhile, in the time-travel thread
                elif pressure and self.pressured != self.pressure_key():
                    self.paint_plot()
                return
            algorithm = self.runner.algorithm
            if algorithm is not None:
                self.run.series.update(algorithm.history, snapshot)
            self.paint_board()
            if force or self.frame % TABLE_EVERY == 0:
                self._paint_table(snapshot)
                self._paint_sparks()
            if force or self.frame % PLOT_EVERY == 0:
                self.paint_plot()
            chart_behind = self.plotted != self.run.series.version
            self.dirty = self.table_snapshot is not snapshot or chart_behind

    def _measure_rate(self) -> None:
        snapshot = self.run.latest
        if snapshot is None or self.run.state != "running":
            self.rate = 0.0
            return
        now = time.monotonic()
        self.rates.append((now, snapshot.generation))
        while len(self.rates) > 2 and now - self.rates[0][0] > RATE_WINDOW:
            self.rates.popleft()
        (start, first), (end, last) = self.rates[0], self.rates[-1]
        if end > start:
            self.rate = (last - first) / (end - start)

    def paint_status(self) -> None:
        """The status line: generation, figures, speed limit, state, seed."""
        algorithm = self.runner.algorithm
        self.status.show(
            self.run.latest,
            rate=self.rate,
            speed=self.runner.speed_limit,
            state=self.run.state,
            seed=None if algorithm is None else algorithm.seed,
        )

    def paint_board(self) -> None:
        """The board: the inspected individual, else the best of the newest snapshot."""
        board = self.board
        inspected = self.run.inspected
        if inspected is not None:
            snapshot, index = inspected
            label = f"#{index} of gen {snapshot.generation:,}"
        elif self.run.latest is not None:
            snapshot, index = self.run.latest, self.run.latest.best_index
            label = "best"
        else:
            return
        if self.view != "board" and self.population is not None:
            # The whole population of the generation the board would show.
            self.population.show(snapshot, self.view)
        position = Position.of(snapshot.population[index], snapshot.n, snapshot.encoding)
        origin = self._origin(inspected)
        if origin is not None:
            position = dataclasses.replace(position, origins=origin.queens)
        conflicts = int(snapshot.conflicts[index])
        attacked_glyph, attacked = board.glyphs[1], position.attacked_count
        queens = "queen" if attacked == 1 else "queens"
        # In words: the board shortens it to '♕ 15 attacked' where narrow, never to a bare count.
        caption = "solved" if conflicts == 0 else f"{attacked_glyph} {attacked} {queens} attacked"
        # The board adds its scale to the caption in its border.
        board.show(position, caption=caption)
        board.set_class(conflicts == 0, "-solved")
        # Titles are set only when they change: each assignment repaints the widget.
        if board.border_title != label:
            board.border_title = label
        # On the chart panel, not the screen: a class up there restyles every widget (~100 ms).
        self.charts.set_class(inspected is not None, "-inspecting")
        if inspected is not None and self.listed is not inspected:
            self.listed = inspected
            unknown = None
            if origin is None and snapshot.generation > 0:
                unknown = "where it came from is not kept with this generation: p reads it"
            self.conflicts.show(
                position, title=label, conflicts=conflicts, origin=origin or unknown
            )

    def _origin(self, inspected: tuple[Snapshot, int] | None) -> Origin | None:
        """Where the inspected individual came from (``None``: not inspected, or unknown)."""
        if inspected is None:
            return None
        if self.origin is None or self.origin[0] is not inspected:
            self.origin = (inspected, origin_of(*inspected))
        return self.origin[1]

    def _paint_table(self, snapshot: Snapshot) -> None:
        if self.table_snapshot is snapshot:
            return
        self.table_snapshot = snapshot
        if self.run.state == "running":
            self.table.show_top(snapshot)
        else:
            self.table.show_all(snapshot)

    def _paint_sparks(self) -> None:
        columns = self.run.series.columns
        self.sparks.show(
            thinned(columns["best_fitness"], SPARK_POINTS),
            thinned(columns["mean_fitness"], SPARK_POINTS),
        )

    def paint_plot(self) -> None:
        """The chart, if the history grew (not while an individual is inspected)."""
        series = self.run.series
        if self.run.inspected is not None:
            return
        if self.plot.metric == "explained" and self.explained != self.explained_key():
            self.explained = key = self.explained_key()
            columns, note = self._explained_columns(key[2])
            self.plot.show_explained(
                {name: thinned(values, PLOT_POINTS) for name, values in columns.items()}, note
            )
        if self.plot.metric == "pressure" and self.pressured != self.pressure_key():
            self.pressured = self.pressure_key()
            self._paint_pressure(self.pressured[2])
        if self.plotted == series.version:
            return
        self.plotted = series.version
        columns = series.columns
        self.plot.show(
            thinned(columns[self.x_axis], PLOT_POINTS),
            {
                "best": thinned(columns["best_fitness"], PLOT_POINTS),
                "mean": thinned(columns["mean_fitness"], PLOT_POINTS),
                "worst": thinned(columns["worst_fitness"], PLOT_POINTS),
            },
            thinned(columns[SERIES_DIVERSITY], PLOT_POINTS),
            x_label="generations" if self.x_axis == "generation" else "evaluations",
            conflicts={
                "best": thinned(columns["best_conflicts"], PLOT_POINTS),
                "mean": thinned(columns["mean_conflicts"], PLOT_POINTS),
            },
        )

    def explained_key(self) -> tuple[int, int, int, bool]:
        """What the diversity-explained view shows depends on: the generations the engine
        thread measured, the changes to those time travel measured, the past generation
        shown (-1: the live run), and whether the run is over (what to do then is said)."""
        travel = self.travel
        latest = self.run.latest
        shown = -1
        if travel is not None and travel.active and latest is not None:
            shown = latest.generation
        return (
            self.run.variation.measured,
            0 if travel is None else travel.variation.version,
            shown,
            self.run.state in OVER,
        )

    def _explained_columns(self, shown: int) -> tuple[dict[str, list[float]], Note | None]:
        """Diversity explained as the chart shows it: live, every generation measured; in the
        past, those up to the generation shown (measured live or in time travel), as the live
        chart showed them then, and why the generation shown has no figures, if it has none."""
        live = self.run.variation.columns()
        if shown < 0 or self.travel is None:
            if self.run.state in OVER and not live["generation"]:
                recorded = self.travel is not None and self.travel.timeline is not None
                return live, finished_note(recorded)
            return live, None
        variation = self.travel.variation
        columns = shown_columns(shown, live, variation.columns())
        generations = columns["generation"]
        if generations and generations[-1] == shown:
            return columns, None
        said = variation.note(shown)
        if said is None:
            at = self.travel.position == shown
            said = measuring_note(shown) if at else unmeasured_note(shown)
        return columns, said

    def pressure_key(self) -> tuple[int, int, int]:
        """What the selection-pressure view shows depends on: the generations kept live and in
        time travel, and the past generation shown (-1: the live run)."""
        travel, latest = self.travel, self.run.latest
        shown = -1
        if travel is not None and travel.active and latest is not None:
            shown = latest.generation
        return (self.run.pressure.version, 0 if travel is None else travel.pressure.version, shown)

    def _paint_pressure(self, shown: int) -> None:
        """Selection pressure as the chart shows it: live, every generation kept; in the past,
        those up to the generation shown, and why that one has no measure, if it has none."""
        sources = [self.run.pressure]
        if shown >= 0 and self.travel is not None:
            sources.append(self.travel.pressure)
        rows = shown_rows(None if shown < 0 else shown, *sources)
        note: tuple[str, ...] | None = None
        if shown == 0:
            note = ("gen 0 is the first population: no one was selected yet",)
        elif shown > 0 and (not rows or rows[-1][0] != shown):
            said = None if self.travel is None else self.travel.pressure.said(shown)
            note = (f"gen {shown:,}: not measured: {said}",) if said else measuring_note(shown)
        columns = {name: thinned(values, PLOT_POINTS) for name, values in columns_of(rows).items()}
        marked = [float(g) for g, pressure in rows if pressure.marked]
        self.plot.show_pressure(columns, marked, rows[-1] if rows else None, note)

    def toggle_x_axis(self) -> None:
        """Plot against generations or against evaluations."""
        self.x_axis = "evaluations" if self.x_axis == "generation" else "generation"
        self.redraw_chart()
        self.paint_plot()

    def x_of(self, snapshot: Snapshot) -> int:
        """Where a snapshot lies on the chart's x axis."""
        return snapshot.generation if self.x_axis == "generation" else snapshot.evaluations
