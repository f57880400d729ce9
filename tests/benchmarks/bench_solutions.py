"""How fast the exact search lists and counts N-Queens solutions, and the memory it takes.

Prints figures; asserts nothing (a count that disagrees with OEIS is printed as WRONG). Cases:

- list N = 12 (14,200 solutions, each marked fundamental or not): target under 0.2 s;
- count N = 14, 15, 16 (all and fundamental solutions): target N = 16 under 10 s, one process;
- ``queens solutions --n 12`` from the shell, start-up and printing included;
- ``queens solutions --n N --count --workers 2`` from the shell for N = 16 and 17 (the count
  split into parts on two local worker processes, each part kept in a fresh run store): target
  N = 16 under 10 s, N = 17 under 75 s. Its processes are watched through ``/proc`` (Linux):
  the CPU time of the whole tree (command, fork server, workers), and the peak resident memory
  of the command and of its largest worker.

Each case runs in a fresh process, so its peak resident memory (``ru_maxrss``) is its own;
``imports`` is the peak of a process that only imports numpy and the engine. Times are the
median of several runs where a run is short, on the clock and in CPU time (which a loaded
machine stretches less). The machine may be shared: the load average
before and after is printed with the figures.

``--quick`` stops at N = 14 (and counts N = 16 alone on workers); ``--runs R`` repeats each
count R times; ``--workers-only`` runs only the counts on workers.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Final

OEIS: Final = {
    12: (14200, 1787),
    14: (365596, 45752),
    15: (2279184, 285053),
    16: (14772512, 1846955),
    17: (95815104, 11977939),
}
"""N -> (A000170, A002562)."""

RUNS: Final = {"imports": 1, "list 12": 7, "count 14": 5, "count 15": 3, "count 16": 1}
"""Runs per case by default (the median is printed)."""

TARGETS: Final = {"list 12": 0.2, "count 16": 10.0}
"""Seconds a case should take at most."""

ON_WORKERS: Final = {16: 10.0, 17: 75.0}
"""N counted by ``queens solutions --count --workers 2``, and the seconds it should take."""

SAMPLE_SECONDS: Final = 0.05
"""How often the processes of a count on workers are looked at."""


def run_case(case: str, runs: int) -> dict[str, object]:
    """In this process: run ``case`` ``runs`` times; its times, result and peak memory."""
    import numpy  # noqa: F401  (imported before the clock starts, as in every case)

    from engine.solutions.exact import count_solutions, list_solutions

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


def descendants(pid: int) -> set[int]:
    """Every process below ``pid`` (Linux /proc)."""
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                text = (entry / "stat").read_text()
            except OSError:
                continue
            parents[int(entry.name)] = int(text[text.rfind(")") + 2 :].split()[1])
    found: set[int] = set()
    frontier = {pid}
    while frontier:
        frontier = {child for child, parent in parents.items() if parent in frontier} - found
        found |= frontier
    return found


def process_figures(pid: int) -> tuple[float, float] | None:
    """CPU seconds used so far and peak resident MB of process ``pid`` (None: gone)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return None
    fields = stat[stat.rfind(")") + 2 :].split()
    cpu = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    peak = next((line for line in status.splitlines() if line.startswith("VmHWM:")), "0 0")
    return cpu, int(peak.split()[1]) / 1024


def count_on_workers(n: int) -> dict[str, object]:
    """``queens solutions --n N --count --workers 2 --json`` in a fresh store: wall seconds
    from outside, the document, and the tree's CPU seconds and peak memory (sampled)."""
    with tempfile.TemporaryDirectory() as folder:
        environment = {**os.environ, "QUEENS_STORE": str(Path(folder) / "runs.sqlite3")}
        command = [sys.executable, "-m", "tui", "solutions", "--n", str(n), "--count"]
        started = time.perf_counter()
        process = subprocess.Popen(
            [*command, "--workers", "2", "--json"],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=environment,
        )
        seen: dict[int, tuple[float, float]] = {}
        done = threading.Event()

        def watch() -> None:
            while not done.is_set():
                for pid in {process.pid, *descendants(process.pid)}:
                    figures = process_figures(pid)
                    if figures is not None:  # a zombie shows no memory: keep the largest
                        last = seen.get(pid, (0.0, 0.0))
                        seen[pid] = (max(last[0], figures[0]), max(last[1], figures[1]))
                done.wait(SAMPLE_SECONDS)

        watcher = threading.Thread(target=watch, daemon=True)
        watcher.start()
        out, err = process.communicate()
        wall = time.perf_counter() - started
        done.set()
        watcher.join()
    if process.returncode != 0:
        raise RuntimeError(f"the count of N = {n} on workers failed: {err}")
    others = [peak for pid, (_, peak) in seen.items() if pid != process.pid]
    return {
        "wall": wall,
        "document": json.loads(out),
        "cpu": sum(cpu for cpu, _ in seen.values()),
        "command_peak_mb": seen.get(process.pid, (0.0, 0.0))[1],
        "worker_peak_mb": max(others, default=0.0),
    }


def print_counts_on_workers(sizes: list[int]) -> None:
    """The counts on two local workers, one line each."""
    print(f"counts on 2 local workers (queens solutions --count --workers 2); now: {load()}")
    print(
        f"{'case':<24}{'wall s':>8}{'count s':>9}{'cpu s':>8}  {'all / fundamental':<24}"
        f"{'OEIS':<6}{'command':>9}{'worker':>8}  target"
    )
    for n in sizes:
        report = count_on_workers(n)
        document = report["document"]
        assert isinstance(document, dict)
        result = (int(document["total"]), int(document["fundamental"]))
        verdict = "ok" if result == OEIS[n] and document["complete"] else "WRONG"
        wall = float(str(report["wall"]))
        target = ON_WORKERS[n]
        print(
            f"{f'count {n}, 2 workers':<24}{wall:>8.2f}{float(document['elapsed_s']):>9.2f}"
            f"{float(str(report['cpu'])):>8.2f}  {f'{result[0]:,} / {result[1]:,}':<24}"
            f"{verdict:<6}{float(str(report['command_peak_mb'])):>6.0f} MB"
            f"{float(str(report['worker_peak_mb'])):>5.0f} MB"
            f"  < {target:g} s: {'met' if wall < target else 'MISSED'}"
        )


def load() -> str:
    one, five, _ = os.getloadavg()
    return f"load average {one:.1f} (1 min), {five:.1f} (5 min) on {os.cpu_count()} cores"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--case", help=argparse.SUPPRESS)
    parser.add_argument("--runs", type=int, default=None, help="runs per count case")
    parser.add_argument("--quick", action="store_true", help="stop at N = 14")
    parser.add_argument(
        "--workers-only", action="store_true", help="only the counts on two local workers"
    )
    args = parser.parse_args()
    if args.case:
        print(json.dumps(run_case(args.case, args.runs)))
        return
    on_workers = [16] if args.quick else sorted(ON_WORKERS)
    if args.workers_only:
        print_counts_on_workers(on_workers)
        print(f"after: {load()}")
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
    print_counts_on_workers(on_workers)
    print(f"after: {load()}")


if __name__ == "__main__":
    main()
