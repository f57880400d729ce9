"""Running a checked sweep plan from the command line: the runner flags, the workers or the Dask
cluster, the progress bar, Ctrl+C and SIGTERM, and the printed report.

``queens sweep`` and ``queens compare`` both end here: a compare is a sweep over presets.
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, Final

from tui.cli.exit_codes import EXIT_USAGE
from tui.cli.signals import (
    Terminated,
    interrupted_exit_code,
    raise_interruption,
    received_signals,
)
from tui.cli.store_flags import add_store_flag, unusable_store
from tui.cli.sweep_outputs import SweepOutputs, add_output_flags, draw_sweep_plot
from tui.cli.usage_error import UsageError
from tui.lab.sweep.held_signals import signals_held

if TYPE_CHECKING:
    from tui.lab.sweep.dask_cluster import DaskCluster
    from tui.lab.sweep.local_pool import LocalPool

DEFAULT_MAX_EVALS: Final = 200_000
"""Evaluations allowed per run of a sweep or compare cell that has no budget of its own (no
evaluations, generations, stagnation or time limit), so that every run ends, on any machine
at the same point; the report says which cells got it."""

MAX_WORKERS: Final = 256
"""Local worker processes at most, even when forced."""


def add_runner_flags(parser: argparse.ArgumentParser, workers_flag: str) -> None:
    """Flags shared by ``sweep`` and ``compare``: workers, cluster, store, output."""
    parser.add_argument(
        workers_flag,
        dest="workers",
        default=None,
        help="local worker processes (default: the cores; capped at them unless forced)",
    )
    parser.add_argument(
        f"--force-{workers_flag.lstrip('-')}",
        dest="force_workers",
        action="store_true",
        help=f"allow {workers_flag} above the machine's cores (at most {MAX_WORKERS})",
    )
    parser.add_argument(
        "--scheduler",
        default=None,
        metavar="tcp://HOST:PORT",
        help="run on an existing Dask cluster (pip install 'queens-ga[cluster]')",
    )
    parser.add_argument(
        "--connect-timeout",
        default="10",
        metavar="SECONDS",
        help="seconds to wait for the Dask scheduler (default 10)",
    )
    add_store_flag(parser)
    parser.add_argument("--fresh", action="store_true", help="forget kept results; start over")
    parser.add_argument(
        "--record-runs",
        action="store_true",
        help="also record every run in full in the store (local workers only; queens runs)",
    )
    add_output_flags(parser)
    output = parser.add_mutually_exclusive_group()
    output.add_argument("--json", action="store_true", help="print one JSON document")
    output.add_argument("--csv", action="store_true", help="print one CSV line per run")


def worker_count(text: str | None, force: bool, flag: str = "workers") -> int:
    """The local workers: the cores by default; more than the cores only when forced.

    Raises:
        UsageError: On a value that is not a whole number >= 1, or above :data:`MAX_WORKERS`.
    """
    cores = os.cpu_count() or 1
    if text is None:
        return cores
    try:
        wanted = int(str(text).strip().replace("_", ""))
    except ValueError:
        raise UsageError(f"--{flag}", text, "a whole number >= 1 is expected") from None
    if not 1 <= wanted <= MAX_WORKERS:
        raise UsageError(f"--{flag}", wanted, f"a whole number between 1 and {MAX_WORKERS}")
    if wanted > cores and not force:
        print(
            f"queens: --{flag} {wanted} capped at this machine's {cores} cores "
            f"(--force-{flag} to run {wanted})",
            file=sys.stderr,
        )
        return cores
    return wanted


def connect_timeout(text: str) -> float:
    """The seconds of ``--connect-timeout``.

    Raises:
        UsageError: On a value that is not a number of seconds between 0 and 3600.
    """
    try:
        value = float(text)
    except ValueError:
        raise UsageError("--connect-timeout", text, "a number of seconds > 0") from None
    if not 0 < value <= 3600:
        raise UsageError("--connect-timeout", value, "a number of seconds between 0 and 3600")
    return value


def output_of(args: argparse.Namespace) -> str:
    """``json``, ``csv`` or ``table``."""
    return "json" if args.json else "csv" if args.csv else "table"


class SweepProgressBar:
    """A progress bar on stderr (Rich), only when stderr is a terminal."""

    def __init__(self, label: str) -> None:
        self._label = label
        self._bar: Any = None
        self._task: Any = None

    def __enter__(self) -> SweepProgressBar:
        if sys.stderr.isatty():
            from rich.console import Console
            from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

            self._bar = Progress(
                "[progress.description]{task.description}",
                BarColumn(),
                MofNCompleteColumn(),
                TimeRemainingColumn(),
                console=Console(stderr=True),
                transient=True,
            )
            self._bar.start()
            self._task = self._bar.add_task(self._label, total=None)
        return self

    def __exit__(self, *exc: object) -> None:
        if self._bar is not None:
            self._bar.stop()

    def update(self, done: int, total: int) -> None:
        if self._bar is not None:
            self._bar.update(self._task, completed=done, total=total)


@contextmanager
def terminate_raises() -> Iterator[None]:
    """SIGTERM unwinds as Ctrl+C does (workers ended first), also when ``main`` is called
    without the console script (which installs the same handler from the start)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGTERM, raise_interruption)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def _backend(
    args: argparse.Namespace, workers: int, timeout: float, path: str
) -> LocalPool | DaskCluster:
    """The local pool, or the Dask cluster of ``--scheduler`` (connected).

    Raises:
        UsageError: On ``--record-runs`` with ``--scheduler``, or an unusable scheduler.
    """
    with signals_held():  # an import cut by a signal may swallow it: import whole
        from tui.lab.sweep.local_pool import LocalPool

    if args.scheduler is None:
        return LocalPool(
            workers,
            record_to=path if args.record_runs else None,
            label=getattr(args, "label", None),
        )
    if args.record_runs:
        raise UsageError(
            "--record-runs",
            True,
            "local workers only: Dask workers cannot write to this machine's store",
        )
    return connect_cluster(args.scheduler, timeout)


