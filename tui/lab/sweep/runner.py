"""Running a sweep: only the tasks whose results are missing, each result kept as it comes.

A ledger holds the results by (config fingerprint, seed): the run store for ``queens sweep``,
or a dict in memory. A re-run of the same plan asks the ledger what is done and runs only the
rest; a result that comes back twice (a task re-run after its worker died) is kept once.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import Any, Protocol

from tui.lab.sweep.plan import SweepPlan
from tui.lab.sweep.task import Task


class Ledger(Protocol):
    """Where a sweep's results are kept, by (config fingerprint, seed)."""

    def done(self) -> set[tuple[str, int]]:
        """The keys that have a result."""
        ...

    def add(
        self, fingerprint: str, seed: int, result: dict[str, Any], run_id: int | None = None
    ) -> bool:
        """Keep one result (and the id of its recorded run, if any); ``False`` when that key
        had one already (it is not counted twice)."""
        ...

    def results(self) -> dict[tuple[str, int], dict[str, Any]]:
        """Every result kept, by key."""
        ...


class Backend(Protocol):
    """Something that runs tasks: a local process pool or a Dask cluster."""

    def describe(self) -> str:
        """Where the tasks run, for people."""
        ...

    def run(self, tasks: Iterable[Task], on_result: Callable[[Task, dict[str, Any]], None]) -> None:
        """Run every task, calling ``on_result`` in this process as each ends."""
        ...


class MemoryLedger:
    """A ledger in a dict: for tests, benchmarks, and sweeps that are not kept."""

    def __init__(self) -> None:
        self._results: dict[tuple[str, int], dict[str, Any]] = {}

    def done(self) -> set[tuple[str, int]]:
        """The keys that have a result."""
        return set(self._results)

    def add(
        self, fingerprint: str, seed: int, result: dict[str, Any], run_id: int | None = None
    ) -> bool:
        """Keep one result unless its key has one (a recorded run's id is not kept here)."""
        if (fingerprint, seed) in self._results:
            return False
        self._results[(fingerprint, seed)] = dict(result)
        return True

    def results(self) -> dict[tuple[str, int], dict[str, Any]]:
        """Every result kept, by key."""
        return dict(self._results)


def missing_tasks(
    plan: SweepPlan, done: set[tuple[str, int]], curves: bool = False
) -> Iterator[Task]:
    """The plan's tasks that have no result yet, cell by cell, seed by seed (lazily); with
    ``curves``, each asks for its run's per-generation series."""
    for cell in plan.cells:
        for seed in plan.seeds:
            if (cell.fingerprint, seed) not in done:
                yield Task(cell.fingerprint, cell.config, seed, curves)


def run_sweep(
    plan: SweepPlan,
    backend: Backend,
    ledger: Ledger,
    on_progress: Callable[[int, int], None] | None = None,
    on_curve: Callable[[Task, dict[str, list[float]]], None] | None = None,
) -> int:
    """Run the plan's missing tasks on ``backend``, keeping each result in ``ledger``.

    Args:
        plan: The sweep.
        backend: Where the tasks run.
        ledger: Where results are kept; its keys decide what is missing.
        on_progress: Called with (results kept, tasks in the plan) at the start and after each
            new result.
        on_curve: Given, each run sends back its per-generation series, and this is called
            with it as each new result is kept (the series is not kept in the ledger).

    Returns:
        How many new results were kept.
    """
    wanted = {cell.fingerprint for cell in plan.cells}
    seeds = range(plan.seeds.first, plan.seeds.last + 1)
    done = {key for key in ledger.done() if key[0] in wanted and key[1] in seeds}
    kept = len(done)
    added = 0
    if on_progress is not None:
        on_progress(kept, plan.tasks)

    def keep(task: Task, result: dict[str, Any]) -> None:
        nonlocal kept, added
        result = dict(result)
        run_id = result.pop("run_id", None)
        curve = result.pop("curve", None)
        if ledger.add(task.fingerprint, task.seed, result, run_id):
            kept += 1
            added += 1
            if on_curve is not None and curve is not None:
                on_curve(task, curve)
        if on_progress is not None:
            on_progress(kept, plan.tasks)

    if kept < plan.tasks:
        backend.run(missing_tasks(plan, done, curves=on_curve is not None), keep)
    return added
