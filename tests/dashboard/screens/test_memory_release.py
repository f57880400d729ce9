"""A small run that replaces a large one gives the large one's memory back to the system.

Measured in a process of its own: in a test process that has run other tests, the heap may
already hold free room the large run fills, and the process's resident memory then says
little about this run (on two test processes it read a large run that grew by too little to
measure).
"""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from pathlib import Path


def _resident_mb() -> float:
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmRSS"):
                return int(line.split()[1]) / 1024
    raise AssertionError("no VmRSS in /proc/self/status")


async def _measure() -> dict[str, float]:
    """The large run's growth of resident memory, and what of it is kept once a small run
    replaced it (MB)."""
    from engine import Config
    from tests.waiting import wait_until_pilot
    from tui.dashboard.app import QueensApp
    from tui.dashboard.widgets import ParamForm

    large = Config(n=28, population=100_000, seed=1, generations=3)
    app = QueensApp(large)
    async with app.run_test(size=(100, 32)) as pilot:
        screen = app.screen
        await wait_until_pilot(
            pilot, lambda: screen.run.latest is not None, 60, "the first generation", interval=0.05
        )
        before = _resident_mb()
        await pilot.press("space")
        # Slower than the other waits: a generation of 100,000 takes a while on a busy machine.
        await wait_until_pilot(
            pilot, lambda: screen.run.state == "stopped", 120, "the large run's end", interval=0.05
        )
        grown = _resident_mb() - before
        screen.query_one(ParamForm).fill(Config(n=8, population=100, seed=1))
        await pilot.press("r")
        await wait_until_pilot(
            pilot, lambda: screen.run.latest.n == 8, 30, "the small run", interval=0.05
        )
        await pilot.pause(1.5)
        return {"grown": grown, "kept": _resident_mb() - before}


def test_replacing_a_large_run_releases_its_memory() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "tests.dashboard.screens.test_memory_release"],
        cwd=Path(__file__).resolve().parents[3],  # the project's root: tests.waiting
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    figures = json.loads(done.stdout.strip().splitlines()[-1])
    grown, kept = figures["grown"], figures["kept"]
    assert grown > 50, f"the large run took only {grown:.0f} MB: nothing to release"
    assert kept < 0.25 * grown, f"kept {kept:.0f} of the large run's {grown:.0f} MB"


if __name__ == "__main__":
    import textual.constants

    textual.constants.COLOR_SYSTEM = "truecolor"
    print(json.dumps(asyncio.run(_measure())))
