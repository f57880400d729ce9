"""What ``--json`` costs on top of a run: ``queens solve`` at N = 10^7, with and without it.

Prints figures; asserts nothing. Each run is a fresh ``queens solve --preset memetic`` process
whose stdout is read and thrown away as it comes (a pipe, as a user's ``| jq`` or ``> file``);
its wall seconds, CPU seconds and peak resident memory are its own (``os.wait4`` gives the
child's ``ru_maxrss``). The runs alternate, without and with ``--json``, so the machine's other
work weighs on both alike; the load average is printed with the figures.

Target: ``--json`` at most about 1 s and 100 MB above the same run without it (it was 5.2 s
and 2.2 GB when the document was built as Python lists).

    .venv/bin/python tests/benchmarks/bench_output.py              # N = 10^7, seed 1, twice
    .venv/bin/python tests/benchmarks/bench_output.py 1000000 3    # N, repeats
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Final

N: Final = 10_000_000
REPEATS: Final = 2
QUEENS: Final = str(Path(sys.executable).with_name("queens"))


def measure(n: int, as_json: bool) -> tuple[float, float, float, int]:
    """Wall seconds, CPU seconds, peak RSS in MB and bytes written, of one ``queens solve``."""
    command = [QUEENS, "solve", "--preset", "memetic", "--n", str(n), "--seed", "1"]
    if as_json:
        command.append("--json")
    started = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.PIPE)
    assert process.stdout is not None
    written = 0
    while chunk := process.stdout.read(1 << 20):
        written += len(chunk)
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - started
    code = os.waitstatus_to_exitcode(status)
    if code not in (0, 1):
        raise SystemExit(f"{' '.join(command)} exited {code}")
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024, written


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else N
    repeats = int(sys.argv[2]) if len(sys.argv) > 2 else REPEATS
    figures: dict[bool, list[tuple[float, float, float, int]]] = {False: [], True: []}
    for _ in range(repeats):
        for as_json in (False, True):
            figures[as_json].append(measure(n, as_json))
            wall, cpu, peak, written = figures[as_json][-1]
            load = os.getloadavg()[0]
            print(
                f"N = {n:,} {'--json' if as_json else 'plain '}: {wall:6.2f} s wall, "
                f"{cpu:6.2f} s CPU, peak {peak:7.0f} MB, {written:,} bytes out (load {load:.1f})",
                flush=True,
            )
    plain, streamed = figures[False], figures[True]
    extra_wall = statistics.median(j[0] for j in streamed) - statistics.median(p[0] for p in plain)
    extra_cpu = statistics.median(j[1] for j in streamed) - statistics.median(p[1] for p in plain)
    extra_peak = statistics.median(j[2] for j in streamed) - statistics.median(p[2] for p in plain)
    print(
        f"--json costs {extra_wall:+.2f} s wall, {extra_cpu:+.2f} s CPU, {extra_peak:+.0f} MB "
        "peak (medians)"
    )


if __name__ == "__main__":
    main()
