"""The ``w`` screen: an individual's line back to generation 0, walkable, the board following.

One row per ancestor (a stretch of generations in which the line stayed in one place, a
survivor of itself, is one row); up and down (or ``p`` toward the parents, ``d`` back toward the
child) walk the line and the board shows the ancestor of the row, its queens coloured as the
main screen colours an inspected individual's, as far as the line tells (:func:`line_origins`);
``enter`` inspects it on the main screen. Above it: the run's answer to
NetLogo's question, how often the best of generation X + 1 is the offspring of the best of
generation X.
"""

from __future__ import annotations

import dataclasses
from typing import ClassVar, Final

import numpy as np
import numpy.typing as npt
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Static

from tui.dashboard.pictures.board_pictures import Position
from tui.dashboard.pictures.column_fit import fitted_widths, longest_words, natural_widths, wrapped
from tui.dashboard.pictures.origin import (
    FROM_FIRST,
    FROM_NEITHER,
    FROM_SECOND,
    MOVED,
    ORIGIN_COLOURS,
)
from tui.dashboard.pictures.solution_texts import plural
from tui.dashboard.runs.ancestry import Line
from tui.dashboard.widgets import Board
from tui.lab.line_rows import generations_text, line_rows
from tui.lab.lineage import Ancestor, BestDescent

COLUMNS: Final = ("gen", "#", "fitness", "conf", "operator", "parent")
"""The line's table's columns."""
WRAPPING_COLUMNS: Final = frozenset({"operator", "parent"})
"""The columns of words, wrapped onto more lines where the table is too narrow for them (see
:mod:`~tui.dashboard.pictures.column_fit`); the numbers keep their width."""
CELL_PADDING: Final = 1
"""Cells on each side of each column (the table's own default)."""


def line_origins(child: Ancestor, parent: Ancestor | None) -> npt.NDArray[np.int8] | None:
    """Each of ``child``'s queens by origin, from the line alone: a queen at the position it
    has in ``parent`` (the parent the line follows) came from that parent (coloured as the
    first or the second parent); for a copy, any other queen was moved by the mutation; for a
    crossed child, any other came from the other parent or was moved: the line does not say
    which (the main screen's inspection does), and it is left plain. ``None`` where the line
    ends (a new individual)."""
    if parent is None or child.followed is None:
        return None
    genome, before = np.asarray(child.genome), np.asarray(parent.genome)
    if genome.shape != before.shape:
        return None
    first = not child.parents or child.parents[0] == child.followed
    same = genome == before
    queens = np.full(genome.shape[0], FROM_NEITHER, dtype=np.int8)
    queens[same] = FROM_FIRST if first else FROM_SECOND
    if len(child.parents) < 2:
        queens[~same] = MOVED
    return queens


def descent_text(descent: BestDescent, top: int) -> str:
    """NetLogo's question, answered for the generations read: ``top`` and those before it."""
    if descent.generations == 0:
        why = (
            "gen 0 has no generation before it"
            if top == 0
            else f"only gen {top:,} is read here, none before it"
        )
        return f"the best of gen X+1 has the best of gen X as a parent: not known ({why})"
    first = top - descent.generations + 1
    return (
        f"the best of gen X+1 has the best of gen X as a parent in {descent.from_best:,} of "
        f"{descent.generations:,} generations ({first:,}-{top:,}): {descent.share:.1%} "
        f"(bred, not carried over: {descent.bred_share:.1%})"
    )


def origins_key(made: Ancestor, origins: npt.NDArray[np.int8] | None) -> Text:
    """The board's colours, said in them: the queens from the parent the line follows, those
    the mutation moved, and those the line cannot tell apart."""
    key = Text()
    if origins is None or made.followed is None:
        return key
    counts = np.bincount(origins, minlength=MOVED + 1)
    code = FROM_FIRST if not made.parents or made.parents[0] == made.followed else FROM_SECOND
    key.append("board: ")
    key.append(f"{counts[code]} from #{made.followed}", style=f"bold {ORIGIN_COLOURS[code]}")
    if counts[MOVED]:
        key.append(", ")
        key.append(f"{counts[MOVED]} moved*", style=f"bold {ORIGIN_COLOURS[MOVED]}")
    if counts[FROM_NEITHER]:
        key.append(f", {counts[FROM_NEITHER]} from #{made.other} or moved")
    return key


def _gapped(column: int, cell: str) -> str:
    """A cell in a table without padding: a space after it, and before it in the first
    column (each line of a wrapped cell)."""
    lead = " " if column == 0 else ""
    return "\n".join(f"{lead}{line} " for line in cell.split("\n"))


