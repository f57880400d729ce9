"""``queens solutions --count`` on local workers (``--workers W``) or a Dask cluster
(``--scheduler tcp://HOST:PORT``): the flags, the store, Ctrl+C and SIGTERM, the printed count.

The count is split into parts (:mod:`tui.lab.exact_count`) that run on the sweeps' machinery,
and each part's count is kept in the run store as it arrives: stopped by Ctrl+C, SIGTERM or a
crash, the same command counts only the parts that are missing; ``--fresh`` starts over. The
printed count is the one a count in this process prints, line for line and key for key (the
JSON gains the count's id and what was kept from before).
"""

from __future__ import annotations

import argparse
import sys
import time
from contextlib import ExitStack
from typing import TYPE_CHECKING

from tui.cli.count_flags import DEFAULT_CONNECT_TIMEOUT
from tui.cli.exit_codes import EXIT_SOLVED, EXIT_USAGE
from tui.cli.signals import Terminated, interrupted_exit_code, received_signals
from tui.cli.store_flags import unusable_store
from tui.cli.sweep_running import (
    act_on_swallowed,
    connect_cluster,
    connect_timeout,
    terminate_raises,
    worker_count,
)
from tui.lab.sweep.held_signals import signals_held

if TYPE_CHECKING:
    from engine.solutions.exact import CountProgress
    from tui.lab.exact_count.plan import CountPlan
    from tui.lab.exact_count.runner import JobRunner


def count_on_workers(n: int, args: argparse.Namespace, arrived_before: int | None = None) -> int:
    """Count the solutions of ``n`` on the workers or cluster ``args`` name; print the count.

    ``arrived_before`` is how many signals had arrived before this module was imported (by
    default, before this call): one that arrived since and that an import swallowed is acted
    on once the imports are done.

    Returns:
        0 once every part is counted; 130 on Ctrl+C and 143 on SIGTERM (the parts counted
        are kept: the same command continues); 2 if the workers or the store could not go on.

    Raises:
        UsageError: On a bad flag or board size, an unusable store, or a scheduler that is
            malformed or unreachable (exit 2).
    """
    if arrived_before is None:
        arrived_before = len(received_signals)
    with signals_held():  # an import cut by a signal may swallow it: import whole
        from engine.solutions.symmetry import fundamental_count
        from tui.cli import result_printing  # noqa: F401  (for print_count, imported whole)
        from tui.cli.solution_text import ProgressLine
        from tui.lab.exact_count.ledgers import StoreCountLedger
        from tui.lab.exact_count.plan import TASK_MODULE, count_plan
        from tui.lab.exact_count.runner import run_count
        from tui.lab.store import StoreError
        from tui.lab.store.count_store import CountStore
        from tui.lab.sweep.errors import SweepError
        from tui.lab.sweep.local_pool import LocalPool

    act_on_swallowed(arrived_before)
    plan = count_plan(n)
    workers = worker_count(args.workers, args.force_workers) if args.scheduler is None else 0
    with ExitStack() as stack:
        runner: JobRunner | None = None
        if args.scheduler is not None:
            timeout = connect_timeout(args.connect_timeout or DEFAULT_CONNECT_TIMEOUT)
            cluster = connect_cluster(args.scheduler, timeout)
            stack.callback(cluster.close)  # leaves the cluster; it goes on running
            runner = cluster
        try:
            store = stack.enter_context(CountStore.open(args.store))
        except StoreError as error:
            raise unusable_store(args.store, error) from None
        stack.enter_context(terminate_raises())
        started = time.perf_counter()
        progress = ProgressLine(n, "counting")
        try:
            ledger = StoreCountLedger.for_plan(store, plan, fresh=args.fresh)
            before = plan.progress(ledger.done())
            if runner is None:
                missing = len(plan.parts) - len(ledger.done())
                pool = LocalPool(min(workers, max(1, missing)), preload=(TASK_MODULE,))
                stack.callback(pool.close)  # no worker left behind, whatever happens
                runner = pool
            announce(plan, before, len(ledger.done()), ledger.count_id, runner.describe())
            try:
                state = run_count(plan, runner, ledger, progress)
                act_on_swallowed(arrived_before)
            except KeyboardInterrupt as stop:  # Ctrl+C, or SIGTERM as Terminated
                progress.clear()
                state = plan.progress(ledger.done())
                elapsed = time.perf_counter() - started
                print_count(state, None, elapsed, args.json, ledger.count_id, before)
                word = "terminated" if isinstance(stop, Terminated) else "interrupted"
                print(
                    f"queens: {word}; {state.searched:,} of {state.prefixes:,} prefixes kept in "
                    f"count {ledger.count_id}: run the same command again to continue",
                    file=sys.stderr,
                )
                return interrupted_exit_code(stop)
            fundamental = fundamental_count(n, state.solutions)
            ledger.finish(state.solutions, fundamental)
        except (SweepError, StoreError) as error:
            progress.clear()
            print(f"queens: error: {error}", file=sys.stderr)
            return EXIT_USAGE
    progress.clear()
    elapsed = time.perf_counter() - started
    print_count(state, fundamental, elapsed, args.json, ledger.count_id, before)
    return EXIT_SOLVED


def announce(
    plan: CountPlan, before: CountProgress, parts_kept: int, count_id: int, where: str
) -> None:
    """Say on stderr which count this is, what was kept of it, and where the rest runs."""
    parts = len(plan.parts)
    if parts_kept == parts:
        print(f"queens: count {count_id}: every part kept from before", file=sys.stderr)
    elif parts_kept:
        print(
            f"queens: count {count_id}: {parts_kept:,} of {parts:,} parts ({before.searched:,} "
            f"of {_counted(before.prefixes, 'prefix')}) kept from before; counting the other "
            f"{parts - parts_kept:,} on {where} (--fresh to start over)",
            file=sys.stderr,
        )
    else:
        print(
            f"queens: count {count_id}: N = {plan.n} in {_counted(parts, 'part')} "
            f"({_counted(plan.prefixes, 'prefix')}) on {where}",
            file=sys.stderr,
        )


def _counted(number: int, word: str) -> str:
    """``1 part``, ``1,118 prefixes``."""
    return f"{number:,} {word}" + ("" if number == 1 else "es" if word.endswith("x") else "s")


def print_count(
    state: CountProgress,
    fundamental: int | None,
    elapsed: float,
    as_json: bool,
    count_id: int,
    before: CountProgress,
) -> None:
    """Print the count as a count in this process does (``fundamental`` ``None``: partial)."""
    from tui.cli.result_printing import json_text
    from tui.cli.solution_text import count_document, count_summary, partial_count_summary

    if as_json:
        document = count_document(state, fundamental, elapsed)
        document["count_id"] = count_id
        document["prefixes_kept_before"] = before.searched
        print(json_text(document))
    elif fundamental is None:
        print(partial_count_summary(state, elapsed))
    else:
        print(count_summary(state.n, state.solutions, fundamental, elapsed))
    sys.stdout.flush()  # out before anything at exit can hold it back
