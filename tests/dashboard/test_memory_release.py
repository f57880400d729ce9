"""A small run that replaces a large one gives the large one's memory back to the system."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from engine import Config
from tui.dashboard.app import QueensApp
from tui.dashboard.widgets import ParamForm


def _resident_mb() -> float:
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmRSS"):
                return int(line.split()[1]) / 1024
    raise AssertionError("no VmRSS in /proc/self/status")


async def test_replacing_a_large_run_releases_its_memory(wait_for: Callable[..., Any]) -> None:
    large = Config(n=28, population=100_000, seed=1, generations=3)
    app = QueensApp(large)
    async with app.run_test(size=(100, 32)) as pilot:
        screen = app.screen
        await wait_for(pilot, lambda: screen.run.latest is not None, "the first generation")
        before = _resident_mb()
        await pilot.press("space")
        # Slower than the other waits: a generation of 100,000 takes a while on a busy machine.
        deadline = time.monotonic() + 120
        while screen.run.state != "stopped" and time.monotonic() < deadline:
            await pilot.pause(0.1)
        assert screen.run.state == "stopped", "the large run did not end"
        grown = _resident_mb() - before
        assert grown > 50, f"the large run took only {grown:.0f} MB: nothing to release"
        screen.query_one(ParamForm).fill(Config(n=8, population=100, seed=1))
        await pilot.press("r")
        await wait_for(pilot, lambda: screen.run.latest.n == 8, "the small run")
        await pilot.pause(1.5)
        kept = _resident_mb() - before
        assert kept < 0.25 * grown, f"kept {kept:.0f} of the large run's {grown:.0f} MB"
