"""The population, ranked: a virtual table that builds only the rows in view.

A population may hold a million individuals, so nothing is built per individual. The table is a
Line-API widget: each repaint asks numpy for the rows in view of the chosen order
(:mod:`tui.dashboard.pictures.population_order`: partitions instead of a full sort), and renders
those lines only. The same view serves a running and a paused run; the cursor keeps its row number,
so while the run goes on the rows in view are the top of the ranking (unless the user scrolled
away). The genome is a column of its own behind a rule (``│``, ``|`` in ASCII) and in a colour
of its own: a conflicts count of 9 followed by genes 12 23 would otherwise read as one row of
numbers, and the rule still tells them apart where the colours do not.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Final

import numpy as np
import numpy.typing as npt
from rich.segment import Segment
from rich.style import Style
from textual import events
from textual.binding import Binding, BindingType
from textual.geometry import Size
from textual.message import Message
from textual.reactive import reactive
from textual.scroll_view import ScrollView
from textual.strip import Strip

from engine import Snapshot
from tui.dashboard.pictures.population_order import SORTS, ordered_window, sort_keys

COLUMNS: Final = (("rank", "Rank"), ("index", "#"), ("fitness", "Fitness"), ("conflicts", "Conf"))
"""Key and label of each numeric column; the genome comes last and takes the rest."""

SORT_OF_COLUMN: Final = {"rank": "fitness", "fitness": "fitness", "conflicts": "conflicts"}
"""The order a click on a column's header picks (any other column: by index)."""

RULE: Final = "│"
"""Between the figures and the genome."""
ASCII_RULE: Final = "|"
"""The rule where only ASCII is drawn."""
ELLIPSIS: Final = "…"
"""Ends a genome cut at the table's edge."""
ASCII_ELLIPSIS: Final = "..."
"""The ellipsis where only ASCII is drawn."""

GENOME_HEAD: Final = 10
"""Genes shown before the ellipsis of a long genome (and as many after), in :func:`genome_text`."""


def genome_text(genome: npt.NDArray[np.int64], head: int = GENOME_HEAD) -> str:
    """A genome as space-separated genes, with the middle elided when it is long."""
    if genome.shape[0] <= 2 * head + 1:
        return " ".join(map(str, genome.tolist()))
    first = " ".join(map(str, genome[:head].tolist()))
    last = " ".join(map(str, genome[-head:].tolist()))
    return f"{first} … {last}"


