"""Where the gallery of solutions puts each board: the picture that fits, and rows of boards.

A board is drawn in the largest picture of :mod:`tui.dashboard.pictures.board_pictures` that fits
the gallery whole, a label line above it: squares (two cells a square), half blocks (two rows a
line) or Braille dots (2 x 4 squares a character). When none fits, or on request, the
solutions are listed as genomes instead, the column of the queen in each row. The density
picture is never used: a solution's shades would say nothing.

Every row of boards has the same height, so the gallery finds the boards of any line by
division and draws only those in view, whether it holds 4 solutions or 14 million.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Final

PICTURES: Final = ("squares", "halves", "braille", "genomes")
"""From the largest picture to the plain list."""
UNICODE_PICTURES: Final = frozenset({"halves", "braille"})
"""Pictures drawn with block or Braille characters (not in ASCII mode)."""
GAP: Final = 2
"""Columns between two boards."""
ROW_GAP: Final = 1
"""Lines between two rows of boards."""
LABEL_LINES: Final = 1
"""Lines above each board: its number and marks."""
MIN_CELL_WIDTH: Final = 12
"""Columns a board takes at least, for its label (``#12 * ✓ gen 9``)."""


def picture_size(picture: str, n: int) -> tuple[int, int]:
    """Cells ``(width, height)`` a board of ``n`` takes in ``picture`` (not ``genomes``)."""
    if picture == "squares":
        return 2 * n, n
    if picture == "halves":
        return n, math.ceil(n / 2)
    if picture == "braille":
        return math.ceil(n / 2), math.ceil(n / 4)
    raise ValueError(f"{picture!r} is not a board picture")


def pictures_that_fit(n: int, width: int, height: int, *, unicode: bool = True) -> list[str]:
    """The pictures in which one whole board and its label fit ``width`` x ``height``, largest
    first, and ``genomes`` last, which always fits.

    Args:
        n: The board size.
        width: Columns of the gallery.
        height: Lines of the gallery.
        unicode: Whether block and Braille characters may be used.
    """
    fitting = []
    for picture in PICTURES[:-1]:
        if not unicode and picture in UNICODE_PICTURES:
            continue
        picture_width, picture_height = picture_size(picture, n)
        if picture_width <= width and LABEL_LINES + picture_height <= height:
            fitting.append(picture)
    return [*fitting, "genomes"]


def genome_width(n: int) -> int:
    """Columns one column number of an ``n`` board takes, its separating space included."""
    return len(str(max(0, n - 1))) + 1


@dataclass(frozen=True)
class GalleryLayout:
    """How boards of one size are laid out in one width.

    Attributes:
        picture: One of :data:`PICTURES`.
        n: The board size.
        width: Columns of the gallery.
        cell_width: Columns each board (or, for genomes, each entry) takes.
        picture_height: Lines of each board's picture (for genomes: of each entry's numbers).
        per_row: Boards side by side (1 for genomes).
        row_height: Lines from one row of boards to the next.
        label_width: For genomes, the columns before the numbers.
    """

    picture: str
    n: int
    width: int
    cell_width: int
    picture_height: int
    per_row: int
    row_height: int
    label_width: int = 0

    def rows(self, count: int) -> int:
        """Rows of boards that ``count`` solutions take."""
        return math.ceil(count / self.per_row)

    def height(self, count: int) -> int:
        """Lines that ``count`` solutions take."""
        return self.rows(count) * self.row_height

    def row_of(self, index: int) -> int:
        """The row of boards that holds solution ``index``."""
        return index // self.per_row

    def boards_between(self, top: int, bottom: int, count: int) -> tuple[int, int]:
        """The solutions ``(first, stop)`` drawn, even in part, between lines ``top`` and
        ``bottom`` (exclusive)."""
        if bottom <= top or count == 0:
            return 0, 0
        first_row = top // self.row_height
        last_row = (bottom - 1) // self.row_height
        return min(count, first_row * self.per_row), min(count, (last_row + 1) * self.per_row)


def gallery_layout(picture: str, n: int, width: int, count: int = 0) -> GalleryLayout:
    """Lay boards of ``n`` out in ``width`` columns.

    Args:
        picture: One of :data:`PICTURES`.
        n: The board size.
        width: Columns of the gallery.
        count: Solutions to show (sizes the label column of the genome list).
    """
    width = max(1, width)
    if picture == "genomes":
        label_width = len(f"#{max(1, count):,} * ✓ gen 999,999") + 1
        if label_width + genome_width(n) > width:
            label_width = max(0, width - genome_width(n))
        per_line = max(1, (width - label_width) // genome_width(n))
        lines = math.ceil(n / per_line)
        return GalleryLayout(picture, n, width, width, lines, 1, lines, label_width)
    picture_width, picture_height = picture_size(picture, n)
    cell_width = max(picture_width, MIN_CELL_WIDTH)
    per_row = max(1, (width + GAP) // (cell_width + GAP))
    row_height = LABEL_LINES + picture_height + ROW_GAP
    return GalleryLayout(picture, n, width, cell_width, picture_height, per_row, row_height)
