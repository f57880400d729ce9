"""``make bench``: how long ``queens solve --n 8`` takes as a whole process, beside numpy's import.

Prints figures; asserts nothing. The commands run in turn, ``RUNS`` rounds (so a busy machine
slows them alike), and each is compared with its round's numpy import:

1. ``python -c "import numpy"``: the floor every run of the command pays.
2. ``python -c "import numpy.random"``: the part of numpy a run cannot do without.
3. ``python -c "import numpy, os; os._exit(0)"``: the floor without Python's shutdown, which
   ``queens solve`` skips (it ends with ``os._exit`` once its output is flushed), to show how
   much of the difference that is.
4. ``queens solve --n 8 --seed 1``: the installed console script, a whole solve included; and
   again with OpenBLAS allowed its thread pool (``queens`` asks for one thread: it never uses
   BLAS), to show what that part saves.
5. The cost of printing a result for N = 10^6 (``--json`` and the human summary), measured on
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

RUNS: Final = 40
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


def timed(command: Sequence[str], environment: dict[str, str] | None = None) -> tuple[float, float]:
    """Seconds one run of ``command`` takes, start to exit: wall time, and CPU time (user +
    system) of the process, which a machine shared with other work disturbs less."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    subprocess.run(
        command,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env=USER_ENVIRONMENT if environment is None else environment,
        check=False,
    )
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def startup_ratio() -> None:
    """Each command's time over alternating runs, as medians and as paired ratios.

    The commands run one after another in rounds, and each round's times are divided by that
    round's ``import numpy``: on this machine one core's speed changes by up to 1.7x from one
    minute to the next, and a ratio of neighbours cancels that out where medians of each
    command taken apart do not. Printed: the median of those ratios and its quartiles.
    """
    python = sys.executable
    solve = [*queens_command(), "solve", "--n", "8", "--seed", "1"]
    # queens asks OpenBLAS for one thread (tui/entry.py); this row shows what that saves.
    blas_pool = {**USER_ENVIRONMENT, "OPENBLAS_NUM_THREADS": str(os.cpu_count() or 1)}
    commands: dict[str, tuple[list[str], dict[str, str] | None]] = {
        "python -c 'import numpy'": ([python, "-c", "import numpy"], None),
        "python -c 'import numpy.random'": ([python, "-c", "import numpy.random"], None),
        # queens solve ends without Python's shutdown (tui/entry.py): numpy's own share of it.
        "  numpy, then os._exit(0)": ([python, "-c", "import numpy, os; os._exit(0)"], None),
        "queens solve --n 8 --seed 1": (solve, None),
        "  the same with OpenBLAS's threads": (solve, blas_pool),
    }
    for command, environment in commands.values():
        timed(command, environment)  # warm the file cache, write the bytecode
    times: dict[str, list[tuple[float, float]]] = {label: [] for label in commands}
    for _ in range(RUNS):
        for label, (command, environment) in commands.items():
            times[label].append(timed(command, environment))
    print(f"Start-up, {RUNS} rounds of the commands in turn (wall / CPU, medians):")
    floor = [wall for wall, _ in times["python -c 'import numpy'"]]
    for label, runs in times.items():
        wall = statistics.median(t[0] for t in runs)
        cpu = statistics.median(t[1] for t in runs)
        ratios = [t[0] / base for t, base in zip(runs, floor, strict=True)]
        low, middle, high = statistics.quantiles(ratios, n=4)
        print(
            f"  {label:36} {wall * 1000:7.1f} ms / {cpu * 1000:7.1f} ms   "
            f"{middle:.2f}x the numpy import (quartiles {low:.2f}-{high:.2f})"
        )
    print("  target: queens solve --n 8 within 1.3x of python -c 'import numpy'")


def huge_output() -> None:
    """Seconds to print the result of an N = 10^6 run, as JSON and as the human summary."""
    import numpy as np

    from engine import Config, GenerationStats, Snapshot
    from tui.cli.result_printing import print_result

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
