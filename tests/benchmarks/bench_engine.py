"""``make bench``: the engine's speed, side by side with DEAP's N-Queens example, in one run.

Prints figures; asserts nothing. Sections:

1. Fitness evaluations per second (P = 1000 at N = 64 and N = 256).
2. Full generations per second at the same sizes, and what a step costs in evaluations.
3. Time and generations to a solution over 10 seeds with the default config; 3b: N = 4096
   over 5 seeds (wall clock and CPU time, so a figure taken on a shared machine can be read).
4. DEAP's own example (pure Python: PMX, tournament of 3, population 300), same boards.
5. The dashboard attached vs headless (tests/benchmarks/bench_dashboard.py), when present.
"""

from __future__ import annotations

import importlib.util
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Final

import numpy as np

from engine import Config, GeneticAlgorithm
from engine.encodings import ENCODINGS
from engine.fitness import FITNESS_SHAPES, evaluate

SEEDS: Final = tuple(range(10))
SOLVE_SIZES: Final = (8, 16, 32, 64, 128, 256)
LARGE_N: Final = 1024
LARGE_N_BUDGET_S: Final = 60.0
DEAP_BUDGET_S: Final = 20.0
DEFAULT_LARGE_N: Final = 4096
LARGE_SEEDS: Final = tuple(range(5))


def per_second(work: Callable[[], object], minimum_s: float = 1.0) -> float:
    """Calls of ``work`` per second, timed over at least ``minimum_s`` seconds."""
    work()  # warm up
    calls, started = 0, time.perf_counter()
    while (elapsed := time.perf_counter() - started) < minimum_s:
        work()
        calls += 1
    return calls / elapsed


def typical_seconds(
    works: list[Callable[[], object]], rounds: int = 9, calls: int = 20
) -> list[float]:
    """CPU seconds per call of each ``work``, timed in alternation, median round of each.

    Alternating makes a ratio of two timings robust to whatever else the machine is doing;
    CPU time (``time.process_time``, this process only) leaves out the time spent waiting for
    a core on a shared machine (the engine is single-threaded, so on an idle machine it equals
    the wall-clock time). The median round, not the best: a lucky round in which the memory
    allocator hands back pages without faulting them in again makes one side look up to 3x
    cheaper than it usually is (seen at N = 256).
    """
    seconds: list[list[float]] = [[] for _ in works]
    for work in works:
        work()  # warm up
    for _ in range(rounds):
        for index, work in enumerate(works):
            started = time.process_time()
            for _ in range(calls):
                work()
            seconds[index].append((time.process_time() - started) / calls)
    return [statistics.median(times) for times in seconds]


def evaluation_speed() -> None:
    print("1. Fitness evaluations per second (permutation, pairs, P = 1000)")
    encoding, shape = ENCODINGS["permutation"], FITNESS_SHAPES["pairs"]
    for n in (64, 256):
        population = encoding.random_population(1000, n, np.random.default_rng(0))
        batches = per_second(lambda: evaluate(population, n, encoding, shape))  # noqa: B023
        print(f"   N = {n:4}: {batches * 1000:12,.0f} evaluations/s ({batches:,.0f} populations/s)")


def step_speed() -> None:
    print("2. Full generations per second (default config, P = 1000, 1000 children)")
    encoding, shape = ENCODINGS["permutation"], FITNESS_SHAPES["pairs"]
    for n in (64, 256):
        population = encoding.random_population(1000, n, np.random.default_rng(0))
        config = Config(n=n, population=1000, seed=1, stop_when_solved=False)
        algorithm = GeneticAlgorithm(config)
        evaluation_s, step_s = typical_seconds(
            [lambda: evaluate(population, n, encoding, shape), algorithm.step]  # noqa: B023
        )
        print(
            f"   N = {n:4}: {1 / step_s:8,.1f} generations/s; a step costs "
            f"{step_s / evaluation_s:.2f} population evaluations (target: at most 3)"
        )


def time_to_solution() -> None:
    print("3. Default config, 10 seeds: median / max seconds and generations to a solution")
    for n in (*SOLVE_SIZES, LARGE_N):
        budget = LARGE_N_BUDGET_S if n == LARGE_N else None
        seconds, generations, solved = [], [], 0
        for seed in SEEDS:
            final = GeneticAlgorithm(Config(n=n, seed=seed, time_limit=budget)).run()
            solved += final.solved
            seconds.append(final.elapsed)
            generations.append(final.generation)
        print(
            f"   N = {n:4}: solved {solved}/{len(SEEDS)}; seconds median "
            f"{statistics.median(seconds):7.3f} max {max(seconds):7.3f}; generations median "
            f"{statistics.median(generations):6.0f} max {max(generations):6}"
        )
    print(
        f"   targets: N = 256 median under 2 s; N = {LARGE_N} 10/10 within {LARGE_N_BUDGET_S:.0f} s"
    )


