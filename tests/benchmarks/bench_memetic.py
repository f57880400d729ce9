"""``make bench``: the memetic preset at large N, and the default GA at N = 4,096 and 16,384.

Prints figures; asserts nothing. Each run is a fresh process (so its peak resident memory is
its own) that builds the preset's GA for N and a seed, runs it to the end as ``queens solve``
does (without lineage: a dashboard's or a recorded run keeps each generation's, and with it
the generation before, one more copy of the population), and reports the
seconds from construction (the greedy start and numba's import included) to the final
snapshot, the process's CPU seconds (on a shared machine, wall time also counts the others'
work), the generations, whether it solved, and its peak RSS (``ru_maxrss``) beside its RSS
before the run, whose difference is what the run itself costs; a run at N = 1,000 shows
what numba's import and its cached kernels cost every run (about 0.11 GB and 0.4 s).

The memetic kernels are compiled by numba and cached on disk: the benchmark gives them a cache
directory of its own, so its first run shows what a user's first run costs (compiling
included), and the others what every later run costs. The load average is printed with each
line: the machine's other work slows the figures.

Targets: N = 10^6 under 1.2 s and 60 MB per million queens; 10^7 under 18 s and 600 MB; 10^8
under 4 minutes within 6 GB. The default GA at N = 16,384 under 30 s.

    .venv/bin/python tests/benchmarks/bench_memetic.py             # everything but 10^8
    .venv/bin/python tests/benchmarks/bench_memetic.py 1000000     # one memetic size
    .venv/bin/python tests/benchmarks/bench_memetic.py --huge      # also N = 10^8, once
"""

from __future__ import annotations

import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from typing import Any, Final

SEEDS: Final = (0, 1, 2)
MEMETIC_SIZES: Final = (1_000_000, 3_000_000, 10_000_000)
HUGE: Final = 100_000_000
FLOOR_N: Final = 1_000
DEFAULT_SEEDS: Final = tuple(range(5))
DEFAULT_SIZES: Final = (4_096, 16_384)
TARGETS: Final = {
    1_000_000: (1.2, 0.06),
    3_000_000: (3.6, 0.18),
    10_000_000: (18.0, 0.6),
    HUGE: (240.0, 6.0),
    16_384: (30.0, None),
}
"""N -> (seconds, GB of peak RSS, or None)."""
RUN_LIMIT_S: Final = 600.0


def _resident_kb() -> int:
    """This process's resident memory now, in KiB (Linux), or 0."""
    try:
        with open("/proc/self/status") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def one_run(preset: str, n: int, seed: int) -> None:
    """In a fresh process: one seeded run; prints a JSON line."""
    from engine import ConfigError, GeneticAlgorithm
    from engine.config.presets import PRESETS

    before_kb = _resident_kb()
    figures: dict[str, Any] = {"before_gb": before_kb * 1024 / 1e9}
    try:
        config = PRESETS[preset].config(n, seed=seed, time_limit=RUN_LIMIT_S)
    except ConfigError as error:
        print(json.dumps({**figures, "refused": str(error)}))
        return
    started = time.perf_counter()
    final = GeneticAlgorithm(config, lineage=False).run()  # as `queens solve` runs it
    seconds = time.perf_counter() - started
    usage = resource.getrusage(resource.RUSAGE_SELF)
    figures.update(
        seconds=seconds,
        cpu=usage.ru_utime + usage.ru_stime,
        solved=bool(final.solved),
        generations=final.generation,
        rss_gb=usage.ru_maxrss * 1024 / 1e9,  # KiB on Linux
    )
    print(json.dumps(figures))


def run_in_process(
    preset: str, n: int, seed: int, environment: dict[str, str] | None = None
) -> dict[str, Any]:
    """One run of ``preset`` at ``n`` in its own process, with the load average at its end."""
    output = subprocess.run(
        [sys.executable, __file__, "--one", preset, str(n), str(seed)],
        check=True,
        capture_output=True,
        text=True,
        env=environment,
    ).stdout
    figures: dict[str, Any] = json.loads(output.strip().splitlines()[-1])
    figures["load"] = os.getloadavg()[0]
    return figures


