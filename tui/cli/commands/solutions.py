"""``queens solutions``: every solution for N, found exactly; or harvested by the GA (``--by-ga``).

The exact search (:mod:`engine.solutions.exact`) lists N = 12's 14,200 solutions in hundredths
of a second and counts N = 16's 14.8 million in seconds. The GA harvest, which took minutes
for N = 12, stays as an experiment behind ``--by-ga``, with the run configuration flags.
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import Final

from engine import FIELDS
from tui.cli.config_flags import add_config_flags, config_from_args, flag_of
from tui.cli.count_flags import add_count_runner_flags, check_count_runner_flags, on_workers
from tui.cli.exit_codes import EXIT_SOLVED
from tui.cli.signals import received_signals
from tui.cli.usage_error import UsageError

DEFAULT_N: Final = 8
"""The board size when ``--n`` is not given (the classic puzzle)."""

LONG_LISTING: Final = 15
"""From this N a listing is millions of lines (N = 15: 2,279,184): said on stderr first."""


def add_parser(commands: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Add ``solutions`` to the ``queens`` subcommands."""
    from engine.solutions.exact import COUNTING_LIMIT, LISTING_LIMIT

    parser = commands.add_parser(
        "solutions",
        help="every solution for N, found exactly (or harvested by the GA: --by-ga)",
        usage="queens solutions [--n N] [--count] [--json]\n"
        "       queens solutions --n N --count (--workers W | --scheduler tcp://HOST:PORT) "
        "[--store PATH] [--fresh] [--json]\n"
        "       queens solutions --by-ga [--n N] [run configuration flags] [--json]",
        description="Find every solution of N-Queens exactly, by backtracking (N = 12 in "
        "hundredths of a second, N = 16 in seconds), and print a summary line (all "
        "solutions and fundamental ones, those distinct under rotations and reflections, "
        "and the time), then one solution a line: the column of the queen in each row, "
        "0-based, with a * after the representative of each fundamental class. With --count "
        "and --workers or --scheduler, count on local worker processes or a Dask cluster, "
        "keeping each part of the search in the run store as it is counted: an interrupted "
        "count continues where it stopped when the same command is run again. With --by-ga, "
        "run the GA experiment instead: it harvests solutions until it has them all or its "
        "budget ends, and the run configuration flags apply.",
        epilog="Exit codes: 0 done (with --by-ga: 1 when the budget ended first), 2 bad "
        "input, 130 interrupted (Ctrl+C), 143 terminated (SIGTERM); interrupted, what was "
        'found so far is printed, marked PARTIAL (--json: "complete": false).',
        # The exact search's --n, added last, takes the place of the run configuration's.
        conflict_handler="resolve",
    )
    exact = parser.add_argument_group("what to find")
    exact.add_argument(
        "--count",
        action="store_true",
        help="print only the counts: all solutions (OEIS A000170) and fundamental ones "
        "(A002562); memory stays small whatever N",
    )
    exact.add_argument(
        "--json",
        action="store_true",
        help="print one JSON document: n, total, fundamental, elapsed_s, complete, and "
        "(without --count) fundamental_indices and solutions",
    )
    exact.add_argument(
        "--by-ga",
        action="store_true",
        help="the GA experiment instead: harvest the solutions with the GA (the run "
        "configuration flags apply; exit 1 when its budget ends before it has them all)",
    )
    add_count_runner_flags(parser)
    add_config_flags(parser)
    exact.add_argument(
        "--n",
        dest="n",
        metavar="N",
        default=None,
        help=f"board size: 1 to {LISTING_LIMIT} to list, to {COUNTING_LIMIT} to count "
        f"(default: {DEFAULT_N}); listing N >= {LONG_LISTING} prints millions of lines",
    )
    # Shown first in its group, as the first thing to choose (argparse lists in added order).
    exact._group_actions.insert(0, exact._group_actions.pop())
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Handle ``queens solutions``."""
    if args.by_ga and args.count:
        raise UsageError("--count", True, "--count is for the exact search, not with --by-ga")
    check_count_runner_flags(args)
    if args.by_ga:
        from tui.cli.solutions_by_ga import find_solutions_by_ga

        return find_solutions_by_ga(config_from_args(args), args.json)
    refuse_run_flags(args)
    n = board_size(args.n)
    if args.count and on_workers(args):
        arrived_before = len(received_signals)  # one an import swallows is acted on there
        from tui.cli.count_running import count_on_workers

        return count_on_workers(n, args, arrived_before)
    if args.count:
        return count_exactly(n, args.json)
    return list_exactly(n, args.json)


def refuse_run_flags(args: argparse.Namespace) -> None:
    """The GA's flags mean nothing to the exact search: refuse them rather than ignore them.

    Raises:
        UsageError: Naming the first one given.
    """
    if args.preset is not None:
        raise UsageError("--preset", args.preset, "a GA setting: only with --by-ga")
    for name in FIELDS:
        if name != "n" and getattr(args, name, None) is not None:
            raise UsageError(
                flag_of(name),
                getattr(args, name),
                f"{flag_of(name)} is a GA setting: only with --by-ga (the exact search takes "
                "--n, --count and --json)",
            )


def board_size(text: str | None) -> int:
    """The board size given to the exact search (:data:`DEFAULT_N` when none was).

    Raises:
        UsageError: If it is not a whole number.
    """
    if text is None:
        return DEFAULT_N
    try:
        return int(text)
    except ValueError:
        raise UsageError("--n", text, "a whole number: the board size") from None


def count_exactly(n: int, as_json: bool) -> int:
    """Print the number of solutions of ``n`` and of fundamental ones; interrupted, the
    partial count (fundamental ones are then not counted), and exit 130 or 143."""
    from engine.solutions.exact import CountProgress, check_board_size, count_steps
    from engine.solutions.symmetry import fundamental_count
    from tui.cli.result_printing import json_text
    from tui.cli.signals import report_interruption
    from tui.cli.solution_text import (
        ProgressLine,
        count_document,
        count_summary,
        partial_count_summary,
    )

    check_board_size(n, listing=False)
    started = time.perf_counter()
    progress = ProgressLine(n, "counting")
    last = CountProgress(n, 0, 1, 0)  # replaced by the first step, before any search
    fundamental: int | None = None
    interruption: KeyboardInterrupt | None = None
    try:
        for last in count_steps(n):
            progress(last.searched, last.prefixes)
        fundamental = fundamental_count(n, last.solutions)
    except KeyboardInterrupt as stop:
        interruption = stop
    progress.clear()
    elapsed = time.perf_counter() - started
    if as_json:
        print(json_text(count_document(last, fundamental, elapsed)))
    elif fundamental is None:
        print(partial_count_summary(last, elapsed))
    else:
        print(count_summary(n, last.solutions, fundamental, elapsed))
    if interruption is not None:
        sys.stdout.flush()
        return report_interruption(interruption)
    return EXIT_SOLVED


def list_exactly(n: int, as_json: bool) -> int:
    """Print every solution of ``n``; interrupted, those found so far, and exit 130 or 143."""
    from engine.solutions.archive import KNOWN_TOTALS
    from engine.solutions.exact import (
        ListingBatch,
        check_board_size,
        listing_steps,
        solution_list,
    )
    from tui.cli.signals import report_interruption
    from tui.cli.solution_text import (
        ProgressLine,
        listing_summary,
        solution_lines,
        write_listing_document,
    )

    check_board_size(n, listing=True)
    if n >= LONG_LISTING:
        print(
            f"queens: note: N = {n} has {KNOWN_TOTALS[n][0]:,} solutions: this prints a line "
            "for each (--count prints only the counts)",
            file=sys.stderr,
        )
    started = time.perf_counter()
    progress = ProgressLine(n, "listing")
    batches: list[ListingBatch] = []
    interruption: KeyboardInterrupt | None = None
    try:
        for batch in listing_steps(n):
            batches.append(batch)
            progress(batch.searched, batch.prefixes)
    except KeyboardInterrupt as stop:
        interruption = stop
    progress.clear()
    elapsed = time.perf_counter() - started
    # Stopped before the first step, nothing is known: not even how many prefixes there are.
    searched, of = (batches[-1].searched, batches[-1].prefixes) if batches else (0, None)
    listing = solution_list(n, batches, complete=interruption is None)
    batches.clear()  # their boards are in the listing now: N = 16's took 118 MB more
    if as_json:
        write_listing_document(listing, elapsed, searched, of, sys.stdout)
    else:
        print(listing_summary(listing, elapsed, searched, of))
        for text in solution_lines(listing):
            sys.stdout.write(text)
    if interruption is not None:
        sys.stdout.flush()
        return report_interruption(interruption)
    return EXIT_SOLVED
