"""The chess board of one individual, drawn with the Line API, at the scale its area allows.

The pictures (exact squares, half blocks, Braille dots, a density mosaic) are computed in
:mod:`tui.dashboard.board_pictures`; the widget picks the one that fits, turns it into lines of
the screen in its own colours, and writes the scale in its border. ``z`` zooms to full size on
an attacked queen; the border then says which rows and columns are in view.
"""

from __future__ import annotations

from itertools import groupby
from typing import ClassVar, Final

import numpy as np
import numpy.typing as npt
from rich.color import Color, blend_rgb
from rich.segment import Segment
from rich.style import Style
from textual.geometry import Size
from textual.reactive import reactive
from textual.scroll_view import ScrollView
from textual.strip import Strip

from tui.dashboard.board_pictures import (
    ATTACK_LEVELS,
    BRAILLE_BASE,
    SHADES,
    Position,
    braille_codes,
    choose_mode,
    density_counts,
    density_levels,
    density_scale,
    picture_size,
    square_kinds,
)
from tui.dashboard.origin import MOVED, ORIGIN_COLOURS

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
:mod:`tui.dashboard.origin`; none for a queen from neither parent's place)."""
ORIGIN_KIND: Final = 4
"""In the halves picture, a queen of origin ``o`` is a square of kind ``ORIGIN_KIND + o``."""
MOVED_MARK: Final = "*"
"""Beside a queen the mutation moved (in the square's second cell), so colour is not the cue."""


