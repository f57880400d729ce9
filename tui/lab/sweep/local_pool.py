"""Running sweep tasks, or any :class:`~tui.lab.sweep.job.Job`, on a pool of local worker processes.

Only a few tasks are in flight at a time (twice the workers), so a sweep of a million runs
holds a few futures, not a million. A worker that dies (killed, out of memory) breaks the
standard pool: the results already handed back are kept, a new pool is started, and the tasks
that had not come back are submitted again; nothing is lost and, since results are keyed by
(config fingerprint, seed), nothing is counted twice. Workers ignore Ctrl+C (the parent stops
them) and die with the process that started the pool even when it is killed outright
(:mod:`~tui.lab.sweep.owner_watch`). A sweep's runs are jobs like any other
(:meth:`LocalPool.run_jobs`): the parts of an exact count run the same way.

Workers are started and ended with Ctrl+C and SIGTERM held (:mod:`~tui.lab.sweep.held_signals`):
a signal waits until the pool knows every worker it has (a few milliseconds; a few tenths of a
second for the first, whose fork server loads the engine), and then ends them all. Cut
half-way, a start left a worker the pool never heard of, which outlived the sweep and printed
a traceback when it found its start-up data deleted; and the fork server, started with the
signals blocked, cannot be killed by a Ctrl+C to the whole process group while it starts.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from typing import Any, Final, TypeVar

from tui.lab.sweep.errors import WorkersLost
from tui.lab.sweep.held_signals import release_held_signals, signals_held
from tui.lab.sweep.job import Job
from tui.lab.sweep.owner_watch import end_with_owner
from tui.lab.sweep.task import Task, run_task

__all__ = ["IN_FLIGHT_PER_WORKER", "MAX_RESTARTS_WITHOUT_PROGRESS", "LocalPool", "WorkersLost"]

MAX_RESTARTS_WITHOUT_PROGRESS: Final = 3
"""Pools that may break in a row with no result between them before the sweep gives up."""

IN_FLIGHT_PER_WORKER: Final = 2
"""Tasks submitted ahead per worker, so a worker never waits for the parent."""

SWEEP_PRELOAD: Final = ("tui.lab.sweep.task",)
"""What a sweep's workers import before their first task (see :func:`_context`)."""

WorkT = TypeVar("WorkT")
"""What a caller's result handler is given back with each result (a sweep's :class:`Task`)."""


def _die_with_parent() -> None:
    """Ask Linux to end this worker when its parent dies, even by SIGKILL."""
    if not sys.platform.startswith("linux"):
        return
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        pr_set_pdeathsig = 1
        libc.prctl(pr_set_pdeathsig, signal.SIGTERM)
    except (OSError, AttributeError):  # no libc prctl: the parent still ends us on exit
        pass


