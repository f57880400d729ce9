"""The flags of ``queens solutions --count`` on local workers or a Dask cluster, and where they
mean something: only with ``--count``, and the store's and cluster's only with workers.

Light on purpose: every ``queens solutions`` builds its parser with them, and the machinery
that runs the count (:mod:`tui.cli.count_running`) is imported only by a count on workers.
"""

from __future__ import annotations

import argparse
from typing import Final

from tui.cli.store_flags import add_store_flag
from tui.cli.usage_error import UsageError

RUNNER_FLAGS: Final = ("workers", "force_workers", "scheduler", "connect_timeout", "store", "fresh")
"""The flags of a count on workers, in the order a refusal names them."""

DEFAULT_CONNECT_TIMEOUT: Final = "10"
"""Seconds to wait for the Dask scheduler when ``--connect-timeout`` is not given."""


def add_count_runner_flags(parser: argparse.ArgumentParser) -> None:
    """``--workers``, ``--force-workers``, ``--scheduler``, ``--connect-timeout``, ``--store``
    and ``--fresh``, in a group of their own."""
    group = parser.add_argument_group(
        "counting on workers",
        "With --count: the search is split into parts, each kept in the run store as it is "
        "counted, so the same command continues an interrupted count.",
    )
    group.add_argument(
        "--workers",
        default=None,
        metavar="W",
        help="count on W local worker processes (capped at the cores unless forced)",
    )
    group.add_argument(
        "--force-workers",
        action="store_true",
        help="allow --workers above the machine's cores",
    )
    group.add_argument(
        "--scheduler",
        default=None,
        metavar="tcp://HOST:PORT",
        help="count on an existing Dask cluster (pip install 'queens-ga[cluster]')",
    )
    group.add_argument(
        "--connect-timeout",
        default=None,
        metavar="SECONDS",
        help=f"seconds to wait for the Dask scheduler (default {DEFAULT_CONNECT_TIMEOUT})",
    )
    add_store_flag(group)
    group.add_argument("--fresh", action="store_true", help="forget the kept parts; start over")


def on_workers(args: argparse.Namespace) -> bool:
    """Whether the count runs on workers (``--workers`` or ``--scheduler``)."""
    return args.workers is not None or args.scheduler is not None


def check_count_runner_flags(args: argparse.Namespace) -> None:
    """Refuse a count runner flag where it means nothing, naming the first one given.

    Raises:
        UsageError: A runner flag without ``--count`` (or with ``--by-ga``); ``--workers``
            with ``--scheduler``; ``--store``, ``--fresh`` or ``--force-workers`` without
            workers to go with; ``--connect-timeout`` without ``--scheduler``.
    """
    given = [(name, getattr(args, name)) for name in RUNNER_FLAGS]
    given = [(name, value) for name, value in given if value not in (None, False)]
    if not given:
        return
    name, value = given[0]
    flag = "--" + name.replace("_", "-")
    if not args.count or args.by_ga:
        raise UsageError(
            flag,
            value,
            f"{flag} is for counting on workers: only with --count (a listing, and --by-ga, "
            "run in this process)",
        )
    if args.workers is not None and args.scheduler is not None:
        raise UsageError(
            "--workers", args.workers, "local workers or a Dask cluster (--scheduler), not both"
        )
    if not on_workers(args):
        raise UsageError(
            flag,
            value,
            f"{flag} goes with --workers or --scheduler (a count in this process keeps nothing)",
        )
    if args.force_workers and args.workers is None:
        raise UsageError("--force-workers", True, "only with --workers")
    if args.connect_timeout is not None and args.scheduler is None:
        raise UsageError("--connect-timeout", args.connect_timeout, "only with --scheduler")
