"""What a large run leaves behind: prints the dashboard's resident memory before, during and
after a P = 200,000 run, and once a small run has replaced it (``r``), as the dashboard does it.

The dashboard runs headless (Textual's ``run_test``), recording into a temporary store as it
does by default; the large run is N = 28, P = 200,000 for a few generations, the small one
N = 8, P = 40. Each figure is the process's VmRSS.

Run with ``python tests/benchmarks/bench_memory_release.py [--population 200000]``.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # the project's root: tests.waiting


def resident_mb() -> float:
    """This process's resident memory (VmRSS), MB."""
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmRSS"):
                return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS in /proc/self/status")


LIMIT = 1200.0
"""Seconds the app may take to reach each state (a large run on a busy machine)."""


async def measure(population: int, generations: int, store: Path) -> None:
    import textual.constants

    from engine import Config
    from tests.waiting import wait_until_pilot
    from tui.dashboard.app import QueensApp

    textual.constants.COLOR_SYSTEM = "truecolor"

    large = Config(n=28, population=population, seed=1, generations=generations)
    app = QueensApp(large, record=True, store=str(store))
    async with app.run_test(size=(100, 32)) as pilot:
        screen = app.main_screen
        await wait_until_pilot(
            pilot,
            lambda: screen.run.latest is not None,
            LIMIT,
            "the first generation",
            interval=0.05,
        )
        opened = resident_mb()
        print(f"dashboard open on the large run (generation 0): {opened:.0f} MB", flush=True)
        await pilot.press("space")
        await wait_until_pilot(
            pilot,
            lambda: screen.run.state in ("stopped", "solved"),
            LIMIT,
            "the large run's end",
            interval=0.05,
        )
        print(
            f"the large run (N = 28, P = {population:,}) after {generations} generations: "
            f"{resident_mb():.0f} MB",
            flush=True,
        )
        screen.form.fill(Config(n=8, seed=1))
        screen.action_new_run()
        await wait_until_pilot(
            pilot, lambda: screen.run.latest.n == 8, LIMIT, "the small run", interval=0.05
        )
        for wait in (0.5, 1.0, 2.0, 5.0):
            await pilot.pause(wait)
            print(f"the small run (N = 8, P = 40), {wait:g} s later: {resident_mb():.0f} MB")
        kept = resident_mb()
        print(f"after r with a small run: {kept:.0f} MB (target under 150 MB)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--population", type=int, default=200_000)
    parser.add_argument("--generations", type=int, default=5)
    args = parser.parse_args()
    print(f"load average {os.getloadavg()[0]:.1f}; started at {resident_mb():.0f} MB")
    with tempfile.TemporaryDirectory() as folder:
        asyncio.run(measure(args.population, args.generations, Path(folder) / "runs.sqlite3"))


if __name__ == "__main__":
    main()
