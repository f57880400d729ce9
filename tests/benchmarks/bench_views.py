"""Benchmark (not a test): are the three views fast at any size the config accepts?

Prints, on this machine:

1. the population table's window of rows (``ordered_window``) at P = 1,000,000, at the top,
   the middle and the end of the ranking, against a full ``np.lexsort``;
2. the dashboard at P = 1,000 and P = 1,000,000 (N = 8): seconds to the first screen, and per
   table key (end, page up, sort, home, enter) the Pilot round trip (press and wait for the
   screen: includes Pilot's own per-widget overhead, the same at any P) and the table's own
   share (the window of rows in view and their lines);
3. the board at N = 1,000,000: the density picture and all of its lines, and a Braille board of
   N = 160;
4. the chart: one full redraw with 240 points per line.

Run: ``.venv/bin/python tests/benchmarks/bench_views.py`` (about a minute).
"""

from __future__ import annotations

import asyncio
import statistics
import time
from collections.abc import Callable
from functools import partial

import numpy as np

from engine import Config
from tui.dashboard.app import QueensApp
from tui.dashboard.pictures.board_pictures import (
    Position,
    braille_codes,
    density_counts,
    density_scale,
)
from tui.dashboard.pictures.population_order import ordered_window

REPEATS = 5


def best_of(work: Callable[[], object], repeats: int = REPEATS) -> float:
    """Milliseconds of the fastest of ``repeats`` calls (the machine is shared)."""
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return 1000 * min(times)


def table_window() -> None:
    rng = np.random.default_rng(1)
    size = 1_000_000
    fitness = rng.integers(0, 28, size).astype(np.float64)
    conflicts = 28 - fitness.astype(np.int64)
    keys = [-fitness, conflicts]
    print(f"1. Table window of 30 rows, P = {size:,} (integer fitness, heavy ties)")
    for where, start in (("top", 0), ("middle", size // 2), ("end", size - 30)):
        ms = best_of(partial(ordered_window, keys, size, start, start + 30))
        print(f"   {where:<7} {ms:8.1f} ms")
    ms = best_of(lambda: np.lexsort((conflicts, -fitness)), 3)
    print(f"   full lexsort (what a sorted table would pay per snapshot) {ms:8.1f} ms")


async def dashboard_keys(population: int) -> None:
    config = Config(n=8, population=population, seed=1)
    app = QueensApp(config, frozen_clock=True)
    start = time.perf_counter()
    async with app.run_test(size=(100, 32)) as pilot:
        while app.main_screen.table.row_count != config.population:
            await pilot.pause(0.01)
        await pilot.pause()
        first = time.perf_counter() - start
        print(f"2. Dashboard, P = {config.population:,}, N = {config.n}")
        print(f"   first screen  {first:8.2f} s (includes the engine's first generation)")
        await pilot.press("t")
        table = app.main_screen.table
        for key in ("end", "pageup", "o", "o", "o", "home", "down", "enter", "b"):
            round_trips, own = [], []
            for _ in range(3):
                began = time.perf_counter()
                await pilot.press(key)
                await pilot.pause()
                round_trips.append(time.perf_counter() - began)
                # The table's own share: a fresh window for the rows in view, and their lines.
                table._window_key = None
                began = time.perf_counter()
                for y in range(table.size.height):
                    table.render_line(y)
                own.append(time.perf_counter() - began)
            print(
                f"   key {key:<7} round trip {1000 * statistics.median(round_trips):7.1f} ms, "
                f"table window + lines {1000 * statistics.median(own):7.1f} ms (medians of 3)"
            )


def board_pictures() -> None:
    rng = np.random.default_rng(1)
    n = 1_000_000
    rows = rng.permutation(n)
    attacked = rng.random(n) < 0.5
    position = Position(n, rows, np.arange(n), attacked)
    scale = density_scale(n, 80, 40)
    ms = best_of(lambda: density_counts(position, scale))
    print(f"3. Board, N = {n:,}: density picture (80 x 40, 1 char = {scale}x{2 * scale})")
    print(f"   density counts {ms:8.1f} ms")
    genome = rng.permutation(n)
    ms = best_of(lambda: Position.of(genome, n, "permutation"), 3)
    print(f"   Position.of (decode + attacked, engine) {ms:8.1f} ms")
    small = Position.of(rng.permutation(160), 160, "permutation")
    ms = best_of(lambda: braille_codes(small))
    print(f"   Braille picture, N = 160: {ms:8.2f} ms")


async def chart_redraw() -> None:
    from textual.app import App, ComposeResult

    from tui.dashboard.widgets import FitnessPlot

    class Host(App[None]):
        CSS = "FitnessPlot { width: 70; height: 12; }"

        def compose(self) -> ComposeResult:
            yield FitnessPlot()

    app = Host()
    async with app.run_test(size=(80, 14)) as pilot:
        plot = app.query_one(FitnessPlot)
        x = list(range(240))
        best = [100.0 - 50 * 0.98**g for g in x]
        series = {"best": best, "mean": [b - 10 for b in best], "worst": [b - 30 for b in best]}
        await pilot.pause()

        def redraw() -> None:
            plot.show(x, series, [0.5] * 240, x_label="generations")
            for y in range(12):
                plot.render_line(y)

        print(f"4. Chart redraw, 240 points x 4 lines, 70 x 12: {best_of(redraw):8.2f} ms")


def main() -> None:
    table_window()
    asyncio.run(dashboard_keys(1_000))
    asyncio.run(dashboard_keys(1_000_000))
    board_pictures()
    asyncio.run(chart_redraw())


if __name__ == "__main__":
    main()
