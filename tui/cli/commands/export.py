"""``queens export RUN --format csv|jsonl|json|run [--output FILE]``."""

from __future__ import annotations

import argparse
import sys

from tui.cli.exit_codes import EXIT_USAGE
from tui.cli.store_flags import (
    add_run_argument,
    add_store_flag,
    open_run,
    reporting_store_errors,
    shown,
)

FORMATS = ("csv", "jsonl", "json", "run")


def add_parser(commands: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Add ``export`` to the ``queens`` subcommands."""
    parser = commands.add_parser(
        "export",
        help="a recorded run as CSV, JSON lines, JSON or a portable run file",
        description="Export a run: its history as CSV or JSON lines (one line per "
        "generation), everything as one JSON document, or a portable run file (a single-run "
        "SQLite file that every RUN argument accepts). Without --output, text formats go to "
        "stdout. Files are written whole or not at all.",
    )
    add_run_argument(parser)
    parser.add_argument("--format", choices=FORMATS, required=True, help="what to write")
    parser.add_argument("--output", metavar="FILE", default=None, help="the file to write")
    add_store_flag(parser)
    parser.set_defaults(handler=run)


@reporting_store_errors
def run(args: argparse.Namespace) -> int:
    """Handle ``queens export``."""
    from tui.lab.export import WRITERS, export_to_file

    if args.format == "run" and args.output is None:
        print("queens: error: --format run needs --output FILE", file=sys.stderr)
        return EXIT_USAGE
    store, run_id = open_run(args.run, args.store)
    with store:
        if args.output is None:
            WRITERS[args.format](store, run_id, sys.stdout)
            return 0
        try:
            path = export_to_file(store, run_id, args.format, args.output)
        except OSError as error:
            reason = error.strerror or str(error)
            print(
                f"queens: error: --output: {shown(args.output)} is not allowed; cannot write "
                f"a file there ({reason})",
                file=sys.stderr,
            )
            return EXIT_USAGE
    print(f"run {run_id} exported to {path}", file=sys.stderr)
    return 0
