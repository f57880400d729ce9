"""One line of each board picture as Rich segments, in the board's colours.

:class:`~tui.dashboard.widgets.Board` computes the pictures (see
:mod:`tui.dashboard.board_pictures`) and its styles; these functions only turn one line of a
picture into segments, so that the widget keeps to layout, scrolling and labels.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import groupby
from typing import Final

import numpy as np
import numpy.typing as npt
from rich.color import Color, blend_rgb
from rich.segment import Segment
from rich.style import Style

from tui.dashboard.board_pictures import (
    ASCII_HALVES,
    ASCII_SHADES,
    ATTACK_LEVELS,
    BRAILLE_BASE,
    SHADES,
    density_levels,
)
from tui.dashboard.origin import MOVED


@dataclass(frozen=True)
class BoardStyles:
    """The board's styles, looked up once per frame.

    Attributes:
        light: A light square.
        dark: A dark square.
        field: Around the board (the half line below an odd board).
        label: Row and column numbers.
        safe: A queen no other attacks (colour and weight only, to add to a square's style).
        attacked: An attacked queen (colour and weight only).
        origins: By origin code (:mod:`tui.dashboard.origin`), the colour of a queen that came
            from that place (code 0, none: the safe or attacked colour).
    """

    light: Style
    dark: Style
    field: Style
    label: Style
    safe: Style
    attacked: Style
    origins: tuple[Style, ...] = ()

    def queen(self, attacked: bool, origin: int = 0) -> Style:
        """The colour of a queen: the one place pictures ask for it. An inspected individual's
        queens take the colour of their origin (the glyph still says attacked)."""
        if origin:
            return self.origins[origin]
        return self.attacked if attacked else self.safe

    def square(self, parity: int) -> Style:
        """A light (even ``row + column``) or dark square."""
        return self.light if parity % 2 == 0 else self.dark


MOVED_MARK: Final = "*"
"""Beside a queen the mutation moved (in the square's second cell), so colour is not the cue."""
ORIGIN_KIND: Final = 4
"""In the halves picture, a queen of origin ``o`` is a square of kind ``ORIGIN_KIND + o``."""


def squares_segments(
    styles: BoardStyles,
    glyphs: tuple[str, str],
    queens: dict[int, bool],
    line: int,
    first: int,
    last: int,
    origins: dict[int, int] | None = None,
) -> list[Segment]:
    """Squares ``first`` to ``last - 1`` of a board row, two cells each, with queen glyphs.

    Args:
        styles: The board's styles.
        glyphs: Safe and attacked queen.
        queens: The row's queens: column to attacked.
        line: The board row.
        first: The first column drawn.
        last: One past the last column drawn.
        origins: The row's queens' origins by column, when coloured by origin; a queen the
            mutation moved is marked beside its glyph, so colour is not the only cue.
    """
    segments: list[Segment] = []
    for column in range(first, last):
        square = styles.square(line + column)
        attacked = queens.get(column)
        if attacked is None:
            segments.append(Segment("  ", square))
        else:
            glyph = glyphs[1] if attacked else glyphs[0]
            origin = origins.get(column, 0) if origins else 0
            mark = MOVED_MARK if origin == MOVED else " "
            segments.append(Segment(glyph + mark, square + styles.queen(attacked, origin)))
    return segments


def halves_segments(
    styles: BoardStyles,
    upper: npt.NDArray[np.int64],
    lower: npt.NDArray[np.int64],
    line: int,
    *,
    ascii: bool,
) -> list[Segment]:
    """Two board rows in one line (kinds as :func:`~tui.dashboard.board_pictures.square_kinds`).

    In Unicode the upper square is the foreground of ``▀`` and the lower its background, so
    every square has its own colour. In ASCII a cell has one background (a checker of 1 x 2
    blocks) and a mark says where its queens are: ``'`` upper, ``.`` lower, ``:`` both.
    """
    segments: list[Segment] = []
    pairs = zip(upper.tolist(), lower.tolist(), strict=True)
    if not ascii:
        colours = {
            -1: styles.field.bgcolor,
            0: styles.light.bgcolor,
            1: styles.dark.bgcolor,
            2: styles.queen(False).color,
            3: styles.queen(True).color,
            **{
                ORIGIN_KIND + origin: styles.origins[origin].color
                for origin in range(1, len(styles.origins))
            },
        }
        for (top, bottom), run in groupby(pairs):
            style = Style(color=colours[top], bgcolor=colours[bottom])
            segments.append(Segment("▀" * len(list(run)), style))
        return segments
    for column, (top, bottom) in enumerate(pairs):
        mark = int(top >= 2) + 2 * int(bottom >= 2)
        style = styles.square(line + column)
        if mark:
            style += styles.queen(top == 3 or bottom == 3)
        segments.append(Segment(ASCII_HALVES[mark], style))
    return segments


def braille_segments(
    styles: BoardStyles, codes: npt.NDArray[np.int64], attacked: npt.NDArray[np.int64]
) -> list[Segment]:
    """One line of Braille characters; a character holding an attacked queen is red."""
    text = "".join(map(chr, (codes + BRAILLE_BASE).tolist()))
    segments = []
    start = 0
    for hit, run in groupby(attacked.tolist()):
        length = len(list(run))
        style = styles.field + styles.queen(bool(hit))
        segments.append(Segment(text[start : start + length], style))
        start += length
    return segments


def density_segments(
    styles: BoardStyles,
    queens: npt.NDArray[np.int64],
    attacked: npt.NDArray[np.int64],
    fullest: int,
    *,
    ascii: bool,
) -> list[Segment]:
    """One line of the density mosaic: shade for queens, colour for the attacked share."""
    shades, levels = density_levels(queens, attacked, fullest)
    marks = ASCII_SHADES if ascii else SHADES
    safe, hit = styles.queen(False).color, styles.queen(True).color
    segments = []
    for (shade, level), run in groupby(zip(shades, levels, strict=True)):
        style = styles.field + styles.queen(False)
        if level and safe is not None and hit is not None:
            colour = Color.from_triplet(
                blend_rgb(safe.get_truecolor(), hit.get_truecolor(), level / ATTACK_LEVELS)
            )
            style = styles.field + Style(color=colour, bold=True)
        segments.append(Segment(marks[shade] * len(list(run)), style))
    return segments
