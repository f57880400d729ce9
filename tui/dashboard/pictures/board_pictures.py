"""Pictures of a board of queens, computed with numpy: no Textual, no Rich.

Five pictures, chosen by what fits (:func:`choose_mode`):

- ``squares``: two cells per square, a queen glyph per queen (small boards, and ``z`` zoom).
- ``cells``: in ASCII only, one cell per square, a bold ``Q`` or ``X`` per queen: where the
  board fits one square a cell, a queen is a letter rather than a ``'`` or ``.`` speck.
- ``halves``: exact, one cell per two squares stacked (``▀`` in two colours), so a board of
  N = 30 takes 30 columns x 15 lines; queens are coloured squares, attacked ones red.
- ``braille``: exact, one Braille dot per square, 2 columns x 4 rows of squares per
  character (N = 160 in 80 columns x 40 lines); a character holding an attacked queen is red.
- ``density``: beyond that, each character stands for ``s`` columns x ``2s`` rows of squares
  (square on screen); its shade is how many queens it holds and its colour how many of those are
  attacked.

In ASCII (``ascii=True``) there is no Braille: where one square a cell does not fit, the
half-block picture keeps its layout with the ASCII marks of :data:`ASCII_HALVES` (``'`` a queen
on the upper square, ``.`` on the lower, ``:`` on both), and beyond it comes the density picture
in :data:`ASCII_SHADES`.

While an individual is inspected its queens carry their origins
(:mod:`tui.dashboard.pictures.origin`);
the pictures keep which queens are attacked apart from where they came from
(:func:`square_origins`, :func:`braille_origins`), so that an attacked queen stays marked at
every scale.

Every picture has row numbers in a gutter on its left (:func:`gutter_width`) and column ticks
in a header line above it (:func:`column_ticks`), numbered from 0 as the conflict list numbers
them.

Every picture is computed from the queens' rows and columns (``bincount``), never by a Python
loop over queens, so a board of a million queens draws as fast as the lines in view.
:class:`~tui.dashboard.widgets.Board` turns them into lines of the screen.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Final

import numpy as np
import numpy.typing as npt

from engine import ENCODINGS
from engine.genomes.conflicts import board_lines

BRAILLE_BASE: Final = 0x2800
"""The blank Braille pattern; the dots are bits added to it."""
BRAILLE_DOTS: Final = np.array([[0x01, 0x08], [0x02, 0x10], [0x04, 0x20], [0x40, 0x80]])
"""The bit of the dot at (row within the character 0-3, column within it 0-1)."""

SHADES: Final = " ░▒▓█"
"""Density shades, from no queen to the fullest character of the picture."""
ASCII_SHADES: Final = " .:+#"
"""The same shades in ASCII."""
ASCII_HALVES: Final = " '.:"
"""ASCII half-block marks, indexed by ``upper + 2 * lower`` (1 where the square holds a queen)."""
HEADER_LINES: Final = 1
"""Lines above the picture that hold the column ticks."""
ATTACK_LEVELS: Final = 8
"""Colour steps between a character with no attacked queen and one with all attacked."""


@dataclass(frozen=True)
class Position:
    """Where one individual's queens are, and which are attacked.

    Attributes:
        n: The board size.
        rows: Board row of every queen.
        columns: Board column of every queen.
        attacked: Whether each queen shares a line with another.
        origins: Where each queen came from, when the board shows it (the codes of
            :mod:`tui.dashboard.pictures.origin`: which parent, or moved by the mutation).
    """

    n: int
    rows: npt.NDArray[np.int64]
    columns: npt.NDArray[np.int64]
    attacked: npt.NDArray[np.bool_]
    origins: npt.NDArray[np.int8] | None = None

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


MODES: Final = ("squares", "cells", "halves", "braille", "density")
"""The pictures, from the largest to the most compressed (``cells``: ASCII only)."""


def choose_mode(n: int, width: int, height: int, *, ascii: bool = False) -> str:
    """The largest picture of an ``n`` board that fits ``width x height`` cells (ASCII: one
    square a cell before half blocks, and no Braille)."""
    if 2 * n <= width and n <= height:
        return "squares"
    if ascii and n <= width and n <= height:
        return "cells"
    if n <= width and math.ceil(n / 2) <= height:
        return "halves"
    if not ascii and math.ceil(n / 2) <= width and math.ceil(n / 4) <= height:
        return "braille"
    return "density"


_STEPS: Final = tuple(m * p for p in (1, 10, 100, 1000, 10**4, 10**5, 10**6) for m in (1, 2, 5))
"""Tick steps: 1, 2, 5, 10, 20, 50, ..."""


def is_exact(mode: str) -> bool:
    """Whether the picture shows every queen on its own square (all but density)."""
    return mode != "density"


def gutter_width(n: int) -> int:
    """Columns left of the picture for the row numbers: the widest number and a space."""
    return len(str(max(0, n - 1))) + 1


def columns_per_cell(mode: str, scale: int = 1) -> tuple[int, int]:
    """``(columns, cells)``: how many board columns take how many cells across in ``mode``."""
    if mode == "squares":
        return 1, 2
    if mode == "braille":
        return 2, 1
    if mode == "density":
        return scale, 1
    return 1, 1


def rows_per_line(mode: str, scale: int = 1) -> int:
    """Board rows drawn in one line of ``mode``."""
    return {"squares": 1, "cells": 1, "halves": 2, "braille": 4}.get(mode, 2 * scale)


def column_ticks(n: int, mode: str, scale: int = 1) -> str:
    """The header line: column numbers at every few columns, each starting above its column.

    The step is the smallest of 1, 2, 5, 10, 20, 50, ... columns (times the columns a cell
    holds) that leaves a space between neighbouring numbers.
    """
    columns, cells = columns_per_cell(mode, scale)
    room = len(str(max(0, n - 1))) + 1
    multiplier = 1
    while multiplier * cells < room:
        multiplier = next(m for m in _STEPS if m > multiplier)
    step = multiplier * columns
    width = math.ceil(n * cells / columns)
    line = [" "] * width
    for column in range(0, n, step):
        text = str(column)
        x = column * cells // columns
        if x + len(text) <= width:
            line[x : x + len(text)] = text
    return "".join(line)


def row_label(line: int, mode: str, scale: int = 1) -> int:
    """The first board row drawn in a line of the picture."""
    return line * rows_per_line(mode, scale)


def picture_size(n: int, mode: str, width: int, height: int) -> tuple[int, int]:
    """Cells ``(width, height)`` that the picture of an ``n`` board takes in ``mode``
    (density: for a ``width x height`` area)."""
    if mode == "squares":
        return 2 * n, n
    if mode == "cells":
        return n, n
    if mode == "halves":
        return n, math.ceil(n / 2)
    if mode == "braille":
        return math.ceil(n / 2), math.ceil(n / 4)
    scale = density_scale(n, width, height)
    return math.ceil(n / scale), math.ceil(n / (2 * scale))


def square_kinds(position: Position) -> npt.NDArray[np.int64]:
    """Every square of the board: 0 light, 1 dark, 2 a safe queen, 3 an attacked queen.

    ``(n + n % 2, n)``: an odd board gets one more row of ``-1`` (nothing) at the bottom.
    """
    n = position.n
    lines = np.arange(n + n % 2)[:, None]
    kinds = ((lines + np.arange(n)[None, :]) % 2).astype(np.int64)
    if n % 2:
        kinds[-1] = -1
    # Attacked wins where two queens share a square (they attack each other).
    np.maximum.at(kinds, (position.rows, position.columns), 2 + position.attacked.astype(np.int64))
    return kinds


def square_origins(position: Position) -> npt.NDArray[np.int8]:
    """The origin of the queen on every square (0: none, or no origins shown), shaped as
    :func:`square_kinds`; where two queens share a square, the larger code."""
    n = position.n
    origins = np.zeros((n + n % 2, n), dtype=np.int8)
    if position.origins is not None:
        np.maximum.at(origins, (position.rows, position.columns), position.origins)
    return origins


def braille_codes(
    position: Position,
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.bool_]]:
    """The exact Braille picture of a position.

    Returns:
        ``(codes, attacked)``, both ``(ceil(n / 4), ceil(n / 2))``: the dot bits of each
        character (add :data:`BRAILLE_BASE` for the code point) and whether it holds an
        attacked queen.
    """
    n = position.n
    height, width = math.ceil(n / 4), math.ceil(n / 2)
    rows, columns = position.rows, position.columns
    cells = (rows // 4) * width + columns // 2
    bits = BRAILLE_DOTS[rows % 4, columns % 2]
    # Several queens may share a character (or, for some encodings, a square): OR their bits.
    codes = np.zeros(height * width, dtype=np.int64)
    np.bitwise_or.at(codes, cells, bits)
    attacked = np.bincount(cells, weights=position.attacked, minlength=height * width) > 0
    return codes.reshape(height, width), attacked.reshape(height, width)


def braille_origins(position: Position) -> npt.NDArray[np.int8]:
    """The origin of each Braille character's queens where they share one, else 0 (as for no
    origins shown), shaped as :func:`braille_codes`' pictures."""
    n = position.n
    height, width = math.ceil(n / 4), math.ceil(n / 2)
    if position.origins is None:
        return np.zeros((height, width), dtype=np.int8)
    cells = (position.rows // 4) * width + position.columns // 2
    origins = position.origins.astype(np.int64)
    lowest = np.full(height * width, np.iinfo(np.int64).max)
    highest = np.zeros(height * width, dtype=np.int64)
    np.minimum.at(lowest, cells, origins)
    np.maximum.at(highest, cells, origins)
    shared = np.where(lowest == highest, highest, 0)
    return shared.astype(np.int8).reshape(height, width)


def decode_braille(text_lines: list[str]) -> set[tuple[int, int]]:
    """The squares ``(row, column)`` whose dots are set in lines of Braille characters."""
    squares: set[tuple[int, int]] = set()
    for line_number, line in enumerate(text_lines):
        for char_number, char in enumerate(line):
            bits = ord(char) - BRAILLE_BASE
            if not 0 <= bits < 256:
                continue
            for (row, column), bit in np.ndenumerate(BRAILLE_DOTS):
                if bits & int(bit):
                    squares.add((4 * line_number + row, 2 * char_number + column))
    return squares


def density_scale(n: int, width: int, height: int) -> int:
    """Columns of squares per character so that ``n`` fits ``width x height`` characters, each
    character ``s`` columns by ``2s`` rows (characters are twice as tall as wide)."""
    return max(1, math.ceil(n / max(1, width)), math.ceil(n / max(1, 2 * height)))


def density_counts(
    position: Position, scale: int
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """Queens and attacked queens per character of the density picture.

    Returns:
        ``(queens, attacked)``, both ``(ceil(n / 2s), ceil(n / s))`` for ``s = scale``.
    """
    n = position.n
    height, width = math.ceil(n / (2 * scale)), math.ceil(n / scale)
    cells = (position.rows // (2 * scale)) * width + position.columns // scale
    queens = np.bincount(cells, minlength=height * width)
    attacked = np.bincount(cells, weights=position.attacked, minlength=height * width)
    return queens.reshape(height, width), attacked.astype(np.int64).reshape(height, width)


def density_levels(
    queens: npt.NDArray[np.int64], attacked: npt.NDArray[np.int64], fullest: int
) -> tuple[list[int], list[int]]:
    """The shade and the attack level of each character of one line of the density picture.

    Args:
        queens: Queens per character of the line.
        attacked: Attacked queens per character of the line.
        fullest: The most queens any character of the picture holds.

    Returns:
        ``(shades, levels)``: an index into :data:`SHADES` (the lightest shade for a single
        queen, the darkest for the fullest character) and the attacked share in steps of
        ``1 / ATTACK_LEVELS``, per character.
    """
    steps = len(SHADES) - 2
    shades = np.where(queens > 0, 1 + (queens - 1) * steps // max(1, fullest - 1), 0)
    shades = np.minimum(shades, len(SHADES) - 1)
    levels = np.where(queens > 0, attacked * ATTACK_LEVELS // np.maximum(queens, 1), 0)
    return shades.tolist(), levels.tolist()
