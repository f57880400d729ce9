"""A sweep from Python in one call: a grid of config values and some seeds in, one row per
configuration out, as plain values (for a notebook, a DataFrame, a plot).

It is the sweep ``queens sweep`` runs, without the run store: the same plan (every cell
checked by the engine before any run), the same tasks on a local process pool or a Dask
cluster, the same summary rows.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from tui.lab.sweep.local_pool import LocalPool
from tui.lab.sweep.plan import PlanSpec, SweepPlan, build_plan
from tui.lab.sweep.report import summarize
from tui.lab.sweep.runner import MemoryLedger, run_sweep


@dataclass(frozen=True)
class GridResult:
    """What a grid gave.

    Attributes:
        plan: The checked plan (its cells and seeds).
        rows: One summary per configuration, as ``queens sweep --json`` writes it: its
            ``values``, ``runs``, ``solved``, ``success_rate`` with its 95% interval
            (``ci_low``, ``ci_high``), medians and spreads of the solved runs.
        runs: One per run: the configuration's ``values``, the ``seed`` and its result
            (``solved``, ``generations``, ``evaluations``, ``seconds``, ``stop_reason``,
            ``conflicts``, ``time_cut``).
    """

    plan: SweepPlan
    rows: list[dict[str, Any]]
    runs: list[dict[str, Any]]


def run_grid(
    grid: Mapping[str, Sequence[Any]],
    *,
    seeds: int | str = 20,
    fixed: Mapping[str, Any] | None = None,
    workers: int = 1,
    scheduler: str | None = None,
) -> GridResult:
    """Run every configuration of ``grid`` on every seed.

    Args:
        grid: Axes: a config field and its values (``{"mutation": ["swap", "ops.py:f"]}``);
            ``"preset"`` is an axis of presets.
        seeds: ``K`` (seeds ``0..K-1``) or ``"A-B"``.
        fixed: Fields set for every configuration (a budget among them, or each run must have
            one of its own).
        workers: Local worker processes (1: in worker processes all the same, as a sweep).
        scheduler: A Dask scheduler's address (``tcp://host:port``) to run on instead.

    Raises:
        ConfigError: On an unknown field, a bad value, or a configuration the engine refuses
            (a plug-in that fails its check among them), before any run starts.
    """
    spec = PlanSpec(seeds=seeds, fixed=dict(fixed or {}))
    for name, values in grid.items():
        if name == "preset":
            spec.presets = [str(value) for value in values]
        else:
            spec.grid[name] = list(values)
    plan = build_plan(spec)
    ledger = MemoryLedger()
    if scheduler is not None:
        from tui.lab.sweep.dask_cluster import DaskCluster

        with DaskCluster(scheduler) as cluster:
            run_sweep(plan, cluster, ledger)
    else:
        run_sweep(plan, LocalPool(workers), ledger)
    results = ledger.results()
    rows = [row.to_dict() for row in summarize(plan, results)]
    runs = [
        {"values": dict(cell.values), "seed": seed, **results[(cell.fingerprint, seed)]}
        for cell in plan.cells
        for seed in range(plan.seeds.first, plan.seeds.last + 1)
        if (cell.fingerprint, seed) in results
    ]
    return GridResult(plan, rows, runs)