def _line(label: str, runs: list[dict[str, Any]], n: int, floor_gb: float | None = None) -> str:
    """One printed line: medians (and maxima) of the runs, and the target for ``n``; with
    ``floor_gb`` (what numba and its kernels cost a run), the memory per million queens above
    it too."""
    refused = [r["refused"] for r in runs if "refused" in r]
    if refused:
        return f"   {label}: refused: {refused[0]}"
    seconds = [r["seconds"] for r in runs]
    rss = [r["rss_gb"] for r in runs]
    own = [r["rss_gb"] - r["before_gb"] for r in runs]
    per_million = statistics.median(own) / n * 1e6 * 1000
    target_s, target_gb = TARGETS.get(n, (None, None))
    target = "" if target_s is None else f" (target: under {target_s:g} s"
    if target and target_gb is not None:
        target += f", {target_gb:g} GB"
    target += ")" if target else ""
    return (
        f"   {label}: solved {sum(r['solved'] for r in runs)}/{len(runs)}; seconds median "
        f"{statistics.median(seconds):6.2f} max {max(seconds):6.2f}, CPU median "
        f"{statistics.median(r['cpu'] for r in runs):6.2f}; generations median "
        f"{statistics.median(r['generations'] for r in runs):.0f}; peak RSS median "
        f"{statistics.median(rss):.3f} GB max {max(rss):.3f} GB, the run's own "
        f"{statistics.median(own):.3f} GB"
        + (f" = {per_million:.0f} MB per million queens" if n >= 10**6 else "")
        + (
            f" ({(statistics.median(own) - floor_gb) / n * 1e9:.0f} MB per million above the floor)"
            if n >= 10**6 and floor_gb is not None
            else ""
        )
        + "; load "
        f"{statistics.median(r['load'] for r in runs):.1f}{target}"
    )


def memetic(sizes: tuple[int, ...], huge: bool) -> None:
    """The memetic preset: a first run with an empty kernel cache, then every size cached."""
    print(
        f"6. Memetic preset (greedy start, local search on every child), seeds "
        f"{SEEDS[0]}-{SEEDS[-1]} (N = 10^8: seed 0 once), one process per run"
    )
    with tempfile.TemporaryDirectory(prefix="bench-numba-") as cache:
        environment = {**os.environ, "NUMBA_CACHE_DIR": cache}
        first = run_in_process("memetic", sizes[0], SEEDS[0], environment)
        print(_line(f"first run, kernels compiled, N = {sizes[0]:>11,}", [first], sizes[0]))
        # What every run pays before its boards: numba's import and the cached kernels (run
        # twice: small boards have int64 genes, whose kernels the first run compiles).
        run_in_process("memetic", FLOOR_N, SEEDS[0], environment)
        floor = run_in_process("memetic", FLOOR_N, SEEDS[0], environment)
        floor_gb = floor["rss_gb"] - floor["before_gb"]
        print(
            f"   the floor (N = {FLOOR_N:,}: numba and its kernels): CPU {floor['cpu']:.2f} s, "
            f"the run's own {floor_gb:.3f} GB"
        )
        for n in sizes:
            runs = [run_in_process("memetic", n, s, environment) for s in SEEDS]
            print(_line(f"cached kernels,           N = {n:>11,}", runs, n, floor_gb))
        if huge:
            runs = [run_in_process("memetic", HUGE, 0, environment)]
            print(_line(f"cached kernels,           N = {HUGE:>11,}", runs, HUGE, floor_gb))


def default_ga() -> None:
    """The default GA (no local search) at N = 4,096 and 16,384."""
    print(
        f"7. Default preset (no local search), seeds {DEFAULT_SEEDS[0]}-{DEFAULT_SEEDS[-1]}, "
        f"one process per run"
    )
    for n in DEFAULT_SIZES:
        runs = [run_in_process("default", n, s) for s in DEFAULT_SEEDS]
        print(_line(f"N = {n:>6,}", runs, n))


def markdown_table(sizes: tuple[int, ...] = MEMETIC_SIZES) -> str:
    """The memetic figures (cached kernels) as a markdown table, for ``docs/presets.md``."""
    lines = [
        "| N | solved | median generations | median seconds | max seconds | median CPU seconds "
        "| peak RSS (max) |",
        "|---|---|---|---|---|---|---|",
    ]
    for n in sizes:
        runs = [run_in_process("memetic", n, s) for s in SEEDS]
        seconds = [r["seconds"] for r in runs]
        lines.append(
            f"| {n:,} | {sum(r['solved'] for r in runs)}/{len(runs)} | "
            f"{statistics.median(r['generations'] for r in runs):.0f} | "
            f"{statistics.median(seconds):.2f} | {max(seconds):.2f} | "
            f"{statistics.median(r['cpu'] for r in runs):.2f} | "
            f"{max(r['rss_gb'] for r in runs):.2f} GB |"
        )
    return "\n".join(lines)


def main(arguments: list[str]) -> None:
    huge = "--huge" in arguments
    sizes = tuple(int(a) for a in arguments if a != "--huge") or MEMETIC_SIZES
    memetic(sizes, huge)
    if sizes == MEMETIC_SIZES:
        default_ga()


if __name__ == "__main__":
    if len(sys.argv) == 5 and sys.argv[1] == "--one":
        one_run(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))
    else:
        main(sys.argv[1:])
