"""How long the population's views take at a million individuals: prints figures, asserts none.

The placement map (one ``bincount`` over the ``(P, N)`` population) and the conflict histogram
are computed once per painted snapshot, and the widget draws them at the painter's rate; both
should stay well under a frame (100 ms) at P = 10^6.

Run: ``.venv/bin/python tests/benchmarks/bench_population_views.py``
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from functools import partial

import numpy as np
import numpy.typing as npt

from engine import ENCODINGS, Config
from tui.dashboard.population_pictures import (
    block_shares,
    conflict_histogram,
    map_scale,
    placement_shares,
    share_levels,
)

SIZE = 1_000_000
REPEATS = 5


def best_of(work: Callable[[], object]) -> float:
    """The fastest of :data:`REPEATS` runs, in milliseconds."""
    times = []
    for _ in range(REPEATS):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return 1000 * min(times)


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


async def bench_repaint() -> None:
    """The whole board panel: a frame that paints the map of a new snapshot, then the histogram."""
    from tui.dashboard.app import QueensApp
    from tui.dashboard.widgets import PopulationView

    app = QueensApp(Config(n=8, population=SIZE, seed=1), frozen_clock=True)
    async with app.run_test(size=(100, 32)) as pilot:
        screen = app.main_screen
        while screen.run.latest is None:
            await pilot.pause(0.05)
        await pilot.press("v")
        await pilot.pause(0.2)
        view = screen.query_one(PopulationView)
        latest = screen.run.latest
        for name in ("placement", "conflicts"):
            times = []
            for _ in range(REPEATS):
                view.snapshot = None  # as a new generation would be
                start = time.perf_counter()
                view.show(latest, name)
                view.render()
                times.append(time.perf_counter() - start)
            print(f"P = {SIZE:,} N = 8 board panel, {name:<9} repaint {1000 * min(times):6.1f} ms")


if __name__ == "__main__":
    bench_pictures()
    asyncio.run(bench_repaint())
