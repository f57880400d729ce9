"""``make bench``: what the report's statistics and figures cost. Prints figures; asserts nothing.

1. The statistics' added time on a 4 x 30-run sweep (target: at most 1 s): the printed report
   with its statistics section (bootstrap intervals, rank tests, Holm, A12, run-length lines)
   against the same report's table alone, best of several rounds. The runs are made once, here,
   with a small board, so only the report is timed.
2. A figure's time (target: at most 3 s): the sweep's figure (run-length distributions and
   convergence curves of all 120 runs) in each of svg, pdf and png, matplotlib's import
   included once, as ``--plot`` pays it.

The machine's load average is printed beside.
"""

from __future__ import annotations

import os
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, Final

from tui.cli.sweep_report import report_text
from tui.lab.statistics.run_lengths import censored_sample
from tui.lab.sweep.curves import CurveKeeper
from tui.lab.sweep.plan import SweepPlan, build_plan, spec_from_flags
from tui.lab.sweep.report import METRICS, row_name, summarize
from tui.lab.sweep.row_statistics import row_statistics, statistics_text
from tui.lab.sweep.run_length_text import run_length_text
from tui.lab.sweep.runner import MemoryLedger, run_sweep
from tui.lab.sweep.task import Task, run_task

ROUNDS: Final = 5
"""Timed rounds; the best is printed (the others show the machine's noise)."""


class InProcess:
    """Runs each task here, one after another (no worker start-up in the way)."""

    def describe(self) -> str:
        return "this process"

    def run(self, tasks: Any, on_result: Callable[[Task, dict[str, Any]], None]) -> None:
        for task in tasks:
            on_result(task, run_task(task.config, task.seed, curves=task.curves))


def four_by_thirty() -> SweepPlan:
    """crossover = ox, pmx, cycle, order-uniform at N = 48, 30 seeds, a budget that leaves
    about half the runs unsolved (censored runs in the tests)."""
    grid = ["crossover=ox,pmx,cycle,order-uniform"]
    return build_plan(spec_from_flags(grid, [], "48", "30", {"max_evals": "720"}))


def best_of(action: Callable[[], object]) -> tuple[float, list[float]]:
    times = []
    for _ in range(ROUNDS):
        started = time.perf_counter()
        action()
        times.append(time.perf_counter() - started)
    return min(times), times


def main() -> None:
    print(f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    plan = four_by_thirty()
    ledger = MemoryLedger()
    keeper = CurveKeeper()
    run_sweep(
        plan, InProcess(), ledger, on_curve=lambda task, curve: keeper.add(task.fingerprint, curve)
    )
    results = ledger.results()
    solved = sum(result["solved"] for result in results.values())
    print(f"sweep: {len(plan.cells)} configs x {plan.seeds.count} runs, {solved} solved")

    rows = summarize(plan, results)
    runs_per_row = [[result for _, result in row.runs] for row in rows]
    names = [row_name(plan, row) for row in rows]

    def statistics_only() -> None:
        measured = row_statistics(runs_per_row)
        statistics_text(names, measured)
        samples = [{m: censored_sample(runs, m) for m in METRICS} for runs in runs_per_row]
        run_length_text(names, samples)

    added, added_times = best_of(statistics_only)
    whole, _ = best_of(lambda: report_text(plan, results, None))
    print(
        f"1. the statistics add {added * 1000:.0f} ms (target <= 1000 ms; rounds "
        f"{', '.join(f'{t * 1000:.0f}' for t in added_times)} ms); the whole printed report "
        f"takes {whole * 1000:.0f} ms"
    )

    from tui.cli.sweep_outputs import draw_sweep_plot

    with tempfile.TemporaryDirectory() as folder:
        for form in ("svg", "pdf", "png"):
            path = Path(folder) / f"figure.{form}"
            started = time.perf_counter()
            draw_sweep_plot(path, plan, results, keeper, None)
            first = time.perf_counter() - started
            again, _ = best_of(lambda path=path: draw_sweep_plot(path, plan, results, keeper, None))
            print(
                f"2. figure .{form}: {first:.2f} s the first time (matplotlib's import if "
                f"first), {again:.2f} s after (target <= 3 s), {path.stat().st_size / 1024:.0f} KiB"
            )


if __name__ == "__main__":
    main()
