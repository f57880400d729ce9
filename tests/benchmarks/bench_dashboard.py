"""Benchmark (not a test): does the dashboard slow the engine down, and does it stay responsive?

Prints, for one config and seed, in one run:

- generations per second headless (``GeneticAlgorithm.step`` in a loop),
- generations per second with the dashboard attached (``QueensApp.run_test()``, engine at
  unlimited speed, the screen repainting as usual), and their ratio (the goal is at most
  20% slower),
- key-press-to-visible-effect latency while the engine runs flat out: ``space`` until the status
  line says PAUSED, ``space`` until it says RUNNING, and ``n`` until the shown generation moves.

Run: ``.venv/bin/python tests/benchmarks/bench_dashboard.py`` (about 30 s).
"""

from __future__ import annotations

import asyncio
import statistics
import time
from collections.abc import Callable
from functools import partial
from typing import Final

from textual import events

from engine import Config, GeneticAlgorithm
from tui.dashboard.app import QueensApp

CONFIG: Final = Config(n=64, population=100, seed=11, stop_when_solved=False)
"""Never stops on its own; heavy enough that a generation is real numpy work."""
SECONDS: Final = 4.0
"""Wall time of each throughput measurement."""
ROUNDS: Final = 3
"""Headless and attached measurements alternate this many times; medians are compared, so a
burst of load elsewhere on the machine does not decide the ratio."""
SIZE: Final = (100, 32)
PRESSES: Final = 8


def headless_rate(algorithm: GeneticAlgorithm, seconds: float = SECONDS) -> float:
    """Generations per second of the bare engine (nothing else runs meanwhile)."""
    first = algorithm.snapshot.generation
    started = time.perf_counter()
    while time.perf_counter() - started < seconds:
        algorithm.step()
    return (algorithm.snapshot.generation - first) / (time.perf_counter() - started)


async def _until(condition: Callable[[], bool], limit: float = 5.0) -> float:
    """Seconds until ``condition()`` holds (polling the loop every millisecond)."""
    started = time.perf_counter()
    while not condition():
        if time.perf_counter() - started > limit:
            return float("inf")
        await asyncio.sleep(0.001)
    return time.perf_counter() - started


def press(app: QueensApp, key: str, character: str | None) -> None:
    """Deliver a key as the terminal driver does (``Pilot.press`` also waits for the app to be
    idle, which it never is while the engine runs, so it would time the wait, not the key)."""
    app.post_message(events.Key(key, character))


async def measure() -> tuple[list[float], list[float], dict[str, list[float]]]:
    """Headless and attached generations per second (per round), and key latencies (s)."""
    headless: list[float] = []
    attached: list[float] = []
    latencies: dict[str, list[float]] = {"space (pause)": [], "space (run)": [], "n (step)": []}
    bare = GeneticAlgorithm(CONFIG)
    app = QueensApp(CONFIG)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause(0.5)
        algorithm = app.main_screen.runner.algorithm
        assert algorithm is not None
        status = app.main_screen.status

        def says(text: str) -> bool:
            return text in str(status.render()).replace("\xa0", " ")

        for _ in range(ROUNDS):
            # Headless: the app is paused and its loop blocked, so it costs nothing.
            headless.append(headless_rate(bare))
            press(app, "space", " ")
            await _until(lambda: says("RUNNING"))
            first, started = algorithm.snapshot.generation, time.perf_counter()
            await asyncio.sleep(SECONDS)
            elapsed = time.perf_counter() - started
            attached.append((algorithm.snapshot.generation - first) / elapsed)
            press(app, "space", " ")
            await _until(lambda: says("PAUSED"))

        for _ in range(PRESSES):
            press(app, "space", " ")
            await _until(lambda: says("RUNNING"))
            await asyncio.sleep(0.3)  # flat out before the press
            pressed = time.perf_counter()
            press(app, "space", " ")
            await _until(lambda: says("PAUSED"))
            latencies["space (pause)"].append(time.perf_counter() - pressed)
            # The engine finishes the generation it was on: wait until that one is shown.
            await _until(lambda: app.main_screen.run.latest is algorithm.snapshot)
            await _until(lambda: says(f"Gen {algorithm.snapshot.generation:,} "))
            target = f"Gen {algorithm.snapshot.generation + 1:,} "
            pressed = time.perf_counter()
            press(app, "n", "n")
            await _until(partial(says, target))
            latencies["n (step)"].append(time.perf_counter() - pressed)
            pressed = time.perf_counter()
            press(app, "space", " ")
            await _until(lambda: says("RUNNING"))
            latencies["space (run)"].append(time.perf_counter() - pressed)
            press(app, "space", " ")
            await _until(lambda: says("PAUSED"))
    return headless, attached, latencies


def main() -> None:
    """Measure and print the figures."""
    print(
        f"config: n={CONFIG.n} population={CONFIG.population} seed={CONFIG.seed}; "
        f"dashboard {SIZE[0]}x{SIZE[1]}; {ROUNDS} rounds of {SECONDS:g} s each"
    )
    headless, attached, latencies = asyncio.run(measure())
    bare, live = statistics.median(headless), statistics.median(attached)
    print(f"headless            {bare:8.0f} generations/s  (rounds: {_rounds(headless)})")
    print(f"dashboard attached  {live:8.0f} generations/s  (rounds: {_rounds(attached)})")
    print(f"ratio               {live / bare:8.2f}  (slowdown {1 - live / bare:.0%}; goal <= 20%)")
    for key, values in latencies.items():
        print(
            f"key {key:14s} to visible: median {statistics.median(values) * 1000:5.1f} ms, "
            f"max {max(values) * 1000:5.1f} ms ({len(values)} presses; goal < 100 ms)"
        )


def _rounds(values: list[float]) -> str:
    return ", ".join(f"{v:.0f}" for v in values)


if __name__ == "__main__":
    main()
