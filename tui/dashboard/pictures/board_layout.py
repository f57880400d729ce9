"""Where the board goes on the main screen, so that it is drawn as exactly as the screen allows.

The board, the chart and the table sit in a 2 x 2 grid, in one of two arrangements:

- ``stacked``: the board and the chart side by side in the first row, the table across the
  second. The table is wide; the board may take half the width and 70% of the height.
- ``side``: the board down the whole height on the left; the chart over the table on the right.
  Terminal cells are twice as tall as wide, so height is what a board runs out of first: this
  arrangement draws the showcase (N = 28) in exact half blocks at 80 x 24, and N = 150 in
  exact Braille at 200 x 60.

:func:`plan_views` takes the arrangement whose picture is the more exact, stacked when both are
as exact. The board widget chooses its picture again from the area it gets, with the same rule
(:func:`~tui.dashboard.pictures.board_pictures.choose_mode`), so the plan and the picture agree.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from tui.dashboard.pictures.board_pictures import (
    HEADER_LINES,
    MODES,
    choose_mode,
    gutter_width,
    is_exact,
    picture_size,
)

FORM_WIDTH: Final = 40
"""Columns of the open form (``#form`` in the app's stylesheet)."""
CHROME_LINES: Final = 2
"""Lines of the main screen that are not the views': the status line and the footer."""
BORDER: Final = 2
"""Cells the board's border takes across and down."""
STACKED_BOARD_SHARE: Final = 0.5
"""Stacked: the board takes at most this share of the width (the chart has the rest)."""
STACKED_TOP_SHARE: Final = 0.7
"""Stacked: the board's row takes at most this share of the height (the table has the rest)."""
SIDE_BOARD_SHARE: Final = 0.6
"""Side: the board takes at most this share of the width (chart and table have the rest)."""
SIDE_CHART_SHARE: Final = 0.45
"""Side: the chart's share of the height beside the board (the table has the rest)."""
MIN_CHART_HEIGHT: Final = 10
"""Rows the chart needs to say something."""
MIN_CHART_WIDTH: Final = 40
"""Columns the chart and the table need beside the board and the open form, for the form to
open at the start (the genome column needs them)."""
MIN_TABLE_HEIGHT: Final = 6
"""Rows the table needs: border, header and a few individuals."""
MIN_BOARD_WIDTH: Final = 22
"""Columns the board's border needs for its title and the scale."""
POPULATION_SHARE: Final = 0.5
"""The population's views (``v``) take this share of the width in the board's place."""


@dataclass(frozen=True)
class ViewsLayout:
    """The grid of the main screen's views.

    Attributes:
        side: The board alone down the left (``True``) or beside the chart above the table.
        board_width: Columns of the board's grid column, its border included.
        first_row: Rows of the grid's first row: the board and the chart (stacked) or the
            chart alone (side).
        mode: The picture the board gets (see :data:`~tui.dashboard.pictures.board_pictures.MODES`).
    """

    side: bool
    board_width: int
    first_row: int
    mode: str


def board_extent(n: int, width: int, height: int, *, ascii: bool = False) -> tuple[str, int, int]:
    """The picture of an ``n`` board within ``width x height`` cells (border and labels
    included), and the cells it takes: ``(mode, width, height)``."""
    gutter = gutter_width(n)
    area_width = max(1, width - BORDER - gutter)
    area_height = max(1, height - BORDER - HEADER_LINES)
    mode = choose_mode(n, area_width, area_height, ascii=ascii)
    picture_width, picture_height = picture_size(n, mode, area_width, area_height)
    return (
        mode,
        max(MIN_BOARD_WIDTH, picture_width + BORDER + gutter),
        picture_height + BORDER + HEADER_LINES,
    )


def plan_views(
    n: int, width: int, height: int, *, ascii: bool = False, population: bool = False
) -> ViewsLayout:
    """Arrange board, chart and table in ``width x height`` cells (below the status line).

    Args:
        n: The board size.
        width: Columns for the views (the screen less the open form).
        height: Rows for the views (the screen less the status line and the footer).
        ascii: The board draws in ASCII (no Braille).
        population: The population's views are shown in the board's place.
    """
    stacked_top = max(MIN_CHART_HEIGHT, min(int(height * STACKED_TOP_SHARE), height - 6))
    stacked = board_extent(n, int(width * STACKED_BOARD_SHARE), stacked_top, ascii=ascii)
    side = board_extent(n, int(width * SIDE_BOARD_SHARE), height, ascii=ascii)
    if MODES.index(side[0]) < MODES.index(stacked[0]):
        mode, board_width = side[0], side[1]
        chart = round(height * SIDE_CHART_SHARE)
        first_row = max(MIN_CHART_HEIGHT, min(chart, height - MIN_TABLE_HEIGHT))
        on_side = True
    else:
        mode, board_width, board_height = stacked
        first_row = max(MIN_CHART_HEIGHT, min(board_height, stacked_top))
        on_side = False
    if population:
        board_width = max(board_width, int(width * POPULATION_SHARE))
    return ViewsLayout(on_side, min(board_width, width), first_row, mode)


def plan_screen(
    n: int,
    width: int,
    height: int,
    form_open: bool,
    *,
    ascii: bool = False,
    population: bool = False,
) -> ViewsLayout:
    """:func:`plan_views` on a main screen of ``width x height``, beside the form if open."""
    views_width = width - (FORM_WIDTH if form_open else 0)
    return plan_views(n, views_width, height - CHROME_LINES, ascii=ascii, population=population)


def form_leaves_board_room(n: int, width: int, height: int, *, ascii: bool = False) -> bool:
    """Whether beside the open form the board is exact, as exact as without the form, and the
    chart and table keep :data:`MIN_CHART_WIDTH` columns."""
    beside = plan_screen(n, width, height, True, ascii=ascii)
    alone = plan_screen(n, width, height, False, ascii=ascii)
    return (
        is_exact(beside.mode)
        and MODES.index(beside.mode) <= MODES.index(alone.mode)
        and width - FORM_WIDTH - beside.board_width >= MIN_CHART_WIDTH
    )