def _start_worker(owner: int) -> None:
    """Workers leave Ctrl+C to the parent, which stops them (no traceback from each); SIGTERM,
    held since the worker was started, ends it from now on; and a worker ends with ``owner``,
    the process that started the pool, however it ends (:mod:`.owner_watch`)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    release_held_signals()
    _die_with_parent()
    end_with_owner(owner)


def _context(preload: Sequence[str]) -> multiprocessing.context.BaseContext:
    """A fork server where there is one (no fork of a threaded parent), else spawn.

    The fork server imports, once, what every worker needs: the engine, the modules of the
    jobs' functions (``preload``), ctypes (for :func:`_die_with_parent`) and the main module,
    which each worker would otherwise import again on its own (a script that imports the sweep
    modules: ~20 ms per worker). A process has one fork server: the first pool's preload holds.
    """
    if "forkserver" in multiprocessing.get_all_start_methods():
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload(["__main__", "ctypes", "engine", *preload])
        return context
    return multiprocessing.get_context("spawn")


class LocalPool:
    """Run tasks on ``workers`` local processes.

    Args:
        workers: Worker processes (at least 1).
        record_to: A run store's path: each worker records its runs there in full
            (``--record-runs``), and each result carries its ``run_id``.
        preload: Modules the workers import before their first job: those of the jobs'
            functions (a sweep's by default).
        label: The label of the runs recorded (``queens sweep --label``), or ``None``.
    """

    def __init__(
        self,
        workers: int,
        record_to: str | None = None,
        preload: Sequence[str] = SWEEP_PRELOAD,
        label: str | None = None,
    ) -> None:
        self.workers = max(1, workers)
        self.record_to = record_to
        self.label = label
        self.preload = tuple(preload)
        self._pool: ProcessPoolExecutor | None = None

    def describe(self) -> str:
        """``2 local workers``."""
        return f"{self.workers} local worker{'s' if self.workers != 1 else ''}"

    def worker_pids(self) -> list[int]:
        """The worker processes' ids (for tests that kill one)."""
        if self._pool is None:
            return []
        # No public accessor before Python 3.14.
        processes = getattr(self._pool, "_processes", None) or {}
        return [int(pid) for pid in processes]

    def _new_pool(self) -> ProcessPoolExecutor:
        self._pool = ProcessPoolExecutor(
            max_workers=self.workers,
            mp_context=_context(self.preload),
            initializer=_start_worker,
            initargs=(os.getpid(),),
        )
        return self._pool

    def run(self, tasks: Iterable[Task], on_result: Callable[[Task, dict[str, Any]], None]) -> None:
        """Run every task; call ``on_result(task, result)`` in this process as each ends.

        Raises:
            WorkersLost: If pools keep breaking with no result coming back, or workers cannot
                be started.
            TaskFailed: If a run raised an error in its worker.
            KeyboardInterrupt: (and any exception from ``on_result``) once workers are ended.
        """
        self.run_jobs(((task, self._job_of(task)) for task in tasks), on_result)

    def _job_of(self, task: Task) -> Job:
        """A sweep's run as a job: its config and seed, and where to record it, if anywhere."""
        arguments = (task.config, task.seed, self.record_to, self.label, task.curves)
        return Job(f"{task.fingerprint}-{task.seed}", run_task, arguments)

    def run_jobs(
        self,
        jobs: Iterable[tuple[WorkT, Job]],
        on_result: Callable[[WorkT, dict[str, Any]], None],
    ) -> None:
        """Run every job; call ``on_result(work, result)`` in this process as each ends.

        Args:
            jobs: Each job, beside what ``on_result`` is to be given back with its result.
            on_result: Called once per result; a job whose worker died is run again, and
                reaches it once, when it comes back.

        Raises:
            WorkersLost: If pools keep breaking with no result coming back, or workers cannot
                be started.
            TaskFailed: If a job raised an error in its worker.
            KeyboardInterrupt: (and any exception from ``on_result``) once workers are ended.
        """
        pending: Iterator[tuple[WorkT, Job]] = iter(jobs)
        retry: list[tuple[WorkT, Job]] = []
        breaks = 0

        def refill(pool: ProcessPoolExecutor, in_flight: dict[Any, tuple[WorkT, Job]]) -> None:
            """Submit jobs up to the limit; submitting may start a worker: held signals."""
            with signals_held():
                while len(in_flight) < self.workers * IN_FLIGHT_PER_WORKER:
                    entry = retry.pop() if retry else next(pending, None)
                    if entry is None:
                        return
                    job = entry[1]
                    try:
                        future = pool.submit(job.function, *job.arguments)
                    except OSError as error:  # no process or pipe to be had
                        message = f"cannot start local worker processes ({error})"
                        raise WorkersLost(message) from None
                    in_flight[future] = entry

        try:
            while True:
                with signals_held():
                    pool = self._new_pool()
                in_flight: dict[Future[dict[str, Any]], tuple[WorkT, Job]] = {}
                broken = False
                try:
                    refill(pool, in_flight)
                    while in_flight:
                        done, _ = wait(in_flight, return_when=FIRST_COMPLETED)
                        for future in done:
                            entry = in_flight.pop(future)
                            try:
                                result = future.result()
                            except BrokenProcessPool:
                                retry.append(entry)
                                broken = True
                                continue
                            breaks = 0
                            on_result(entry[0], result)
                        if broken:
                            break
                        refill(pool, in_flight)
                except BrokenProcessPool:
                    broken = True
                if not broken:
                    self._shutdown(wait_for_workers=True)
                    return
                retry.extend(in_flight.values())
                self._shutdown(wait_for_workers=False)
                breaks += 1
                if breaks > MAX_RESTARTS_WITHOUT_PROGRESS:
                    raise WorkersLost(
                        f"worker processes died {breaks} times in a row before any run ended"
                    )
        except BaseException:
            self._shutdown(wait_for_workers=False)
            raise

    def close(self) -> None:
        """End the workers, if any are left (:meth:`run` ends its own; this is for a caller that
        stops between runs)."""
        self._shutdown(wait_for_workers=False)

    def _shutdown(self, wait_for_workers: bool) -> None:
        """End the pool; without waiting, cancel what has not started and end the workers now.

        Signals are held meanwhile: a second Ctrl+C must not leave workers running.
        """
        with signals_held():
            self._end_pool(wait_for_workers)

    def _end_pool(self, wait_for_workers: bool) -> None:
        """:meth:`_shutdown`, with signals held."""
        pool, self._pool = self._pool, None
        if pool is None:
            return
        if wait_for_workers:
            pool.shutdown(wait=True)
            return
        # shutdown() forgets the workers: take them first.
        processes = list((getattr(pool, "_processes", None) or {}).values())
        pool.shutdown(wait=False, cancel_futures=True)
        for process in processes:
            if process.is_alive():
                process.terminate()
        for process in processes:
            process.join(timeout=5)
            if process.is_alive():
                os.kill(process.pid, signal.SIGKILL)
                process.join(timeout=5)
