"""Snapshot of the chart's diversity-explained view (pytest-textual-snapshot), at 100x32.

A seeded config, a fixed number of steps taken with the view shown, wall-clock figures hidden.
Regenerate with ``--snapshot-update`` after a deliberate change, and look at it first.
"""

from __future__ import annotations

import time
from typing import Any

from textual.pilot import Pilot
from textual.widgets import Input

from engine import Config
from tui.dashboard.app import QueensApp


async def _until_generation(app: QueensApp, pilot: Pilot[None], generation: int) -> None:
    deadline = time.monotonic() + 20
    while True:
        latest, algorithm = app.main_screen.run.latest, app.main_screen.runner.algorithm
        if (
            latest is not None
            and latest.generation >= generation
            and latest is (algorithm.snapshot if algorithm else None)
        ):
            return
        assert time.monotonic() < deadline, "the app did not reach the generation"
        await pilot.pause(0.02)


def test_diversity_explained_at_100x32(snap_compare: Any) -> None:
    app = QueensApp(
        Config(n=16, population=60, seed=5, crossover_rate=0.6, stop_when_solved=False),
        frozen_clock=True,
    )

    async def run_before(pilot: Pilot[None]) -> None:
        await pilot.press("c", "c")
        await pilot.pause(0.3)  # the next frame turns the measuring on
        for generation in range(1, 13):
            await pilot.press("n")
            await _until_generation(app, pilot, generation)
        for field in app.query(Input):
            field.cursor_blink = False
        await pilot.pause(0.2)
        app.main_screen.painter.repaint(force=True)
        await pilot.pause(0.2)

    assert snap_compare(app, terminal_size=(100, 32), run_before=run_before)