def connect_cluster(address: str, timeout: float) -> DaskCluster:
    """The Dask cluster whose scheduler is at ``address``, connected.

    Raises:
        UsageError: On a malformed or unreachable scheduler, or Dask not installed.
    """
    with signals_held():  # importing distributed, which a signal could leave half done
        from tui.lab.sweep.dask_cluster import ClusterError, DaskCluster
    try:
        return DaskCluster(address, timeout)
    except ClusterError as error:
        raise UsageError("--scheduler", address, str(error)) from None


def act_on_swallowed(arrived_before: int) -> None:
    """Raise the interruption a signal stands for if one arrived and nothing was raised (an
    import's lock callback swallows the exception of a signal that lands in it)."""
    if len(received_signals) > arrived_before:
        signum = received_signals[arrived_before]
        raise Terminated() if signum == signal.SIGTERM else KeyboardInterrupt()


def run_plan(plan: Any, args: argparse.Namespace, label: str) -> int:
    """Run a checked plan with the runner flags in ``args``; print its report.

    ``sweep`` and ``compare`` both end here, so every error of the runner (workers that keep
    dying, a run that fails, a store that fails under the sweep) is said the same way: one
    line, exit 2; what was kept stays kept.

    Returns:
        0 once every run has a result; 130 on Ctrl+C and 143 on SIGTERM (what was done is
        kept: the same command continues it); 2 if the runner could not go on.

    Raises:
        UsageError: On a bad flag, an unusable store, or an unreachable scheduler (exit 2).
    """
    arrived_before = len(received_signals)
    with signals_held():  # an import cut by a signal may swallow it: import whole
        from tui.cli import sweep_report
        from tui.lab.store import RunStore, StoreError
        from tui.lab.sweep.errors import SweepError
        from tui.lab.sweep.runner import run_sweep
        from tui.lab.sweep.store_ledger import StoreLedger

    outputs = SweepOutputs.from_args(args)
    workers = worker_count(args.workers, args.force_workers, label_flag(args))
    timeout = connect_timeout(args.connect_timeout)
    try:
        store = RunStore.open(args.store)
    except StoreError as error:
        raise unusable_store(args.store, error) from None
    with store, terminate_raises():
        try:
            ledger = StoreLedger.for_plan(store, plan, fresh=args.fresh)
            kept_before = len(ledger.done())
            missing = plan.tasks - kept_before
            backend = _backend(args, min(workers, max(1, missing)), timeout, str(store.path))
            try:
                if kept_before:
                    print(
                        f"queens: sweep {ledger.sweep_id}: {kept_before:,} of {plan.tasks:,} "
                        f"runs kept from before; running the other {missing:,} "
                        f"(--fresh to start over)",
                        file=sys.stderr,
                    )
                elif plan.tasks:
                    print(
                        f"queens: sweep {ledger.sweep_id}: {plan.tasks:,} runs on "
                        f"{backend.describe()}",
                        file=sys.stderr,
                    )
                with (
                    SweepProgressBar(f"{label} {ledger.sweep_id}") as progress,
                    outputs.gathering(plan, kept_before),
                ):
                    on_curve = outputs.on_curve if outputs.wants_curves else None
                    run_sweep(plan, backend, ledger, progress.update, on_curve)
                act_on_swallowed(arrived_before)
            except KeyboardInterrupt as stop:  # Ctrl+C, or SIGTERM as Terminated
                kept = len(ledger.done())
                word = "terminated" if isinstance(stop, Terminated) else "interrupted"
                print(
                    f"queens: {word}; {kept:,} of {plan.tasks:,} runs kept in sweep "
                    f"{ledger.sweep_id}: run the same command again to continue",
                    file=sys.stderr,
                )
                return interrupted_exit_code(stop)
            finally:
                backend.close()  # no worker left behind; a cluster goes on running
            ledger.finish()
            results = ledger.results()
        except (SweepError, StoreError) as error:
            print(f"queens: error: {error}", file=sys.stderr)
            return EXIT_USAGE
    text = sweep_report.report_text(
        plan, results, ledger.sweep_id, output_of(args), chart=sys.stdout.isatty()
    )
    act_on_swallowed(arrived_before)
    sys.stdout.write(text)
    sys.stdout.flush()  # the report is out before anything at exit can hold it back
    if outputs.plot_path is not None:
        draw_sweep_plot(outputs.plot_path, plan, results, outputs.keeper, ledger.sweep_id)
    return 0


def label_flag(args: argparse.Namespace) -> str:
    """The workers flag's name as the user typed it (``jobs`` for compare)."""
    return str(getattr(args, "workers_flag", "workers"))
