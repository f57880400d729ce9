"""Running a split count: only the parts a ledger lacks, each part's count kept as it comes.

The parts run as :class:`~tui.lab.sweep.job.Job` s on the sweeps' local pool or Dask cluster,
which re-run a part whose worker died; the ledger keeps each part once, so the count is exact
whatever died, and whenever it was stopped.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, Protocol

from engine.solutions.exact import CountProgress
from tui.lab.exact_count.plan import CountPlan
from tui.lab.store.count_tables import KeptPart
from tui.lab.sweep.errors import SweepError
from tui.lab.sweep.job import Job


class CountLedger(Protocol):
    """Where a count's parts are kept, by their place in the split."""

    def done(self) -> dict[int, KeptPart]:
        """The parts kept."""
        ...

    def add(self, part: KeptPart) -> bool:
        """Keep one part; ``False`` when it was kept already (it is not counted twice)."""
        ...


class JobRunner(Protocol):
    """Something that runs jobs: a local process pool or a Dask cluster."""

    def describe(self) -> str:
        """Where the jobs run, for people."""
        ...

    def run_jobs(
        self,
        jobs: Iterable[tuple[int, Job]],
        on_result: Callable[[int, dict[str, Any]], None],
    ) -> None:
        """Run every job, calling ``on_result`` in this process as each ends."""
        ...


def run_count(
    plan: CountPlan,
    runner: JobRunner,
    ledger: CountLedger,
    on_progress: Callable[[int, int], None] | None = None,
) -> CountProgress:
    """Count the parts of ``plan`` that ``ledger`` lacks on ``runner``, keeping each in ``ledger``.

    Args:
        plan: The split count.
        runner: Where the parts run.
        ledger: Where parts are kept; what it holds is not counted again.
        on_progress: Called with (prefixes counted, prefixes) at the start and after each
            part that comes back.

    Returns:
        The count from every part the ledger holds, which is then every part.

    Raises:
        TaskFailed: If a part failed in its worker, or came back not fitting the part.
        SweepError: If the runner could not go on (workers that keep dying, a lost cluster),
            or returned with parts missing.
    """
    kept = ledger.done()
    if on_progress is not None:
        state = plan.progress(kept)
        on_progress(state.searched, state.prefixes)

    def keep(part: int, result: dict[str, Any]) -> None:
        piece = plan.kept_part(part, result)
        ledger.add(piece)
        # Kept already (by another process counting into the same store) counts the same.
        kept.setdefault(part, piece)
        if on_progress is not None:
            state = plan.progress(kept)
            on_progress(state.searched, state.prefixes)

    missing = [part for part in range(len(plan.parts)) if part not in kept]
    if missing:
        runner.run_jobs(((part, plan.job(part)) for part in missing), keep)
    state = plan.progress(ledger.done())
    if not state.complete:  # a runner that returned early must not pass for a whole count
        raise SweepError(
            f"the count of N = {plan.n} ended with {state.searched:,} of {state.prefixes:,} "
            "prefixes counted"
        )
    return state
