"""A count split into parts on real worker processes and a real Dask cluster: the OEIS counts on
two local workers and on a cluster, a killed worker (local or Dask) losing nothing, an
interrupted count resumed with no prefix counted twice, and the parts' doors (a part that comes
back wrong, a job a worker could not import).

The Dask tests start one ``distributed.LocalCluster`` on 127.0.0.1 (two worker processes),
shared by the module: starting one costs seconds.
"""

from __future__ import annotations

import os
import signal
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any, Final

import pytest

from engine.solutions.symmetry import fundamental_count
from tui.lab.exact_count.ledgers import MemoryCountLedger, StoreCountLedger
from tui.lab.exact_count.plan import TASK_MODULE, count_plan
from tui.lab.exact_count.runner import run_count
from tui.lab.exact_count.task import count_task
from tui.lab.store.count_store import CountStore
from tui.lab.store.count_tables import KeptPart
from tui.lab.sweep.errors import SweepError, TaskFailed
from tui.lab.sweep.job import Job
from tui.lab.sweep.local_pool import LocalPool

distributed = pytest.importorskip("distributed")

ALL_SOLUTIONS: Final = (1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200, 73712, 365596)
"""OEIS A000170, N = 1, 2, ..."""

FUNDAMENTAL: Final = (1, 0, 0, 1, 2, 1, 6, 12, 46, 92, 341, 1787, 9233, 45752)
"""OEIS A002562."""

WAIT_LIMIT: Final = 60.0
"""Seconds a cluster may take to be whole again (generous: the machine is shared)."""


def local_pool(workers: int = 2) -> LocalPool:
    return LocalPool(workers, preload=(TASK_MODULE,))


class WatchedLedger(MemoryCountLedger):
    """A ledger that calls ``after_add`` once each part is offered, and counts the offers."""

    def __init__(self, after_add: Callable[[KeptPart], None] = lambda part: None) -> None:
        super().__init__()
        self.after_add = after_add
        self.offers: list[int] = []

    def add(self, part: KeptPart) -> bool:
        added = super().add(part)
        self.offers.append(part.part)
        self.after_add(part)
        return added


def assert_exact(n: int, solutions: int) -> None:
    assert (solutions, fundamental_count(n, solutions)) == (
        ALL_SOLUTIONS[n - 1],
        FUNDAMENTAL[n - 1],
    )


@pytest.fixture(scope="module")
def cluster() -> Iterator[Any]:
    """A real two-process Dask cluster on loopback, for the whole module."""
    with distributed.LocalCluster(
        n_workers=2,
        threads_per_worker=1,
        processes=True,
        host="127.0.0.1",
        dashboard_address=":0",
    ) as local:
        yield local


@pytest.mark.slow  # worker processes
def test_two_local_workers_count_as_oeis_says() -> None:
    for n in range(1, 13):
        plan = count_plan(n)
        ledger = MemoryCountLedger()
        state = run_count(plan, local_pool(), ledger)
        assert state.complete and len(ledger.done()) == len(plan.parts)
        assert_exact(n, state.solutions)


@pytest.mark.slow  # a Dask cluster
def test_a_dask_cluster_counts_as_oeis_says(cluster: Any) -> None:
    from tui.lab.sweep.dask_cluster import DaskCluster

    with DaskCluster(cluster.scheduler_address) as dask:
        for n in range(1, 13):
            state = run_count(count_plan(n), dask, MemoryCountLedger())
            assert state.complete
            assert_exact(n, state.solutions)


@pytest.mark.slow  # worker processes
def test_a_killed_local_worker_still_gives_the_exact_count() -> None:
    pool = local_pool()
    killed: list[int] = []

    def kill_a_worker(part: KeptPart) -> None:
        if not killed:
            pid = pool.worker_pids()[0]
            os.kill(pid, signal.SIGKILL)
            killed.append(pid)

    plan = count_plan(14)
    ledger = WatchedLedger(kill_a_worker)
    state = run_count(plan, pool, ledger)
    assert killed
    assert_exact(14, state.solutions)
    # The parts that were in flight ran again; each came back, and was kept, once.
    assert sorted(ledger.offers) == list(range(len(plan.parts)))


@pytest.mark.slow  # a Dask cluster
def test_a_killed_dask_worker_still_gives_the_exact_count(cluster: Any) -> None:
    from tui.lab.sweep.dask_cluster import DaskCluster

    with DaskCluster(cluster.scheduler_address) as dask:
        pids = dask.client.run(os.getpid)
        killed: list[int] = []

        def kill_a_worker(part: KeptPart) -> None:
            if not killed:
                victim = next(iter(pids.values()))
                os.kill(victim, signal.SIGKILL)
                killed.append(victim)

        plan = count_plan(14)
        ledger = WatchedLedger(kill_a_worker)
        state = run_count(plan, dask, ledger)
        assert killed
        assert_exact(14, state.solutions)
        assert len(ledger.done()) == len(plan.parts)
        assert len(ledger.offers) == len(set(ledger.offers))
        # The nanny starts a new worker: the cluster is whole again for later tests.
        dask.client.wait_for_workers(2, timeout=WAIT_LIMIT)


