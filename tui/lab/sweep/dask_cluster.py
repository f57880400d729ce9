"""Running sweep tasks on an existing Dask distributed cluster (``--scheduler tcp://HOST:PORT``).

The user starts ``dask scheduler`` and ``dask worker`` on their machines (the README shows how,
through an SSH tunnel); this module only connects as a client. Each task is
:func:`~tui.lab.sweep.task.run_task` with a config mapping and a seed: Dask sends the function
by its importable name and the arguments as plain data, so every worker needs ``queens-ga``
installed. A task is named by its (config fingerprint, seed), so two submissions of the same run
are one task. A worker that dies has its tasks run again elsewhere by the scheduler; a result
that comes back twice is kept once by the ledger. Any other :class:`~tui.lab.sweep.job.Job`
runs the same way (:meth:`DaskCluster.run_jobs`): the parts of an exact count, say.
``dask[distributed]`` is an optional extra (``pip install 'queens-ga[cluster]'``), imported only
here.
"""

from __future__ import annotations

import asyncio
import importlib
from collections.abc import Callable, Iterable, Iterator
from typing import Any, Final, TypeVar

from tui.lab.sweep.errors import ClusterError
from tui.lab.sweep.job import Job
from tui.lab.sweep.task import Task, run_task

__all__ = [
    "CONNECT_TIMEOUT",
    "MIN_IN_FLIGHT",
    "ClusterError",
    "DaskCluster",
    "check_address",
    "connect",
    "expect_scheduler",
    "task_key",
]

CONNECT_TIMEOUT: Final = 10.0
"""Seconds to wait for the scheduler before giving up with a clear message."""

MIN_IN_FLIGHT: Final = 16
"""Tasks submitted ahead at least; more on a cluster with many threads (4 per thread)."""

WorkT = TypeVar("WorkT")
"""What a caller's result handler is given back with each result (a sweep's :class:`Task`)."""


def _distributed() -> Any:
    """The ``distributed`` package (untyped, so held as ``Any``).

    Raises:
        ClusterError: If it is not installed.
    """
    try:
        return importlib.import_module("distributed")
    except ImportError:
        raise ClusterError(
            "--scheduler needs Dask distributed: pip install 'queens-ga[cluster]'"
        ) from None


def connect(address: str, timeout: float = CONNECT_TIMEOUT) -> Any:
    """A client of the scheduler at ``address``.

    The address is asked who it is before a client is made: a client made against something
    that is not a scheduler (an unknown scheme, a port where nothing or something else
    listens) is left half made when it fails, and its finalizer prints a ``TimeoutError``
    traceback at exit, after waiting twice the timeout.

    Raises:
        ClusterError: If ``dask[distributed]`` is not installed, or no Dask scheduler answers at
            ``address`` within ``timeout`` seconds.
    """
    distributed = _distributed()
    check_address(address)
    expect_scheduler(address, timeout)
    try:
        # Results come back through the scheduler, so one tunnel to it is enough.
        return distributed.Client(
            address, timeout=f"{timeout}s", set_as_default=False, direct_to_workers=False
        )
    except (OSError, TimeoutError, ValueError, TypeError) as error:
        raise ClusterError(_unreachable(address, timeout, error)) from None


def check_address(address: str) -> None:
    """Refuse an address Dask cannot connect to: malformed, or of a scheme it does not speak.

    Raises:
        ClusterError: Naming what is wrong and the form expected.
    """
    addressing = importlib.import_module("distributed.comm.addressing")
    registry = importlib.import_module("distributed.comm.registry")
    try:
        scheme, location = addressing.parse_address(address)
        addressing.parse_host_port(location)
        registry.get_backend(scheme)
    except (ValueError, TypeError) as error:
        raise ClusterError(
            f"not a scheduler address ({error}): tcp://HOST:PORT, as `dask scheduler` prints it"
        ) from None


def expect_scheduler(address: str, timeout: float) -> None:
    """Ask ``address`` who it is, and refuse anything but a Dask scheduler's answer in time.

    One connection, Dask's handshake and an ``identity`` request, all within ``timeout``
    seconds: nothing listening, a server that answers in another protocol (HTTP), one that
    never answers, or a Dask worker each end here.

    Raises:
        ClusterError: Saying what answered, or that nothing did in time.
    """
    try:
        answer = asyncio.run(asyncio.wait_for(_identity(address, timeout), timeout))
    except TimeoutError:
        silence = "no answer in Dask's protocol: nothing there answers, or not as Dask does"
        raise ClusterError(_unreachable(address, timeout, silence)) from None
    except Exception as error:  # whatever a server that is not Dask makes the protocol raise
        raise ClusterError(_unreachable(address, timeout, error)) from None
    kind = answer.get("type") if isinstance(answer, dict) else None
    if kind != "Scheduler":
        what = f"a Dask {kind}" if isinstance(kind, str) else "not Dask"
        raise ClusterError(
            f"{address} answers, but it is {what}, not a Dask scheduler: give the address "
            "`dask scheduler` prints (tcp://HOST:PORT)"
        )


