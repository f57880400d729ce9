"""Snapshot tests of an inspected child's origin and of the ancestry screen (seeded, paused).

Regenerate with
``pytest tests/dashboard/screens/test_origin_snapshots.py --snapshot-update`` after a
deliberate change, and look at the pictures before committing them.
"""

from __future__ import annotations

from typing import Any

from textual.pilot import Pilot
from textual.widgets import Input

from tests.dashboard.crossing import CHILD, CROSSING
from tests.waiting import wait_until_pilot
from tui.dashboard.app import QueensApp
from tui.dashboard.screens.ancestry import AncestryScreen

REACH_LIMIT = 20.0
"""Seconds the app may take to reach the state a picture is taken of."""


async def _inspect_crossed_child(app: QueensApp, pilot: Pilot[None]) -> None:
    for generation in range(1, 6):
        await pilot.press("n")
        await wait_until_pilot(
            pilot,
            lambda g=generation: (  # type: ignore[misc]
                app.main_screen.run.latest is not None
                and app.main_screen.run.latest.generation == g
            ),
            REACH_LIMIT,
            f"generation {generation}",
        )
    await pilot.press("t", "o", "o", "home", *["down"] * CHILD, "enter")
    await wait_until_pilot(
        pilot, lambda: app.main_screen.run.inspected is not None, REACH_LIMIT, "the inspected child"
    )


async def _steady(app: QueensApp, pilot: Pilot[None]) -> None:
    for field in app.query(Input):
        field.cursor_blink = False
    await pilot.pause(0.3)
    app.main_screen.painter.repaint(force=True)
    await pilot.pause(0.3)


def test_an_inspected_crossed_child_coloured_by_parent(snap_compare: Any) -> None:
    app = QueensApp(CROSSING, frozen_clock=True)

    async def run_before(pilot: Pilot[None]) -> None:
        await _inspect_crossed_child(app, pilot)
        await _steady(app, pilot)

    assert snap_compare(app, terminal_size=(100, 32), run_before=run_before)


def test_the_ancestry_screen(snap_compare: Any) -> None:
    app = QueensApp(CROSSING, frozen_clock=True)

    async def run_before(pilot: Pilot[None]) -> None:
        await _inspect_crossed_child(app, pilot)
        await _steady(app, pilot)
        await pilot.press("w")
        await wait_until_pilot(
            pilot, lambda: isinstance(app.screen, AncestryScreen), REACH_LIMIT, "the ancestry"
        )
        await pilot.press("p")  # one row toward generation 0: the board follows
        await pilot.pause(0.3)

    assert snap_compare(app, terminal_size=(100, 32), run_before=run_before)
