"""The chess board of one individual, drawn with the Line API.

Squares are two cells wide so the board looks square. A board that does not fit its area is
drawn as a scaled overview: each two-cell block stands for ``scale x scale`` squares and shows
whether it holds queens and whether any of them is attacked. ``z`` zooms to full size, where
the arrows (or the mouse) scroll over the board.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import ClassVar, Final

import numpy as np
import numpy.typing as npt
from rich.segment import Segment
from rich.style import Style
from textual.geometry import Size
from textual.reactive import reactive
from textual.scroll_view import ScrollView
from textual.strip import Strip

from engine import ENCODINGS
from engine.conflicts import board_lines

UNICODE_GLYPHS: Final = ("♛", "♕")
"""Safe and attacked queen: a filled and a hollow queen, so colour is never the only cue."""
ASCII_GLYPHS: Final = ("Q", "X")
"""The same in plain ASCII, for terminals without the chess symbols."""


@dataclass(frozen=True)
class Position:
    """Where one individual's queens are, and which are attacked.

    Attributes:
        n: The board size.
        rows: Board row of every queen.
        columns: Board column of every queen.
        attacked: Whether each queen shares a line with another.
    """

    n: int
    rows: npt.NDArray[np.int64]
    columns: npt.NDArray[np.int64]
    attacked: npt.NDArray[np.bool_]

    @classmethod
    def of(cls, genome: npt.NDArray[np.int64], n: int, encoding: str) -> Position:
        """Decode one genome and find its attacked queens."""
        kind = ENCODINGS[encoding]
        batch = np.asarray(genome)[None, :]
        rows, columns = kind.decode(batch, n)
        attacked = board_lines(batch, n, kind).attacked()[0]
        return cls(n, np.asarray(rows[0]), np.asarray(columns[0]), attacked)

    @property
    def attacked_count(self) -> int:
        """How many queens are under attack."""
        return int(self.attacked.sum())


class Board(ScrollView, can_focus=True):
    """A Line-API chess board showing one individual's queens."""

    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "board--light",
        "board--dark",
        "board--queen",
        "board--attacked",
    }

    DEFAULT_CSS = """
    Board {
        width: auto;
        height: auto;
        scrollbar-size: 1 1;
    }
    Board > .board--light { background: #6c6c6c; }
    Board > .board--dark { background: #303030; }
    Board > .board--queen { color: #ffd75f; text-style: bold; }
    Board > .board--attacked { color: #ff5f5f; text-style: bold; }
    Board.-solved > .board--queen { color: #87ff87; }
    """

    zoomed: reactive[bool] = reactive(False)
    """Show the board at full size (scrollable) even when it does not fit."""

    def __init__(self, *, ascii: bool = False, id: str | None = None) -> None:
        super().__init__(id=id)
        self.glyphs = ASCII_GLYPHS if ascii else UNICODE_GLYPHS
        """Safe and attacked queen glyphs."""
        self.position: Position | None = None
        """What is drawn (``None``: an empty board)."""
        self.scale = 1
        """Squares per block side in the overview (1: full size)."""
        self._queens_by_row: dict[int, dict[int, bool]] = {}
        self._blocks: tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]] | None = None
        self._line_cache: dict[tuple[int, int, int, int], Strip] = {}

    @property
    def n(self) -> int:
        """The board size (0 when nothing is shown)."""
        return self.position.n if self.position is not None else 0

    @property
    def overview(self) -> bool:
        """Whether the board is drawn scaled down."""
        return self.scale > 1

    def show(self, position: Position) -> None:
        """Draw another position (or the same one again, which is free)."""
        old = self.position
        if (
            old is not None
            and old.n == position.n
            and np.array_equal(old.rows, position.rows)
            and np.array_equal(old.columns, position.columns)
        ):
            return
        resized = old is None or old.n != position.n
        self.position = position
        by_row: dict[int, dict[int, bool]] = {}
        for row, column, attacked in zip(
            position.rows.tolist(),
            position.columns.tolist(),
            position.attacked.tolist(),
            strict=True,
        ):
            squares = by_row.setdefault(row, {})
            squares[column] = squares.get(column, False) or attacked or column in squares
        self._queens_by_row = by_row
        self._blocks = None
        self._line_cache.clear()
        if resized:
            self.zoomed = False
            self._layout_board()
            self.refresh(layout=True)
        self.refresh()

    def get_content_width(self, container: Size, viewport: Size) -> int:
        """Two cells per square: the full board is what the board would like."""
        return max(2 * self.n, 16)

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        """One line per row."""
        return max(self.n, 8)

    def on_resize(self) -> None:
        """A new area may need another scale."""
        self._layout_board()

    def watch_zoomed(self) -> None:
        """Switch between overview and full size."""
        self._layout_board()
        if self.zoomed:
            self._scroll_to_conflict()

    def _fits(self) -> bool:
        return 2 * self.n <= self.size.width and self.n <= self.size.height

    def _layout_board(self) -> None:
        """Choose the scale and the virtual size for the current area."""
        n, width, height = self.n, self.size.width, self.size.height
        if n == 0 or width < 2 or height < 1 or self._fits() or self.zoomed:
            self.scale = 1
            self.virtual_size = Size(2 * n, n)
        else:
            self.scale = math.ceil(n / max(1, min(width // 2, height)))
            blocks = math.ceil(n / self.scale)
            self.virtual_size = Size(2 * blocks, blocks)
            self.scroll_to(0, 0, animate=False)
        self._blocks = None
        self._line_cache.clear()
        self.refresh()

    def _scroll_to_conflict(self) -> None:
        """Centre the full-size view on the first attacked queen (or the top left)."""
        position = self.position
        if position is None:
            return
        hits = np.flatnonzero(position.attacked)
        if hits.size:
            row, column = int(position.rows[hits[0]]), int(position.columns[hits[0]])
            x = max(0, 2 * column - self.size.width // 2)
            y = max(0, row - self.size.height // 2)
            self.scroll_to(x, y, animate=False)

    def visible_region(self) -> tuple[int, int, int, int]:
        """Board rows and columns in view at full size: ``(row0, row1, col0, col1)``."""
        x, y = self.scroll_offset
        return (
            y,
            min(self.n, y + self.size.height),
            x // 2,
            min(self.n, (x + self.size.width + 1) // 2),
        )

    def render_line(self, y: int) -> Strip:
        """One line of the board, from cache when nothing changed."""
        scroll_x, scroll_y = self.scroll_offset
        key = (y + scroll_y, scroll_x, self.size.width, self.scale)
        strip = self._line_cache.get(key)
        if strip is None:
            strip = self._render_board_line(y + scroll_y, scroll_x, self.size.width)
            if len(self._line_cache) > 4096:
                self._line_cache.clear()
            self._line_cache[key] = strip
        return strip

    def _styles(self) -> tuple[Style, Style, Style, Style]:
        light = self.get_component_rich_style("board--light")
        dark = self.get_component_rich_style("board--dark")
        queen = self.get_component_rich_style("board--queen", partial=True)
        attacked = self.get_component_rich_style("board--attacked", partial=True)
        return light, dark, queen, attacked

    def _render_board_line(self, line: int, scroll_x: int, width: int) -> Strip:
        if self.position is None or line >= self.virtual_size.height:
            return Strip.blank(width, self.rich_style)
        light, dark, queen_style, attacked_style = self._styles()
        safe_glyph, attacked_glyph = self.glyphs
        if self.overview:
            cells = self._overview_cells(line)
        else:
            queens = self._queens_by_row.get(line, {})
            first = scroll_x // 2
            last = min(self.n, (scroll_x + width) // 2 + 1)
            cells = [(column, queens.get(column)) for column in range(first, last)]
        segments: list[Segment] = []
        for column, attacked in cells:
            square = light if (line + column) % 2 == 0 else dark
            if attacked is None:
                segments.append(Segment("  ", square))
            elif attacked:
                segments.append(Segment(attacked_glyph + " ", square + attacked_style))
            else:
                segments.append(Segment(safe_glyph + " ", square + queen_style))
        offset = 0 if self.overview else 2 * (scroll_x // 2)
        strip = Strip(segments, 2 * len(cells))
        strip = strip.crop(scroll_x - offset, scroll_x - offset + width)
        return strip.extend_cell_length(width, self.rich_style)

    def _overview_cells(self, block_row: int) -> list[tuple[int, bool | None]]:
        """Per block of this block row: ``None`` (empty), ``True`` (an attacked queen) or
        ``False`` (queens, none attacked)."""
        position = self.position
        assert position is not None
        blocks = math.ceil(position.n / self.scale)
        if self._blocks is None:
            ids = (position.rows // self.scale) * blocks + position.columns // self.scale
            self._blocks = (
                np.bincount(ids, minlength=blocks * blocks),
                np.bincount(ids, weights=position.attacked, minlength=blocks * blocks).astype(
                    np.int64
                ),
            )
        queens, attacked = self._blocks
        start = block_row * blocks
        row_queens = queens[start : start + blocks].tolist()
        row_attacked = attacked[start : start + blocks].tolist()
        return [
            (column, None if count == 0 else hits > 0)
            for column, (count, hits) in enumerate(zip(row_queens, row_attacked, strict=True))
        ]
