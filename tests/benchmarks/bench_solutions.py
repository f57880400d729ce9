"""How fast the exact search lists and counts N-Queens solutions, and the memory it takes.

Prints figures; asserts nothing (a count that disagrees with OEIS is printed as WRONG). Cases:

- list N = 12 (14,200 solutions, each marked fundamental or not): target under 0.2 s;
- count N = 14, 15, 16 (all and fundamental solutions): target N = 16 under 10 s, one process;
- ``queens solutions --n 12`` from the shell, start-up and printing included.

Each case runs in a fresh process, so its peak resident memory (``ru_maxrss``) is its own;
``imports`` is the peak of a process that only imports numpy and the engine. Times are the
median of several runs where a run is short, on the clock and in CPU time (which a loaded
machine stretches less). The machine may be shared: the load average
before and after is printed with the figures.

``--quick`` stops at N = 14; ``--runs R`` repeats each count R times.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from typing import Final

OEIS: Final = {
    12: (14200, 1787),
    14: (365596, 45752),
    15: (2279184, 285053),
    16: (14772512, 1846955),
}
"""N -> (A000170, A002562)."""

RUNS: Final = {"imports": 1, "list 12": 7, "count 14": 5, "count 15": 3, "count 16": 1}
"""Runs per case by default (the median is printed)."""

TARGETS: Final = {"list 12": 0.2, "count 16": 10.0}
"""Seconds a case should take at most."""


def run_case(case: str, runs: int) -> dict[str, object]:
    """In this process: run ``case`` ``runs`` times; its times, result and peak memory."""
    import numpy  # noqa: F401  (imported before the clock starts, as in every case)

    from engine.exact_solutions import count_solutions, list_solutions

    times: list[float] = []
    cpu_times: list[float] = []
    result: tuple[int, int] = (0, 0)
    kind, _, size = case.partition(" ")
    for _ in range(runs if kind != "imports" else 0):
        started, cpu_started = time.perf_counter(), time.process_time()
        if kind == "list":
            listing = list_solutions(int(size))
            result = (listing.total, listing.fundamental)
        else:
            count = count_solutions(int(size))
            result = (count.total, count.fundamental)
        times.append(time.perf_counter() - started)
        cpu_times.append(time.process_time() - cpu_started)
    peak_kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return {"times": times, "cpu": cpu_times, "result": result, "peak_mb": peak_kib / 1024}


def in_child(case: str, runs: int) -> dict[str, object]:
    """Run ``case`` in a fresh interpreter; its report."""
    done = subprocess.run(
        [sys.executable, __file__, "--case", case, "--runs", str(runs)],
        capture_output=True,
        text=True,
        check=True,
    )
    report: dict[str, object] = json.loads(done.stdout)
    return report


def command_line_seconds(runs: int) -> list[float]:
    """Wall seconds of ``queens solutions --n 12 > /dev/null``, start-up included."""
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        subprocess.run(
            [sys.executable, "-m", "tui", "solutions", "--n", "12"],
            stdout=subprocess.DEVNULL,
            check=True,
        )
        times.append(time.perf_counter() - started)
    return times


def load() -> str:
    one, five, _ = os.getloadavg()
    return f"load average {one:.1f} (1 min), {five:.1f} (5 min) on {os.cpu_count()} cores"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--case", help=argparse.SUPPRESS)
    parser.add_argument("--runs", type=int, default=None, help="runs per count case")
    parser.add_argument("--quick", action="store_true", help="stop at N = 14")
    args = parser.parse_args()
    if args.case:
        print(json.dumps(run_case(args.case, args.runs)))
        return

    cases = [c for c in RUNS if not (args.quick and c in ("count 15", "count 16"))]
    print(f"exact solutions, one process per case; before: {load()}")
    print(
        f"{'case':<24}{'runs':>5}{'median s':>10}{'min s':>8}{'cpu s':>8}  "
        f"{'all / fundamental':<24}{'OEIS':<6}{'peak RSS':>9}  target"
    )
    for case in cases:
        runs = RUNS[case] if args.runs is None or not case.startswith("count") else args.runs
        report = in_child(case, runs)
        times, cpu, result = report["times"], report["cpu"], report["result"]
        assert isinstance(times, list) and isinstance(cpu, list) and isinstance(result, list)
        peak = f"{report['peak_mb']:.0f} MB"
        if not times:
            print(f"{case:<24}{'':>31}  {'':<24}{'':<6}{peak:>9}")
            continue
        total, fundamental = int(result[0]), int(result[1])
        verdict = "ok" if (total, fundamental) == OEIS[int(case.split()[1])] else "WRONG"
        median = statistics.median(times)
        target = TARGETS.get(case)
        aim = (
            "" if target is None else f"< {target:g} s: " + ("met" if median < target else "MISSED")
        )
        print(
            f"{case:<24}{len(times):>5}{median:>10.3f}{min(times):>8.3f}"
            f"{statistics.median(cpu):>8.3f}  {f'{total:,} / {fundamental:,}':<24}{verdict:<6}"
            f"{peak:>9}  {aim}"
        )
    shell = command_line_seconds(5)
    print(
        f"{'queens solutions --n 12':<24}{len(shell):>5}{statistics.median(shell):>10.3f}"
        f"{min(shell):>8.3f}{'':>8}  (start-up and 14,201 lines to /dev/null)"
    )
    print(f"after: {load()}")


if __name__ == "__main__":
    main()
