"""``queens lesson NAME``: a classic result of GA theory, measured beside its formula.

Each lesson runs ordinary seeded engine runs (or, for the landscape and hill climbing, an
enumeration and a climb of its own) on local worker processes or a Dask cluster, as sweeps do,
and prints its rows: a label, the measured value beside the theory, and what else the lesson
shows. ``--json`` prints one document (``lesson``, ``population``, ``seeds``, ``rows``);
``--csv`` one line per row.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any, Final

from tui.cli.store_flags import add_store_flag, unusable_store
from tui.cli.sweep_running import (
    SweepProgressBar,
    connect_cluster,
    connect_timeout,
    terminate_raises,
    worker_count,
)
from tui.cli.usage_error import UsageError
from tui.lab.lessons.runs import Recording
from tui.lab.sweep.held_signals import signals_held

LESSON_NAMES: Final = (
    "takeover",
    "drift",
    "founders",
    "headless-chicken",
    "landscape",
    "hill-climbing",
)
"""The lessons, in the order they are taught (as ``tui.lab.lessons.catalog`` holds them)."""

LARGEST_POPULATION: Final = 100_000
"""``--population`` at most."""

LARGEST_SEEDS: Final = 1_000_000
"""``--seeds`` at most (hill climbing counts starts with it)."""

SMALLEST_BOARD: Final = 4
"""``--n`` at least (the landscape's first board with solutions)."""

DEFAULT_LARGEST_BOARD: Final = 9
"""The landscape's largest board without ``--n`` (as ``tui.lab.lessons.landscape`` holds it)."""

LARGEST_BOARD: Final = 10
"""``--n`` at most (as ``tui.lab.lessons.landscape_walk`` holds it)."""


def add_parser(commands: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Add ``lesson`` to the ``queens`` subcommands."""
    parser = commands.add_parser(
        "lesson",
        help="a classic GA result measured beside its textbook formula",
        description="Run a lesson: seeded runs measured beside the theory they are checked "
        f"against. Lessons: {', '.join(LESSON_NAMES)}. Exit codes: 0 done, 2 bad input, "
        "130 interrupted, 143 terminated.",
    )
    parser.add_argument("name", metavar="NAME", help=f"the lesson [{', '.join(LESSON_NAMES)}]")
    parser.add_argument(
        "--seeds", default=None, metavar="K", help="seeds per arm (hill-climbing: starts)"
    )
    parser.add_argument("--population", default=None, metavar="P", help="individuals P")
    parser.add_argument(
        "--n",
        default=None,
        metavar="N",
        help=f"landscape: the largest board, {SMALLEST_BOARD} to {LARGEST_BOARD} (default "
        f"{DEFAULT_LARGEST_BOARD}); N = 10 is walked in this process after the others, with a "
        "progress line on stderr (a minute or more, about 270 MB)",
    )
    parser.add_argument(
        "--workers",
        dest="workers",
        default=None,
        help="local worker processes (default: the cores; capped at them unless forced)",
    )
    parser.add_argument(
        "--force-workers", action="store_true", help="allow --workers above the machine's cores"
    )
    parser.add_argument(
        "--scheduler", default=None, metavar="tcp://HOST:PORT", help="run on a Dask cluster"
    )
    parser.add_argument(
        "--connect-timeout",
        default="10",
        metavar="SECONDS",
        help="seconds to wait for the Dask scheduler (default 10)",
    )
    parser.add_argument(
        "--record-runs",
        action="store_true",
        help="record every engine run in the store (local workers only; queens runs lists them)",
    )
    add_store_flag(parser)
    parser.add_argument(
        "--plot",
        default=None,
        metavar="FILE",
        help="also draw the rows, measured beside theory, into FILE.svg, .pdf or .png "
        "(pip install 'queens-ga[stats]')",
    )
    output = parser.add_mutually_exclusive_group()
    output.add_argument("--json", action="store_true", help="print one JSON document")
    output.add_argument("--csv", action="store_true", help="print one CSV line per row")
    parser.set_defaults(handler=run)


def lesson_name(text: str) -> str:
    """The lesson named, or a UsageError listing them."""
    if text not in LESSON_NAMES:
        raise UsageError("NAME", text, f"a lesson: one of {', '.join(LESSON_NAMES)}")
    return text


def count(flag: str, text: str | None, least: int, most: int) -> int | None:
    """A whole-number flag within ``least..most`` (``None`` when not given)."""
    if text is None:
        return None
    try:
        value = int(str(text).strip().replace("_", ""))
    except ValueError:
        raise UsageError(f"--{flag}", text, f"a whole number from {least} to {most:,}") from None
    if not least <= value <= most:
        raise UsageError(f"--{flag}", value, f"a whole number from {least} to {most:,}")
    return value


def recording_of(args: argparse.Namespace) -> Recording | None:
    """Where ``--record-runs`` records the runs: the store, made if need be (each arm's runs
    labelled ``lesson NAME: ARM``).

    Raises:
        UsageError: With ``--scheduler`` (Dask workers cannot write this machine's store), or
            on a store that cannot be opened.
    """
    if not args.record_runs:
        if args.store is not None:
            raise UsageError("--store", args.store, "only --record-runs writes to a store")
        return None
    if args.scheduler is not None:
        raise UsageError(
            "--record-runs", True, "local workers only: Dask workers cannot write to this store"
        )
    from tui.lab.store import RunStore, StoreError

    try:
        with RunStore.open(args.store) as store:
            path = str(store.path)
    except StoreError as error:
        raise unusable_store(args.store, error) from None
    return Recording(path, "")


def run(args: argparse.Namespace) -> int:
    """Handle ``queens lesson``."""
    name = lesson_name(args.name)
    population = count("population", args.population, 2, LARGEST_POPULATION)
    seeds = count("seeds", args.seeds, 1, LARGEST_SEEDS)
    with signals_held():  # an import cut by a signal may swallow it: import whole
        from tui.cli import lesson_report
        from tui.cli.signals import Terminated, interrupted_exit_code
        from tui.lab.lessons.catalog import LESSONS, PRELOAD
        from tui.lab.lessons.runner import lesson_document
        from tui.lab.sweep.errors import SweepError
        from tui.lab.sweep.local_pool import LocalPool
    largest = count("n", args.n, SMALLEST_BOARD, LARGEST_BOARD)
    if largest is not None and name != "landscape":
        raise UsageError("--n", largest, "only the landscape lesson enumerates boards")
    lesson = LESSONS[name]
    walked_here: int | None = None  # a board walked in this process, after the jobs
    if largest is not None:
        from tui.lab.lessons.landscape import LARGEST_HELD_N, lesson_up_to

        lesson = lesson_up_to(largest)
        walked_here = largest if largest > LARGEST_HELD_N else None
    if lesson.population is None and population is not None:
        raise UsageError("--population", population, f"the {name} lesson has no population")
    if lesson.seeds is None and seeds is not None:
        raise UsageError("--seeds", seeds, f"the {name} lesson enumerates: it has no seeds")
    workers = worker_count(args.workers, args.force_workers)
    timeout = connect_timeout(args.connect_timeout)
    plot_path = None
    if args.plot is not None:
        from tui.lab.figures.plot_target import check_plot_target

        plot_path = check_plot_target(args.plot)  # before any run: a bad name costs nothing
    recording = recording_of(args)
    planned = lesson.jobs(population or lesson.population or 0, seeds or lesson.seeds or 0, None)
    jobs = len(planned)
    with terminate_raises():
        backend = (
            LocalPool(min(workers, max(1, jobs)), preload=PRELOAD)
            if args.scheduler is None
            else connect_cluster(args.scheduler, timeout)
        )
        print(f"queens: lesson {name}: {jobs:,} runs on {backend.describe()}", file=sys.stderr)
        try:
            with SweepProgressBar(f"lesson {name}") as progress:
                document = lesson_document(
                    lesson, population, seeds, backend, progress.update, recording
                )
            if walked_here is not None:
                document["rows"].append(walk_landscape(walked_here))
        except KeyboardInterrupt as stop:
            word = "terminated" if isinstance(stop, Terminated) else "interrupted"
            print(f"queens: {word}; the lesson's runs are not kept", file=sys.stderr)
            return interrupted_exit_code(stop)
        except SweepError as error:
            print(f"queens: error: {error}", file=sys.stderr)
            return 2
        finally:
            backend.close()
    output = "json" if args.json else "csv" if args.csv else "table"
    sys.stdout.write(lesson_report.report(lesson, document, output))
    sys.stdout.flush()
    if plot_path is not None:
        draw_lesson_plot(plot_path, lesson.title, document)
    return 0


def draw_lesson_plot(path: Path, title: str, document: dict[str, Any]) -> None:
    """Draw the lesson's figure at ``path`` and say so on stderr.

    Raises:
        UsageError: If the lesson has nothing to draw or the file cannot be written.
    """
    from tui.lab.figures.lesson_figure import draw_lesson_figure

    try:
        draw_lesson_figure(path, document, title)
    except (OSError, ValueError) as error:
        raise UsageError("--plot", str(path), f"the figure could not be written: {error}") from None
    print(f"queens: figure written to {path}", file=sys.stderr)


def walk_landscape(n: int) -> dict[str, Any]:
    """The landscape's row for ``n`` queens, walked in this process with a progress line."""
    from tui.cli.progress_line import ProgressLine
    from tui.lab.lessons.landscape import measure_landscape

    line = ProgressLine(f"landscape N = {n}", "boards walked (three passes)")
    try:
        return measure_landscape(n, line.update)
    finally:
        line.close()