def large_default() -> None:
    print(
        f"3b. Default config at N = {DEFAULT_LARGE_N}, seeds 0-{len(LARGE_SEEDS) - 1}: seconds "
        "to a solution (wall clock, and CPU of this process)"
    )
    wall, cpu, generations, solved = [], [], [], 0
    for seed in LARGE_SEEDS:
        started_wall, started_cpu = time.perf_counter(), time.process_time()
        final = GeneticAlgorithm(Config(n=DEFAULT_LARGE_N, seed=seed)).run()
        wall.append(time.perf_counter() - started_wall)
        cpu.append(time.process_time() - started_cpu)
        generations.append(final.generation)
        solved += final.solved
    print(
        f"   N = {DEFAULT_LARGE_N}: solved {solved}/{len(LARGE_SEEDS)}; wall median "
        f"{statistics.median(wall):6.2f} s, CPU median {statistics.median(cpu):6.2f} s; "
        f"{statistics.median(generations):.0f} generations, CPU "
        f"{1000 * sum(cpu) / sum(generations):.2f} ms per generation (target: median under 10 s)"
    )


def deap_peer() -> None:
    print("4. DEAP's N-Queens example (pure Python, PMX, tournament 3, P = 300), same machine")
    if importlib.util.find_spec("deap") is None:
        print("   deap is not installed: `make bench` installs it (.[bench])")
        return
    from deap import algorithms, base, creator, tools

    if not hasattr(creator, "QueensFitness"):
        creator.create("QueensFitness", base.Fitness, weights=(-1.0,))
        creator.create("QueensIndividual", list, fitness=creator.QueensFitness)

    def conflicts(individual: list[int]) -> tuple[int]:
        # DEAP's measure: queens beyond the first on each diagonal.
        size = len(individual)
        left, right = [0] * (2 * size - 1), [0] * (2 * size - 1)
        for column, row in enumerate(individual):
            left[column + row] += 1
            right[size - 1 - column + row] += 1
        return (sum(max(0, k - 1) for k in left) + sum(max(0, k - 1) for k in right),)

    for n in (8, 16, 32, 64):
        toolbox = base.Toolbox()
        toolbox.register("permutation", random.sample, range(n), n)
        toolbox.register(
            "individual", tools.initIterate, creator.QueensIndividual, toolbox.permutation
        )
        toolbox.register("population", tools.initRepeat, list, toolbox.individual)
        toolbox.register("evaluate", conflicts)
        toolbox.register("mate", tools.cxPartialyMatched)
        toolbox.register("mutate", tools.mutShuffleIndexes, indpb=2.0 / n)
        toolbox.register("select", tools.selTournament, tournsize=3)
        times, generation_counts, solved = [], [], 0
        for seed in SEEDS[:5]:
            random.seed(seed)
            population = toolbox.population(n=300)
            for individual in population:
                individual.fitness.values = toolbox.evaluate(individual)
            started, generation = time.perf_counter(), 0
            while time.perf_counter() - started < DEAP_BUDGET_S / 5:
                if min(ind.fitness.values[0] for ind in population) == 0:
                    solved += 1
                    break
                offspring = algorithms.varAnd(toolbox.select(population, 300), toolbox, 0.5, 0.2)
                for individual in offspring:
                    if not individual.fitness.valid:
                        individual.fitness.values = toolbox.evaluate(individual)
                population[:] = offspring
                generation += 1
            times.append(time.perf_counter() - started)
            generation_counts.append(generation)
        rate = sum(generation_counts) / sum(times)
        print(
            f"   N = {n:4}: solved {solved}/5 within {DEAP_BUDGET_S / 5:.0f} s each; seconds "
            f"median {statistics.median(times):6.2f}; {rate:7.1f} generations/s (P = 300)"
        )
    engine = GeneticAlgorithm(Config(n=64, population=300, seed=0, stop_when_solved=False))
    print(f"   ours at N = 64, P = 300: {per_second(engine.step):7.1f} generations/s")


def dashboard_overhead() -> None:
    script = Path(__file__).with_name("bench_dashboard.py")
    if not script.exists():
        return
    print("5. The dashboard attached vs headless")
    spec = importlib.util.spec_from_file_location("bench_dashboard", script)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    module.main()


def main() -> None:
    print(f"queens-ga engine benchmark; numpy {np.__version__}, Python {sys.version.split()[0]}")
    evaluation_speed()
    step_speed()
    time_to_solution()
    large_default()
    deap_peer()
    dashboard_overhead()


if __name__ == "__main__":
    main()
