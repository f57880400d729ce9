"""``make bench``: sweeps. Prints figures; asserts nothing.

1. Speed-up of 2 local workers over 1 for 200 short runs (the target is 1.8x on 2 idle cores),
   in rounds of one of each, with the workers' CPU time read from ``/proc``. That splits the
   shortfall from 2x in two: the time the workers sat idle (the pool's doing: start-up, handing
   out tasks, the tail) and the extra CPU time the same runs took when both cores were busy
   (the host's doing: this machine's two virtual cores are sometimes worth two real ones and
   sometimes barely more than one, changing by the minute).
2. Per-task overhead: 200 tiny runs (almost no work) on the local process pool and on a Dask
   ``LocalCluster`` (1 worker process, 1 thread), against the same runs done here, one after
   another: the difference per task is what a worker costs.

The machine's load average is printed beside: on a shared machine the speed-up says as much
about the other processes as about the pool.
"""

from __future__ import annotations

import os
import statistics
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

ROUNDS: Final = 5
"""Rounds of (1 worker, 2 workers) in section 1."""

TICKS: Final = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
"""Clock ticks per second of ``/proc/PID/stat``'s CPU times."""


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


class WorkerClock:
    """CPU seconds a local pool's workers have used, read from ``/proc`` as results come in.

    Sampled after every result (the sweep's progress callback), so the last sample follows the
    last task. Linux only; elsewhere it reads nothing and the CPU columns are left out.
    """

    def __init__(self, pool: LocalPool) -> None:
        self.pool = pool
        self.seconds: dict[int, float] = {}

    def sample(self, *_progress: int) -> None:
        for pid in self.pool.worker_pids():
            try:
                stat = Path(f"/proc/{pid}/stat").read_text(encoding="ascii")
            except OSError:
                continue
            fields = stat.rsplit(")", 1)[1].split()  # from field 3, the process state, on
            self.seconds[pid] = (int(fields[11]) + int(fields[12])) / TICKS  # utime + stime

    @property
    def total(self) -> float:
        return sum(self.seconds.values())


def timed_pool(plan: SweepPlan, workers: int) -> tuple[float, float]:
    """Wall seconds to run the plan on a new local pool (start-up included), and the CPU
    seconds its workers used."""
    pool = LocalPool(workers)
    clock = WorkerClock(pool)
    started = time.perf_counter()
    run_sweep(plan, pool, MemoryLedger(), on_progress=clock.sample)
    return time.perf_counter() - started, clock.total


def speed_up() -> None:
    """Section 1: rounds of 1 worker then 2 (or 2 then 1), each with its workers' CPU time."""
    plan = short_runs()
    print(f"sweep benchmark: {RUNS} runs of N = 16, P = 40, 40 generations; {load()}")
    in_process(build_plan(spec_from_flags([], [], "16", "5", {"generations": "40"})))  # warm up
    alone = best_of(3, lambda: in_process(plan))
    timed(tiny_runs(), LocalPool(2))  # start the fork server once, as any sweep's first pool does
    rounds: list[tuple[tuple[float, float], tuple[float, float]]] = []
    for round_number in range(ROUNDS):
        # Alternate which goes first, so a change in the host's speed hits both alike.
        if round_number % 2 == 0:
            one = timed_pool(plan, 1)
            two = timed_pool(plan, 2)
        else:
            two = timed_pool(plan, 2)
            one = timed_pool(plan, 1)
        rounds.append((one, two))
    print(f"  in this process        {alone:6.2f} s  ({1000 * alone / RUNS:.1f} ms per run)")
    print(
        "  round  1 worker  2 workers  speed-up   workers busy (1 / 2)   CPU for the same "
        "runs, 2 workers / 1"
    )
    for index, ((wall_one, cpu_one), (wall_two, cpu_two)) in enumerate(rounds, 1):
        print(
            f"  {index:5}  {wall_one:6.2f} s  {wall_two:7.2f} s  {wall_one / wall_two:7.2f}x"
            f"   {cpu_one / wall_one:8.0%} / {cpu_two / (2 * wall_two):4.0%}"
            f"          {cpu_two / cpu_one:5.2f}x"
        )
    speed = statistics.median(one[0] / two[0] for one, two in rounds)
    busy = statistics.median(two[1] / (2 * two[0]) for _, two in rounds)
    slower = statistics.median(two[1] / one[1] for one, two in rounds)
    pool_only = statistics.median(
        2 * (two[1] / (2 * two[0])) / (one[1] / one[0]) for one, two in rounds
    )
    print(
        f"  speed-up of 2 workers over 1, pool start included: median {speed:.2f}x (target >= 1.8x)"
    )
    print(
        f"  where it goes: the 2 workers were busy {busy:.0%} of the time (the pool's own "
        f"losses: start-up, handing out tasks, the last task), and the same runs took "
        f"{slower:.2f}x the CPU time when both cores worked (the host's: its two virtual cores "
        f"slow each other down). Without the host's share the speed-up would be "
        f"{pool_only:.2f}x (computed: 2 x busy(2) / busy(1))."
    )
    note = autogroup_note()
    if note:
        print(note)


def main() -> None:
    speed_up()
    plan, tiny = short_runs(), tiny_runs()
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
