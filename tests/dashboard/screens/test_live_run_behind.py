"""``l`` never ends a live run: a replay chosen from the list leaves it waiting behind, paused,
and ``end`` comes back to it where it was, still recorded; it goes on bit for bit."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path

from textual.pilot import Pilot

from engine import Config
from tests.dashboard.screens.test_replay_plays import record_run
from tests.dashboard.screens.test_time_travel import (
    assert_shows,
    live_generations,
    shown_generation,
    status_text,
)
from tui.dashboard.app import QueensApp
from tui.dashboard.runs.speed import REPLAY_SPEED
from tui.dashboard.screens.runs import RunsScreen
from tui.dashboard.widgets import ParamForm
from tui.lab.store import RunStore

WaitFor = Callable[..., Awaitable[None]]

LIVE = Config(n=12, population=20, seed=5, stop_when_solved=False)
"""The run on screen when ``l`` is pressed."""
OLD = Config(n=9, population=14, seed=77, generations=30, stop_when_solved=False)
"""The run on record, replayed from the list."""


async def replay_old_run(app: QueensApp, pilot: Pilot[None], wait_for: WaitFor) -> None:
    await pilot.press("l")
    await wait_for(pilot, lambda: isinstance(app.screen, RunsScreen), "the runs screen")
    await pilot.press("down", "enter")  # newest first: run 2 is the live one
    await wait_for(pilot, lambda: app.main_screen.travel.replay_only, "the replay")
    await wait_for(pilot, lambda: shown_generation(app) == 30, "the record's end")


async def test_a_replay_from_l_leaves_the_live_run_behind_and_end_returns_to_it(
    tmp_path: Path, wait_for: WaitFor
) -> None:
    path = tmp_path / "runs.sqlite"
    record_run(path, OLD)
    live = live_generations(LIVE, 8)
    app = QueensApp(LIVE, frozen_clock=True, record=True, store=str(path))
    async with app.run_test(size=(100, 32)) as pilot:
        screen = app.main_screen
        for _ in range(5):
            await pilot.press("n")
        await wait_for(pilot, lambda: shown_generation(app) == 5, "five generations")
        await replay_old_run(app, pilot, wait_for)
        assert "run 1" in status_text(app) and screen.run.latest.n == OLD.n
        assert any("waits behind" in n.message for n in app._notifications)
        # The live run was unlimited: the record plays back at a watchable speed.
        assert screen.runner.speed_limit == REPLAY_SPEED

        await pilot.press("end")
        await wait_for(pilot, lambda: not screen.travel.replay_only, "the live run")
        assert_shows(app, live[5])
        assert screen.run.state == "paused" and "run 2" in status_text(app)
        assert screen.runner.speed_limit is None  # its own limit back
        assert screen.query_one(ParamForm).config() == LIVE
        # It goes on where it was, bit for bit, and is recorded as it goes.
        for _ in range(3):
            await pilot.press("n")
        await wait_for(pilot, lambda: shown_generation(app) == 8, "three more generations")
        assert_shows(app, live[8])
        # Its record is still open: time travel reads it.
        await pilot.press("left_square_bracket")
        await wait_for(pilot, lambda: shown_generation(app) == 7, "one back in its record")
        assert_shows(app, live[7])
    with RunStore.open(path) as store:
        assert store.run(2).generations == 8
        assert store.stats(2)["mean_fitness"].tolist() == [s.stats.mean_fitness for s in live]


async def test_a_running_run_waits_paused_and_escape_from_the_list_lets_it_go_on(
    tmp_path: Path, wait_for: WaitFor
) -> None:
    path = tmp_path / "runs.sqlite"
    record_run(path, OLD)
    app = QueensApp(LIVE, frozen_clock=True, record=True, store=str(path))
    async with app.run_test(size=(100, 32)) as pilot:
        screen = app.main_screen
        await pilot.press("space")
        await pilot.press("l")
        await wait_for(pilot, lambda: isinstance(app.screen, RunsScreen), "the runs screen")
        assert not screen.runner.running
        await pilot.press("escape")
        assert screen.runner.running and screen.run.state == "running"
        await replay_old_run(app, pilot, wait_for)
        reached = screen.record_keys.parked.generation  # type: ignore[union-attr]
        await pilot.press("end")
        await wait_for(pilot, lambda: not screen.travel.replay_only, "the live run")
        assert shown_generation(app) == reached and screen.run.state == "paused"
        await pilot.press("space")
        await wait_for(pilot, lambda: shown_generation(app) > reached, "the run going on")


async def test_a_new_run_replaces_the_one_left_behind_and_says_so(
    tmp_path: Path, wait_for: WaitFor
) -> None:
    path = tmp_path / "runs.sqlite"
    record_run(path, OLD)
    app = QueensApp(LIVE, frozen_clock=True, record=True, store=str(path))
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.press("n")
        await replay_old_run(app, pilot, wait_for)
        await pilot.press("r")
        await wait_for(pilot, lambda: not app.main_screen.travel.replay_only, "a new run")
        assert app.main_screen.record_keys.parked is None
        assert any("left behind" in n.message for n in app._notifications)
        await pilot.press("end")  # nothing to come back to: the new run is the live one
        assert app.main_screen.run.latest.n == OLD.n  # the form held the replayed config
