"""Attacked queens stay marked at every scale, also while an inspected individual's queens are
coloured by parent, with more contrast than a safe queen of the same colour: pure tests of the
board's pictures and segments (no app)."""

from __future__ import annotations

from dataclasses import replace
from typing import Final

import numpy as np
import pytest
from rich.color import Color, ColorSystem
from rich.segment import Segment
from rich.style import Style

from tui.dashboard.pictures.board_pictures import (
    Position,
    braille_codes,
    braille_origins,
    choose_mode,
    square_kinds,
    square_origins,
)
from tui.dashboard.pictures.contrast import contrast_ratio
from tui.dashboard.pictures.origin import FROM_FIRST, MOVED, ORIGIN_COLOURS
from tui.dashboard.widgets.board import ASCII_GLYPHS, UNICODE_GLYPHS
from tui.dashboard.widgets.board_segments import (
    BoardStyles,
    braille_segments,
    halves_segments,
    squares_segments,
)

SQUARES: Final = {"light": "#6c6c6c", "dark": "#303030"}
"""The board's squares (``Board``'s stylesheet)."""
SQUARES_16: Final = {"light": "#555555", "dark": "#000000"}
"""The board's squares in 16 colours (``Board.-ansi16``)."""
SAFE: Final = "#ffd75f"
ATTACKED: Final = "#ff5f5f"
INK: Final = "#000000"


def board_styles(squares: dict[str, str] = SQUARES) -> BoardStyles:
    """The styles ``Board``'s stylesheet gives (checked against the widget in
    ``test_attacked_board``)."""
    return BoardStyles(
        light=Style(bgcolor=squares["light"]),
        dark=Style(bgcolor=squares["dark"]),
        field=Style(bgcolor="#262626"),
        label=Style(),
        safe=Style(color=SAFE, bold=True),
        attacked=Style(color=ATTACKED, bold=True),
        ink=Style(color=INK),
        origins=(Style(), *(Style(color=colour, bold=True) for colour in ORIGIN_COLOURS[1:])),
    )


# Eight queens, one a column; every queen came from the first parent. Queen 0 at (1, 2) is the
# one whose attacked flag the tests turn on and off; its Braille character holds no other queen.
ROWS: Final = np.array([1, 6, 3, 0, 5, 7, 2, 4])
COLUMNS: Final = np.array([2, 0, 5, 4, 7, 1, 6, 3])


def position(*, attacked: bool, origin: int = FROM_FIRST, inspected: bool = True) -> Position:
    """The eight queens, queen 0 attacked or not; the others are safe."""
    flags = np.zeros(8, dtype=bool)
    flags[0] = attacked
    origins = np.full(8, origin, dtype=np.int8) if inspected else None
    return Position(8, ROWS, COLUMNS, flags, origins)


def cell(segments: list[Segment], x: int) -> Segment:
    """The segment holding cell ``x`` of a line."""
    start = 0
    for segment in segments:
        if start <= x < start + len(segment.text):
            return Segment(segment.text[x - start], segment.style)
        start += len(segment.text)
    raise AssertionError(f"no cell {x}")


