"""A gallery of solutions that draws only the boards in view, in a picture that fits.

The boards come from a :class:`~tui.dashboard.pictures.solution_sets.GallerySource`, read a row of
boards at a time as lines come into view, so a gallery of 14 million solutions costs what a
gallery of four does. Each board is drawn whole in the largest picture that fits the gallery
(:mod:`tui.dashboard.pictures.gallery_layout`): squares, half blocks or Braille dots, as the main
board
draws them (:mod:`tui.dashboard.pictures.board_pictures`), or as genomes when no picture fits. Above
each board, its number, ``*`` when it represents its fundamental class (as ``queens solutions``
marks it) and ``✓`` with a generation when the GA experiment found it by then; found boards'
queens change colour too, so the mark is not colour alone.
"""

from __future__ import annotations

from collections import OrderedDict
from itertools import groupby
from typing import ClassVar, Final

import numpy as np
import numpy.typing as npt
from rich.color import Color
from rich.segment import Segment
from rich.style import Style
from textual.geometry import Size
from textual.scroll_view import ScrollView
from textual.strip import Strip

from tui.dashboard.pictures.board_pictures import (
    BRAILLE_BASE,
    Position,
    braille_codes,
    square_kinds,
)
from tui.dashboard.pictures.gallery_layout import (
    GAP,
    LABEL_LINES,
    GalleryLayout,
    gallery_layout,
    pictures_that_fit,
)
from tui.dashboard.pictures.solution_sets import NOT_FOUND, GallerySource

CACHED_ROWS: Final = 64
"""Rows of boards whose lines are kept drawn (a screenful is a handful)."""
PICTURE_NAMES: Final = {
    "squares": "squares",
    "halves": "half blocks: 1 char = 1x2 squares",
    "braille": "Braille: 1 dot = 1 square",
    "genomes": "genomes: the column of the queen in each row",
}
"""How the subtitle names each picture."""


def fitting_label(wordings: list[list[list[Segment]]], width: int) -> list[list[Segment]]:
    """One label per board, all in the longest wording in which every one fits ``width``
    (a row reads alike), the shortest cut to ``width`` if none does."""
    for tier in range(len(wordings[0])):
        chosen = [labels[tier] for labels in wordings]
        if all(Strip(label).cell_length <= width for label in chosen):
            return chosen
    return [list(Strip(labels[-1]).crop(0, max(0, width))) for labels in wordings]


