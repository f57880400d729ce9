"""``queens rm RUN``: delete a recorded run from the store."""

from __future__ import annotations

import argparse

from tui.cli.exit_codes import EXIT_USAGE
from tui.cli.store_flags import add_store_flag, open_store, reporting_store_errors, run_id_of, shown


def add_parser(commands: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Add ``rm`` to the ``queens`` subcommands."""
    parser = commands.add_parser(
        "rm",
        help="delete a recorded run",
        description="Delete a run and everything recorded with it from the store. A run "
        "being recorded right now is refused. Exit code 2 on an unknown id.",
    )
    parser.add_argument("run", metavar="RUN", help="a run id (queens runs)")
    add_store_flag(parser)
    parser.set_defaults(handler=run)


@reporting_store_errors
def run(args: argparse.Namespace) -> int:
    """Handle ``queens rm``."""
    import sys

    run_id = run_id_of(args.run)
    if run_id is None:
        print(
            f"queens: error: RUN: {shown(args.run)} is not allowed; a run id (to delete a run "
            "file, delete the file)",
            file=sys.stderr,
        )
        return EXIT_USAGE
    with open_store(args.store, create=False) as store:
        store.delete_run(run_id)
    print(f"deleted run {args.run}")
    return 0
