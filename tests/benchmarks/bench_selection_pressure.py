"""What measuring selection pressure costs a generation: prints it as a share of the generation.

Two ways, in one process:

- two copies of the same seeded run (P = 1000, N = 64 by default) stepped in turn, one with the
  measure and one with it replaced by nothing, so that the machine's load falls on both alike:
  the ratio of their times, in several rounds of fresh runs (the median of the rounds);
- the measure timed inside the running steps, against the step;
- the measure alone, timed on the fitness and picks the run's own selection made, against the
  median generation, both in the thread's CPU time: the share it takes, for every selection.

Both by the wall clock and by the thread's CPU time (less disturbed by other processes on a
loaded machine).

Run with ``python tests/benchmarks/bench_selection_pressure.py [--generations 200] [--rounds 5]``.
Figures depend on the machine and on what else it runs (``uptime`` says).
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import time
from collections.abc import Callable
from typing import Any

import numpy as np

import engine.algorithm as algorithm_module
from engine import Config, GeneticAlgorithm
from engine.operators.selection import SELECTIONS
from engine.operators.selection_pressure import measure_selection


def uptime() -> str:
    """The machine's load, as ``uptime`` prints it."""
    return subprocess.run(["uptime"], capture_output=True, text=True, check=False).stdout.strip()


def alternated_steps(
    config: Config, generations: int, clock: Callable[[], float]
) -> tuple[list[float], list[float]]:
    """Seconds of each generation of two copies of one seeded run, stepped in turn, one with
    the measure and one with it replaced by nothing: the same generations, the same work, so
    the machine's load falls on both alike."""
    real = algorithm_module.measure_selection

    def nothing(*arguments: object) -> None:
        return None

    runs = {
        True: GeneticAlgorithm(config, lineage=False),
        False: GeneticAlgorithm(config, lineage=False),
    }
    seconds: dict[bool, list[float]] = {True: [], False: []}
    try:
        for generation in range(generations + 3):
            order = (True, False) if generation % 2 else (False, True)
            for measured in order:
                algorithm_module.measure_selection = real if measured else nothing
                started = clock()
                runs[measured].step()
                if generation >= 3:  # after a warm-up
                    seconds[measured].append(clock() - started)
    finally:
        algorithm_module.measure_selection = real
    assert np.array_equal(runs[True].snapshot.population, runs[False].snapshot.population)
    return seconds[True], seconds[False]


def inside_the_steps(config: Config, generations: int) -> tuple[float, float]:
    """CPU seconds of the measure as the running steps call it (its caches as cold as they
    are there), and of a step, medians over ``generations``."""
    real = algorithm_module.measure_selection
    spent: list[float] = []

    def timed(*arguments: Any) -> Any:
        started = time.thread_time()
        result = real(*arguments)
        spent.append(time.thread_time() - started)
        return result

    algorithm_module.measure_selection = timed
    try:
        algorithm = GeneticAlgorithm(config, lineage=False)
        algorithm.step_many(3)
        spent.clear()
        steps = []
        for _ in range(generations):
            started = time.thread_time()
            algorithm.step()
            steps.append(time.thread_time() - started)
    finally:
        algorithm_module.measure_selection = real
    return statistics.median(spent), statistics.median(steps)


def measure_alone(config: Config, repeats: int) -> float:
    """CPU seconds per measure (the median) on the picks this config's selection makes from a
    run's population."""
    algorithm = GeneticAlgorithm(config, lineage=False)
    algorithm.step_many(5)
    fitness = np.array(algorithm.snapshot.fitness)
    count = 2 * -(-config.children_per_generation // config.children_per_couple)
    picks = SELECTIONS[config.selection](
        fitness, count, np.random.default_rng(0), config.tournament_size
    )
    times = []
    for _ in range(repeats):
        started = time.thread_time()
        measure_selection(fitness, picks, config.selection, config.tournament_size)
        times.append(time.thread_time() - started)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--population", type=int, default=1000)
    parser.add_argument("--n", type=int, default=64)
    parser.add_argument("--generations", type=int, default=200, help="generations of each")
    parser.add_argument("--rounds", type=int, default=5, help="fresh pairs of runs")
    args = parser.parse_args()
    config = Config(n=args.n, population=args.population, seed=7, stop_when_solved=False)
    print(f"before: {uptime()}")
    print(f"P = {args.population}, N = {args.n}, selection {config.selection}")
    clocks = {"wall clock": time.perf_counter, "the thread's CPU time": time.thread_time}
    for clock_name, clock in clocks.items():
        ratios = []
        for _ in range(args.rounds):
            with_measure, without = alternated_steps(config, args.generations, clock)
            ratios.append(sum(with_measure) / sum(without))
        shown = " ".join(f"{ratio:.3f}" for ratio in ratios)
        print(
            f"{clock_name}: with the measure over without, {args.rounds} rounds of "
            f"{args.generations} generations of each, in turn: {shown}; "
            f"median {statistics.median(ratios):.4f} "
            f"({(statistics.median(ratios) - 1) * 100:+.1f}%)"
        )
    inside, step = inside_the_steps(config, args.generations)
    print(
        f"inside the steps: the measure {inside * 1e6:.1f} us of a {step * 1e3:.3f} ms step "
        f"(CPU time, medians): {inside / step * 100:.1f}%"
    )
    off = step  # the median step, in CPU time
    for name in sorted(SELECTIONS):
        alone = measure_alone(config.replace(selection=name), 200)
        print(
            f"  {name:<12} the measure alone {alone * 1e6:7.1f} us = "
            f"{alone / off * 100:4.1f}% of a generation"
        )
    print(f"after:  {uptime()}")


if __name__ == "__main__":
    main()
