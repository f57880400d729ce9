"""Repaint scheduling: one frame at a time from the latest snapshot, each view at its own rate.

The engine may run thousands of generations a second; the screen does not follow each one.
A timer calls :meth:`Repainting._repaint` ten times a second; the status line and the board
are painted every frame, the table and the sparklines every other, the plotext chart (which
rebuilds its whole figure) at 2 Hz.
"""

from __future__ import annotations

import time
from typing import Final

from engine import Snapshot
from tui.dashboard.board_pictures import Position
from tui.dashboard.dashboard_parts import DashboardParts
from tui.dashboard.history_series import SERIES_DIVERSITY, thinned

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


class Repainting(DashboardParts):
    """Paints the views from :attr:`latest`, each only when it has something new."""

    def reset_painting(self) -> None:
        """A new run: every view repaints from scratch at the next frame."""
        self.rates.clear()
        self.rate = 0.0
        self.table_snapshot = None
        self.plotted = -1

    def _repaint(self, force: bool = False) -> None:
        """One frame: status and board always, table and sparklines at 5 Hz, chart at 2 Hz."""
        self.frame += 1
        self._measure_rate()
        snapshot = self.latest
        with self.batch_update():
            self._paint_status()
            if snapshot is None or not (self.dirty or force):
                return
            algorithm = self.runner.algorithm
            if algorithm is not None:
                self.series.update(algorithm.history, snapshot)
            self._paint_board()
            if force or self.frame % TABLE_EVERY == 0:
                self._paint_table(snapshot)
                self._paint_sparks()
            if force or self.frame % PLOT_EVERY == 0:
                self._paint_plot()
            self.dirty = self.table_snapshot is not snapshot or self.plotted != len(self.series)

    def _measure_rate(self) -> None:
        snapshot = self.latest
        if snapshot is None or self.run_state != "running":
            self.rate = 0.0
            return
        now = time.monotonic()
        self.rates.append((now, snapshot.generation))
        while len(self.rates) > 2 and now - self.rates[0][0] > RATE_WINDOW:
            self.rates.popleft()
        (start, first), (end, last) = self.rates[0], self.rates[-1]
        if end > start:
            self.rate = (last - first) / (end - start)

    def _paint_status(self) -> None:
        algorithm = self.runner.algorithm
        self.status.show(
            self.latest,
            rate=self.rate,
            speed=self.runner.speed_limit,
            state=self.run_state,
            seed=None if algorithm is None else algorithm.seed,
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
        self.charts.set_class(self.inspected is not None, "-inspecting")
        if self.inspected is not None and self.listed is not self.inspected:
            self.listed = self.inspected
            self.conflicts.show(position, title=label, conflicts=conflicts)

    def _paint_table(self, snapshot: Snapshot) -> None:
        if self.table_snapshot is snapshot:
            return
        self.table_snapshot = snapshot
        if self.run_state == "running":
            self.table.show_top(snapshot)
        else:
            self.table.show_all(snapshot)

    def _paint_sparks(self) -> None:
        columns = self.series.columns
        self.sparks.show(
            thinned(columns["best_fitness"], SPARK_POINTS),
            thinned(columns["mean_fitness"], SPARK_POINTS),
        )

    def _paint_plot(self) -> None:
        if self.plotted == len(self.series) or self.inspected is not None:
            return
        self.plotted = len(self.series)
        columns = self.series.columns
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