class RecordingPool(LocalPool):
    """A local pool that writes down which parts it was given to run."""

    def __init__(self) -> None:
        super().__init__(2, preload=(TASK_MODULE,))
        self.ran: list[int] = []

    def run_jobs(
        self, jobs: Iterable[tuple[Any, Job]], on_result: Callable[[Any, dict[str, Any]], None]
    ) -> None:
        jobs = list(jobs)
        self.ran.extend(part for part, _ in jobs)
        super().run_jobs(jobs, on_result)


class StoppedAfter:
    """A store's ledger on which Ctrl+C lands once it holds ``parts`` parts."""

    def __init__(self, ledger: StoreCountLedger, parts: int) -> None:
        self.ledger = ledger
        self.parts = parts

    def done(self) -> dict[int, KeptPart]:
        return self.ledger.done()

    def add(self, part: KeptPart) -> bool:
        added = self.ledger.add(part)
        if len(self.ledger.done()) >= self.parts:
            raise KeyboardInterrupt
        return added


def test_an_interrupted_count_resumes_with_no_prefix_counted_twice(tmp_path: Path) -> None:
    plan = count_plan(14)
    with CountStore.open(tmp_path / "runs.sqlite3") as store:
        stopped = StoppedAfter(StoreCountLedger.for_plan(store, plan), 5)
        with pytest.raises(KeyboardInterrupt):
            run_count(plan, local_pool(), stopped)
        kept = StoreCountLedger.for_plan(store, plan).done()
        assert 5 <= len(kept) < len(plan.parts)

        again = StoreCountLedger.for_plan(store, plan)
        pool = RecordingPool()
        state = run_count(plan, pool, again)
        assert not set(pool.ran) & set(kept)  # nothing kept is counted again
        assert sorted(pool.ran) == sorted(set(range(len(plan.parts))) - set(kept))
        assert_exact(14, state.solutions)
        # A part that comes back once more is kept once: the count does not change.
        part = plan.kept_part(0, count_task(14, 0, plan.parts[0].tolist()))
        assert not again.add(part)
        assert run_count(plan, RecordingPool(), again).solutions == state.solutions
        assert sum(piece.prefixes for piece in again.done().values()) == plan.prefixes


def test_a_part_that_comes_back_wrong_is_refused_not_counted() -> None:
    plan = count_plan(12)
    good = count_task(12, 1, plan.parts[1].tolist())
    assert plan.kept_part(1, good).solutions == good["solutions"]
    for wrong in (
        {**good, "part": 2},
        {**good, "prefixes": good["prefixes"] + 1},
        {**good, "solutions": -4},
        {**good, "solutions": 3.5},
        {key: value for key, value in good.items() if key != "solutions"},
    ):
        with pytest.raises(TaskFailed, match="part 1 of N = 12 came back"):
            plan.kept_part(1, wrong)


@pytest.mark.parametrize(
    ("prefixes", "words"),
    [
        ([[6, 0]], "not in the half searched"),
        ([[0, 300]], "a column outside 0 to 11"),
        ([[0, -1]], "a column outside 0 to 11"),
        ([0, 2], "a list of lists"),
    ],
)
def test_a_part_a_worker_cannot_count_exactly_fails_with_its_reason(
    prefixes: list[Any], words: str
) -> None:
    with pytest.raises(TaskFailed, match=f"the count of part 3 of N = 12 failed: .*{words}"):
        count_task(12, 3, prefixes)
    with pytest.raises(TaskFailed, match=words):
        local_pool(1).run_jobs([(3, Job("k", count_task, (12, 3, prefixes)))], lambda *a: None)


def test_a_job_a_worker_could_not_import_is_refused_when_made() -> None:
    def nested(n: int) -> dict[str, Any]:
        return {"n": n}

    for function in (nested, lambda n: {"n": n}):
        with pytest.raises(ValueError, match="cannot be sent to a worker"):
            Job("k", function, (1,))
    assert Job("k", count_task, (4, 0, [[1]])).function is count_task


class ForgetfulRunner:
    """Runs every job but the last, here, and returns as if it had run them all."""

    def describe(self) -> str:
        return "this process"

    def run_jobs(
        self, jobs: Iterable[tuple[int, Job]], on_result: Callable[[int, dict[str, Any]], None]
    ) -> None:
        for part, job in list(jobs)[:-1]:
            on_result(part, job.function(*job.arguments))


def test_a_runner_that_loses_a_part_gives_no_count() -> None:
    with pytest.raises(SweepError, match=r"the count of N = 12 ended with [\d,]+ of 55 prefixes"):
        run_count(count_plan(12), ForgetfulRunner(), MemoryCountLedger())
