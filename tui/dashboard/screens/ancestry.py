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
from typing import ClassVar

import numpy as np
import numpy.typing as npt
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Static

from tui.dashboard.ancestry import Line
from tui.dashboard.board_pictures import Position
from tui.dashboard.origin import FROM_FIRST, FROM_NEITHER, FROM_SECOND, MOVED, ORIGIN_COLOURS
from tui.dashboard.widgets import Board
from tui.lab.lineage import Ancestor, BestDescent


def line_rows(ancestors: list[Ancestor]) -> list[tuple[int, int]]:
    """The rows of a line: ``(first, last)`` positions in ``ancestors``, a stretch of survivors
    of themselves in one place (same index, same operator) making one row."""
    rows: list[tuple[int, int]] = []
    for position, ancestor in enumerate(ancestors):
        if rows:
            first, last = rows[-1]
            previous = ancestors[last]
            if (
                ancestor.operator == "survivor"
                and previous.operator == "survivor"
                and ancestor.individual == previous.individual
                and previous.followed == ancestor.individual
            ):
                rows[-1] = (first, position)
                continue
        rows.append((position, position))
    return rows


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
        return "best from best: no generation with a generation before it read yet"
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
            id="ancestry-inspect",
            tooltip="the row's ancestor on the main screen's board",
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
        border: round $panel-lighten-2;
    }
    AncestryScreen #ancestry-board {
        max-width: 50%;
        height: 100%;
        border: round $panel-lighten-2;
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

    def on_mount(self) -> None:
        """Fill the line and show its first ancestor."""
        table = self.query_one(DataTable)
        table.add_columns("gen", "#", "fitness", "conf", "operator", "parent")
        ancestors = self.line.ancestors
        for first, last in self.rows:
            ancestor = ancestors[first]
            generation = f"{ancestor.generation:,}"
            if last > first:
                generation = f"{ancestor.generation:,}-{ancestors[last].generation:,}"
            table.add_row(
                generation,
                str(ancestor.individual),
                f"{ancestor.fitness:.6g}",
                str(ancestor.conflicts),
                ancestor.operator,
                _parents_text(ancestors[last]),
            )
        self.query_one(
            "#ancestry-table", Vertical
        ).border_title = f"Line: {len(ancestors):,} generations"
        table.focus()
        self._show_row(0)

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
