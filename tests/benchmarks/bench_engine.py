"""``make bench``: the engine's speed, side by side with DEAP's N-Queens example, in one run.

Prints figures; asserts nothing. Sections:

1. One evaluation of the population (P = 1000 at N = 64 and N = 256): its CPU time, which is
   the unit of section 2, and evaluations per second.
2. What a generation of the default config costs (P = 1000, 1000 children), in that unit.
3. Time and generations to a solution over 10 seeds with the default config; 3b: N = 4,096
   and 16,384 over 5 seeds, within a budget of generations (wall clock and CPU time, so a
   figure taken on a shared machine can be read; targets: medians under 10 s and 30 s).
   ``--large`` runs section 3b alone.
4. DEAP's own example (pure Python: PMX, tournament of 3, population 300), same boards.
5. The dashboard attached vs headless (tests/benchmarks/bench_dashboard.py), when present.

What "a generation costs at most 3 evaluations of the population" is measured as:
the CPU time of one ``GeneticAlgorithm.step`` of the default config over the CPU time of one
``engine.genomes.fitness.evaluate`` of a random ``(1000, N)`` permutation population with the
default fitness, both timed in the same process, in alternation, with no page faulted in anew.

Why "no page faulted in": with glibc's malloc, numpy's large temporaries come either from
memory the process already holds or from fresh pages the kernel must fault in (an mmap per
array, or a heap grown again after malloc trimmed it). Which one happens depends on what ran
just before, not on the code timed: evaluate timed alone faults in ~1.4 MB per call at N = 64
and takes 2-3 times what it takes between generations, and whether evaluate or the step is the
one that faults when the two alternate changes with any edit to either. A ratio of two such
timings measures the allocator's mood: once the step stopped faulting, the ratio
timed that way read 1.1-1.6 evaluations at N = 64 where the computing costs 3.2-3.6. So both
are timed in a child process whose malloc neither maps large blocks on their own nor trims its
heap (``MALLOC_MMAP_THRESHOLD_`` / ``MALLOC_TRIM_THRESHOLD_``; the faults per call printed say
whether that held), which leaves the computing itself. The same two figures in this process,
with the ordinary allocator, are printed next to them with their page faults, so the cost a
run really pays (the step's own faults included) can be read too.

Timing: CPU time (``time.process_time``), in rounds that alternate a block of 20 evaluations
with a block of 20 generations, median of 9 rounds; see :func:`typical_costs`. The run is not
stopped when solved (seed 1 solves N = 64 at generation 19, N = 256 at 88), so most timed
generations at N = 64 come after its first solution. A generation of a run still searching
costs about the same (generations 1-15 of 20 seeds at N = 64: 2.68 evaluations where the
figure below read 2.55-2.63 at the same time). The few generations right after the
first solution, while the archive takes in hundreds of new solutions, cost 1.5-2x; a default
run stops before them, and the median of the rounds leaves out the one or two they fall in.

Three child processes, one after another, and the median of their figures: this host's two
virtual cores have slow spells lasting seconds, during which a generation slows by up to half
and an evaluation by a sixth (measured: the same code read 3.34 pinned to one core and 2.46-2.63
on either core in the next seconds), so one process can land in one. All three are printed.
"""

from __future__ import annotations

import importlib.util
import json
import os
import random
import resource
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, Final

import numpy as np

from engine import Config, GeneticAlgorithm
from engine.genomes.encodings import ENCODINGS
from engine.genomes.fitness import FITNESS_SHAPES, evaluate

SEEDS: Final = tuple(range(10))
STEP_SIZES: Final = (64, 256)
STEP_POPULATION: Final = 1000
FAULT_FREE_FLAG: Final = "--fault-free-costs"
FAULT_FREE_MALLOC: Final = {
    "MALLOC_MMAP_THRESHOLD_": str(32 * 2**20),  # glibc's largest: blocks below it use the heap
    "MALLOC_TRIM_THRESHOLD_": str(2**40),  # never give the heap's top back to the kernel
}
"""glibc's malloc settings (ignored elsewhere) under which the child process faults nothing in
anew after warming up: the faults per call it prints say whether that held."""
FAULT_FREE_RUNS: Final = 3
"""Child processes timed one after another; the median one's figures are the result."""
SOLVE_SIZES: Final = (8, 16, 32, 64, 128, 256)
LARGE_N: Final = 1024
LARGE_N_BUDGET_S: Final = 60.0
DEAP_BUDGET_S: Final = 20.0
LARGE_DEFAULTS: Final = ((4096, 10.0), (16384, 30.0))
"""Board sizes of section 3b, each with its target median seconds."""
LARGE_BUDGET: Final = 30_000
"""Generations a section 3b run may take (seed 0 solves N = 16,384 in 7,254)."""
LARGE_SEEDS: Final = tuple(range(5))


