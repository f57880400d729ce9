"""``make bench``: the lessons. Prints figures; asserts nothing.

1. Takeover at P = 1000, 30 seeds, elitism 1: the mean generations to takeover beside the
   difference equation's expected value, for tournaments of 2, 4 and 8 (target: within 5%).
2. Drift at P = 100, 30 and 300 seeds: the mean column diversity beside H0 (1 - 1/P)^t at
   every generation until theory falls to 0.2 H0 (target: within 10% throughout), the gap
   in standard errors of the mean, and the runs' own coefficient of variation of H there.
3. Founders at P = 100, 100 seeds: the mean generation of a single founder beside
   2P (1 - 1/P) (target: within 10%), and in GENITOR's steady state beside P - 1, 100 seeds.
4. Each lesson at its default size on 2 local workers, as ``queens lesson NAME`` runs it
   (target: at most 30 s each, the landscape's N = 9 included), and the landscape of N = 10
   (the dashboard's and ``--n 10``'s background work): its seconds and its peak memory.

The figures of 1-3 are the lessons' own (seeded: the same on any machine); the seconds of 4
depend on the machine and its load, printed beside.
"""

from __future__ import annotations

import os
import time

from tui.lab.lessons.catalog import LESSONS, PRELOAD
from tui.lab.lessons.runner import lesson_document
from tui.lab.sweep.local_pool import LocalPool

WORKERS = 2


def load() -> str:
    """The machine's load averages."""
    return " ".join(f"{value:.2f}" for value in os.getloadavg())


def run(name: str, population: int | None = None, seeds: int | None = None) -> tuple[dict, float]:
    """A lesson's document on the local workers, and the seconds it took."""
    started = time.perf_counter()
    document = lesson_document(
        LESSONS[name], population, seeds, LocalPool(WORKERS, preload=PRELOAD)
    )
    return document, time.perf_counter() - started


def relative(measured: float, theory: float) -> float:
    return abs(measured - theory) / abs(theory)


def takeover() -> None:
    document, _ = run("takeover", 1000, 30)
    print("takeover, P = 1000, 30 seeds, elitism 1 (target: within 5% of the difference equation)")
    print(
        f"  {'selection':<15} {'measured':>9} {'equation':>9} {'off':>6} {'t*':>7}  lost / theory"
    )
    for row in document["rows"]:
        off = relative(row["measured"], row["theory"])
        print(
            f"  {row['label']:<15} {row['measured']:9.3f} {row['theory']:9.3f} {off:6.1%} "
            f"{row['asymptotic']:7.3f}  {row['lost']:.2f} / {row['lost_theory']:.3f}"
        )


def drift(seeds: int) -> None:
    """The mean column diversity of ``seeds`` runs against Wright-Fisher, at every generation
    to the horizon: the largest relative gap, and the largest gap in standard errors of the
    mean (the runs' own spread: late in the drift one run's H is as likely 0 as twice the
    mean, so 30 runs' mean wanders far more than 10%)."""
    import statistics

    from tui.lab.lessons import theory
    from tui.lab.lessons.drift import ARMS
    from tui.lab.lessons.runner import lesson_results

    population = 100
    pool = LocalPool(WORKERS, preload=PRELOAD)
    results = lesson_results(LESSONS["drift"], population, seeds, pool)
    runs = results.by_arm[ARMS[0][0]]
    horizon = theory.drift_horizon(population)
    start = statistics.fmean(r["diversity"][0] for r in runs)
    worst, where, most_errors = 0.0, 0, 0.0
    for generation in range(1, horizon + 1):
        values = [r["diversity"][generation] for r in runs]
        measured = statistics.fmean(values)
        expected = theory.wright_fisher_diversity(start, population, generation)
        off = relative(measured, expected)
        error = statistics.stdev(values) / seeds**0.5
        most_errors = max(most_errors, abs(measured - expected) / error)
        if off > worst:
            worst, where = off, generation
    # The runs' own spread where theory reaches 0.2 H0: a standard deviation over the mean.
    last = [r["diversity"][horizon] for r in runs]
    spread = statistics.stdev(last) / statistics.fmean(last)
    print(
        f"drift, P = {population}, {seeds} seeds, t = 0..{horizon} (0.2 H0): the mean H at "
        f"most {worst:.1%} off H0 (1 - 1/P)^t (at t = {where}; target 10%), at most "
        f"{most_errors:.1f} standard errors of the mean; one run's H at t = {horizon} has a "
        f"coefficient of variation of {spread:.2f}, so {seeds} runs' mean one of "
        f"{spread / seeds**0.5:.1%}"
    )


