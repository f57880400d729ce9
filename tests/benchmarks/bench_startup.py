"""``make bench``: how long ``queens solve --n 8`` takes as a whole process, beside numpy's import.

Prints figures; asserts nothing. The two commands run alternately (so a busy machine slows both
alike), ``RUNS`` times each, and the medians are compared:

1. ``python -c "import numpy"``: the floor every run of the command pays.
2. ``queens solve --n 8 --seed 1``: the installed console script, a whole solve included.
3. The cost of printing a result for N = 10^6 (``--json`` and the human summary), measured on
   a snapshot around a random permutation, since the default GA cannot reach that N in a
   benchmark's time.
"""

from __future__ import annotations

import io
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import time
from collections.abc import Sequence
from contextlib import redirect_stdout
from pathlib import Path
from typing import Final

RUNS: Final = 20
HUGE_N: Final = 1_000_000


def queens_command() -> list[str]:
    """The installed ``queens`` script beside this Python, else ``python -m tui``."""
    script = Path(sys.executable).with_name("queens")
    if script.exists():
        return [str(script)]
    found = shutil.which("queens")
    return [found] if found else [sys.executable, "-m", "tui"]


USER_ENVIRONMENT: Final = {
    name: value for name, value in os.environ.items() if name != "PYTHONDONTWRITEBYTECODE"
}
"""The environment, minus ``PYTHONDONTWRITEBYTECODE``: a user's Python keeps compiled bytecode
(``__pycache__``), and without it every run recompiles the project (about 0.1 s here)."""


def timed(command: Sequence[str]) -> tuple[float, float]:
    """Seconds one run of ``command`` takes, start to exit: wall time, and CPU time (user +
    system) of the process, which a machine shared with other work disturbs less."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    subprocess.run(
        command,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env=USER_ENVIRONMENT,
        check=False,
    )
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def startup_ratio() -> None:
    """Median wall and CPU time of each command over alternating runs, and their ratios."""
    numpy_only = [sys.executable, "-c", "import numpy"]
    solve = [*queens_command(), "solve", "--n", "8", "--seed", "1"]
    timed(numpy_only), timed(solve)  # warm the file cache, write the bytecode
    numpy_times: list[tuple[float, float]] = []
    solve_times: list[tuple[float, float]] = []
    for _ in range(RUNS):
        numpy_times.append(timed(numpy_only))
        solve_times.append(timed(solve))
    print(f"Start-up, median of {RUNS} alternating runs each (wall / CPU):")
    medians = []
    for label, times in (
        ("python -c 'import numpy'", numpy_times),
        ("queens solve --n 8 --seed 1", solve_times),
    ):
        wall = statistics.median(t[0] for t in times)
        cpu = statistics.median(t[1] for t in times)
        medians.append((wall, cpu))
        print(f"  {label:28} {wall * 1000:7.1f} ms / {cpu * 1000:7.1f} ms")
    (numpy_wall, numpy_cpu), (solve_wall, solve_cpu) = medians
    print(
        f"  ratio {solve_wall / numpy_wall:.2f}x wall "
        f"({(solve_wall - numpy_wall) * 1000:+.1f} ms), "
        f"{solve_cpu / numpy_cpu:.2f}x CPU ({(solve_cpu - numpy_cpu) * 1000:+.1f} ms)"
    )


def huge_output() -> None:
    """Seconds to print the result of an N = 10^6 run, as JSON and as the human summary."""
    import numpy as np

    from engine import Config, GenerationStats, Snapshot
    from tui.commands.solve import print_result

    genome = np.random.default_rng(0).permutation(HUGE_N).astype(np.int64)
    snapshot = Snapshot(
        stats=GenerationStats(0, 2, 0.0, 0.0, 0.0, 0.0, 0, 0.0, 1.0, 0.0),
        n=HUGE_N,
        encoding="permutation",
        seed=0,
        max_fitness=0.0,
        population=genome[None, :],
        fitness=np.zeros(1),
        conflicts=np.zeros(1, dtype=np.int64),
        best_index=0,
        stop_reason="solved",
        solutions=np.empty((0, HUGE_N), dtype=np.int64),
        fundamental_solutions=0,
    )
    config = Config(n=HUGE_N, population=2, seed=0)
    started, cpu_started = time.perf_counter(), time.process_time()
    per_gene = json.dumps(
        {
            "queens": [list(pair) for pair in snapshot.queens()],
            "genome": [int(gene) for gene in snapshot.best],
        }
    )
    elapsed, cpu = time.perf_counter() - started, time.process_time() - cpu_started
    print(
        f"  {'--json, one Python int per gene (before)':40} {elapsed * 1000:7.1f} ms "
        f"({cpu * 1000:.0f} ms CPU), {len(per_gene) / 1e6:.1f} MB of output"
    )
    for as_json in (True, False):
        sink = io.StringIO()
        started, cpu_started = time.perf_counter(), time.process_time()
        with redirect_stdout(sink):
            print_result(snapshot, config, as_json)
        elapsed, cpu = time.perf_counter() - started, time.process_time() - cpu_started
        label = "--json, tolist() + one json.dumps (now)" if as_json else "human summary (now)"
        print(
            f"  {label:40} {elapsed * 1000:7.1f} ms ({cpu * 1000:.0f} ms CPU), "
            f"{len(sink.getvalue()) / 1e6:.1f} MB of output"
        )


if __name__ == "__main__":
    startup_ratio()
    print("Printing the result of an N = 10^6 run:")
    huge_output()
