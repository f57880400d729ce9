"""A sweep kept in the run store: its row in ``sweeps``, its results in ``sweep_results``.

The sweep is found by its plan's fingerprint, so running the same command again finds the
same sweep and :func:`~tui.lab.sweep.runner.run_sweep` runs only the missing tasks. The store
keeps each result under (sweep, config fingerprint, seed) and ignores a second one for the same
key. SQL stays in :mod:`tui.lab.store`; this module only calls its sweep methods.
"""

from __future__ import annotations

from typing import Any

from tui.lab.store import RunStore
from tui.lab.sweep.plan import SweepPlan, plan_from_dict
from tui.lab.sweep.plan_error import PlanError


class StoreLedger:
    """The results of one sweep, in the run store.

    Args:
        store: The open run store.
        sweep_id: The sweep's id in it.
    """

    def __init__(self, store: RunStore, sweep_id: int) -> None:
        self.store = store
        self.sweep_id = sweep_id

    @classmethod
    def for_plan(cls, store: RunStore, plan: SweepPlan, fresh: bool = False) -> StoreLedger:
        """The ledger of ``plan``'s sweep, found or created; emptied first when ``fresh``."""
        sweep_id = store.sweep_for(plan.fingerprint, plan.to_dict())
        if fresh:
            store.clear_sweep_results(sweep_id)
        return cls(store, sweep_id)

    def done(self) -> set[tuple[str, int]]:
        """The keys that have a result."""
        return {
            (r["config_fingerprint"], r["seed"]) for r in self.store.sweep_results(self.sweep_id)
        }

    def add(
        self, fingerprint: str, seed: int, result: dict[str, Any], run_id: int | None = None
    ) -> bool:
        """Keep one result (and its recorded run's id) unless its key has one (then ``False``)."""
        return self.store.add_sweep_result(self.sweep_id, fingerprint, seed, result, run_id)

    def results(self) -> dict[tuple[str, int], dict[str, Any]]:
        """Every result kept, by key."""
        return {
            (r["config_fingerprint"], r["seed"]): r["result"]
            for r in self.store.sweep_results(self.sweep_id)
        }

    def finish(self) -> None:
        """Mark the sweep finished."""
        self.store.finish_sweep(self.sweep_id)


def stored_plan(store: RunStore, sweep_id: int) -> SweepPlan:
    """The plan of a kept sweep, rebuilt and checked against its fingerprint.

    Raises:
        PlanError: If there is no such sweep, or its plan no longer builds the same cells
            (a preset or a default changed since it ran).
    """
    sweep = store.sweep(sweep_id)
    if sweep is None:
        known = [str(s["id"]) for s in store.sweeps()]
        allowed = f"one of {', '.join(known)}" if known else "no sweep is kept yet"
        raise PlanError("show", sweep_id, f"{allowed} (in {store.path})")
    plan = plan_from_dict(sweep["plan"])
    if plan.fingerprint != sweep["fingerprint"]:
        raise PlanError(
            "show",
            sweep_id,
            "its plan no longer gives the same configs (a preset or a default changed since)",
        )
    return plan