class Board(ScrollView, can_focus=True):
    """A Line-API chess board showing one individual's queens."""

    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "board--light",
        "board--dark",
        "board--queen",
        "board--attacked",
        "board--field",
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
    Board.-solved > .board--queen { color: #87ff87; }
    """ + "".join(
        f"Board > .{name} {{ color: {colour}; text-style: bold; }}\n"
        for name, colour in zip(ORIGIN_STYLES[1:], ORIGIN_COLOURS[1:], strict=True)
    )

    zoomed: reactive[bool] = reactive(False)
    """Show the board at full size (scrollable) even when it does not fit."""

    def __init__(self, *, ascii: bool = False, id: str | None = None) -> None:
        super().__init__(id=id)
        self.glyphs = ASCII_GLYPHS if ascii else UNICODE_GLYPHS
        """Safe and attacked queen glyphs."""
        self.position: Position | None = None
        """What is drawn (``None``: an empty board)."""
        self.mode = "squares"
        """The picture: ``squares``, ``braille`` or ``density``."""
        self.scale = 1
        """Columns of squares per character in the density picture (1 otherwise)."""
        self.caption = ""
        """What the owner says about the position (``♕ 3 attacked``), before the scale."""
        self._by_row: tuple[npt.NDArray[np.intp], npt.NDArray[np.intp]] | None = None
        self._picture: tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]] | None = None
        self._line_cache: dict[tuple[int, int, int, str, int], Strip] = {}

    @property
    def n(self) -> int:
        """The board size (0 when nothing is shown)."""
        return self.position.n if self.position is not None else 0

    @property
    def overview(self) -> bool:
        """Whether the board is drawn smaller than full size (Braille or density)."""
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
        self._line_cache.clear()
        if resized:
            self.zoomed = False
            self._layout_board()
            self.refresh(layout=True)
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
        if self.mode == "halves":
            return ("1 char = 1x2 squares", "1 char = 1x2 sq", "1x2/char")[brief]
        if self.mode == "braille":
            return ("1 dot = 1 square", "1 dot = 1 sq", "dot=square")[brief]
        if self.mode == "density":
            s = f"{self.scale}x{2 * self.scale}"
            return (f"1 char = {s} squares, shade = queens", f"1 char = {s} sq", f"{s}/char")[brief]
        if self.zoomed or not self._fits():
            row0, row1, col0, col1 = self.visible_region()
            return (
                f"rows {row0}-{row1 - 1} cols {col0}-{col1 - 1} of {n}",
                f"rows {row0}-{row1 - 1} cols {col0}-{col1 - 1}",
                f"r{row0}-{row1 - 1} c{col0}-{col1 - 1}",
            )[brief]
        return ""

    def _update_subtitle(self) -> None:
        """Caption and scale, in the shortest wording the border needs to show the scale."""
        # The border's corners and the padding around the text take six cells.
        room = self.outer_size.width - 6
        subtitle = ""
        full, short = self.caption, self.caption.replace(" attacked", "")
        tiers = ((full, 0), (full, 1), (short, 1), (full, 2), (short, 2))
        for caption, brief in tiers:
            subtitle = " · ".join(part for part in (caption, self.view_label(brief)) if part)
            if len(subtitle) <= room:
                break
        if len(subtitle) > room and self.caption:
            # Too narrow for both: the scale is what a picture cannot do without.
            subtitle = self.view_label(2)
        if self.border_subtitle != subtitle:
            self.border_subtitle = subtitle

    # Layout -------------------------------------------------------------------------------

    def _preferred(self, container: Size) -> Size:
        """The picture for the area the board may take.

        ``container`` is the parent's area less the board's border; the board may have half
        the parent's width (``max-width: 50%`` in the app's stylesheet).
        """
        width, height = max(1, (container.width + 2) // 2 - 2), max(1, container.height)
        if self.zoomed:
            return Size(2 * self.n, self.n)
        return Size(*picture_size(self.n, choose_mode(self.n, width, height), width, height))

    def get_content_width(self, container: Size, viewport: Size) -> int:
        """As wide as the largest picture that fits."""
        return max(self._preferred(container).width, 16)

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        """As tall as the largest picture that fits."""
        return max(self._preferred(container).height, 8)

    def on_resize(self) -> None:
        """A new area may need another picture."""
        self._layout_board()

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
        return choose_mode(self.n, self.size.width, self.size.height) == "squares"

    def _layout_board(self) -> None:
        """Choose the picture and the virtual size for the current area."""
        n, width, height = self.n, self.size.width, self.size.height
        self.scale = 1
        if n == 0 or width < 2 or height < 1 or self.zoomed:
            self.mode = "squares"
        else:
            self.mode = choose_mode(n, width, height)
        if self.mode == "density":
            self.scale = density_scale(n, width, height)
        self.virtual_size = Size(*picture_size(n, self.mode, width, height))
        if self.mode != "squares":
            self.scroll_to(0, 0, animate=False, immediate=True)
        self._picture = None
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
            row, column = int(position.rows[hits[0]]), int(position.columns[hits[0]])
            x = max(0, 2 * column - self.size.width // 2)
            y = max(0, row - self.size.height // 2)
            self.scroll_to(x, y, animate=False, immediate=True)
        self._update_subtitle()

    def visible_region(self) -> tuple[int, int, int, int]:
        """Board rows and columns in view at full size: ``(row0, row1, col0, col1)``."""
        x, y = round(self.scroll_offset.x), round(self.scroll_offset.y)
        return (
            y,
            min(self.n, y + self.size.height),
            x // 2,
            min(self.n, (x + self.size.width + 1) // 2),
        )

    # Rendering ----------------------------------------------------------------------------

    def render_line(self, y: int) -> Strip:
        """One line of the board, from cache when nothing changed."""
        scroll_x, scroll_y = round(self.scroll_offset.x), round(self.scroll_offset.y)
        key = (y + scroll_y, scroll_x, self.size.width, self.mode, self.scale)
        strip = self._line_cache.get(key)
        if strip is None:
            strip = self._render_board_line(y + scroll_y, scroll_x, self.size.width)
            if len(self._line_cache) > 4096:
                self._line_cache.clear()
            self._line_cache[key] = strip
        return strip

    def _render_board_line(self, line: int, scroll_x: int, width: int) -> Strip:
        if self.position is None or line >= self.virtual_size.height:
            return Strip.blank(width, self.rich_style)
        if self.mode == "halves":
            segments = self._halves_segments(line)
        elif self.mode == "braille":
            segments = self._braille_segments(line)
        elif self.mode == "density":
            segments = self._density_segments(line)
        else:
            return self._squares_line(line, scroll_x, width)
        strip = Strip(segments).crop(scroll_x, scroll_x + width)
        return strip.extend_cell_length(width, self.rich_style)

    def _queen_styles(self) -> tuple[Style, Style, Style]:
        field = self.get_component_rich_style("board--field")
        queen = self.get_component_rich_style("board--queen", partial=True)
        attacked = self.get_component_rich_style("board--attacked", partial=True)
        return field, field + queen, field + attacked

    def _halves_segments(self, line: int) -> list[Segment]:
        """Two board rows per line: the upper square is the foreground of ``▀``."""
        position = self.position
        assert position is not None
        if self._picture is None:
            kinds = square_kinds(position)
            if position.origins is not None:
                # A queen from a parent takes that parent's colour (kinds 5 to 8).
                coloured = position.origins > 0
                rows, columns = position.rows[coloured], position.columns[coloured]
                kinds[rows, columns] = ORIGIN_KIND + position.origins[coloured]
            self._picture = (kinds[0::2], kinds[1::2])
        upper, lower = self._picture
        colours = self._kind_colours()
        segments = []
        pairs = zip(upper[line].tolist(), lower[line].tolist(), strict=True)
        for (top, bottom), run in groupby(pairs):
            style = Style(color=colours[top], bgcolor=colours[bottom])
            segments.append(Segment("▀" * len(list(run)), style))
        return segments

    def _kind_colours(self) -> dict[int, Color | None]:
        """The colour of each kind of square (see :func:`square_kinds`)."""
        field = self.get_component_rich_style("board--field").bgcolor
        return {
            -1: field,
            0: self.get_component_rich_style("board--light").bgcolor,
            1: self.get_component_rich_style("board--dark").bgcolor,
            2: self.get_component_rich_style("board--queen", partial=True).color,
            3: self.get_component_rich_style("board--attacked", partial=True).color,
            **{
                ORIGIN_KIND + origin: self.get_component_rich_style(name, partial=True).color
                for origin, name in enumerate(ORIGIN_STYLES)
                if name
            },
        }

    def _braille_segments(self, line: int) -> list[Segment]:
        position = self.position
        assert position is not None
        if self._picture is None:
            dots, holds_attacked = braille_codes(position)
            self._picture = (dots, holds_attacked.astype(np.int64))
        codes, attacked = self._picture
        _, safe_style, attacked_style = self._queen_styles()
        text = "".join(map(chr, (codes[line] + BRAILLE_BASE).tolist()))
        segments = []
        start = 0
        for hit, run in groupby(attacked[line].tolist()):
            length = len(list(run))
            segments.append(
                Segment(text[start : start + length], attacked_style if hit else safe_style)
            )
            start += length
        return segments

    def _density_segments(self, line: int) -> list[Segment]:
        position = self.position
        assert position is not None
        if self._picture is None:
            self._picture = density_counts(position, self.scale)
        queens, attacked = self._picture
        field, safe_style, attacked_style = self._queen_styles()
        fullest = max(1, int(queens.max()))
        shades, levels = density_levels(queens[line], attacked[line], fullest)
        safe, hit = safe_style.color, attacked_style.color
        segments = []
        for (shade, level), run in groupby(zip(shades, levels, strict=True)):
            style = field + safe_style
            if level and safe is not None and hit is not None:
                colour = Color.from_triplet(
                    blend_rgb(safe.get_truecolor(), hit.get_truecolor(), level / ATTACK_LEVELS)
                )
                style = field + Style(color=colour, bold=True)
            segments.append(Segment(SHADES[shade] * len(list(run)), style))
        return segments

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

    def _squares_line(self, line: int, scroll_x: int, width: int) -> Strip:
        light = self.get_component_rich_style("board--light")
        dark = self.get_component_rich_style("board--dark")
        queen_style = self.get_component_rich_style("board--queen", partial=True)
        attacked_style = self.get_component_rich_style("board--attacked", partial=True)
        safe_glyph, attacked_glyph = self.glyphs
        queens = self._row_queens(line)
        origins = self._row_origins(line)
        first = scroll_x // 2
        last = min(self.n, (scroll_x + width) // 2 + 1)
        segments: list[Segment] = []
        for column in range(first, last):
            square = light if (line + column) % 2 == 0 else dark
            attacked = queens.get(column)
            origin = origins.get(column, 0)
            if attacked is None:
                segments.append(Segment("  ", square))
            elif origin:
                glyph = attacked_glyph if attacked else safe_glyph
                mark = MOVED_MARK if origin == MOVED else " "
                style = self.get_component_rich_style(ORIGIN_STYLES[origin], partial=True)
                segments.append(Segment(glyph + mark, square + style))
            elif attacked:
                segments.append(Segment(attacked_glyph + " ", square + attacked_style))
            else:
                segments.append(Segment(safe_glyph + " ", square + queen_style))
        offset = 2 * first
        strip = Strip(segments, 2 * (last - first))
        strip = strip.crop(scroll_x - offset, scroll_x - offset + width)
        return strip.extend_cell_length(width, self.rich_style)


def _same_origins(old: Position, new: Position) -> bool:
    """Whether two positions colour their queens alike (both by no origin, or the same)."""
    if old.origins is None or new.origins is None:
        return old.origins is None and new.origins is None
    return bool(np.array_equal(old.origins, new.origins))
