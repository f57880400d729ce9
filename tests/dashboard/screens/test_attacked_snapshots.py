"""Snapshot tests of an inspected child coloured by parent with its attacked queens marked, at
80x24 (28 queens in half blocks: attacked ones red) and 100x32 (64 queens in Braille: attacked
ones filled with their parent's colour); the 10 queens of ``test_origin_snapshots`` show the
same in two cells a square.

Regenerate with
``pytest tests/dashboard/screens/test_attacked_snapshots.py --snapshot-update`` after a
deliberate change, and look at the pictures before committing them.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from test_origin_snapshots import REACH_LIMIT, _steady
from textual.pilot import Pilot

from tests.dashboard.crossing import CROSSING
from tests.waiting import wait_until_pilot
from tui.dashboard.app import QueensApp


async def _inspect(app: QueensApp, pilot: Pilot[None], child: int) -> None:
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
    # Not sorted with o: its "Sorted by ..." toasts were in the picture or not by the load.
    await pilot.press("t", "home", *["down"] * child, "enter")
    await wait_until_pilot(
        pilot, lambda: app.main_screen.run.inspected is not None, REACH_LIMIT, "the inspected child"
    )
    await _steady(app, pilot)


def test_an_inspected_child_of_28_queens_at_80x24(snap_compare: Any) -> None:
    """Child 26 of generation 5: crossed (pmx) and mutated, attacked and safe queens from
    each parent."""
    app = QueensApp(replace(CROSSING, n=28), frozen_clock=True)

    async def run_before(pilot: Pilot[None]) -> None:
        await _inspect(app, pilot, 26)
        assert app.main_screen.board.mode == "halves"

    assert snap_compare(app, terminal_size=(80, 24), run_before=run_before)


def test_an_inspected_child_of_64_queens_at_100x32(snap_compare: Any) -> None:
    """Child 0 of generation 5: crossed (pmx) and mutated, from both parents."""
    app = QueensApp(replace(CROSSING, n=64), frozen_clock=True)

    async def run_before(pilot: Pilot[None]) -> None:
        await _inspect(app, pilot, 0)
        assert app.main_screen.board.mode == "braille"

    assert snap_compare(app, terminal_size=(100, 32), run_before=run_before)
