"""Snapshot tests of the lessons screen: a lesson's text, and its measured rows beside the
theory, at the smallest terminal the dashboard is made for (80x24) and a common one (100x32).

Regenerate with
``pytest tests/dashboard/screens/test_lessons_snapshots.py --snapshot-update`` after a
deliberate change, and look at the pictures before committing them.
"""

from __future__ import annotations

from typing import Any

import pytest
from textual.pilot import Pilot

from engine import Config
from tests.waiting import wait_until_pilot
from tui.dashboard.app import QueensApp
from tui.dashboard.screens.lessons import LessonsScreen

CONFIG = Config(n=8, population=20, seed=3)

REACH_LIMIT = 60.0
"""Seconds the app may take to reach the state a picture is taken of."""

SIZES = [(80, 24), (100, 32)]


def lessons_of(app: QueensApp) -> LessonsScreen:
    screen = app.screen
    assert isinstance(screen, LessonsScreen)
    return screen


@pytest.mark.parametrize("size", SIZES, ids=lambda size: f"{size[0]}x{size[1]}")
def test_a_lesson_s_text_and_formula(snap_compare: Any, size: tuple[int, int]) -> None:
    app = QueensApp(CONFIG, frozen_clock=True)

    async def run_before(pilot: Pilot[None]) -> None:
        await pilot.press("L")
        await wait_until_pilot(
            pilot, lambda: isinstance(app.screen, LessonsScreen), REACH_LIMIT, "the lessons"
        )
        await pilot.press("n", "n")  # founders
        await pilot.pause(0.3)

    assert snap_compare(app, terminal_size=size, run_before=run_before)


@pytest.mark.parametrize("size", SIZES, ids=lambda size: f"{size[0]}x{size[1]}")
def test_a_lesson_s_rows_beside_the_theory(snap_compare: Any, size: tuple[int, int]) -> None:
    app = QueensApp(CONFIG, frozen_clock=True)

    async def run_before(pilot: Pilot[None]) -> None:
        await app.push_screen(LessonsScreen(sizes={"founders": (10, 4)}))
        screen = lessons_of(app)
        await pilot.press("n", "n", "space")  # founders, its runs
        await wait_until_pilot(
            pilot, lambda: screen.slideshow.step_name == "rows", REACH_LIMIT, "the founders' rows"
        )
        await pilot.pause(0.3)

    assert snap_compare(app, terminal_size=size, run_before=run_before)
