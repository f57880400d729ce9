"""How long the population's views take at a million individuals: prints figures, asserts none.

The placement map (``bincount`` over the ``(P, N)`` population, a block at a time) and the
conflict histogram are computed once per painted snapshot, and the widget draws them at the
painter's rate. Target: the board panel repaints a new snapshot's map or histogram in under
100 ms at P = 10^6, N = 32. Times are the best of a few runs, wall clock and CPU time of this
process (the CPU figure leaves out waiting for a core on a shared machine); the load average
is printed with them.

Run: ``.venv/bin/python tests/benchmarks/bench_population_views.py``
"""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import Callable
from functools import partial

import numpy as np
import numpy.typing as npt

from engine import ENCODINGS, Config
from tui.dashboard.pictures.population_pictures import (
    block_shares,
    conflict_histogram,
    map_scale,
    placement_shares,
    share_levels,
)

SIZE = 1_000_000
REPEATS = 5


TARGET_MS = 100.0
REPAINT_SIZES = (8, 32)


def load() -> str:
    """The load averages, and how many cores share them."""
    one, five, fifteen = os.getloadavg()
    return f"load average {one:.2f} / {five:.2f} / {fifteen:.2f} on {os.cpu_count()} cores"


def best_of(work: Callable[[], object]) -> float:
    """The fastest of :data:`REPEATS` runs, in milliseconds."""
    return best_times(work)[0]


def best_times(work: Callable[[], object]) -> tuple[float, float]:
    """The fastest of :data:`REPEATS` runs, wall clock and CPU time, in milliseconds."""
    walls, cpus = [], []
    for _ in range(REPEATS):
        wall, cpu = time.perf_counter(), time.process_time()
        work()
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
    return 1000 * min(walls), 1000 * min(cpus)


def placement_levels(
    population: npt.NDArray[np.int64], n: int, encoding: str
) -> npt.NDArray[np.int64]:
    """The shades of the placement map, as the widget asks for them."""
    return share_levels(placement_shares(population, n, encoding))


def bench_pictures() -> None:
    """The numbers alone, for a few board sizes and both kinds of encoding."""
    rng = np.random.default_rng(0)
    for n, encoding in ((8, "permutation"), (32, "permutation"), (8, "squares")):
        population = ENCODINGS[encoding].random_population(SIZE, n, rng)
        conflicts = rng.integers(0, n * (n - 1) // 2, SIZE)
        shares = placement_shares(population, n, encoding)
        scale = max(1, map_scale(n, 30, 12))
        placement = best_of(partial(placement_levels, population, n, encoding))
        blocks = best_of(partial(block_shares, shares, scale))
        histogram = best_of(partial(conflict_histogram, conflicts, 12))
        print(
            f"P = {SIZE:,} N = {n:>2} {encoding:<11}  placement map {placement:6.1f} ms  "
            f"blocks {blocks:5.2f} ms  histogram {histogram:5.1f} ms"
        )


async def bench_repaint(n: int) -> None:
    """The whole board panel: a frame that paints the map of a new snapshot, then the histogram."""
    from tui.dashboard.app import QueensApp
    from tui.dashboard.widgets import PopulationView

    app = QueensApp(Config(n=n, population=SIZE, seed=1), frozen_clock=True)
    async with app.run_test(size=(100, 32)) as pilot:
        screen = app.main_screen
        while screen.run.latest is None:
            await pilot.pause(0.05)
        await pilot.press("v")
        await pilot.pause(0.2)
        view = screen.query_one(PopulationView)
        latest = screen.run.latest

        for name in ("placement", "conflicts"):

            def repaint(name: str = name) -> None:
                view.snapshot = None  # as a new generation would be
                view.show(latest, name)
                view.render()

            wall, cpu = best_times(repaint)
            verdict = "met" if wall < TARGET_MS else "NOT met"
            print(
                f"P = {SIZE:,} N = {n:>2} board panel, {name:<9} repaint {wall:6.1f} ms "
                f"(CPU {cpu:6.1f} ms; target under {TARGET_MS:.0f} ms: {verdict})"
            )


if __name__ == "__main__":
    print(f"({load()})")
    bench_pictures()
    for size in REPAINT_SIZES:
        asyncio.run(bench_repaint(size))
    print(f"({load()})")
