"""``make bench``: the lessons. Prints figures; asserts nothing.

1. Takeover at P = 1000, 30 seeds, elitism 1: the mean generations to takeover beside the
   difference equation's expected value, for tournaments of 2, 4 and 8 (target: within 5%).
2. Drift at P = 100, 30 and 300 seeds: the mean column diversity beside H0 (1 - 1/P)^t at
   every generation until theory falls to 0.2 H0 (target: within 10% throughout), and the gap
   in standard errors of the mean.
3. Founders at P = 100, 100 seeds: the mean generation of a single founder beside
   2P (1 - 1/P) (target: within 10%).
4. Each lesson at its default size on 2 local workers, as ``queens lesson NAME`` runs it
   (target: at most 30 s each, the landscape's N = 9 included).

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
    print(
        f"drift, P = {population}, {seeds} seeds, t = 0..{horizon} (0.2 H0): the mean H at "
        f"most {worst:.1%} off H0 (1 - 1/P)^t (at t = {where}; target 10%), at most "
        f"{most_errors:.1f} standard errors of the mean"
    )


def founders() -> None:
    document, _ = run("founders", 100, 100)
    row = document["rows"][0]
    print(
        f"founders, P = 100, 100 seeds: mean {row['measured']:.1f} generations (sd "
        f"{row['spread']:.1f}) against 2P (1 - 1/P) = {row['theory']:.0f}: "
        f"{relative(row['measured'], row['theory']):.1%} off (target 10%)"
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
        print(f"  {name:<17} {seconds:6.1f} s   {size} {count}  (load before: {before})")


SECTIONS = {
    "takeover": takeover,
    "drift": lambda: (drift(30), drift(300)),
    "founders": founders,
    "timings": timings,
}
"""The figures by name: ``bench_lessons.py drift`` prints one; no name, all."""


if __name__ == "__main__":
    import sys

    print(f"load average: {load()} on {os.cpu_count()} cores")
    for name in sys.argv[1:] or SECTIONS:
        SECTIONS[name]()
    print(f"load average: {load()}")
