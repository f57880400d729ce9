"""The chess board of one individual, drawn with the Line API, at the scale its area allows.

The pictures (exact squares, half blocks, Braille dots, a density mosaic) are computed in
:mod:`tui.dashboard.pictures.board_pictures`; the widget picks the one that fits, turns it into
lines of
the screen in its own colours, numbers the rows in a gutter on the left and the columns in a
header line (from 0, as the conflict list does), and writes the scale in its border. ``z`` zooms
to full size on an attacked queen; the numbers scroll with the board, and the border says which
rows and columns are in view.

An attacked queen is the board's strongest mark at every scale: where a queen is a glyph, a
letter or Braille dots, its cells are filled with its colour (red; while an individual is
inspected, its parent's) under a black mark; where a square is only a colour (half blocks), it
is red whatever its parent.

In a 16-colour terminal the greys of the squares would both become the same colour: the board
then takes black and bright black (class ``-ansi16``). With ``ascii=True`` it draws only ASCII,
one square a cell (``Q``, attacked ``X``, bold) where the board fits so.
"""

from __future__ import annotations

from typing import ClassVar, Final

import numpy as np
import numpy.typing as npt
from rich.segment import Segment
from rich.style import Style
from textual.css.scalar import Unit
from textual.geometry import Size
from textual.message import Message
from textual.reactive import reactive
from textual.scroll_view import ScrollView
from textual.strip import Strip

from tui.dashboard.pictures.board_pictures import (
    HEADER_LINES,
    Position,
    braille_codes,
    braille_origins,
    choose_mode,
    column_ticks,
    density_counts,
    density_scale,
    gutter_width,
    picture_size,
    row_label,
    square_kinds,
    square_origins,
)
from tui.dashboard.pictures.origin import ORIGIN_COLOURS
from tui.dashboard.widgets.board_segments import (
    BoardStyles,
    braille_segments,
    density_segments,
    halves_segments,
    squares_segments,
)

UNICODE_GLYPHS: Final = ("♛", "♕")
"""Safe and attacked queen: a filled and a hollow queen, so colour is never the only cue."""
ASCII_GLYPHS: Final = ("Q", "X")
"""The same in plain ASCII, for terminals without the chess symbols."""
ORIGIN_STYLES: Final = (
    "",
    "board--from-first",
    "board--from-second",
    "board--from-both",
    "board--moved",
)
"""The component class colouring a queen by its origin (the codes of
:mod:`tui.dashboard.pictures.origin`; none for a queen from neither parent's place)."""
SIXTEEN_COLOUR_SYSTEMS: Final = frozenset({"standard", "windows"})
"""Rich's colour systems with 16 colours, where the board needs colours of its own."""


