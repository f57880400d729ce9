"""A snapshot of the placement map of a fixed, seeded, paused state (see test_snapshots.py)."""

from __future__ import annotations

from functools import partial
from typing import Any

from textual.pilot import Pilot
from textual.widgets import Input

from engine import Config
from tests.waiting import wait_until_pilot
from tui.dashboard.app import QueensApp

CLASSIC: dict[str, Any] = {"mutation": "swap", "mutation_rate": 0.3, "crossover_rate": 0.9}


REACH_LIMIT = 20.0
"""Seconds the app may take to reach the state a picture is taken of."""


def _caught_up(app: QueensApp, generation: int) -> bool:
    algorithm = app.main_screen.runner.algorithm
    latest = app.main_screen.run.latest
    return (
        algorithm is not None
        and latest is algorithm.snapshot
        and latest is not None
        and latest.generation >= generation
    )


def test_the_placement_map_of_a_paused_run(snap_compare: Any) -> None:
    app = QueensApp(Config(n=12, population=200, seed=3, **CLASSIC), frozen_clock=True)

    async def run_before(pilot: Pilot[None]) -> None:
        for generation in range(1, 5):
            await pilot.press("n")
            await wait_until_pilot(
                pilot, partial(_caught_up, app, generation), REACH_LIMIT, f"generation {generation}"
            )
        await pilot.press("v")
        for field in app.query(Input):
            field.cursor_blink = False
        await pilot.pause(0.2)
        app.main_screen.painter.repaint(force=True)
        await pilot.pause(0.2)

    assert snap_compare(app, terminal_size=(100, 32), run_before=run_before)
