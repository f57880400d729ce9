"""The dashboard's three views in the app, with Pilot: the virtual population table, the
fitness chart, the board (their pictures are checked against plain numpy in ``parts/``)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import numpy as np
from rich.style import Style
from textual.app import App, ComposeResult
from textual.strip import Strip

from engine import Config
from tests.dashboard.boards import permutation_position
from tui.dashboard.app import QueensApp
from tui.dashboard.pictures.board_pictures import braille_codes, decode_braille
from tui.dashboard.widgets.board import Board
from tui.dashboard.widgets.fitness_plot import COLOURS, FitnessPlot

WaitFor = Callable[..., Awaitable[None]]


def make_app(config: Config) -> QueensApp:
    return QueensApp(config, frozen_clock=True)


# The population table -----------------------------------------------------------------------


async def test_a_million_individuals_open_and_q_quits(wait_for: WaitFor) -> None:
    app = make_app(Config(n=8, population=1_000_000, seed=1))
    async with app.run_test(size=(100, 32)) as pilot:
        await wait_for(
            pilot, lambda: app.main_screen.table.row_count == 1_000_000, "the first screen"
        )
        await pilot.pause()
        table = app.main_screen.table
        # Only the rows in view were asked for: the window is the height of the table.
        assert table.rows(0, 5).size == 5
        assert table.get_row_at(0)[2] == app.main_screen.run.latest.fitness.max()  # type: ignore[union-attr]
        await pilot.press("t", "end")
        assert table.cursor_row == 999_999
        last = table.get_row_at(999_999)
        assert last[2] == app.main_screen.run.latest.fitness.min()  # type: ignore[union-attr]
        await pilot.press("enter")
        await pilot.pause()
        assert (
            app.main_screen.run.inspected is not None
            and app.main_screen.run.inspected[1] == last[1]
        )
        assert app.return_code is None
        await pilot.press("q")
        await wait_for(pilot, lambda: app.return_code == 0, "q to quit")


async def test_table_keys_move_the_cursor_and_enter_inspects_that_row(wait_for: WaitFor) -> None:
    app = make_app(Config(n=12, population=500, seed=3))
    async with app.run_test(size=(100, 32)) as pilot:
        await wait_for(pilot, lambda: app.main_screen.table.row_count == 500, "the table")
        table = app.main_screen.table
        await pilot.press("t", "down", "down", "down", "up")
        assert table.cursor_row == 2
        await pilot.press("pagedown")
        page = table.cursor_row - 2
        assert page >= 3
        await pilot.press("end")
        assert table.cursor_row == 499
        assert table.scroll_offset.y > 0
        await pilot.press("home")
        assert table.cursor_row == 0 and table.scroll_offset.y == 0
        await pilot.press("pagedown", "enter")
        await pilot.pause()
        assert app.main_screen.run.inspected is not None
        assert app.main_screen.run.inspected[1] == table.get_row_at(page)[1]
        # The rows really are in ranking order.
        fitness = [table.get_row_at(row)[2] for row in range(500)]
        assert fitness == sorted(fitness, reverse=True)
        await pilot.press("o", "o")
        assert table.sort_by == "index"
        assert [table.get_row_at(row)[1] for row in range(5)] == [0, 1, 2, 3, 4]


# The board ----------------------------------------------------------------------------------


class BoardHost(App[None]):
    """A board alone in an 80 x 40 area, and its labels: a gutter of 4 and a header line."""

    CSS = "Board { width: 84; height: 41; }"

    def compose(self) -> ComposeResult:
        yield Board()


def _colour(style: Style) -> str | None:
    return None if style.color is None else style.color.get_truecolor().hex


async def test_a_board_of_160_is_drawn_exactly_in_80_columns_with_attacked_queens_red() -> None:
    rows = np.random.default_rng(7).permutation(160).tolist()
    position = permutation_position(rows)
    app = BoardHost()
    async with app.run_test(size=(90, 44)) as pilot:
        board = app.query_one(Board)
        board.show(position)
        await pilot.pause()
        assert board.mode == "braille" and board.virtual_size.width == 84
        assert "1 dot = 1 square" in str(board.border_subtitle)
        # Row numbers (every line: its first row) left, column numbers above, both from 0.
        labelled = [board.render_line(y) for y in range(41)]
        assert labelled[0].text.split() == [str(c) for c in range(0, 160, 10)]
        assert [strip.text[:4] for strip in labelled[1:4]] == ["  0 ", "  4 ", "  8 "]
        strips = [strip.crop(4, 84) for strip in labelled[1:]]
        assert decode_braille([strip.text for strip in strips]) == {
            (row, column) for column, row in enumerate(rows)
        }
        attacked_colour = _colour(board.get_component_rich_style("board--attacked"))
        _, attacked = braille_codes(position)
        for y, strip in enumerate(strips):
            x = 0
            for segment in strip:
                for _ in segment.text:
                    # A character holding an attacked queen is filled red under its dots.
                    fill = (segment.style or Style()).bgcolor
                    red = fill is not None and fill.get_truecolor().hex == attacked_colour
                    assert red == bool(x < 80 and attacked[y, x]), (y, x)
                    x += 1


async def test_a_large_board_is_a_labelled_density_picture_and_z_opens_on_an_attack() -> None:
    app = make_app(Config(n=1000, population=20, seed=4))
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.pause()
        board = app.main_screen.board
        assert board.mode == "density"
        # Labelled at generation 0 already.
        assert app.main_screen.run.latest is not None and app.main_screen.run.latest.generation == 0
        label = str(board.border_subtitle)
        scale = f"{board.scale}x{2 * board.scale}"
        assert board.view_label() == f"1 char = {scale} squares, shade = queens"
        assert scale in label and "♕" in label
        await pilot.press("z")
        await pilot.pause()
        assert board.zoomed and board.mode == "squares"
        row0, row1, col0, col1 = board.visible_region()
        position = board.position
        assert position is not None
        in_view = (
            (position.rows >= row0)
            & (position.rows < row1)
            & (position.columns >= col0)
            & (position.columns < col1)
        )
        assert (in_view & position.attacked).any()
        assert board.view_label() == f"rows {row0}-{row1 - 1} cols {col0}-{col1 - 1} of 1000"
        # The narrow board's border says it shorter.
        assert f"r{row0}-{row1 - 1} c{col0}-{col1 - 1}" in str(board.border_subtitle)
        await pilot.press("down", "down", "down")
        await pilot.pause()
        assert board.visible_region()[0] == row0 + 3
        assert f"r{row0 + 3}-" in str(board.border_subtitle)


# The chart ----------------------------------------------------------------------------------


class PlotHost(App[None]):
    """A chart alone in a 60 x 12 area."""

    CSS = "FitnessPlot { width: 60; height: 12; }"

    def compose(self) -> ComposeResult:
        yield FitnessPlot()


def _colours_in(strips: list[Strip]) -> set[str]:
    return {
        colour
        for strip in strips
        for segment in strip
        if segment.text.strip() and (colour := _colour(segment.style or Style())) is not None
    }


async def test_each_series_keeps_its_colour_with_best_drawn_on_top() -> None:
    app = PlotHost()
    async with app.run_test(size=(70, 14)) as pilot:
        plot = app.query_one(FitnessPlot)
        x = list(range(40))
        best = [100.0 - 30 * 0.9**g for g in x]
        plot.show(
            x,
            {"best": best, "mean": [b - 20 for b in best], "worst": [b - 40 for b in best]},
            [0.2] * 40,
            x_label="generations",
        )
        await pilot.pause()
        strips = [plot.render_line(y) for y in range(12)]
        body = strips[1:-1]
        colours = _colours_in(body)
        for name in ("best", "mean", "worst", "diversity"):
            assert COLOURS[name] in colours, name
        # Where best and worst meet (a single flat line), best's colour wins.
        plot.show(x, {"best": [5.0] * 40, "worst": [5.0] * 40}, [0.0] * 40, x_label="g")
        await pilot.pause()
        flat = _colours_in([plot.render_line(y) for y in range(1, 11)])
        assert COLOURS["best"] in flat and COLOURS["worst"] not in flat
        assert strips[0].text.startswith("fitness ")


async def test_generation_zero_and_huge_fitness_give_readable_axes() -> None:
    app = PlotHost()
    async with app.run_test(size=(70, 14)) as pilot:
        plot = app.query_one(FitnessPlot)
        plot.show(
            [0],
            {"best": [4999884054.0], "mean": [4999871000.5], "worst": [4999850000.0]},
            [1.0],
            x_label="generations",
        )
        await pilot.pause()
        lines = [plot.render_line(y).text for y in range(12)]
        axis = lines[-1].split()
        assert axis[0] == "0" and axis[-1] == "1" and "-1" not in lines[-1]
        labels = [line.split("┤")[0].strip() for line in lines[1:-1] if "┤" in line]
        assert len(labels) >= 3 and len(set(labels)) == len(labels)
        assert all(len(label) <= 9 and label.endswith("G") for label in labels), labels


async def test_c_switches_the_chart_to_conflicts_and_it_has_six_rows_at_80x24(
    wait_for: WaitFor,
) -> None:
    app = make_app(Config(n=8, population=40, seed=2, stop_when_solved=False))
    async with app.run_test(size=(80, 24)) as pilot:
        for _ in range(3):
            await pilot.press("n")
        await wait_for(pilot, lambda: len(app.main_screen.run.series) == 4, "three steps")
        app.main_screen.painter.repaint(force=True)
        await pilot.pause()
        plot = app.main_screen.plot
        # One legend line and one axis line: the rest is plot.
        assert plot.size.height - 2 >= 6
        assert plot.render_line(0).text.startswith("fitness")
        await pilot.press("c")
        await pilot.pause()
        assert plot.metric == "conflicts"
        lines = [plot.render_line(y).text for y in range(plot.size.height)]
        assert lines[0].startswith("conflicts")
        assert lines[-2].split("┤")[0].strip() == "0"
        await pilot.click(FitnessPlot)
        assert plot.metric == "explained"
        await pilot.press("c")
        assert plot.metric == "fitness"
