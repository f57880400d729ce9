"""One line of each board picture as Rich segments, in the board's colours.

:class:`~tui.dashboard.widgets.Board` computes the pictures (see
:mod:`tui.dashboard.pictures.board_pictures`) and its styles; these functions only turn one line of
a picture into segments, so that the widget keeps to layout, scrolling and labels.
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

from tui.dashboard.pictures.board_pictures import (
    ASCII_HALVES,
    ASCII_SHADES,
    ATTACK_LEVELS,
    BRAILLE_BASE,
    SHADES,
    density_levels,
)
from tui.dashboard.pictures.origin import MOVED


@dataclass(frozen=True)
class BoardStyles:
    """The board's styles, looked up once per frame.

    Attributes:
        light: A light square.
        dark: A dark square.
        field: Around the board (the half line below an odd board).
        label: Row and column numbers.
        safe: A queen no other attacks (colour and weight only, to add to a square's style).
        attacked: An attacked queen (colour and weight only): where a square is only a colour
            (half blocks), its colour; where it holds a mark, the fill behind the mark.
        ink: The mark drawn on an attacked queen's fill (colour only).
        origins: By origin code (:mod:`tui.dashboard.pictures.origin`), the colour of a queen that
        came
            from that place (code 0, none: the safe or attacked colour).
    """

    light: Style
    dark: Style
    field: Style
    label: Style
    safe: Style
    attacked: Style
    ink: Style
    origins: tuple[Style, ...] = ()

    def queen(self, attacked: bool, origin: int = 0) -> Style:
        """The colour of a queen: the one place pictures ask for it. An inspected individual's
        queens take the colour of their origin."""
        if origin:
            return self.origins[origin]
        return self.attacked if attacked else self.safe

    def mark(self, ground: Style, attacked: bool, origin: int = 0) -> Style:
        """A queen's mark (a glyph, a letter, Braille dots) on ``ground``.

        A safe queen is its colour on the ground. An attacked queen fills its cells with its
        colour (an inspected individual's: its origin's, so the parent still shows) under a
        mark in :attr:`ink`, bold: the board's strongest contrast, a filled square among the
        greys, whatever the origin colours around it.
        """
        colour = self.queen(attacked, origin)
        if not attacked:
            return ground + colour
        return ground + Style(color=self.ink.color, bgcolor=colour.color, bold=True)

    def square(self, parity: int) -> Style:
        """A light (even ``row + column``) or dark square."""
        return self.light if parity % 2 == 0 else self.dark


MOVED_MARK: Final = "*"
"""Beside a queen the mutation moved (in the square's second cell), so colour is not the cue."""


def squares_segments(
    styles: BoardStyles,
    glyphs: tuple[str, str],
    queens: dict[int, bool],
    line: int,
    first: int,
    last: int,
    origins: dict[int, int] | None = None,
    *,
    cells: int = 2,
) -> list[Segment]:
    """Squares ``first`` to ``last - 1`` of a board row, two cells each (the ``cells``
    picture: one), with queen glyphs; an attacked queen fills its square (:meth:`BoardStyles.mark`).

    Args:
        styles: The board's styles.
        glyphs: Safe and attacked queen.
        queens: The row's queens: column to attacked.
        line: The board row.
        first: The first column drawn.
        last: One past the last column drawn.
        origins: The row's queens' origins by column, when coloured by origin; a queen the
            mutation moved is marked beside its glyph (where a square has two cells), so
            colour is not the only cue.
        cells: Cells a square takes: 2, or 1 for the ``cells`` picture (glyph only).
    """
    segments: list[Segment] = []
    for column in range(first, last):
        square = styles.square(line + column)
        attacked = queens.get(column)
        if attacked is None:
            segments.append(Segment(" " * cells, square))
        else:
            glyph = glyphs[1] if attacked else glyphs[0]
            origin = origins.get(column, 0) if origins else 0
            mark = (MOVED_MARK if origin == MOVED else " ")[: cells - 1]
            segments.append(Segment(glyph + mark, styles.mark(square, attacked, origin)))
    return segments


def halves_segments(
    styles: BoardStyles,
    upper: npt.NDArray[np.int64],
    lower: npt.NDArray[np.int64],
    line: int,
    *,
    ascii: bool,
    origins: tuple[npt.NDArray[np.int8], npt.NDArray[np.int8]] | None = None,
) -> list[Segment]:
    """Two board rows in one line (kinds as
    :func:`~tui.dashboard.pictures.board_pictures.square_kinds`).

    In Unicode the upper square is the foreground of ``▀`` and the lower its background, so
    every square has its own colour: a safe queen its own (its origin's, while inspected), an
    attacked queen the attacked colour, whatever its origin, since a square here is only a
    colour. In ASCII a cell has one background (a checker of 1 x 2 blocks) and a mark says
    where its queens are: ``'`` upper, ``.`` lower, ``:`` both, filled as
    :meth:`BoardStyles.mark` fills an attacked queen.

    Args:
        origins: The two rows' queens' origins, while an individual is inspected (see
            :func:`~tui.dashboard.pictures.board_pictures.square_origins`).
    """
    segments: list[Segment] = []
    width = len(upper)
    upper_origins, lower_origins = (
        origins if origins is not None else (np.zeros(width, np.int8),) * 2
    )
    cells = zip(
        upper.tolist(), lower.tolist(), upper_origins.tolist(), lower_origins.tolist(), strict=True
    )
    if not ascii:
        ground = {-1: styles.field.bgcolor, 0: styles.light.bgcolor, 1: styles.dark.bgcolor}

        def colour(kind: int, origin: int) -> Color | None:
            if kind < 2:
                return ground[kind]
            return styles.queen(kind == 3, 0 if kind == 3 else origin).color

        for (top, bottom, top_origin, bottom_origin), run in groupby(cells):
            style = Style(color=colour(top, top_origin), bgcolor=colour(bottom, bottom_origin))
            segments.append(Segment("▀" * len(list(run)), style))
        return segments
    for column, (top, bottom, top_origin, bottom_origin) in enumerate(cells):
        mark = int(top >= 2) + 2 * int(bottom >= 2)
        style = styles.square(line + column)
        if mark:
            pairs = ((top, top_origin), (bottom, bottom_origin))
            held = {origin for kind, origin in pairs if kind >= 2}
            origin = held.pop() if len(held) == 1 else 0
            style = styles.mark(style, top == 3 or bottom == 3, origin)
        segments.append(Segment(ASCII_HALVES[mark], style))
    return segments


def braille_segments(
    styles: BoardStyles,
    codes: npt.NDArray[np.int64],
    attacked: npt.NDArray[np.int64],
    origins: npt.NDArray[np.int8] | None = None,
) -> list[Segment]:
    """One line of Braille characters, each in the colour of its queens (of their origin,
    where they share one, while inspected); a character holding an attacked queen is filled
    as :meth:`BoardStyles.mark` fills it."""
    text = "".join(map(chr, (codes + BRAILLE_BASE).tolist()))
    shared = origins.tolist() if origins is not None else [0] * len(text)
    segments = []
    start = 0
    for (hit, origin), run in groupby(zip(attacked.tolist(), shared, strict=True)):
        length = len(list(run))
        style = styles.mark(styles.field, bool(hit), int(origin))
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
