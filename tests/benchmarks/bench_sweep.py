"""``make bench``: sweeps. Prints figures; asserts nothing.

1. Speed-up of 2 local workers over 1 for 200 short runs (the target is 1.8x on 2 idle cores).
2. Per-task overhead: the local process pool and a Dask ``LocalCluster`` (1 worker process,
   1 thread) against the runs themselves, done one after another in this process.

The machine's load average is printed beside: on a shared machine the speed-up says as much
about the other processes as about the pool.
"""

from __future__ import annotations

import os
import time
from typing import Final

from tui.lab.sweep.local_pool import LocalPool
from tui.lab.sweep.plan import SweepPlan, build_plan, spec_from_flags
from tui.lab.sweep.runner import Backend, MemoryLedger, missing_tasks, run_sweep
from tui.lab.sweep.task import run_task

RUNS: Final = 200
"""Short runs per measurement."""


def short_runs() -> SweepPlan:
    """200 runs of 40 generations of N = 16, P = 40 (a few hundredths of a second each)."""
    fixed = {"generations": "40", "stop_when_solved": "false"}
    return build_plan(spec_from_flags([], [], "16", str(RUNS), fixed))


def timed(plan: SweepPlan, backend: Backend) -> float:
    """Seconds to run the whole plan on ``backend`` (worker start-up included)."""
    started = time.perf_counter()
    run_sweep(plan, backend, MemoryLedger())
    return time.perf_counter() - started


def in_process(plan: SweepPlan) -> float:
    """Seconds to run every task here, one after another: the runs themselves."""
    started = time.perf_counter()
    for task in missing_tasks(plan, set()):
        run_task(task.config, task.seed)
    return time.perf_counter() - started


def load() -> str:
    one, five, _ = os.getloadavg()
    return f"load average {one:.1f} (1 min), {five:.1f} (5 min) on {os.cpu_count()} cores"


def main() -> None:
    plan = short_runs()
    print(f"sweep benchmark: {RUNS} runs of N = 16, P = 40, 40 generations; {load()}")
    in_process(build_plan(spec_from_flags([], [], "16", "5", {"generations": "40"})))  # warm up
    alone = in_process(plan)
    one = timed(plan, LocalPool(1))
    two = timed(plan, LocalPool(2))
    print(f"  in this process      {alone:7.2f} s  ({1000 * alone / RUNS:.1f} ms per run)")
    print(f"  local pool, 1 worker {one:7.2f} s")
    print(f"  local pool, 2 workers{two:7.2f} s  speed-up {one / two:.2f}x (target >= 1.8x)")
    print(
        f"  overhead per task, local pool (1 worker, start-up included): "
        f"{1000 * (one - alone) / RUNS:+.1f} ms"
    )
    try:
        from distributed import LocalCluster

        from tui.lab.sweep.dask_cluster import DaskCluster
    except ImportError:
        print("  Dask: not installed (pip install 'queens-ga[cluster]')")
        return
    with (
        LocalCluster(
            n_workers=1,
            threads_per_worker=1,
            processes=True,
            host="127.0.0.1",
            dashboard_address=None,
        ) as cluster,
        DaskCluster(cluster.scheduler_address) as dask,
    ):
        run_sweep(
            build_plan(spec_from_flags([], [], "8", "4", {"generations": "1"})),
            dask,
            MemoryLedger(),
        )
        on_dask = timed(plan, dask)
    print(f"  Dask LocalCluster, 1 worker {on_dask:7.2f} s")
    print(
        f"  overhead per task, Dask (1 worker, connected and warm): "
        f"{1000 * (on_dask - alone) / RUNS:+.1f} ms"
    )
    print(f"  after: {load()}")


if __name__ == "__main__":
    main()
