"""The board at everyday terminal sizes: exact pictures, numbered rows and columns, 16 colours
and ASCII."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest
import textual.constants
from rich.color import ColorSystem
from rich.segment import Segment
from rich.style import Style
from textual.geometry import Region
from textual.strip import Strip
from textual.widgets import DataTable, Input, Label, Select
from textual.widgets._select import SelectOverlay
from textual.widgets._toast import Toast

from engine import Config
from tui.dashboard.app import QueensApp
from tui.dashboard.pictures.board_pictures import (
    ASCII_HALVES,
    column_ticks,
    columns_per_cell,
    is_exact,
    rows_per_line,
)
from tui.dashboard.screens import RaceScreen
from tui.dashboard.screens.runs import RunsScreen
from tui.dashboard.widgets import SPEED_LIMITS, Board, ParamForm

Wait = Callable[..., object]


def board_lines(board: Board) -> list[Strip]:
    """What the board draws in its area, its labels included."""
    return [board.render_line(y) for y in range(board.size.height)]


def cell_at(strip: Strip, x: int) -> Segment:
    """The segment holding the cell at ``x``, cut to that cell."""
    for segment in strip.crop(x, x + 1):
        return segment
    raise AssertionError(f"no cell at {x}")


def check_labels_find_every_attacked_queen(board: Board) -> None:
    """Each attacked queen ``row,col`` (as the conflict list prints it) is where the labels say:
    on the line whose row number is the nearest at or above ``row``, under the column tick at
    or left of ``col``, and drawn there in the attacked colour (a half block's colour, the
    fill behind a glyph or Braille dots)."""
    position = board.position
    assert position is not None
    lines = board_lines(board)
    gutter = board.label_width
    header = lines[0].text[gutter:]
    columns, cells = columns_per_cell(board.mode, board.scale)
    per_line = rows_per_line(board.mode, board.scale)
    ticks = {int(match.group()): match.start() for match in re.finditer(r"\d+", header)}
    assert header.rstrip() == column_ticks(board.n, board.mode, board.scale).rstrip()
    attacked_colour = board.board_styles().attacked.color
    assert attacked_colour is not None
    hits = np.flatnonzero(position.attacked)
    assert hits.size, "the position has attacked queens"
    for index in hits.tolist():
        row, column = int(position.rows[index]), int(position.columns[index])
        line = row // per_line
        # The gutter numbers the line with its first row.
        assert int(lines[1 + line].text[: gutter - 1]) == line * per_line
        # The tick at or left of the column stands where its column starts.
        tick = max(t for t in ticks if t <= column)
        assert ticks[tick] == tick * cells // columns
        x = gutter + column * cells // columns
        style = cell_at(lines[1 + line], x).style or Style()
        assert attacked_colour in {style.color, style.bgcolor}, (row, column)


# The layout ---------------------------------------------------------------------------------


@pytest.mark.parametrize("n", [8, 16, 24, 28])
async def test_at_80x24_a_board_up_to_28_is_in_squares_or_half_blocks(n: int) -> None:
    app = QueensApp(Config(n=n, population=30, seed=3), frozen_clock=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        board = app.main_screen.board
        assert board.mode in ("squares", "halves")
        assert board.region.height > 0 and app.main_screen.table.region.height >= 6
        assert app.main_screen.plot.region.height >= 8
        check_labels_find_every_attacked_queen(board)


async def test_the_showcase_at_80x24_is_in_half_blocks_before_and_during_its_run(
    wait_for: Wait,
) -> None:
    app = QueensApp(frozen_clock=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = app.main_screen
        assert screen.board.n == 28 and screen.board.mode == "halves"
        # The chart over the table, both beside the board.
        plot, table, board = screen.plot.region, screen.table.region, screen.board.region
        assert plot.x >= board.right and table.x >= board.right and table.y > plot.y
        assert "attacked" in str(screen.board.border_subtitle)
        await pilot.press("space")
        await wait_for(pilot, lambda: screen.run.latest.generation >= 2, "two generations")
        assert screen.board.mode == "halves"
        check_labels_find_every_attacked_queen(screen.board)


async def test_at_100x32_the_form_closes_for_a_run_so_n_64_is_exact(wait_for: Wait) -> None:
    app = QueensApp(frozen_clock=True)
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.pause()
        screen, form = app.main_screen, app.query_one(ParamForm)
        # The form would leave the chart and the table too narrow: it opens with f.
        assert form.region.width == 0 and screen.board.mode == "halves"
        await pilot.press("f")
        await pilot.pause()
        assert form.region.width > 0 and screen.board.mode == "halves"
        n_field = app.focused
        assert isinstance(n_field, Input)
        n_field.value = "64"
        await pilot.press("enter")
        await wait_for(pilot, lambda: screen.board.n == 64, "the run of 64")
        await pilot.pause()
        assert form.region.width == 0
        assert is_exact(screen.board.mode), screen.board.mode
        check_labels_find_every_attacked_queen(screen.board)
        # Paused, the form stays closed; f opens it again, escape closes it.
        await pilot.press("space")
        await pilot.pause()
        assert form.region.width == 0
        await pilot.press("f")
        await pilot.pause()
        assert form.region.width > 0
        await pilot.press("escape")
        await pilot.pause()
        assert form.region.width == 0 and is_exact(screen.board.mode)


async def test_at_200x60_the_showcase_opens_beside_the_form_in_squares() -> None:
    app = QueensApp(frozen_clock=True)
    async with app.run_test(size=(200, 60)) as pilot:
        await pilot.pause()
        assert app.query_one(ParamForm).region.width > 0
        assert app.main_screen.board.mode == "squares"
        check_labels_find_every_attacked_queen(app.main_screen.board)


@pytest.mark.parametrize(("size", "n"), [((100, 32), 40), ((100, 32), 64), ((200, 60), 150)])
async def test_a_running_board_is_exact(size: tuple[int, int], n: int, wait_for: Wait) -> None:
    # Swap mutation, as the showcase: slow enough to keep attacked queens for a while.
    config = Config(n=n, population=20, seed=5, mutation="swap", stop_when_solved=False)
    app = QueensApp(config, frozen_clock=True)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        screen = app.main_screen
        assert is_exact(screen.board.mode), screen.board.mode
        # At the lowest speed limit: running, with attacked queens left to find.
        await pilot.press(*["minus"] * len(SPEED_LIMITS), "space")
        await wait_for(pilot, lambda: screen.run.latest.generation >= 1, "a generation")
        assert screen.run.state == "running"
        await pilot.pause()
        assert is_exact(screen.board.mode), screen.board.mode
        assert screen.table.region.height >= 6
        check_labels_find_every_attacked_queen(screen.board)


async def test_the_population_view_and_zoom_keep_their_place_and_labels() -> None:
    app = QueensApp(Config(n=28, population=30, seed=3), frozen_clock=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = app.main_screen
        board = screen.board
        place = board.region
        await pilot.press("v")
        await pilot.pause()
        view = screen.population_view.region
        assert view.x == place.x and view.width > 0 and view.height > 0
        await pilot.press("v", "v")
        await pilot.pause()
        assert board.display and board.region.x == place.x
        await pilot.press("z")
        await pilot.pause()
        assert board.zoomed and board.mode == "squares"
        lines = board_lines(board)
        row0, row1, col0, _ = board.visible_region()
        gutter = board.label_width
        # The numbers scroll with the squares: the lines in view are numbered row0 to row1 - 1
        # (the border says so), and the header's first tick in view stands over its column.
        last = board.scrollable_content_region.height - 1
        assert int(lines[1].text[: gutter - 1]) == row0
        assert int(lines[last].text[: gutter - 1]) == row1 - 1
        assert f"r{row0}-{row1 - 1}" in str(board.border_subtitle)
        header = lines[0].text
        first = int(header.split()[0])
        assert first >= col0
        assert header.index(str(first)) == gutter + 2 * first - round(board.scroll_offset.x)


# 16 colours ---------------------------------------------------------------------------------


async def test_in_16_colours_the_squares_differ_and_queens_read_on_both(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(textual.constants, "COLOR_SYSTEM", "standard")
    app = QueensApp(Config(n=8, population=20, seed=3), frozen_clock=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert app.console.color_system == "standard"
        styles = app.main_screen.board.board_styles()

        def standard(colour: object) -> int | None:
            assert colour is not None
            return colour.downgrade(ColorSystem.STANDARD).number  # type: ignore[attr-defined]

        light, dark = standard(styles.light.bgcolor), standard(styles.dark.bgcolor)
        assert light != dark
        queens = {standard(styles.queen(False).color), standard(styles.queen(True).color)}
        assert len(queens) == 2 and not queens & {light, dark}


# ASCII --------------------------------------------------------------------------------------


@pytest.mark.parametrize(("size", "n"), [((80, 24), 28), ((100, 32), 64), ((80, 24), 8)])
async def test_an_ascii_board_draws_only_ascii(size: tuple[int, int], n: int) -> None:
    app = QueensApp(Config(n=n, population=20, seed=5), ascii=True, frozen_clock=True)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        board = app.main_screen.board
        text = "".join(strip.text for strip in board_lines(board))
        assert text.isascii(), {char for char in text if not char.isascii()}
        assert str(board.border_subtitle).isascii()


async def test_the_ascii_half_blocks_mark_exactly_the_queens() -> None:
    app = QueensApp(Config(n=28, population=20, seed=5), ascii=True, frozen_clock=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        board = app.main_screen.board
        position = board.position
        assert board.mode == "halves" and position is not None
        gutter = board.label_width
        marked = set()
        for line, strip in enumerate(board_lines(board)[1 : 1 + 14]):
            for column, mark in enumerate(strip.text[gutter : gutter + 28]):
                bits = ASCII_HALVES.index(mark)
                if bits & 1:
                    marked.add((2 * line, column))
                if bits & 2:
                    marked.add((2 * line + 1, column))
        assert marked == set(zip(position.rows.tolist(), position.columns.tolist(), strict=True))
        check_labels_find_every_attacked_queen(board)


# Small layout defects around the board -------------------------------------------------------


def toast_regions(app: QueensApp) -> list[Region]:
    return [toast.region for toast in app.screen.query(Toast)]


@pytest.mark.parametrize("size", [(80, 24), (100, 32), (200, 60)])
async def test_notifications_stay_off_the_board_and_the_table(size: tuple[int, int]) -> None:
    app = QueensApp(frozen_clock=True)
    async with app.run_test(size=size, notifications=True) as pilot:
        await pilot.pause()
        screen = app.main_screen
        screen.notify("The board fits: it is already at full size.", timeout=30)
        screen.notify("Recording stopped: disk full", title="Run store", severity="error")
        await pilot.pause(0.3)
        toasts = toast_regions(app)
        assert len(toasts) == 2
        for toast in toasts:
            assert toast.right <= size[0]
            for view in (screen.board.region, screen.table.region, screen.form.region):
                assert not toast.overlaps(view), (toast, view)


async def test_race_notifications_stay_off_its_boards() -> None:
    app = QueensApp(Config(n=12, population=20, seed=3), frozen_clock=True)
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await pilot.pause()
        await pilot.press("x")
        await pilot.pause(0.3)
        assert isinstance(app.screen, RaceScreen)
        app.screen.notify("A note about the race", timeout=30)
        await pilot.pause(0.3)
        (toast,) = toast_regions(app)
        for board in app.screen.query(Board):
            assert not toast.overlaps(board.region), (toast, board.region)


async def test_the_longest_form_label_shows_whole_and_open_lists_do_not_wrap() -> None:
    app = QueensApp(Config(n=28), frozen_clock=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("f")
        await pilot.pause()
        row = app.query_one("#row-local_search_candidates")
        label = row.query_one(Label)
        assert label.content_region.width >= len("local-search-candidates")
        mutation = app.query_one("#field-mutation", Select)
        mutation.scroll_visible(animate=False)
        mutation.focus()
        await pilot.pause()
        await pilot.press("enter")
        await pilot.pause(0.2)
        overlay = mutation.query_one(SelectOverlay)
        longest = max(len(str(option.prompt)) for option in overlay.options)
        # Padding 1 either side, the border's sides and a scrollbar's room.
        assert overlay.content_region.width >= longest + 2


async def test_the_runs_list_shows_the_status_whole_at_80x24(
    tmp_path: Path, wait_for: Wait
) -> None:
    store = str(tmp_path / "runs.sqlite3")
    config = Config(n=28, population=20, seed=3)
    first = QueensApp(config, frozen_clock=True, record=True, store=store)
    async with first.run_test(size=(80, 24)) as pilot:
        await pilot.press("n")
        await wait_for(pilot, lambda: first.main_screen.run.latest.generation == 1, "a step")
    # Closed before it finished: the run is recorded as interrupted.
    app = QueensApp(config, frozen_clock=True, record=False, store=store)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("l")
        await wait_for(pilot, lambda: isinstance(app.screen, RunsScreen), "the runs screen")
        table = app.screen.query_one(DataTable)
        await pilot.pause()
        assert table.get_row_at(0)[-1] == "interrupted"
        assert table.virtual_size.width <= table.scrollable_content_region.width