def genome_start(genome: npt.NDArray[np.int64], width: int) -> str:
    """As many genes from the start as fit ``width`` cells (the table cuts the rest with …).

    Only a slice is converted, so a genome of a million genes costs what the width shows.
    """
    return " ".join(map(str, genome[: max(1, width // 2 + 1)].tolist()))


def value_text(value: float) -> str:
    """A fitness for a table cell: whole numbers whole, others to 4 decimals."""
    if float(value).is_integer():
        return f"{int(value):d}"
    return f"{value:.4f}".rstrip("0")


class PopulationTable(ScrollView, can_focus=True):
    """Rank, index, fitness, conflicts and genome of every individual, built only in view."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(
            "enter",
            "inspect",
            "Inspect",
            id="inspect",
            show=False,
            tooltip="show the individual on the board, with its conflicts",
        ),
        Binding("o", "cycle_sort", "Sort", id="sort", show=False, tooltip="by fitness/conflicts/#"),
        Binding("up", "cursor(-1)", "Up", show=False),
        Binding("down", "cursor(1)", "Down", show=False),
        Binding("pageup", "page(-1)", "Page up", show=False),
        Binding("pagedown", "page(1)", "Page down", show=False),
        Binding("home", "cursor_to(0)", "First", show=False),
        Binding("end", "cursor_to(-1)", "Last", show=False),
    ]

    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "population-table--header",
        "population-table--odd-row",
        "population-table--cursor",
        "population-table--rule",
        "population-table--genome",
    }

    DEFAULT_CSS = """
    PopulationTable {
        overflow-x: hidden;
        overflow-y: auto;
        scrollbar-size-vertical: 1;
    }
    PopulationTable > .population-table--header {
        text-style: bold;
        color: $text-accent;
        background: $panel;
    }
    PopulationTable > .population-table--odd-row {
        background: $surface-lighten-1;
    }
    PopulationTable > .population-table--rule {
        color: $text-muted;
    }
    PopulationTable > .population-table--genome {
        color: $text-secondary;
    }
    PopulationTable > .population-table--cursor {
        background: $block-cursor-blurred-background;
    }
    PopulationTable:focus > .population-table--cursor {
        background: $block-cursor-background;
        color: $block-cursor-foreground;
        text-style: bold;
    }
    """

    cursor_row: reactive[int] = reactive(0)
    """The highlighted row (a position in the current order), kept when the snapshot changes."""

    @dataclass
    class Inspect(Message):
        """The user asked to look at one individual of one snapshot."""

        snapshot: Snapshot
        index: int

    def __init__(self, *, ascii: bool = False, id: str | None = None) -> None:
        """A table with no rows until the first snapshot.

        Args:
            ascii: Draw the rule before the genome as ``|`` instead of ``│``, and a cut genome
                ends in ``...``, not ``…``.
            id: The widget's id.
        """
        super().__init__(id=id)
        self.rule = ASCII_RULE if ascii else RULE
        """The character between the figures and the genome."""
        self.ellipsis = ASCII_ELLIPSIS if ascii else ELLIPSIS
        """What ends a genome cut at the edge."""
        self.snapshot: Snapshot | None = None
        """The snapshot the rows come from."""
        self.sort_by = "fitness"
        """The order of the rows: one of :data:`SORTS`."""
        self._window_key: tuple[int, str, int, int] | None = None
        self._window: npt.NDArray[np.intp] = np.empty(0, dtype=np.intp)

    # Data ---------------------------------------------------------------------------------

    @property
    def row_count(self) -> int:
        """How many rows the table has: the whole population (0 before the first snapshot)."""
        return 0 if self.snapshot is None else int(self.snapshot.fitness.shape[0])

    @property
    def whole(self) -> bool:
        """Every individual can be scrolled to (always, now that rows are virtual)."""
        return self.snapshot is not None

    def show(self, snapshot: Snapshot) -> None:
        """Show another snapshot; the cursor keeps its row number, clipped to the population."""
        resized = self.row_count != int(snapshot.fitness.shape[0])
        self.snapshot = snapshot
        self._window_key = None
        if resized:
            self.virtual_size = Size(self.size.width, self.row_count + 1)
            self.cursor_row = min(self.cursor_row, max(0, self.row_count - 1))
        self.refresh()

    def show_top(self, snapshot: Snapshot, count: int | None = None) -> None:
        """While running: the same view as :meth:`show` (the top is in view unless scrolled)."""
        self.show(snapshot)

    def show_all(self, snapshot: Snapshot) -> None:
        """When paused: the same view as :meth:`show`."""
        self.show(snapshot)

    def rows(self, start: int, stop: int) -> npt.NDArray[np.intp]:
        """Population indexes of the rows ``start`` to ``stop`` in the current order."""
        snapshot = self.snapshot
        if snapshot is None:
            return np.empty(0, dtype=np.intp)
        key = (id(snapshot), self.sort_by, start, stop)
        if key != self._window_key:
            self._window = ordered_window(
                sort_keys(snapshot, self.sort_by), self.row_count, start, stop
            )
            self._window_key = key
        return self._window

    def index_at(self, row: int) -> int:
        """The population index of one row of the current order."""
        top = self._top_row()
        height = self._body_height()
        if top <= row < top + height:
            window = self.rows(top, top + height)
        else:
            window = ordered_window(
                sort_keys(self._snapshot(), self.sort_by), self.row_count, row, row + 1
            )
            top = row
        return int(window[row - top])

    def get_row_at(self, row: int) -> tuple[int, int, float, int, str]:
        """The cells of one row: rank, index, fitness, conflicts, genome text."""
        snapshot = self._snapshot()
        index = self.index_at(row)
        return (
            row + 1,
            index,
            float(snapshot.fitness[index]),
            int(snapshot.conflicts[index]),
            genome_text(snapshot.population[index]),
        )

    def _snapshot(self) -> Snapshot:
        if self.snapshot is None:
            raise IndexError("the table has no rows yet")
        return self.snapshot

    # Geometry -----------------------------------------------------------------------------

    def _body_height(self) -> int:
        """Rows in view below the header."""
        return max(1, self.scrollable_content_region.height - 1)

    def _top_row(self) -> int:
        return round(self.scroll_offset.y)

    def on_resize(self) -> None:
        """The genome column takes the new width; the cursor stays in view."""
        self.virtual_size = Size(self.scrollable_content_region.width, self.row_count + 1)
        self._scroll_to_cursor()

    def watch_cursor_row(self) -> None:
        """Keep the cursor in view and repaint."""
        self._scroll_to_cursor()
        self.refresh()

    def _scroll_to_cursor(self) -> None:
        top, height, row = self._top_row(), self._body_height(), self.cursor_row
        if row < top:
            self.scroll_to(y=row, animate=False, immediate=True)
        elif row >= top + height:
            self.scroll_to(y=row - height + 1, animate=False, immediate=True)

    # Actions ------------------------------------------------------------------------------

    def action_cursor(self, delta: int) -> None:
        """Move the cursor by ``delta`` rows."""
        self.action_cursor_to(max(0, self.cursor_row + delta))

    def action_page(self, pages: int) -> None:
        """Move the cursor by whole pages."""
        self.action_cursor_to(max(0, self.cursor_row + pages * self._body_height()))

    def action_cursor_to(self, row: int) -> None:
        """Put the cursor on a row (``-1``: the last)."""
        last = max(0, self.row_count - 1)
        self.cursor_row = last if row < 0 else min(row, last)

    def action_inspect(self) -> None:
        """Inspect the individual under the cursor."""
        if self.snapshot is not None and self.row_count:
            self.post_message(self.Inspect(self.snapshot, self.index_at(self.cursor_row)))

    def action_cycle_sort(self) -> None:
        """Sort by the next key of :data:`SORTS`."""
        self.sort_by = SORTS[(SORTS.index(self.sort_by) + 1) % len(SORTS)]
        self._window_key = None
        self.refresh()
        self.notify(f"Sorted by {self.sort_by}", timeout=1.5)

    def on_click(self, event: events.Click) -> None:
        """A click on a header sorts by that column; on a row, inspects that individual."""
        offset = event.get_content_offset(self)
        if offset is None:
            return
        if offset.y == 0:
            column = self._column_at(offset.x)
            self.sort_by = SORT_OF_COLUMN.get(column, "index")
            self._window_key = None
            self.refresh()
            return
        row = self._top_row() + offset.y - 1
        if row < self.row_count:
            self.cursor_row = row
            self.action_inspect()

    # Rendering ----------------------------------------------------------------------------

    def _widths(self) -> tuple[int, int, int, int]:
        """Widths of the rank, index, fitness and conflicts columns."""
        digits = len(str(max(1, self.row_count)))
        snapshot = self.snapshot
        fitness = 8
        if snapshot is not None:
            fitness = max(fitness, len(value_text(float(snapshot.max_fitness))) + 2)
        return max(4, digits), max(2, digits), fitness, 5

    def _column_at(self, x: int) -> str:
        edge = 0
        for (key, _), width in zip(COLUMNS, self._widths(), strict=True):
            edge += width + 1
            if x < edge:
                return key
        return "genome"

    def render_line(self, y: int) -> Strip:
        """The header (line 0) or one row of the current order."""
        width = self.scrollable_content_region.width
        if y == 0:
            style = self.rich_style + self.get_component_rich_style("population-table--header")
            return self._line(self._header(), width, style, style, style)
        top, height = self._top_row(), self._body_height()
        row = top + y - 1
        if self.snapshot is None or row >= self.row_count:
            return Strip.blank(width, self.rich_style)
        window = self.rows(top, top + height)
        if y - 1 >= window.size:
            return Strip.blank(width, self.rich_style)
        style = self.rich_style
        if row % 2:
            style += self.get_component_rich_style("population-table--odd-row")
        rule = style + self._colour_of("population-table--rule")
        genome = style + self._colour_of("population-table--genome")
        if row == self.cursor_row:
            cursor = self.get_component_rich_style("population-table--cursor")
            style, rule, genome = style + cursor, rule + cursor, genome + cursor
        return self._line(self._row_cells(row, int(window[y - 1])), width, style, rule, genome)

    def _colour_of(self, component: str) -> Style:
        """A component's colour alone, to draw over the row's own background (the odd rows'
        stripe); blended as the component would be, since muted colours are translucent."""
        return Style(color=self.get_component_rich_style(component).color)

    def _header(self) -> list[str]:
        marked = {"fitness": "fitness", "conflicts": "conflicts", "index": "index"}[self.sort_by]
        cells = [
            (label + ("▾" if key == marked else "")).rjust(width)
            for (key, label), width in zip(COLUMNS, self._widths(), strict=True)
        ]
        return [*cells, "Genome"]

    def _row_cells(self, row: int, index: int) -> list[str]:
        snapshot = self._snapshot()
        rank_w, index_w, fitness_w, conflicts_w = self._widths()
        return [
            str(row + 1).rjust(rank_w),
            str(index).rjust(index_w),
            value_text(float(snapshot.fitness[index])).rjust(fitness_w),
            str(int(snapshot.conflicts[index])).rjust(conflicts_w),
            genome_start(snapshot.population[index], self.size.width),
        ]

    def _line(
        self, cells: list[str], width: int, style: Style, rule: Style, genome: Style
    ) -> Strip:
        """The figures, the rule, the genome: one segment per cell (so exported screenshots
        keep the columns aligned)."""
        figures = cells[:-1]
        fixed = sum(len(cell) + 1 for cell in figures) + len(self.rule) + 1
        last = cells[-1]
        if fixed + len(last) > width:
            last = last[: max(0, width - fixed - len(self.ellipsis))] + self.ellipsis
        segments = []
        for cell in figures:
            segments.append(Segment(cell, style))
            segments.append(Segment(" ", style))
        segments.append(Segment(self.rule, rule))
        segments.append(Segment(" ", style))
        segments.append(Segment(last, genome))
        return Strip(segments).crop(0, width).extend_cell_length(width, style)