class Board(ScrollView, can_focus=True):
    """A Line-API chess board showing one individual's queens."""

    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "board--light",
        "board--dark",
        "board--queen",
        "board--attacked",
        "board--attacked-ink",
        "board--field",
        "board--label",
        "board--from-first",
        "board--from-second",
        "board--from-both",
        "board--moved",
    }

    DEFAULT_CSS = """
    Board {
        width: auto;
        height: auto;
        scrollbar-size: 1 1;
    }
    Board > .board--light { background: #6c6c6c; }
    Board > .board--dark { background: #303030; }
    Board > .board--field { background: #262626; }
    Board > .board--queen { color: #ffd75f; text-style: bold; }
    Board > .board--attacked { color: #ff5f5f; text-style: bold; }
    Board > .board--attacked-ink { color: #000000; }
    Board > .board--label { color: $text-muted; }
    Board.-solved > .board--queen { color: #87ff87; }
    /* 16 colours: both greys above become bright black; these are black and bright black. */
    Board.-ansi16 > .board--light { background: #555555; }
    Board.-ansi16 > .board--dark { background: #000000; }
    Board.-ansi16 > .board--field { background: #000000; }
    """ + "".join(
        f"Board > .{name} {{ color: {colour}; text-style: bold; }}\n"
        for name, colour in zip(ORIGIN_STYLES[1:], ORIGIN_COLOURS[1:], strict=True)
    )

    class Resized(Message):
        """The board shows another N (the screen may arrange itself for it)."""

    zoomed: reactive[bool] = reactive(False)
    """Show the board at full size (scrollable) even when it does not fit."""

    def __init__(self, *, ascii: bool = False, id: str | None = None) -> None:
        super().__init__(id=id)
        self.ascii = ascii
        """Draw only ASCII characters."""
        self.glyphs = ASCII_GLYPHS if ascii else UNICODE_GLYPHS
        """Safe and attacked queen glyphs."""
        self.position: Position | None = None
        """What is drawn (``None``: an empty board)."""
        self.mode = "squares"
        """The picture: ``squares``, ``halves``, ``braille`` or ``density``."""
        self.scale = 1
        """Columns of squares per character in the density picture (1 otherwise)."""
        self.caption = ""
        """What the owner says about the position (``♕ 3 attacked``), before the scale."""
        self._by_row: tuple[npt.NDArray[np.intp], npt.NDArray[np.intp]] | None = None
        self._picture: tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]] | None = None
        self._origins: tuple[npt.NDArray[np.int8], ...] | None = None
        self._line_cache: dict[tuple[int, int, int, str, int], Strip] = {}

    def on_mount(self) -> None:
        """Take colours of its own in a 16-colour terminal."""
        self.set_class(self.app.console.color_system in SIXTEEN_COLOUR_SYSTEMS, "-ansi16")

    @property
    def n(self) -> int:
        """The board size (0 when nothing is shown)."""
        return self.position.n if self.position is not None else 0

    @property
    def overview(self) -> bool:
        """Whether the board is drawn smaller than full size (half blocks, Braille, density)."""
        return self.mode != "squares"

    def show(self, position: Position, *, caption: str | None = None) -> None:
        """Draw another position (or the same one again, which is cheap).

        Args:
            position: The queens.
            caption: If given, replaces :attr:`caption` in the border.
        """
        if caption is not None:
            self.set_caption(caption)
        old = self.position
        if (
            old is not None
            and old.n == position.n
            and np.array_equal(old.rows, position.rows)
            and np.array_equal(old.columns, position.columns)
            and np.array_equal(old.attacked, position.attacked)
            and _same_origins(old, position)
        ):
            return
        resized = old is None or old.n != position.n
        self.position = position
        self._by_row = None
        self._picture = None
        self._origins = None
        self._line_cache.clear()
        if resized:
            self.zoomed = False
            self._layout_board()
            self.refresh(layout=True)
            self.post_message(self.Resized())
        self.refresh()

    def set_caption(self, caption: str) -> None:
        """Say something about the position in the border, before the scale."""
        if caption != self.caption:
            self.caption = caption
            self._update_subtitle()

    def view_label(self, brief: int = 0) -> str:
        """The picture's scale, or the rows and columns in view when zoomed.

        Args:
            brief: 0 for the full sentence, 1 or 2 for shorter forms (narrow boards).
        """
        n = self.n
        if n == 0:
            return ""
        if self.mode == "cells":
            return ("1 char = 1 square", "1 char = 1 sq", "1 sq/char")[brief]
        if self.mode == "halves":
            return ("1 char = 1x2 squares", "1 char = 1x2 sq", "1x2 sq/char")[brief]
        if self.mode == "braille":
            return ("1 dot = 1 square", "1 dot = 1 sq", "dot = square")[brief]
        if self.mode == "density":
            s = f"{self.scale}x{2 * self.scale}"
            return (f"1 char = {s} squares, shade = queens", f"1 char = {s} sq", f"{s} sq/char")[
                brief
            ]
        if self.zoomed or not self._fits():
            row0, row1, col0, col1 = self.visible_region()
            return (
                f"rows {row0}-{row1 - 1} cols {col0}-{col1 - 1} of {n}",
                f"rows {row0}-{row1 - 1} cols {col0}-{col1 - 1}",
                f"r{row0}-{row1 - 1} c{col0}-{col1 - 1}",
            )[brief]
        return ""

    def _update_subtitle(self) -> None:
        """Caption and scale, in the shortest wording the border needs to show the scale.

        The caption keeps its words (``♕ 15 attacked``) down to the last tier: a bare count
        would not say what it counts.
        """
        # The border's corners and the padding around the text take six cells.
        room = self.outer_size.width - 6
        subtitle = ""
        full = self.caption
        short = full.replace(" queens attacked", " attacked").replace(
            " queen attacked", " attacked"
        )
        tiers = ((full, 0), (full, 1), (short, 1), (full, 2), (short, 2))
        separator = " - " if self.ascii else " · "
        for caption, brief in tiers:
            subtitle = separator.join(part for part in (caption, self.view_label(brief)) if part)
            if len(subtitle) <= room:
                break
        if len(subtitle) > room and self.caption:
            # Too narrow for both: the scale is what a picture cannot do without.
            subtitle = self.view_label(2)
        if self.border_subtitle != subtitle:
            self.border_subtitle = subtitle

    # Layout -------------------------------------------------------------------------------

    @property
    def label_width(self) -> int:
        """Columns of row numbers left of the picture."""
        return gutter_width(self.n) if self.n else 0

    def _area(self, width: int, height: int) -> tuple[int, int]:
        """The picture's area in a content area of ``width x height`` (less the labels)."""
        return max(1, width - self.label_width), max(1, height - HEADER_LINES)

    def _preferred(self, container: Size) -> Size:
        """The picture and its labels for the area the board may take (``width: auto``).

        ``container`` is the parent's area less the board's border; the board may have the
        share of the parent's width that its ``max-width`` gives (half if none).
        """
        if self.zoomed:
            return Size(self.label_width + 2 * self.n, HEADER_LINES + self.n)
        max_width = self.styles.max_width
        shares = (Unit.PERCENT, Unit.WIDTH)
        share = max_width.value / 100 if max_width is not None and max_width.unit in shares else 0.5
        width, height = self._area(int((container.width + 2) * share) - 2, container.height)
        mode = choose_mode(self.n, width, height, ascii=self.ascii)
        picture_width, picture_height = picture_size(self.n, mode, width, height)
        return Size(self.label_width + picture_width, HEADER_LINES + picture_height)

    def get_content_width(self, container: Size, viewport: Size) -> int:
        """As wide as the largest picture that fits."""
        return max(self._preferred(container).width, 16)

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        """As tall as the largest picture that fits."""
        return max(self._preferred(container).height, 8)

    def on_resize(self) -> None:
        """A new area may need another picture."""
        self._layout_board()

    def notify_style_update(self) -> None:
        """Draw in the new colours (another theme, 16 colours): the lines cached keep the old
        ones (the labels' above all, which take the theme's)."""
        super().notify_style_update()
        self._line_cache.clear()

    def watch_zoomed(self) -> None:
        """Switch between the overview and full size."""
        self._layout_board()
        if self.zoomed:
            # After the new virtual size is laid out, or the scroll is clipped to the old one.
            self.call_after_refresh(self._scroll_to_conflict)

    def watch_scroll_x(self, old_value: float, new_value: float) -> None:
        """Scrolled sideways: repaint, and say which columns are in view."""
        super().watch_scroll_x(old_value, new_value)
        self._update_subtitle()

    def watch_scroll_y(self, old_value: float, new_value: float) -> None:
        """Scrolled up or down: repaint, and say which rows are in view."""
        super().watch_scroll_y(old_value, new_value)
        self._update_subtitle()

    def _fits(self) -> bool:
        width, height = self._area(self.size.width, self.size.height)
        return choose_mode(self.n, width, height, ascii=self.ascii) == "squares"

    def _layout_board(self) -> None:
        """Choose the picture and the virtual size (labels included) for the current area."""
        n = self.n
        width, height = self._area(self.size.width, self.size.height)
        self.scale = 1
        if n == 0 or self.size.width < 2 or self.size.height < 1 or self.zoomed:
            self.mode = "squares"
        else:
            self.mode = choose_mode(n, width, height, ascii=self.ascii)
        if self.mode == "density":
            self.scale = density_scale(n, width, height)
        picture_width, picture_height = picture_size(n, self.mode, width, height)
        self.virtual_size = Size(self.label_width + picture_width, HEADER_LINES + picture_height)
        if self.mode != "squares":
            self.scroll_to(0, 0, animate=False, immediate=True)
        self._picture = None
        self._origins = None
        self._line_cache.clear()
        self._update_subtitle()
        self.refresh()

    def _scroll_to_conflict(self) -> None:
        """Centre the full-size view on the first attacked queen (or the top left)."""
        position = self.position
        if position is None:
            return
        hits = np.flatnonzero(position.attacked)
        if hits.size:
            width, height = self._area(*self.scrollable_content_region.size)
            row, column = int(position.rows[hits[0]]), int(position.columns[hits[0]])
            x = max(0, 2 * column - width // 2)
            y = max(0, row - height // 2)
            self.scroll_to(x, y, animate=False, immediate=True)
        self._update_subtitle()

    def visible_region(self) -> tuple[int, int, int, int]:
        """Board rows and columns in view at full size: ``(row0, row1, col0, col1)``."""
        x, y = round(self.scroll_offset.x), round(self.scroll_offset.y)
        width, height = self._area(*self.scrollable_content_region.size)
        return (y, min(self.n, y + height), x // 2, min(self.n, (x + width + 1) // 2))

    # Rendering ----------------------------------------------------------------------------

    def render_line(self, y: int) -> Strip:
        """One line of the board (the first: the column numbers), from cache if unchanged."""
        scroll_x, scroll_y = round(self.scroll_offset.x), round(self.scroll_offset.y)
        line = -1 if y < HEADER_LINES else y - HEADER_LINES + scroll_y
        key = (line, scroll_x, self.size.width, self.mode, self.scale)
        strip = self._line_cache.get(key)
        if strip is None:
            strip = self._labelled_line(line, scroll_x, self.size.width)
            if len(self._line_cache) > 4096:
                self._line_cache.clear()
            self._line_cache[key] = strip
        return strip

    def _labelled_line(self, line: int, scroll_x: int, width: int) -> Strip:
        """The row number (or, for line -1, nothing) and the picture's line, cropped."""
        if self.position is None or line >= self.virtual_size.height - HEADER_LINES:
            return Strip.blank(width, self.rich_style)
        styles = self.board_styles()
        gutter = self.label_width
        if line < 0:
            label = " " * gutter
            picture = Strip([Segment(column_ticks(self.n, self.mode, self.scale), styles.label)])
        else:
            label = f"{row_label(line, self.mode, self.scale):>{gutter - 1}} "
            picture = self._picture_line(styles, line, scroll_x, width - gutter)
        picture = picture.crop(scroll_x, scroll_x + width - gutter)
        picture = picture.extend_cell_length(width - gutter, self.rich_style)
        return Strip.join([Strip([Segment(label, styles.label)]), picture]).crop(0, width)

    def board_styles(self) -> BoardStyles:
        """The board's styles (the queens' colours and weights only, to add to a square)."""
        return BoardStyles(
            light=self.get_component_rich_style("board--light"),
            dark=self.get_component_rich_style("board--dark"),
            field=self.get_component_rich_style("board--field"),
            label=self.rich_style + self.get_component_rich_style("board--label", partial=True),
            safe=self.get_component_rich_style("board--queen", partial=True),
            attacked=self.get_component_rich_style("board--attacked", partial=True),
            ink=self.get_component_rich_style("board--attacked-ink", partial=True),
            origins=tuple(
                self.get_component_rich_style(name, partial=True) if name else Style()
                for name in ORIGIN_STYLES
            ),
        )

    def _picture_line(self, styles: BoardStyles, line: int, scroll_x: int, width: int) -> Strip:
        """One line of the picture, whole (cropped by the caller) but for squares."""
        position = self.position
        assert position is not None
        if self.mode in ("squares", "cells"):
            cells = 2 if self.mode == "squares" else 1
            first = scroll_x // cells
            last = min(self.n, (scroll_x + width) // cells + 1)
            segments = squares_segments(
                styles,
                self.glyphs,
                self._row_queens(line),
                line,
                first,
                last,
                origins=self._row_origins(line),
                cells=cells,
            )
            # Pad the columns left of the first one drawn, so the caller crops as for the rest.
            return Strip([Segment(" " * cells * first), *segments])
        if self.mode == "halves":
            if self._origins is None:
                origins = square_origins(position)
                self._origins = (origins[0::2], origins[1::2])
            if self._picture is None:
                kinds = square_kinds(position)
                self._picture = (kinds[0::2], kinds[1::2])
            upper, lower = self._picture
            upper_origins, lower_origins = self._origins
            shown = None if position.origins is None else (upper_origins[line], lower_origins[line])
            return Strip(
                halves_segments(
                    styles, upper[line], lower[line], line, ascii=self.ascii, origins=shown
                )
            )
        if self.mode == "braille":
            if self._picture is None:
                dots, holds_attacked = braille_codes(position)
                self._picture = (dots, holds_attacked.astype(np.int64))
                self._origins = (braille_origins(position),)
            codes, attacked = self._picture
            assert self._origins is not None
            return Strip(
                braille_segments(styles, codes[line], attacked[line], self._origins[0][line])
            )
        if self._picture is None:
            self._picture = density_counts(position, self.scale)
        queens, attacked = self._picture
        fullest = max(1, int(queens.max()))
        return Strip(
            density_segments(styles, queens[line], attacked[line], fullest, ascii=self.ascii)
        )

    def _row_queens(self, row: int) -> dict[int, bool]:
        """The queens of one board row: column to attacked (a shared square counts as one)."""
        position = self.position
        assert position is not None
        if self._by_row is None:
            order = np.argsort(position.rows, kind="stable")
            starts = np.searchsorted(position.rows[order], np.arange(position.n + 1))
            self._by_row = (order, starts)
        order, starts = self._by_row
        queens: dict[int, bool] = {}
        for index in order[starts[row] : starts[row + 1]].tolist():
            column = int(position.columns[index])
            # Two queens on one square attack each other.
            queens[column] = column in queens or bool(position.attacked[index])
        return queens

    def _row_origins(self, row: int) -> dict[int, int]:
        """The origins of one board row's queens by column (none when not shown)."""
        position = self.position
        if position is None or position.origins is None:
            return {}
        self._row_queens(row)  # sorts the queens by row once
        assert self._by_row is not None
        order, starts = self._by_row
        return {
            int(position.columns[index]): int(position.origins[index])
            for index in order[starts[row] : starts[row + 1]].tolist()
        }


def _same_origins(old: Position, new: Position) -> bool:
    """Whether two positions colour their queens alike (both by no origin, or the same)."""
    if old.origins is None or new.origins is None:
        return old.origins is None and new.origins is None
    return bool(np.array_equal(old.origins, new.origins))
