"""The population, ranked: a DataTable with keyed rows, updated in place.

While the run goes on, the table shows the top of the population and rewrites only the cells
that changed. Paused, it holds the whole population, which can be scrolled and sorted.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Final

import numpy as np
import numpy.typing as npt
from textual import on
from textual.binding import Binding, BindingType
from textual.message import Message
from textual.widgets import DataTable

from engine import Snapshot

COLUMNS: Final = (("rank", "Rank"), ("index", "#"), ("fitness", "Fitness"), ("conflicts", "Conf"))
"""Key and label of each numeric column; the genome comes last."""

SORTS: Final = ("fitness", "conflicts", "index")
"""What the whole-population view can be sorted by, in the order `s` cycles through."""

GENOME_HEAD: Final = 10
"""Genes shown before the ellipsis of a long genome (and as many after)."""


def genome_text(genome: npt.NDArray[np.int64], head: int = GENOME_HEAD) -> str:
    """A genome as space-separated genes, with the middle elided when it is long."""
    if genome.shape[0] <= 2 * head + 1:
        return " ".join(map(str, genome.tolist()))
    first = " ".join(map(str, genome[:head].tolist()))
    last = " ".join(map(str, genome[-head:].tolist()))
    return f"{first} … {last}"


def ranking(snapshot: Snapshot) -> npt.NDArray[np.intp]:
    """Population indexes from best to worst: highest fitness, then fewest conflicts."""
    return np.lexsort((snapshot.conflicts, -snapshot.fitness))


class PopulationTable(DataTable[object]):
    """Rank, index, fitness, conflicts and genome of the individuals."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(
            "enter",
            "select_cursor",
            "Inspect",
            id="inspect",
            show=False,
            tooltip="show the individual on the board, with its conflicts",
        ),
        Binding("o", "cycle_sort", "Sort", id="sort", show=False, tooltip="by fitness/conflicts/#"),
    ]

    @dataclass
    class Inspect(Message):
        """The user asked to look at one individual of one snapshot."""

        snapshot: Snapshot
        index: int

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id, cursor_type="row", zebra_stripes=True)
        self.snapshot: Snapshot | None = None
        """The snapshot the rows come from."""
        self.whole = False
        """Whether every individual is listed (paused), or only the top (running)."""
        self.sort_by = "fitness"
        """Order of the whole-population view."""
        self._cells: dict[str, tuple[object, ...]] = {}
        self._index_of_row: dict[str, int] = {}

    def on_mount(self) -> None:
        """Columns are fixed; the genome gets the rest of the width."""
        for key, label in COLUMNS:
            self.add_column(label, key=key)
        self.add_column("Genome", key="genome")

    def _row_cells(self, snapshot: Snapshot, rank: int, index: int) -> tuple[object, ...]:
        fitness = float(snapshot.fitness[index])
        shown = int(fitness) if fitness.is_integer() else round(fitness, 4)
        return (
            rank + 1,
            index,
            shown,
            int(snapshot.conflicts[index]),
            genome_text(snapshot.population[index]),
        )

    def show_top(self, snapshot: Snapshot, count: int | None = None) -> None:
        """List the best ``count`` individuals (the visible rows), rewriting changed cells only."""
        if count is None:
            count = max(5, self.size.height - 1)
        order = ranking(snapshot)[:count].tolist()
        self.snapshot = snapshot
        if self.whole or len(order) != self.row_count:
            self.whole = False
            self._reset()
        with self.app.batch_update():
            for rank, index in enumerate(order):
                key = f"rank-{rank}"
                cells = self._row_cells(snapshot, rank, index)
                self._index_of_row[key] = index
                old = self._cells.get(key)
                if old is None:
                    self.add_row(*cells, key=key)
                else:
                    for (column, _), value, before in zip(
                        [*COLUMNS, ("genome", "")], cells, old, strict=True
                    ):
                        if value != before:
                            self.update_cell(key, column, value)
                self._cells[key] = cells

    def show_all(self, snapshot: Snapshot) -> None:
        """List every individual, in the chosen order, keeping the cursor on its row number."""
        self.snapshot = snapshot
        self.whole = True
        ranks = ranking(snapshot)
        rank_of = np.empty_like(ranks)
        rank_of[ranks] = np.arange(ranks.size)
        if self.sort_by == "conflicts":
            order = np.lexsort((-snapshot.fitness, snapshot.conflicts))
        elif self.sort_by == "index":
            order = np.arange(ranks.size)
        else:
            order = ranks
        cursor = self.cursor_row
        with self.app.batch_update():
            self._reset()
            rows = []
            for index in order.tolist():
                key = f"ind-{index}"
                cells = self._row_cells(snapshot, int(rank_of[index]), index)
                self._cells[key] = cells
                self._index_of_row[key] = index
                rows.append((key, cells))
            for key, cells in rows:
                self.add_row(*cells, key=key)
            self.move_cursor(row=min(cursor, max(0, self.row_count - 1)), animate=False)

    def _reset(self) -> None:
        self.clear()
        self._cells.clear()
        self._index_of_row.clear()

    def action_cycle_sort(self) -> None:
        """Sort the whole population by the next key (while paused)."""
        self.sort_by = SORTS[(SORTS.index(self.sort_by) + 1) % len(SORTS)]
        if self.whole and self.snapshot is not None:
            self.show_all(self.snapshot)
        self.notify(f"Sorted by {self.sort_by}", timeout=1.5)

    @on(DataTable.HeaderSelected)
    def _sort_by_header(self, event: DataTable.HeaderSelected) -> None:
        """A click on a header sorts by that column."""
        event.stop()
        column = str(event.column_key.value)
        self.sort_by = {"rank": "fitness", "fitness": "fitness", "conflicts": "conflicts"}.get(
            column, "index"
        )
        if self.whole and self.snapshot is not None:
            self.show_all(self.snapshot)

    @on(DataTable.RowSelected)
    def _inspect_row(self, event: DataTable.RowSelected) -> None:
        """Enter (or a click) on a row: inspect that individual of the shown snapshot."""
        event.stop()
        index = self._index_of_row.get(str(event.row_key.value))
        if index is not None and self.snapshot is not None:
            self.post_message(self.Inspect(self.snapshot, index))