def per_second(work: Callable[[], object], minimum_s: float = 1.0) -> float:
    """Calls of ``work`` per second, timed over at least ``minimum_s`` seconds."""
    work()  # warm up
    calls, started = 0, time.perf_counter()
    while (elapsed := time.perf_counter() - started) < minimum_s:
        work()
        calls += 1
    return calls / elapsed


def minor_faults() -> int:
    """Page faults of this process so far that the kernel served without disk (fresh pages)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_minflt


def typical_costs(
    works: list[Callable[[], object]], rounds: int = 9, calls: int = 20
) -> list[tuple[float, float]]:
    """CPU seconds and page faults per call of each ``work``, timed in alternation.

    Each round runs a block of ``calls`` calls of every work in turn; the figure of a work is
    its median round. Alternating makes a ratio of two timings robust to whatever else the
    machine is doing; CPU time (``time.process_time``, this process only) leaves out the time
    spent waiting for a core on a shared machine (the engine is single-threaded, so on an idle
    machine it equals the wall-clock time). The median round, not the best: one lucky round
    in which the allocator hands back memory without faulting it in says little.
    """
    seconds: list[list[float]] = [[] for _ in works]
    faults: list[list[float]] = [[] for _ in works]
    for work in works:
        work()  # warm up
    for _ in range(rounds):
        for index, work in enumerate(works):
            started, faulted = time.process_time(), minor_faults()
            for _ in range(calls):
                work()
            seconds[index].append((time.process_time() - started) / calls)
            faults[index].append((minor_faults() - faulted) / calls)
    return [
        (statistics.median(times), statistics.median(counts))
        for times, counts in zip(seconds, faults, strict=True)
    ]


def generation_costs(n: int) -> dict[str, float]:
    """One evaluation of a random (1000, n) population and one default generation, measured
    in alternation in this process: milliseconds and page faults per call."""
    encoding, shape = ENCODINGS["permutation"], FITNESS_SHAPES["pairs"]
    population = encoding.random_population(STEP_POPULATION, n, np.random.default_rng(0))
    config = Config(n=n, population=STEP_POPULATION, seed=1, stop_when_solved=False)
    algorithm = GeneticAlgorithm(config)
    (evaluation_s, evaluation_faults), (step_s, step_faults) = typical_costs(
        [lambda: evaluate(population, n, encoding, shape), algorithm.step]
    )
    return {
        "evaluation_ms": 1000 * evaluation_s,
        "evaluation_faults": evaluation_faults,
        "step_ms": 1000 * step_s,
        "step_faults": step_faults,
    }


def fault_free_costs() -> dict[int, dict[str, Any]]:
    """:func:`generation_costs` at every size, in :data:`FAULT_FREE_RUNS` child processes whose
    malloc keeps its memory (no separate maps for large blocks, no trimming), so that nothing is
    faulted in anew: per size, the run with the median step cost, and every run's cost."""
    environment = {**os.environ, **FAULT_FREE_MALLOC}
    runs = []
    for _ in range(FAULT_FREE_RUNS):
        done = subprocess.run(
            [sys.executable, __file__, FAULT_FREE_FLAG],
            env=environment,
            capture_output=True,
            text=True,
            check=True,
        )
        runs.append({int(n): costs for n, costs in json.loads(done.stdout).items()})
    typical: dict[int, dict[str, Any]] = {}
    for n in STEP_SIZES:
        by_cost = sorted(runs, key=lambda run: run[n]["step_ms"] / run[n]["evaluation_ms"])
        typical[n] = {
            **by_cost[len(by_cost) // 2][n],
            "every_cost": [run[n]["step_ms"] / run[n]["evaluation_ms"] for run in runs],
        }
    return typical


def evaluation_speed(
    here: dict[int, dict[str, float]], fault_free: dict[int, dict[str, Any]]
) -> None:
    print(f"1. One evaluation of the population (permutation, pairs, P = {STEP_POPULATION})")
    for n in STEP_SIZES:
        unit, ordinary = fault_free[n], here[n]
        print(
            f"   N = {n:4}: {unit['evaluation_ms']:6.3f} ms, "
            f"{STEP_POPULATION / unit['evaluation_ms'] * 1000:10,.0f} evaluations/s "
            f"({unit['evaluation_faults']:.0f} faults/call); ordinary malloc: "
            f"{ordinary['evaluation_ms']:.3f} ms ({ordinary['evaluation_faults']:.0f} faults/call)"
        )


def step_speed(here: dict[int, dict[str, float]], fault_free: dict[int, dict[str, Any]]) -> None:
    print(
        f"2. A generation of the default config (P = {STEP_POPULATION}, {STEP_POPULATION} "
        "children), in evaluations of the population (target: at most 3)"
    )
    for n in STEP_SIZES:
        unit, ordinary = fault_free[n], here[n]
        cost = unit["step_ms"] / unit["evaluation_ms"]
        every = ", ".join(f"{run:.2f}" for run in unit["every_cost"])
        print(
            f"   N = {n:4}: {cost:.2f} evaluations (median of {every}; {unit['step_ms']:.3f} ms "
            f"a step over {unit['evaluation_ms']:.3f} ms, {unit['step_faults']:.0f} faults/step): "
            f"{'met' if cost <= 3 else 'NOT met'}; ordinary malloc: {ordinary['step_ms']:.3f} ms "
            f"a step ({1000 / ordinary['step_ms']:,.0f} generations/s, "
            f"{ordinary['step_faults']:.0f} faults/step)"
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
        f"3b. Default config, seeds 0-{len(LARGE_SEEDS) - 1}, at most {LARGE_BUDGET:,} "
        f"generations: seconds to a solution (wall clock, and CPU of this process; {load()})"
    )
    for n, target in LARGE_DEFAULTS:
        wall, cpu, generations, solved = [], [], [], 0
        for seed in LARGE_SEEDS:
            started_wall, started_cpu = time.perf_counter(), time.process_time()
            config = Config(n=n, seed=seed, generations=LARGE_BUDGET)
            final = GeneticAlgorithm(config).run()
            wall.append(time.perf_counter() - started_wall)
            cpu.append(time.process_time() - started_cpu)
            generations.append(final.generation)
            solved += final.solved
        cpu_median = statistics.median(cpu)
        print(
            f"   N = {n:6,}: solved {solved}/{len(LARGE_SEEDS)}; wall median "
            f"{statistics.median(wall):6.2f} s, CPU median {cpu_median:6.2f} s "
            f"(each: {', '.join(f'{c:.1f}' for c in cpu)}); "
            f"{statistics.median(generations):.0f} generations, CPU "
            f"{1000 * sum(cpu) / sum(generations):.2f} ms per generation (target: median under "
            f"{target:.0f} s: {'met' if cpu_median < target else 'NOT met'})"
        )
    print(f"   ({load()})")


def load() -> str:
    """The load averages, and how many cores share them."""
    one, five, fifteen = os.getloadavg()
    return f"load average {one:.2f} / {five:.2f} / {fifteen:.2f} on {os.cpu_count()} cores"


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
    if sys.argv[1:] == [FAULT_FREE_FLAG]:
        print(json.dumps({n: generation_costs(n) for n in STEP_SIZES}))
        return
    if sys.argv[1:] == ["--large"]:
        large_default()
        return
    print(f"queens-ga engine benchmark; numpy {np.__version__}, Python {sys.version.split()[0]}")
    fault_free = fault_free_costs()
    here = {n: generation_costs(n) for n in STEP_SIZES}
    evaluation_speed(here, fault_free)
    step_speed(here, fault_free)
    time_to_solution()
    large_default()
    deap_peer()
    dashboard_overhead()


if __name__ == "__main__":
    main()
