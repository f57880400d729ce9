"""The board's layout plan: every N up to the goal gets an exact plan at every screen size."""

from __future__ import annotations

import pytest

from tui.dashboard.pictures.board_layout import plan_screen


@pytest.mark.parametrize(
    ("width", "height", "largest", "modes"),
    [
        (80, 24, 28, {"squares", "halves"}),
        (100, 32, 64, {"squares", "halves", "braille"}),
        (200, 60, 150, {"squares", "halves", "braille"}),
    ],
)
def test_every_n_up_to_the_goal_gets_an_exact_plan(
    width: int, height: int, largest: int, modes: set[str]
) -> None:
    for n in range(1, largest + 1):
        plan = plan_screen(n, width, height, False)
        assert plan.mode in modes, (n, plan)
        # The chart and the table keep room beside or below the board.
        assert plan.board_width <= width - 30 and plan.first_row <= height - 2 - 6, (n, plan)