async def _identity(address: str, timeout: float) -> Any:
    """What the server at ``address`` says it is (a Dask ``identity`` reply)."""
    comm = await importlib.import_module("distributed.comm").connect(address, timeout=timeout)
    try:
        await comm.write({"op": "identity", "reply": True})
        return await comm.read()
    finally:
        comm.abort()


def _unreachable(address: str, timeout: float, error: BaseException | str) -> str:
    """Why the scheduler at ``address`` could not be reached, for people."""
    reason = str(error) or type(error).__name__
    return (
        f"cannot reach the Dask scheduler at {address} within {timeout:g} s ({reason}); "
        "is `dask scheduler` running there (and the tunnel open)?"
    )


def task_key(task: Task) -> str:
    """The Dask key of a task: the same run has the same key, whoever submits it."""
    curves = "-curves" if task.curves else ""  # a different result: a different key
    return f"queens-run-{task.fingerprint[:32]}-{task.seed}{curves}"


class DaskCluster:
    """Run tasks on the Dask cluster whose scheduler is at ``address``.

    Args:
        address: The scheduler, ``tcp://HOST:PORT``.
        timeout: Seconds to wait for the scheduler.
    """

    def __init__(self, address: str, timeout: float = CONNECT_TIMEOUT) -> None:
        self.address = address
        self.client: Any = connect(address, timeout)

    def threads(self) -> int:
        """Worker threads on the cluster now."""
        workers = self.client.scheduler_info().get("workers", {})
        return sum(int(worker.get("nthreads", 1)) for worker in workers.values())

    def describe(self) -> str:
        """``Dask cluster at tcp://...: 2 workers, 2 threads``."""
        workers = self.client.scheduler_info().get("workers", {})
        return (
            f"Dask cluster at {self.address}: {len(workers)} worker"
            f"{'s' if len(workers) != 1 else ''}, {self.threads()} threads"
        )

    def close(self) -> None:
        """Leave the cluster (it goes on running)."""
        self.client.close()

    def __enter__(self) -> DaskCluster:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def run(self, tasks: Iterable[Task], on_result: Callable[[Task, dict[str, Any]], None]) -> None:
        """Run every task; call ``on_result(task, result)`` here as each ends.

        Raises:
            ClusterError: If a task's workers kept dying (Dask's ``KilledWorker``).
            TaskFailed: If a run raised an error on its worker.
            KeyboardInterrupt: (and any exception from ``on_result``) once the tasks are
                cancelled.
        """
        jobs = (
            (
                task,
                Job(
                    task_key(task),
                    run_task,
                    (dict(task.config), task.seed, None, None, task.curves),
                ),
            )
            for task in tasks
        )
        self.run_jobs(jobs, on_result)

    def run_jobs(
        self,
        jobs: Iterable[tuple[WorkT, Job]],
        on_result: Callable[[WorkT, dict[str, Any]], None],
    ) -> None:
        """Run every job; call ``on_result(work, result)`` here as each ends.

        Args:
            jobs: Each job, beside what ``on_result`` is to be given back with its result;
                each job's key is its Dask key.
            on_result: Called once per job, with its first result.

        Raises:
            ClusterError: If a job's workers kept dying (Dask's ``KilledWorker``).
            TaskFailed: If a job raised an error on its worker.
            KeyboardInterrupt: (and any exception from ``on_result``) once the jobs are
                cancelled.
        """
        distributed = _distributed()
        killed_worker = importlib.import_module("distributed.scheduler").KilledWorker

        pending: Iterator[tuple[WorkT, Job]] = iter(jobs)
        limit = max(MIN_IN_FLIGHT, 4 * self.threads())
        in_flight: dict[str, tuple[WorkT, Any]] = {}

        def submit() -> Any:
            entry = next(pending, None)
            if entry is None:
                return None
            work, job = entry
            future = self.client.submit(job.function, *job.arguments, key=job.key, pure=False)
            in_flight[job.key] = (work, future)
            return future

        while len(in_flight) < limit and submit() is not None:
            pass
        if not in_flight:
            return
        completed = distributed.as_completed(
            [future for _, future in in_flight.values()], loop=self.client.loop
        )
        try:
            for future in completed:
                try:
                    result = future.result()
                except killed_worker as error:
                    raise ClusterError(
                        f"Dask workers kept dying on a run ({error}); is it too large for them?"
                    ) from None
                work, _ = in_flight.pop(future.key)
                future.release()
                on_result(work, result)
                following = submit()
                if following is not None:
                    completed.add(following)
        except BaseException:
            self.client.cancel([future for _, future in in_flight.values()])
            raise