def queen_cell(shown: Position, picture: str, styles: BoardStyles) -> tuple[str, object, object]:
    """Queen 0's cell in a picture: its text and the colours that show its square."""
    row, column = int(shown.rows[0]), int(shown.columns[0])
    if picture in ("squares", "cells", "ascii squares"):
        glyphs = UNICODE_GLYPHS if picture == "squares" else ASCII_GLYPHS
        width = 1 if picture == "cells" else 2
        queens = {
            int(c): bool(a)
            for r, c, a in zip(shown.rows, shown.columns, shown.attacked, strict=True)
            if r == row
        }
        row_origins = (
            None
            if shown.origins is None
            else {
                int(c): int(o)
                for r, c, o in zip(shown.rows, shown.columns, shown.origins, strict=True)
                if r == row
            }
        )
        segments = squares_segments(styles, glyphs, queens, row, 0, 8, row_origins, cells=width)
        found = cell(segments, column * width)
        style = found.style or Style()
        return found.text, style.color, style.bgcolor
    if picture in ("halves", "ascii halves"):
        kinds = square_kinds(shown)
        squares_from = square_origins(shown)
        line = row // 2
        shown_origins = (
            None if shown.origins is None else (squares_from[0::2][line], squares_from[1::2][line])
        )
        segments = halves_segments(
            styles,
            kinds[0::2][line],
            kinds[1::2][line],
            line,
            ascii=picture == "ascii halves",
            origins=shown_origins,
        )
        found = cell(segments, column)
        style = found.style or Style()
        if picture == "halves":
            # A square is one half of the cell: the upper is the foreground, the lower the back.
            return found.text, style.color if row % 2 == 0 else style.bgcolor, None
        return found.text, style.color, style.bgcolor
    codes, attacked = braille_codes(shown)
    characters_from = braille_origins(shown)
    line = row // 4
    segments = braille_segments(
        styles, codes[line], attacked[line].astype(np.int64), characters_from[line]
    )
    found = cell(segments, column // 2)
    style = found.style or Style()
    return found.text, style.color, style.bgcolor


PICTURES: Final = ("squares", "ascii squares", "cells", "halves", "ascii halves", "braille")


@pytest.mark.parametrize("picture", PICTURES)
def test_an_attacked_queen_s_cell_differs_from_a_safe_one_of_the_same_parent(picture: str) -> None:
    styles = board_styles()
    attacked = queen_cell(position(attacked=True), picture, styles)
    safe = queen_cell(position(attacked=False), picture, styles)
    # By colour, not only by glyph: at a glance, and where a picture has no glyph.
    assert attacked[1:] != safe[1:], picture
    # The safe queen shows its parent's colour; the attacked one is marked over it.
    assert Color.parse(ORIGIN_COLOURS[FROM_FIRST]) in safe[1:], picture


@pytest.mark.parametrize(
    "picture", ("squares", "ascii squares", "cells", "ascii halves", "braille")
)
def test_an_attacked_queen_is_filled_with_its_parent_s_colour_under_a_dark_mark(
    picture: str,
) -> None:
    text, ink, fill = queen_cell(position(attacked=True, origin=MOVED), picture, board_styles())
    assert text.strip(), picture
    assert fill == Color.parse(ORIGIN_COLOURS[MOVED]) and ink == Color.parse(INK), picture


def test_not_inspected_an_attacked_queen_is_filled_red() -> None:
    text, ink, fill = queen_cell(
        position(attacked=True, inspected=False), "squares", board_styles()
    )
    assert text == UNICODE_GLYPHS[1]
    assert fill == Color.parse(ATTACKED) and ink == Color.parse(INK)


def _rgb(colour: str, system: ColorSystem) -> tuple[int, int, int]:
    """A colour as a terminal of ``system`` shows it (16 colours: Rich's standard palette)."""
    shown = Color.parse(colour).downgrade(system).get_truecolor()
    return shown.red, shown.green, shown.blue


@pytest.mark.parametrize(
    ("system", "squares"),
    [
        (ColorSystem.TRUECOLOR, SQUARES),
        (ColorSystem.EIGHT_BIT, SQUARES),
        (ColorSystem.STANDARD, SQUARES_16),
    ],
)
def test_an_attacked_queen_has_more_contrast_than_a_safe_one_of_its_colour(
    system: ColorSystem, squares: dict[str, str]
) -> None:
    """Black on the queen's colour against the queen's colour on either square: at least as
    much, and at least 4.5:1 (WCAG's body text), in every colour system."""
    for colour in (ATTACKED, *ORIGIN_COLOURS[1:]):
        attacked = contrast_ratio(_rgb(INK, system), _rgb(colour, system))
        for square in squares.values():
            safe = contrast_ratio(_rgb(colour, system), _rgb(square, system))
            assert attacked >= safe, (system, colour, square, attacked, safe)
        assert attacked >= 4.5, (system, colour, attacked)


def test_in_16_colours_every_queen_colour_stays_apart() -> None:
    """Safe, attacked and each origin's colour become different colours of the 16: the moved
    queens' orange had become the attacked queens' bright red."""
    colours = [SAFE, ATTACKED, *ORIGIN_COLOURS[1:]]
    shown = [Color.parse(colour).downgrade(ColorSystem.STANDARD).number for colour in colours]
    assert len(set(shown)) == len(colours), dict(zip(colours, shown, strict=True))


def test_in_ascii_a_board_that_fits_one_square_a_cell_has_letters_not_specks() -> None:
    assert choose_mode(24, 24, 24, ascii=True) == "cells"
    assert choose_mode(24, 24, 24, ascii=False) == "halves"
    assert choose_mode(24, 48, 24, ascii=True) == "squares"
    assert choose_mode(28, 28, 18, ascii=True) == "halves"
    styles = board_styles()
    for attacked, letter in ((False, "Q"), (True, "X")):
        shown = replace(position(attacked=attacked), origins=None)
        text, _, _ = queen_cell(shown, "cells", styles)
        assert text == letter
        row = int(shown.rows[0])
        queens = {int(shown.columns[0]): attacked}
        segments = squares_segments(styles, ASCII_GLYPHS, queens, row, 0, 8, cells=1)
        assert cell(segments, int(shown.columns[0])).style.bold  # type: ignore[union-attr]