def _parents_text(ancestor: Ancestor) -> str:
    if ancestor.followed is None:
        return "-"
    if ancestor.other is None:
        return f"#{ancestor.followed}"
    return f"#{ancestor.followed} (+#{ancestor.other})"


class AncestryScreen(Screen[tuple[int, int] | None]):
    """An individual's ancestry, one row per ancestor, the board showing the row's.

    Args:
        line: The line (the individual first).
        n: The board size.
        encoding: The genomes' encoding.
        note: Said under the title (where an incomplete line stops, and why).
        ascii: Draw the queens in ASCII.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("p", "walk(1)", "To parent", id="ancestry-parent"),
        Binding("d", "walk(-1)", "To child", id="ancestry-child"),
        Binding(
            "enter",
            "inspect",
            "Inspect",
            key_display="enter",  # not a symbol that a plain terminal shows as "?"
            id="ancestry-inspect",
            tooltip="the row's ancestor on the main screen's board",
            # Before the table's own enter (which the footer does not show), so that the
            # footer says what enter does.
            priority=True,
        ),
        Binding("escape,w,q", "dismiss", "Close", id="close-ancestry"),
    ]

    DEFAULT_CSS = """
    AncestryScreen #ancestry-head {
        height: auto;
        padding: 0 1;
        background: $panel;
    }
    AncestryScreen #ancestry-body {
        height: 1fr;
    }
    AncestryScreen #ancestry-table {
        width: 1fr;
        height: 100%;
        border: round $frame;
    }
    AncestryScreen #ancestry-board {
        max-width: 50%;
        height: 100%;
        border: round $frame;
        border-subtitle-color: $text-muted;
    }
    """

    def __init__(
        self, line: Line, n: int, encoding: str, *, note: str | None = None, ascii: bool = False
    ) -> None:
        super().__init__()
        self.line = line
        self.n = n
        self.encoding = encoding
        self.note = note
        self.ascii = ascii
        self.rows = line_rows(line.ancestors)
        self.cells = [self._row_cells(first, last) for first, last in self.rows]
        """The table's cells, one tuple a row, on one line each."""
        self._widths: list[int] | None = None  # the columns' widths; None: natural, one line
        self._head = Text()  # the title and the descent: the board's key is added per row

    def compose(self) -> ComposeResult:
        """The title and the bests' descent, the line beside the board, the footer."""
        line = self.line
        start = line.ancestors[0] if line.ancestors else None
        head = Text()
        if start is not None:
            head.append(
                f"Ancestry of #{start.individual} of gen {start.generation:,}", style="bold"
            )
            reach = "generation 0" if line.oldest == 0 else f"gen {line.oldest:,}"
            if line.complete and line.oldest > 0:
                reach += " (a newcomer of the harvest)"
            head.append(f" · back to {reach} · {line.source}\n")
        head.append(descent_text(line.descent, start.generation if start is not None else 0))
        if self.note:
            head.append(f"\n{self.note}", style="italic")
        self._head = head
        yield Static(head, id="ancestry-head")
        with Horizontal(id="ancestry-body"):
            with Vertical(id="ancestry-table"):
                yield DataTable(cursor_type="row", zebra_stripes=True, id="ancestry-rows")
            yield Board(ascii=self.ascii, id="ancestry-board")
        yield Footer(compact=True)

    def _row_cells(self, first: int, last: int) -> tuple[str, ...]:
        """One row's cells: a stretch of generations in one place is one row."""
        ancestors = self.line.ancestors
        ancestor = ancestors[first]
        return (
            generations_text(ancestors, first, last),
            str(ancestor.individual),
            f"{ancestor.fitness:.6g}",
            str(ancestor.conflicts),
            ancestor.operator,
            _parents_text(ancestors[last]),
        )

    def on_mount(self) -> None:
        """Fill the line and show its first ancestor; fit the columns once laid out."""
        self._fill(None)
        self.query_one(
            "#ancestry-table", Vertical
        ).border_title = f"Line: {plural(len(self.line.ancestors), 'generation')}"
        self.query_one(DataTable).focus()
        self._show_row(0)
        self.call_after_refresh(self._fit_columns)

    def on_resize(self, event: events.Resize) -> None:
        """Fit the columns to the new width, once laid out."""
        self.call_after_refresh(self._fit_columns)

    def _fill(self, widths: list[int] | None) -> None:
        """(Re)fill the table; the cursor stays on its row.

        ``widths`` ``None``: each column as wide as its cells, padded on both sides. Else each
        column that wide, its words wrapped to it, and one space between columns (and before
        the first) instead of the padding.
        """
        table = self.query_one(DataTable)
        row = table.cursor_row
        table.clear(columns=True)
        table.cell_padding = CELL_PADDING if widths is None else 0
        for index, label in enumerate(COLUMNS):
            if widths is None:
                table.add_column(label)
            else:
                table.add_column(_gapped(index, label), width=widths[index] + 1 + (index == 0))
        for cells in self.cells:
            if widths is None:
                table.add_row(*cells)
                continue
            lines = [wrapped(cell, width) for cell, width in zip(cells, widths, strict=True)]
            table.add_row(
                *(_gapped(index, "\n".join(cell)) for index, cell in enumerate(lines)),
                height=max(map(len, lines)),
            )
        self._widths = widths
        if self.cells:
            table.move_cursor(row=max(0, min(row, len(self.cells) - 1)))

    def _fit_columns(self) -> None:
        """Every column in the table's width: the words wrap where the numbers leave them too
        little room, rather than the last column going off the side."""
        table = self.query_one(DataTable)
        area = self.query_one("#ancestry-table", Vertical).content_size
        if area.width <= 0:
            return
        natural = natural_widths(COLUMNS, self.cells)
        shortest = [
            longest_words(index, COLUMNS, self.cells) if label in WRAPPING_COLUMNS else None
            for index, label in enumerate(COLUMNS)
        ]
        scrollbar = table.styles.scrollbar_size_vertical
        widths: list[int] | None = None
        room = area.width - (scrollbar if len(self.cells) + 1 > area.height else 0)
        if sum(natural) + 2 * CELL_PADDING * len(COLUMNS) > room:
            gaps = len(COLUMNS) + 1  # one space after each column, one before the first
            widths = fitted_widths(natural, shortest, area.width - gaps)
            if self._lines(widths) > area.height:  # the vertical scrollbar takes its columns
                widths = fitted_widths(natural, shortest, area.width - scrollbar - gaps)
        if widths != self._widths:
            self._fill(widths)

    def _lines(self, widths: list[int]) -> int:
        """The table's height in lines with these widths: the header and every row."""
        return 1 + sum(
            max(len(wrapped(cell, width)) for cell, width in zip(cells, widths, strict=True))
            for cells in self.cells
        )

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        """The board follows the row."""
        self._show_row(event.cursor_row)

    def _show_row(self, row: int) -> None:
        if not self.rows:
            return
        first, last = self.rows[max(0, min(row, len(self.rows) - 1))]
        ancestors = self.line.ancestors
        ancestor = ancestors[first]
        genome = np.asarray(ancestor.genome, dtype=np.int64)
        position = Position.of(genome, self.n, self.encoding)
        # The stretch's oldest generation is where its board was made (the rest kept it).
        made = ancestors[last]
        parent = ancestors[last + 1] if last + 1 < len(ancestors) else None
        origins = line_origins(made, parent)
        if origins is not None:
            position = dataclasses.replace(position, origins=origins)
        board = self.query_one(Board)
        attacked = board.glyphs[1]
        caption = (
            "solved"
            if ancestor.conflicts == 0
            else f"{attacked} {position.attacked_count} attacked"
        )
        board.show(position, caption=caption)
        board.set_class(ancestor.conflicts == 0, "-solved")
        generations = f"gen {ancestor.generation:,}"
        if last > first:
            generations = f"gens {ancestor.generation:,}-{self.line.ancestors[last].generation:,}"
        board.border_title = f"#{ancestor.individual} of {generations}"
        head = self._head.copy()
        key = origins_key(made, origins)
        if key:
            head.append("\n")
            head.append_text(key)
        self.query_one("#ancestry-head", Static).update(head)

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        """Enter on a row: inspect its ancestor on the main screen."""
        event.stop()
        self.action_inspect()

    def action_inspect(self) -> None:
        """Close, inspecting the ancestor of the row (its newest generation) on the main
        screen."""
        if not self.rows:
            self.dismiss(None)
            return
        row = self.query_one(DataTable).cursor_row
        ancestor = self.line.ancestors[self.rows[max(0, min(row, len(self.rows) - 1))][0]]
        self.dismiss((ancestor.generation, ancestor.individual))

    def action_walk(self, rows: int) -> None:
        """Move ``rows`` rows along the line (positive: toward generation 0)."""
        table = self.query_one(DataTable)
        target = max(0, min(table.cursor_row + rows, len(self.rows) - 1))
        table.move_cursor(row=target)
