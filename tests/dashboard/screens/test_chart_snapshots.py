"""Snapshots of the chart's diversity-explained view (pytest-textual-snapshot), at 100x32: a live
run, and a recorded run stepped in a replay.

A seeded config, a fixed number of steps taken with the view shown, wall-clock figures hidden.
Regenerate with ``--snapshot-update`` after a deliberate change, and look at it first.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from textual.pilot import Pilot
from textual.widgets import Input

from engine import Config
from tests.waiting import wait_until_pilot
from tui.dashboard.app import QueensApp

REACH_LIMIT = 20.0
"""Seconds the app may take to reach the state a picture is taken of."""


async def _until_generation(app: QueensApp, pilot: Pilot[None], generation: int) -> None:
    def caught_up() -> bool:
        latest, algorithm = app.main_screen.run.latest, app.main_screen.runner.algorithm
        return (
            latest is not None
            and latest.generation >= generation
            and latest is (algorithm.snapshot if algorithm else None)
        )

    await wait_until_pilot(pilot, caught_up, REACH_LIMIT, f"generation {generation}")


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


def test_diversity_explained_in_a_replay_at_100x32(snap_compare: Any, tmp_path: Path) -> None:
    from tui.lab.engine_state import new_algorithm
    from tui.lab.recorder import Recorder
    from tui.lab.store import RunStore

    config = Config(n=16, population=60, seed=5, crossover_rate=0.6, generations=30)
    path = tmp_path / "r.sqlite3"
    with RunStore.open(path) as store:
        algorithm = new_algorithm(config.replace(stop_when_solved=False))
        recorder = Recorder(store, algorithm)
        while algorithm.has_next():
            recorder.record(algorithm.step())
        recorder.close()
    app = QueensApp(config, frozen_clock=True, record=True, store=str(path), replay=1)

    async def run_before(pilot: Pilot[None]) -> None:
        screen = app.main_screen
        await wait_until_pilot(
            pilot, lambda: screen.run.latest is not None, REACH_LIMIT, "the record's end"
        )
        await pilot.press("g", "0", "enter")
        await wait_until_pilot(pilot, lambda: _shown(app) == 0, REACH_LIMIT, "generation 0")
        await pilot.press("c", "c")
        await wait_until_pilot(
            pilot, lambda: screen.run.variation.enabled, REACH_LIMIT, "the measuring on"
        )
        for generation in range(1, 13):
            await pilot.press("n")
            await wait_until_pilot(
                pilot,
                lambda g=generation: _shown(app) == g,
                REACH_LIMIT,
                f"generation {generation}",
            )
        await wait_until_pilot(
            pilot, lambda: screen.plot.explained.size == 12, REACH_LIMIT, "12 generations explained"
        )
        for field in app.query(Input):
            field.cursor_blink = False
        await pilot.pause(0.2)
        screen.painter.repaint(force=True)
        await pilot.pause(0.2)

    assert snap_compare(app, terminal_size=(100, 32), run_before=run_before)


def _shown(app: QueensApp) -> int:
    latest = app.main_screen.run.latest
    return -1 if latest is None else latest.generation