def founders() -> None:
    document, _ = run("founders", 100, 100)
    row = document["rows"][0]
    print(
        f"founders, P = 100, 100 seeds: mean {row['measured']:.1f} generations (sd "
        f"{row['spread']:.1f}) against 2P (1 - 1/P) = {row['theory']:.0f}: "
        f"{relative(row['measured'], row['theory']):.1%} off (target 10%)"
    )
    steady_state_founders(100, 100)


def steady_state_founders(population: int, seeds: int) -> None:
    """GENITOR's steady state on ``seeds`` seeds (the lesson runs a tenth of its seeds so)."""
    import statistics

    from tui.lab.lessons import theory
    from tui.lab.lessons.founders import measure_founders
    from tui.lab.lessons.runs import neutral
    from tui.lab.sweep.job import Job

    fields = neutral(population, survivor="genitor")
    jobs = [
        (seed, Job(f"bench-founders-genitor-{seed}", measure_founders, (fields, seed, None)))
        for seed in range(seeds)
    ]
    found: dict[int, float] = {}
    started = time.perf_counter()
    LocalPool(WORKERS, preload=PRELOAD).run_jobs(
        jobs, lambda seed, result: found.__setitem__(seed, result["generations"])
    )
    seconds = time.perf_counter() - started
    done = [value for value in found.values() if value is not None]
    mean = statistics.fmean(done)
    expected = theory.founder_generations(population, steady_state=True)
    two_at_a_time = 2 * (population - 1) ** 2 / (2 * population - 3)
    print(
        f"founders, GENITOR's steady state, P = {population}, {seeds} seeds: mean {mean:.1f} "
        f"generations of P births (sd {statistics.pstdev(done):.1f}, standard error "
        f"{statistics.stdev(done) / len(done) ** 0.5:.1f}, {seeds - len(done)} gave up) "
        f"against P - 1 = {expected:.0f}: {relative(mean, expected):.1%} off "
        f"(two births at a time: {two_at_a_time:.1f}); {seconds:.0f} s"
    )


def timings() -> None:
    print(f"each lesson at its default size on {WORKERS} local workers (target 30 s):")
    for name, lesson in LESSONS.items():
        before = load()
        _, seconds = run(name)
        size = (
            f"P = {lesson.population}"
            if lesson.population
            else "N = 4..9"
            if name == "landscape"
            else ""
        )
        count = f"{lesson.seeds:,} {lesson.seeds_meaning}" if lesson.seeds else ""
        verdict = "within" if seconds <= 30 else "OVER"
        print(
            f"  {name:<17} {seconds:6.1f} s  {verdict:<6} {size} {count}  (load before: {before})"
        )
    landscape_ten()


def landscape_ten() -> None:
    """N = 10 as the dashboard and ``queens lesson landscape --n 10`` compute it: in this
    process, a chunk of boards at a time; its seconds and the process's peak memory."""
    import resource

    from tui.lab.lessons.landscape import measure_landscape

    before = load()
    started = time.perf_counter()
    row = measure_landscape(10)
    seconds = time.perf_counter() - started
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(
        f"  landscape N = 10 {seconds:6.1f} s   {row['boards']:,} boards, {row['solutions']} "
        f"solutions; peak memory of the process {peak:.0f} MB  (load before: {before})"
    )


SECTIONS = {
    "takeover": takeover,
    "drift": lambda: (drift(30), drift(300)),
    "founders": founders,
    "timings": timings,
    "landscape10": landscape_ten,
}
"""The figures by name: ``bench_lessons.py drift`` prints one; no name, all."""


if __name__ == "__main__":
    import sys

    print(f"load average: {load()} on {os.cpu_count()} cores")
    for name in sys.argv[1:] or SECTIONS:
        SECTIONS[name]()
    print(f"load average: {load()}")
