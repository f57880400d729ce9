"""The board of an inspected individual marks its attacked queens at every scale, in every colour
system and in ASCII (Pilot tests; the pictures alone are in ``test_attacked_marks``)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import Final

import numpy as np
import pytest
import textual.constants
from rich.color import Color, ColorSystem
from rich.style import Style
from test_attacked_marks import board_styles
from test_board_sizes import board_lines, cell_at
from test_origin import CHILD, CROSSING, inspect_by_index, step_to

from tui.dashboard.app import QueensApp
from tui.dashboard.pictures.board_pictures import HEADER_LINES, columns_per_cell, rows_per_line
from tui.dashboard.pictures.origin import FROM_FIRST, FROM_SECOND, ORIGIN_COLOURS
from tui.dashboard.widgets import Board

WaitFor = Callable[..., Awaitable[None]]

WIDE_CROSSING: Final = replace(CROSSING, n=28)
WIDE_CHILD: Final = 26
"""In generation 5 of :data:`WIDE_CROSSING`: crossed (pmx) from two parents, 2 queens moved,
attacked and safe queens from each parent."""


def queen_cells(board: Board) -> list[tuple[bool, int, str, Style, int]]:
    """Each queen as drawn: attacked, origin, the cell's text and style, and (half blocks)
    which half of the cell is its square (0 upper, 1 lower)."""
    position = board.position
    assert position is not None and position.origins is not None
    lines = board_lines(board)
    columns, cells = columns_per_cell(board.mode, board.scale)
    per_line = rows_per_line(board.mode, board.scale)
    drawn = []
    for index in range(position.n):
        row, column = int(position.rows[index]), int(position.columns[index])
        x = board.label_width + column * cells // columns
        segment = cell_at(lines[HEADER_LINES + row // per_line], x)
        drawn.append(
            (
                bool(position.attacked[index]),
                int(position.origins[index]),
                segment.text,
                segment.style or Style(),
                row % per_line,
            )
        )
    return drawn


async def inspect_child(app: QueensApp, pilot: object, wait_for: WaitFor, child: int) -> Board:
    await step_to(app, pilot, wait_for, 5)
    await inspect_by_index(pilot, child)
    await wait_for(
        pilot,
        lambda: (
            app.main_screen.board.position is not None
            and app.main_screen.board.position.origins is not None
        ),
        "the child coloured by parent",
    )
    await pilot.pause()  # type: ignore[attr-defined]
    return app.main_screen.board


@pytest.mark.parametrize("system", ["truecolor", "standard"])
async def test_an_inspected_child_s_attacked_queens_are_filled_with_their_parent_s_colour(
    system: str, wait_for: WaitFor, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(textual.constants, "COLOR_SYSTEM", system)
    app = QueensApp(CROSSING, frozen_clock=True)
    async with app.run_test(size=(100, 32)) as pilot:
        board = await inspect_child(app, pilot, wait_for, CHILD)
        assert board.mode == "squares"
        styles = board.board_styles()
        if system == "truecolor":
            # The colours the pure tests of the pictures take are the widget's.
            expected = board_styles()
            for name in ("light", "dark"):
                assert getattr(styles, name).bgcolor == getattr(expected, name).bgcolor, name
            for name in ("safe", "attacked", "ink"):
                assert getattr(styles, name).color == getattr(expected, name).color, name
            assert [s.color for s in styles.origins] == [s.color for s in expected.origins]
        squares = {styles.light.bgcolor, styles.dark.bgcolor}
        drawn = queen_cells(board)
        assert any(attacked for attacked, *_ in drawn) and not all(a for a, *_ in drawn)
        parents = {origin for attacked, origin, *_ in drawn if attacked}
        assert parents & {FROM_FIRST, FROM_SECOND}, "attacked queens from a parent"
        for attacked, origin, text, style, _ in drawn:
            colour = styles.queen(attacked, origin).color
            if attacked:
                assert text == "♕" and style.bgcolor == colour and style.color == styles.ink.color
                assert style.bgcolor not in squares
            else:
                assert text == "♛" and style.bgcolor in squares and style.color == colour
        if system == "standard":
            # 16 colours: the fills stay apart from the squares (black and bright black).
            assert board.has_class("-ansi16")
            shown = {
                colour.downgrade(ColorSystem.STANDARD).number
                for colour in squares
                if colour is not None
            }
            for attacked, _, _, style, _ in drawn:
                if attacked:
                    assert style.bgcolor is not None
                    assert style.bgcolor.downgrade(ColorSystem.STANDARD).number not in shown


async def test_in_half_blocks_an_inspected_child_s_attacked_queens_are_red(
    wait_for: WaitFor,
) -> None:
    app = QueensApp(WIDE_CROSSING, frozen_clock=True)
    async with app.run_test(size=(80, 24)) as pilot:
        board = await inspect_child(app, pilot, wait_for, WIDE_CHILD)
        assert board.mode == "halves"
        styles = board.board_styles()
        drawn = queen_cells(board)
        for code in (FROM_FIRST, FROM_SECOND):
            kinds = {attacked for attacked, origin, *_ in drawn if origin == code}
            assert kinds == {True, False}, f"attacked and safe queens from parent {code}"
        for attacked, origin, text, style, half in drawn:
            assert text == "▀"
            square = style.color if half == 0 else style.bgcolor
            if attacked:
                assert square == styles.attacked.color
            elif origin:
                assert square == Color.parse(ORIGIN_COLOURS[origin])


async def test_in_ascii_a_board_that_fits_one_square_a_cell_shows_q_and_x_in_bold(
    wait_for: WaitFor,
) -> None:
    # 80 x 40: too narrow for two cells a square, tall enough for one.
    app = QueensApp(WIDE_CROSSING, frozen_clock=True, ascii=True)
    async with app.run_test(size=(80, 40)) as pilot:
        board = await inspect_child(app, pilot, wait_for, WIDE_CHILD)
        assert board.mode == "cells"
        drawn = queen_cells(board)
        assert {text for *_, text, _, _ in drawn} == {"Q", "X"}
        for attacked, _, text, style, _ in drawn:
            assert text == ("X" if attacked else "Q") and style.bold
        assert (
            np.count_nonzero([attacked for attacked, *_ in drawn]) == board.position.attacked_count
        )  # type: ignore[union-attr]
        assert "1 sq" in str(board.border_subtitle)
