"""Long runs stay flat: prints the speed of a ``--unique`` run early and late (and of the same
run without ``--unique``, and the seen set's own share), and what the history costs per
generation.

Run with ``make bench`` or ``python tests/benchmarks/bench_long_runs.py [--points 1000 50000]``.
Figures depend on the machine (and on what else it runs): compare them side by side, within
one run of this script.
"""

from __future__ import annotations

import argparse
import time
import tracemalloc

import numpy as np

from engine import Config, GeneticAlgorithm
from engine.arrays import BoolArray, HashArray
from engine.genomes.uniqueness import HashSet
from engine.snapshot import History

WINDOW = 1000
"""Generations timed around each point."""


class TimedSeen:
    """Wraps a run's seen set and adds up the seconds spent checking and adding children."""

    def __init__(self, seen: HashSet) -> None:
        self.seen = seen
        self.seconds = 0.0

    def remember(self, hashes: HashArray) -> BoolArray:
        started = time.perf_counter()
        fresh = self.seen.remember(hashes)
        self.seconds += time.perf_counter() - started
        return fresh

    def __len__(self) -> int:
        return len(self.seen)


def speeds(n: int, points: list[int], unique: bool) -> list[tuple[float, float, int]]:
    """Per point: generations per second, microseconds of seen-set work per generation, and
    genomes remembered, timed over :data:`WINDOW` generations around the point (one run)."""
    config = Config(n=n, unique=unique, stop_when_solved=False, seed=1)
    algorithm = GeneticAlgorithm(config, history_limit=WINDOW)
    timed = TimedSeen(algorithm._seen)
    algorithm._seen = timed  # type: ignore[assignment]
    results = []
    for point in points:
        algorithm.step_many(point - WINDOW // 2 - algorithm.snapshot.generation)
        timed.seconds = 0.0
        started = time.perf_counter()
        algorithm.step_many(WINDOW)
        elapsed = time.perf_counter() - started
        results.append((WINDOW / elapsed, 1e6 * timed.seconds / WINDOW, len(timed)))
    return results


def seen_set_microseconds(sizes: list[int], batches: int = 200) -> list[float]:
    """Microseconds to check and add one generation's 40 children, by hashes remembered."""
    rng = np.random.default_rng(0)
    results = []
    for size in sizes:
        table = HashSet(rng.integers(0, 2**64, size=size, dtype=np.uint64))
        children = [rng.integers(0, 2**64, size=40, dtype=np.uint64) for _ in range(batches)]
        started = time.perf_counter()
        for hashes in children:
            table.remember(hashes)
        results.append(1e6 * (time.perf_counter() - started) / batches)
    return results


def history_bytes_per_generation(generations: int) -> float:
    """Bytes a history holds per generation of a real run (N = 8), measured by tracemalloc."""
    algorithm = GeneticAlgorithm(Config(n=8, stop_when_solved=False, seed=2))
    algorithm.step_many(generations)
    rows = [algorithm.history.row(i) for i in range(len(algorithm.history))]
    tracemalloc.start()
    history = History()
    for row in rows:
        history.append(row)
    held, _ = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return held / len(history)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=30)
    parser.add_argument("--points", type=int, nargs="+", default=[1000, 10_000, 50_000])
    parser.add_argument("--history-generations", type=int, default=20_000)
    args = parser.parse_args()
    unique = speeds(args.n, args.points, unique=True)
    plain = speeds(args.n, args.points, unique=False)
    print(f"N = {args.n}, P = 40, default operators, {WINDOW:,} generations timed per point:")
    for point, (rate, seen_us, seen), (plain_rate, _, _) in zip(
        args.points, unique, plain, strict=True
    ):
        print(
            f"  around generation {point:>7,}: --unique {rate:6,.0f} gen/s "
            f"(seen set {seen_us:6.1f} us/gen, {seen:>9,} genomes remembered); "
            f"without --unique {plain_rate:6,.0f} gen/s"
        )
    sizes = [10_000, 200_000, 2_000_000]
    costs = ", ".join(
        f"{cost:,.0f} us with {size:,} remembered"
        for size, cost in zip(sizes, seen_set_microseconds(sizes), strict=True)
    )
    print(f"seen set alone, 40 children a generation: {costs}")
    per_generation = history_bytes_per_generation(args.history_generations)
    print(
        f"history: {per_generation:,.1f} bytes per generation "
        f"(measured over {args.history_generations:,} generations of N = 8)"
    )


if __name__ == "__main__":
    main()
