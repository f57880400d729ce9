"""``make bench``: the memetic preset at large N, median over 5 seeds, with peak memory.

Prints figures; asserts nothing. Each run is a fresh process (so its peak resident memory is
its own) that builds the ``memetic`` preset's GA for N and a seed, runs it to the end, and
reports the seconds from construction (the greedy start included) to the final snapshot, the
generations, whether it solved, and the process's peak RSS (``ru_maxrss``).

Targets (issue 11): N = 100,000 under 10 s; N = 1,000,000 under 60 s in under 1.5 GB.

    .venv/bin/python tests/benchmarks/bench_memetic.py            # both sizes
    .venv/bin/python tests/benchmarks/bench_memetic.py 100000     # one size
"""

from __future__ import annotations

import json
import resource
import statistics
import subprocess
import sys
import time
from typing import Final

SEEDS: Final = tuple(range(5))
SIZES: Final = (100_000, 1_000_000)
TARGET_S: Final = {100_000: 10.0, 1_000_000: 60.0}
TARGET_RSS_GB: Final = 1.5
RUN_LIMIT_S: Final = 300.0


def one_run(n: int, seed: int) -> None:
    """In a fresh process: one seeded run; prints a JSON line."""
    from engine import GeneticAlgorithm
    from engine.presets import PRESETS

    config = PRESETS["memetic"].config(n, seed=seed, time_limit=RUN_LIMIT_S)
    started = time.perf_counter()
    final = GeneticAlgorithm(config).run()
    seconds = time.perf_counter() - started
    peak_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # KiB on Linux
    print(
        json.dumps(
            {
                "seconds": seconds,
                "solved": bool(final.solved),
                "generations": final.generation,
                "rss_gb": peak_kb * 1024 / 1e9,
            }
        )
    )


def runs_at(n: int) -> list[dict[str, float]]:
    """Five seeded runs of the memetic preset at ``n``, each in its own process."""
    runs = []
    for seed in SEEDS:
        output = subprocess.run(
            [sys.executable, __file__, "--one", str(n), str(seed)],
            check=True,
            capture_output=True,
            text=True,
        ).stdout
        runs.append(json.loads(output.strip().splitlines()[-1]))
    return runs


def measure(n: int) -> None:
    """Print the median figures of :func:`runs_at`."""
    runs = runs_at(n)
    seconds = [r["seconds"] for r in runs]
    rss = [r["rss_gb"] for r in runs]
    solved = sum(r["solved"] for r in runs)
    generations = statistics.median(r["generations"] for r in runs)
    print(
        f"   N = {n:>9,}: solved {solved}/{len(runs)}; seconds median "
        f"{statistics.median(seconds):6.2f} max {max(seconds):6.2f}; generations median "
        f"{generations:.0f}; peak RSS median {statistics.median(rss):.2f} GB max "
        f"{max(rss):.2f} GB (target: under {TARGET_S[n]:.0f} s"
        + (f", {TARGET_RSS_GB} GB)" if n >= 1_000_000 else ")")
    )


def markdown_table(sizes: tuple[int, ...] = SIZES) -> str:
    """The figures as a markdown table, for ``docs/presets.md``."""
    lines = [
        "| N | solved | median generations | median seconds | max seconds | peak RSS (max) |",
        "|---|---|---|---|---|---|",
    ]
    for n in sizes:
        runs = runs_at(n)
        seconds = [r["seconds"] for r in runs]
        lines.append(
            f"| {n:,} | {sum(r['solved'] for r in runs)}/{len(runs)} | "
            f"{statistics.median(r['generations'] for r in runs):.0f} | "
            f"{statistics.median(seconds):.2f} | {max(seconds):.2f} | "
            f"{max(r['rss_gb'] for r in runs):.2f} GB |"
        )
    return "\n".join(lines)


def main(sizes: tuple[int, ...] = SIZES) -> None:
    print(
        f"6. Memetic preset (greedy start, local search on every child), seeds "
        f"{SEEDS[0]}-{SEEDS[-1]}, one process per run"
    )
    for n in sizes:
        measure(n)


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "--one":
        one_run(int(sys.argv[2]), int(sys.argv[3]))
    else:
        main(tuple(int(a) for a in sys.argv[1:]) or SIZES)
