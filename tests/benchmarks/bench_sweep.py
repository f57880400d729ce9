"""``make bench``: sweeps. Prints figures; asserts nothing.

1. Speed-up of 2 local workers over 1 for 200 short runs (the target is 1.8x on 2 idle cores).
2. Per-task overhead: 200 tiny runs (almost no work) on the local process pool and on a Dask
   ``LocalCluster`` (1 worker process, 1 thread), against the same runs done here, one after
   another: the difference per task is what a worker costs.

The machine's load average is printed beside: on a shared machine the speed-up says as much
about the other processes as about the pool.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from pathlib import Path
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


def autogroup_note() -> str | None:
    """A warning when Linux shares the CPU per session (autogroup) and other sessions are busy."""
    try:
        setting = Path("/proc/sys/kernel/sched_autogroup_enabled").read_text(encoding="ascii")
    except OSError:
        return None
    if setting.strip() != "1" or os.getloadavg()[0] < (os.cpu_count() or 1):
        return None
    return (
        "  note: sched_autogroup is on and the load is above the cores: the kernel shares the CPU\n"
        "  between sessions, and every process of this benchmark is in one session, so a second\n"
        "  worker gets no more CPU than the first had. The speed-up then measures the other\n"
        "  sessions, not the pool; run `make bench` on an idle machine for the pool's figure."
    )


def load() -> str:
    one, five, _ = os.getloadavg()
    return f"load average {one:.1f} (1 min), {five:.1f} (5 min) on {os.cpu_count()} cores"


def tiny_runs() -> SweepPlan:
    """200 runs of one generation of N = 4, P = 2: almost nothing but the task's overhead."""
    fixed = {"generations": "1", "stop_when_solved": "false", "population": "2"}
    return build_plan(spec_from_flags([], [], "4", str(RUNS), fixed))


def best_of(repeats: int, measure: Callable[[], float]) -> float:
    """The fastest of ``repeats`` measurements (the one the other load disturbed least)."""
    return min(measure() for _ in range(repeats))


def main() -> None:
    plan, tiny = short_runs(), tiny_runs()
    print(f"sweep benchmark: {RUNS} runs of N = 16, P = 40, 40 generations; {load()}")
    in_process(build_plan(spec_from_flags([], [], "16", "5", {"generations": "40"})))  # warm up
    alone = best_of(3, lambda: in_process(plan))
    # Alternate 1 and 2 workers, so a change in the other load hits both alike.
    one = two = float("inf")
    for _ in range(3):
        one = min(one, timed(plan, LocalPool(1)))
        two = min(two, timed(plan, LocalPool(2)))
    print(f"  in this process        {alone:6.2f} s  ({1000 * alone / RUNS:.1f} ms per run)")
    print(f"  local pool, 1 worker   {one:6.2f} s  (start-up included; best of 3)")
    print(f"  local pool, 2 workers  {two:6.2f} s  speed-up {one / two:.2f}x (target >= 1.8x)")
    note = autogroup_note()
    if note:
        print(note)

    print(f"per-task overhead: {RUNS} tiny runs (N = 4, P = 2, 1 generation), best of 3")
    tiny_alone = best_of(3, lambda: in_process(tiny))
    tiny_pool = best_of(3, lambda: timed(tiny, LocalPool(1)))
    print(f"  the run itself, in this process      {1000 * tiny_alone / RUNS:7.2f} ms per task")
    print(
        f"  local pool, 1 worker                  {1000 * tiny_pool / RUNS:7.2f} ms per task "
        f"(overhead {1000 * (tiny_pool - tiny_alone) / RUNS:+.2f} ms, start-up included)"
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
            dashboard_address=":0",
        ) as cluster,
        DaskCluster(cluster.scheduler_address) as dask,
    ):
        timed(build_plan(spec_from_flags([], [], "4", "4", {"generations": "1"})), dask)  # warm
        # A new seed range each time: the same keys would be the same (finished) Dask tasks.
        tiny_dask = min(
            timed(
                build_plan(
                    spec_from_flags(
                        [], [], "4", f"{k * RUNS}-{(k + 1) * RUNS - 1}",
                        {"generations": "1", "stop_when_solved": "false", "population": "2"},
                    )
                ),
                dask,
            )
            for k in range(1, 4)
        )  # fmt: skip
        on_dask = timed(plan, dask)
    print(
        f"  Dask LocalCluster, 1 worker process   {1000 * tiny_dask / RUNS:7.2f} ms per task "
        f"(overhead {1000 * (tiny_dask - tiny_alone) / RUNS:+.2f} ms, connected and warm)"
    )
    print(f"  the {RUNS} short runs on that Dask worker: {on_dask:.2f} s")
    print(f"  after: {load()}")


if __name__ == "__main__":
    main()
