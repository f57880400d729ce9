"""Snapshot tests of fixed, seeded, paused states (pytest-textual-snapshot).

Fixed inputs only: a seeded config, a fixed number of steps, a fixed terminal size, wall-clock
figures hidden (``frozen_clock``) and no blinking cursor. Regenerate the baselines with
``pytest tests/dashboard/screens/test_snapshots.py --snapshot-update`` after a deliberate
change, and look at the report before committing them.
"""

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


def _reached(app: QueensApp, generation: int) -> bool:
    latest = app.main_screen.run.latest
    return latest is not None and latest.generation >= generation


def _caught_up(app: QueensApp) -> bool:
    algorithm = app.main_screen.runner.algorithm
    return algorithm is not None and app.main_screen.run.latest is algorithm.snapshot


async def _steady(app: QueensApp, pilot: Pilot[None]) -> None:
    for field in app.query(Input):
        field.cursor_blink = False
    await pilot.pause(0.2)
    app.main_screen.painter.repaint(force=True)
    await pilot.pause(0.2)


def test_paused_with_an_inspected_individual(snap_compare: Any) -> None:
    app = QueensApp(Config(n=10, population=40, seed=3, **CLASSIC), frozen_clock=True)

    async def run_before(pilot: Pilot[None]) -> None:
        for generation in range(1, 6):
            await pilot.press("n")
            await wait_until_pilot(
                pilot, partial(_reached, app, generation), REACH_LIMIT, f"generation {generation}"
            )
        await wait_until_pilot(pilot, partial(_caught_up, app), REACH_LIMIT, "the engine caught up")
        await pilot.pause(0.2)
        await pilot.press("t", "down", "down", "enter")
        await _steady(app, pilot)

    assert snap_compare(app, terminal_size=(100, 32), run_before=run_before)


def test_solved_at_80x24(snap_compare: Any) -> None:
    app = QueensApp(Config(n=8, population=40, seed=2, **CLASSIC), frozen_clock=True)

    async def run_before(pilot: Pilot[None]) -> None:
        await pilot.press("space")
        await wait_until_pilot(
            pilot, lambda: app.main_screen.run.state == "solved", REACH_LIMIT, "the solve"
        )
        await _steady(app, pilot)

    assert snap_compare(app, terminal_size=(80, 24), run_before=run_before)


def test_too_small(snap_compare: Any) -> None:
    app = QueensApp(Config(n=8, seed=1), frozen_clock=True)
    assert snap_compare(app, terminal_size=(60, 18))