class SolutionGallery(ScrollView, can_focus=True):
    """Boards of solutions in rows that fit the width, drawn as they come into view."""

    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "gallery--light",
        "gallery--dark",
        "gallery--field",
        "gallery--queen",
        "gallery--found",
        "gallery--label",
        "gallery--fundamental",
        "gallery--note",
    }

    DEFAULT_CSS = """
    SolutionGallery {
        height: 1fr;
        scrollbar-size: 1 1;
        scrollbar-gutter: stable;
        overflow-x: hidden;
    }
    SolutionGallery > .gallery--light { background: #6c6c6c; }
    SolutionGallery > .gallery--dark { background: #303030; }
    SolutionGallery > .gallery--field { background: #262626; }
    SolutionGallery > .gallery--queen { color: #ffd75f; text-style: bold; }
    SolutionGallery > .gallery--found { color: #87ff87; text-style: bold; }
    SolutionGallery > .gallery--label { color: $text-muted; }
    SolutionGallery > .gallery--fundamental { color: $accent; text-style: bold; }
    SolutionGallery > .gallery--note { color: $text-muted; text-style: italic; }
    """

    def __init__(self, *, ascii: bool = False, id: str | None = None) -> None:
        """Args:
        ascii: Draw queens as ``Q`` and marks in ASCII, and no block or Braille pictures.
        id: The widget's id.
        """
        super().__init__(id=id)
        self.ascii = ascii
        """Whether only ASCII is drawn."""
        self.source: GallerySource | None = None
        """The solutions shown (``None``: only :attr:`note`)."""
        self.note = ""
        """What the gallery says while it has no solutions."""
        self.choice: str | None = None
        """The picture asked for with :meth:`next_picture` (``None``: the largest that fits)."""
        self.board_layout: GalleryLayout | None = None
        """How the boards are laid out now."""
        self._count = 0
        self._rows: OrderedDict[int, list[Strip]] = OrderedDict()

    @property
    def drawn(self) -> int:
        """How many solutions the gallery holds (it draws only those in view)."""
        return self._count

    @property
    def glyph(self) -> str:
        """A queen at full size."""
        return "Q" if self.ascii else "♛"

    @property
    def tick(self) -> str:
        """The mark of a solution the GA found."""
        return "+" if self.ascii else "✓"

    # What is shown ------------------------------------------------------------------------

    def show(self, source: GallerySource | None, note: str = "") -> None:
        """Show other solutions (or none, with a note), from the top."""
        self.source = source
        self.note = note
        self._count = source.count if source is not None else 0
        self.scroll_to(0, 0, animate=False, immediate=True)
        self._layout_boards()

    def set_note(self, note: str) -> None:
        """Say something while there is nothing to draw."""
        if note != self.note:
            self.note = note
            self._forget_lines()

    def source_changed(self) -> None:
        """The source grew or its marks changed: draw the lines in view again."""
        count = self.source.count if self.source is not None else 0
        if count != self._count:
            self._count = count
            self._layout_boards()
        else:
            self._forget_lines()

    def pictures(self) -> list[str]:
        """The pictures that fit the gallery now, largest first, ``genomes`` last."""
        region = self.scrollable_content_region
        n = self.source.n if self.source is not None else 1
        return pictures_that_fit(n, region.width, region.height, unicode=not self.ascii)

    def next_picture(self) -> str:
        """Switch to the next smaller picture that fits (after genomes, the largest again).

        Returns:
            The picture now drawn.
        """
        pictures = self.pictures()
        current = self.board_layout.picture if self.board_layout is not None else pictures[0]
        at = pictures.index(current) if current in pictures else -1
        self.choice = pictures[(at + 1) % len(pictures)]
        self._layout_boards()
        return self.choice

    def visible_boards(self) -> tuple[int, int]:
        """The solutions ``(first, stop)`` drawn, even in part, in view."""
        if self.board_layout is None:
            return 0, 0
        top = round(self.scroll_offset.y)
        return self.board_layout.boards_between(
            top, top + self.scrollable_content_region.height, self._count
        )

    # Layout -------------------------------------------------------------------------------

    def on_resize(self) -> None:
        """Another size may fit another picture and another number of boards to a row."""
        self._layout_boards()

    def _layout_boards(self) -> None:
        """Choose the picture, the rows of boards and the virtual size, keeping the first
        board in view in view."""
        first = self.visible_boards()[0]
        region = self.scrollable_content_region
        if self.source is None or region.width < 1:
            self.board_layout = None
            self.virtual_size = Size(max(1, region.width), 1)
        else:
            pictures = self.pictures()
            picture = self.choice if self.choice in pictures else pictures[0]
            self.board_layout = gallery_layout(picture, self.source.n, region.width, self._count)
            self.virtual_size = Size(region.width, max(1, self.board_layout.height(self._count)))
            top = self.board_layout.row_of(first) * self.board_layout.row_height
            self.scroll_to(0, top, animate=False, immediate=True)
        self._forget_lines()

    def _forget_lines(self) -> None:
        self._rows.clear()
        self._update_subtitle()
        self.refresh()

    def _update_subtitle(self) -> None:
        if self.board_layout is None or self._count == 0:
            subtitle = ""
        else:
            first, stop = self.visible_boards()
            picture = PICTURE_NAMES[self.board_layout.picture]
            subtitle = f"{first + 1:,}-{stop:,} of {self._count:,} · {picture}"
        if self.border_subtitle != subtitle:
            self.border_subtitle = subtitle

    def watch_scroll_y(self, old_value: float, new_value: float) -> None:
        """Scrolled: repaint, and say which boards are in view."""
        super().watch_scroll_y(old_value, new_value)
        self._update_subtitle()

    # Scrolling a row of boards at a time --------------------------------------------------

    def _scroll_rows(self, rows: int) -> None:
        layout = self.board_layout
        if layout is None:
            return
        row = round(self.scroll_offset.y) // layout.row_height + rows
        self.scroll_to(y=max(0, row) * layout.row_height, animate=False)

    def _rows_in_view(self) -> int:
        height = self.scrollable_content_region.height
        return (
            max(1, height // self.board_layout.row_height) if self.board_layout is not None else 1
        )

    def action_scroll_down(self) -> None:
        """The next row of boards."""
        self._scroll_rows(1)

    def action_scroll_up(self) -> None:
        """The row of boards before."""
        self._scroll_rows(-1)

    def action_page_down(self) -> None:
        """The rows of boards after those in view."""
        self._scroll_rows(self._rows_in_view())

    def action_page_up(self) -> None:
        """The rows of boards before those in view."""
        self._scroll_rows(-self._rows_in_view())

    # Rendering ----------------------------------------------------------------------------

    def render_line(self, y: int) -> Strip:
        """One line of the gallery: of the row of boards it crosses, drawn once."""
        width = self.scrollable_content_region.width
        line = y + round(self.scroll_offset.y)
        layout = self.board_layout
        if layout is None or self._count == 0:
            if line == 0 and self.note:
                note = Segment(self.note, self.get_component_rich_style("gallery--note"))
                return Strip([note]).crop(0, width).extend_cell_length(width, self.rich_style)
            return Strip.blank(width, self.rich_style)
        row, within = divmod(line, layout.row_height)
        if row >= layout.rows(self._count):
            return Strip.blank(width, self.rich_style)
        strips = self._rows.get(row)
        if strips is None:
            strips = self._draw_row(row, layout)
            self._rows[row] = strips
            if len(self._rows) > CACHED_ROWS:
                self._rows.popitem(last=False)
        else:
            self._rows.move_to_end(row)
        return strips[within].crop(0, width).extend_cell_length(width, self.rich_style)

    def _draw_row(self, row: int, layout: GalleryLayout) -> list[Strip]:
        """Every line of one row of boards (or of one genome)."""
        source = self.source
        assert source is not None
        start = row * layout.per_row
        stop = min(self._count, start + layout.per_row)
        boards = source.boards(start, stop)
        fundamental = source.fundamental(start, stop).tolist()
        found = source.found_generations(start, stop).tolist()
        if layout.picture == "genomes":
            wordings = self._label_wordings(start, fundamental[0], found[0])
            label = fitting_label([wordings], layout.label_width - 1)[0]
            return self._genome_lines(boards[0].tolist(), label, found[0], layout)
        labels = fitting_label(
            [
                self._label_wordings(start + offset, fundamental[offset], found[offset])
                for offset in range(stop - start)
            ],
            layout.cell_width,
        )
        cells: list[list[list[Segment]]] = []
        for offset, label in enumerate(labels):
            picture = self._picture(boards[offset], found[offset] != NOT_FOUND, layout.picture)
            cells.append([label, *picture])
        lines = []
        gap = Segment(" " * GAP, self.rich_style)
        for line in range(LABEL_LINES + layout.picture_height):
            segments: list[Segment] = []
            for number, cell in enumerate(cells):
                if number:
                    segments.append(gap)
                strip = Strip(cell[line]).extend_cell_length(layout.cell_width, self.rich_style)
                segments.extend(strip)
            lines.append(Strip(segments))
        blank = Strip.blank(layout.width, self.rich_style)
        return lines + [blank] * (layout.row_height - len(lines))

    def _label_wordings(
        self, index: int, fundamental: bool, generation: int
    ) -> list[list[Segment]]:
        """``#57 * ✓ gen 140`` and shorter wordings of it (the same for a board not found)."""
        label_style = self.get_component_rich_style("gallery--label")
        found_style = label_style + self.get_component_rich_style("gallery--found", partial=True)
        number = Segment(f"#{index + 1:,}", label_style)
        mark = [Segment(" *", self.get_component_rich_style("gallery--fundamental"))]
        marks = mark if fundamental else []
        if generation == NOT_FOUND:
            return [[number, *marks]] * 3
        return [
            [number, *marks, Segment(f" {self.tick} gen {generation:,}", found_style)],
            [number, *marks, Segment(f" {self.tick}{generation:,}", found_style)],
            [number, *marks, Segment(f" {self.tick}", found_style)],
        ]

    def _queen_style(self, found: bool) -> Style:
        return self.get_component_rich_style(
            "gallery--found" if found else "gallery--queen", partial=True
        )

    def _picture(
        self, board: npt.NDArray[np.uint8], found: bool, picture: str
    ) -> list[list[Segment]]:
        """The lines of one board's picture."""
        n = board.shape[0]
        position = Position(
            n, np.arange(n, dtype=np.int64), board.astype(np.int64), np.zeros(n, dtype=bool)
        )
        if picture == "squares":
            return self._squares(board.tolist(), found)
        if picture == "halves":
            return self._halves(position, found)
        return self._braille(position, found)

    def _squares(self, board: list[int], found: bool) -> list[list[Segment]]:
        light = self.get_component_rich_style("gallery--light")
        dark = self.get_component_rich_style("gallery--dark")
        queen = self._queen_style(found)
        lines = []
        for row, queen_column in enumerate(board):
            segments = []
            for column in range(len(board)):
                square = light if (row + column) % 2 == 0 else dark
                if column == queen_column:
                    segments.append(Segment(self.glyph + " ", square + queen))
                else:
                    segments.append(Segment("  ", square))
            lines.append(segments)
        return lines

    def _halves(self, position: Position, found: bool) -> list[list[Segment]]:
        """Two board rows a line: the upper square is the foreground of ``▀``."""
        kinds = square_kinds(position)
        colours: dict[int, Color | None] = {
            -1: self.get_component_rich_style("gallery--field").bgcolor,
            0: self.get_component_rich_style("gallery--light").bgcolor,
            1: self.get_component_rich_style("gallery--dark").bgcolor,
            2: self._queen_style(found).color,
        }
        lines = []
        for upper, lower in zip(kinds[0::2].tolist(), kinds[1::2].tolist(), strict=True):
            segments = []
            for (top, bottom), run in groupby(zip(upper, lower, strict=True)):
                style = Style(color=colours[top], bgcolor=colours[bottom])
                segments.append(Segment("▀" * len(list(run)), style))
            lines.append(segments)
        return lines

    def _braille(self, position: Position, found: bool) -> list[list[Segment]]:
        """One dot a square, on the board's own background."""
        codes, _attacked = braille_codes(position)
        style = self.get_component_rich_style("gallery--field") + self._queen_style(found)
        return [
            [Segment("".join(map(chr, (line + BRAILLE_BASE).tolist())), style)] for line in codes
        ]

    def _genome_lines(
        self, board: list[int], label: list[Segment], generation: int, layout: GalleryLayout
    ) -> list[Strip]:
        """A genome: its label, then the column of the queen in each row, wrapped."""
        style = self._queen_style(True) if generation != NOT_FOUND else self.rich_style
        digits = len(str(max(0, layout.n - 1)))
        numbers = [f"{column:>{digits}}" for column in board]
        per_line = -(-len(numbers) // layout.picture_height)
        lines = []
        for line in range(layout.picture_height):
            lead = label if line == 0 else []
            text = " ".join(numbers[line * per_line : (line + 1) * per_line])
            head = Strip(lead).extend_cell_length(layout.label_width, self.rich_style)
            lines.append(Strip([*head, Segment(text, style)]))
        return lines
