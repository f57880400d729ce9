"""``queens rm RUN... [--empty] [--yes]``: delete recorded runs from the store.

Deleting cannot be undone, so it is asked first (``y/N``) on a terminal; ``--yes`` answers for
a script. Without a terminal to ask on and without ``--yes``, nothing is deleted (exit 2): a
script that forgot the flag must not delete on a guess. ``--empty`` deletes the runs that have
no generation past the first population (a run opened and never stepped, as older dashboards
left them). The runs go in one transaction: all of them, or none. Their ids are never given to
another run.
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, TextIO

from tui.cli.exit_codes import EXIT_USAGE
from tui.cli.store_flags import add_store_flag, open_store, reporting_store_errors, run_id_of, shown

if TYPE_CHECKING:
    from tui.lab.store import RunInfo


def add_parser(commands: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Add ``rm`` to the ``queens`` subcommands."""
    parser = commands.add_parser(
        "rm",
        help="delete recorded runs",
        description="Delete runs and everything recorded with them from the store, all of "
        "them or none. Asks first (y/N) on a terminal; --yes answers for a script, and without "
        "a terminal --yes is required. A run being recorded right now is refused. A deleted "
        "run's id is never given to another run. Exit code 2 on an unknown id, or when "
        "deleting was not confirmed.",
    )
    parser.add_argument("runs", metavar="RUN", nargs="*", help="run ids (queens runs)")
    parser.add_argument(
        "--empty",
        action="store_true",
        help="also delete every run with no generation past the first population",
    )
    parser.add_argument(
        "--yes", "-y", action="store_true", help="do not ask: delete (needed without a terminal)"
    )
    add_store_flag(parser)
    parser.set_defaults(handler=run)


def _refuse(message: str) -> int:
    print(f"queens: error: {message}", file=sys.stderr)
    return EXIT_USAGE


def _asked_ids(words: list[str]) -> list[int] | str:
    """The ids the words give, in order without repeats; or why one is not allowed."""
    ids: list[int] = []
    for word in words:
        run_id = run_id_of(word)
        if run_id is None:
            return (
                f"RUN: {shown(word)} is not allowed; a run id (queens runs lists them; to "
                "delete a run file, delete the file)"
            )
        if run_id not in ids:
            ids.append(run_id)
    return ids


def is_empty(info: RunInfo) -> bool:
    """Whether a run has no generation past its first population (and nobody records it)."""
    return info.generations == 0 and not info.writer_alive


def confirmed(count: int, ids: list[int], answers: TextIO, prompt: TextIO) -> bool:
    """Ask ``Delete N runs (ids)? [y/N]`` and read the answer: only ``y`` or ``yes`` deletes."""
    listed = ", ".join(str(run_id) for run_id in ids[:12]) + (", ..." if len(ids) > 12 else "")
    noun = "run" if count == 1 else "runs"
    prompt.write(f"Delete {count} {noun} ({listed}) and everything recorded with them? [y/N] ")
    prompt.flush()
    answer = answers.readline()
    return answer.strip().lower() in ("y", "yes")


@reporting_store_errors
def run(args: argparse.Namespace) -> int:
    """Handle ``queens rm``."""
    asked = _asked_ids(list(args.runs))
    if isinstance(asked, str):
        return _refuse(asked)
    if not asked and not args.empty:
        return _refuse("RUN: none given; give run ids (queens runs lists them) or --empty")
    with open_store(args.store, create=False) as store:
        ids = list(asked)
        for run_id in ids:
            store.run(run_id)  # an unknown id: said before anything is asked
        if args.empty:
            ids += [info.id for info in store.runs() if is_empty(info) and info.id not in ids]
        if not ids:
            print(f"no empty runs in {store.path}")
            return 0
        if not args.yes:
            if not sys.stdin.isatty():
                return _refuse(
                    f"not deleting {len(ids)} run{'s' if len(ids) != 1 else ''} without "
                    "confirmation: no terminal to ask on; pass --yes to delete"
                )
            if not confirmed(len(ids), ids, sys.stdin, sys.stderr):
                print("nothing deleted", file=sys.stderr)
                return EXIT_USAGE
        store.delete_runs(ids)
    for run_id in ids:
        print(f"deleted run {run_id}")
    return 0
