"""What the run-record commands share: the ``--store`` flag, the RUN argument, the errors.

RUN is an id from ``queens runs`` (in the store) or the path of a run file
(``queens export RUN --format run``). Every failure to open or read becomes one line on stderr
and exit code 2.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Final

from tui.cli.exit_codes import EXIT_USAGE

if TYPE_CHECKING:
    from tui.cli.usage_error import UsageError
    from tui.lab.store import RunStore

MAX_RUN_ID: Final = 2**63 - 1
"""The largest id SQLite can hold (a signed 64-bit integer); the store numbers runs from 1."""

SHOWN_CHARACTERS: Final = 80
"""A value longer than this is shortened in an error message (a pasted path can be huge)."""

STORE_HELP = "the run store (default: $QUEENS_STORE, else runs.sqlite3 in the user data directory)"


def add_store_flag(parser: argparse._ActionsContainer) -> None:
    """``--store PATH``, on a command or one of its groups: every command that reads or writes
    the run store declares it here."""
    parser.add_argument("--store", metavar="PATH", default=None, help=STORE_HELP)


def unusable_store(flag: str | None, error: Exception) -> UsageError:
    """The refusal of a store that cannot be used (``error``, a :class:`StoreError`, says why),
    naming ``--store`` and its value, or ``default`` when the flag was not given."""
    from tui.cli.usage_error import UsageError

    return UsageError("--store", flag or "default", str(error))


RECORD_BUDGET_HELP = (
    "the most a run's record may take, e.g. 64MB, 512KB, 1GB (default: 64MB); past it, older "
    "keyframes and lineage are thinned, every generation's statistics kept"
)


def add_record_budget_flag(parser: argparse.ArgumentParser) -> None:
    """``--record-budget SIZE``."""
    parser.add_argument("--record-budget", metavar="SIZE", default=None, help=RECORD_BUDGET_HELP)


def record_budget_of(args: argparse.Namespace) -> int:
    """The bytes ``--record-budget`` asks for (the default without it).

    Raises:
        UsageError: Not a size, or out of range (naming the flag, the value, what is allowed).
    """
    from tui.lab.record_budget import RECORD_BUDGET, parse_budget

    text = getattr(args, "record_budget", None)
    return RECORD_BUDGET if text is None else parse_budget(text)


def add_dashboard_record_flags(parser: argparse.ArgumentParser) -> None:
    """``--[no-]record`` (on by default), ``--label TEXT``, ``--record-budget SIZE`` and
    ``--store PATH``, for the dashboard."""
    parser.add_argument(
        "--record",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="record runs in the run store (default: on; the form's toggle changes it)",
    )
    add_label_flag(parser, "--record, the default")
    add_record_budget_flag(parser)
    add_store_flag(parser)


def label_text(text: str) -> str:
    """``--label``'s value, checked (see :func:`tui.lab.run_label.check_label`)."""
    from tui.lab.run_label import check_label

    try:
        return check_label(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def add_label_flag(parser: argparse.ArgumentParser, needs: str) -> None:
    """``--label TEXT``: what ``queens runs`` calls the runs recorded (``needs``: the flag
    that records them, named in the help and in the refusal when it is missing)."""
    parser.add_argument(
        "--label",
        metavar="TEXT",
        type=label_text,
        default=None,
        help=f"what queens runs calls the recorded run (kept in its record; needs {needs})",
    )


def refuse_label_unrecorded(label: str | None, recorded: bool, needs: str) -> None:
    """A label on runs that are not recorded names nothing: refuse it.

    Raises:
        UsageError: ``label`` given and ``recorded`` false.
    """
    if label is not None and not recorded:
        from tui.cli.usage_error import UsageError

        raise UsageError("--label", label, f"it names a recorded run: add {needs}")


def add_run_argument(parser: argparse.ArgumentParser) -> None:
    """The ``RUN`` positional argument."""
    parser.add_argument("run", metavar="RUN", help="a run id (queens runs) or a run file's path")


def open_store(flag: str | None, *, create: bool) -> RunStore:
    """The store the flag (or the environment) names."""
    from tui.lab.store import RunStore, StoreError, store_path

    path = store_path(flag)
    if not create and not path.exists():
        raise StoreError(f"no run store at {path} yet (queens solve --record makes one)")
    return RunStore.open(path, create=create)


def shown(value: str) -> str:
    """``value`` quoted for an error message, shortened when it is long."""
    if len(value) <= SHOWN_CHARACTERS:
        return repr(value)
    return f"{value[: SHOWN_CHARACTERS - 20]!r}... ({len(value):,} characters)"


def run_id_of(text: str, what: str = "RUN") -> int | None:
    """The run id ``text`` spells, or ``None`` when it is no number at all (a file, then).

    Only ASCII digits count: ``'²'.isdigit()`` is true, but ``int('²')`` fails.

    Raises:
        StoreError: A whole number outside 1 .. :data:`MAX_RUN_ID`.
    """
    from tui.lab.store import StoreError

    if not (text.isascii() and text.isdigit()):
        return None
    value = int(text)
    if not 1 <= value <= MAX_RUN_ID:
        raise StoreError(
            f"{what}: {shown(text)} is not allowed; a run id is a whole number from 1 to "
            f"{MAX_RUN_ID} (queens runs lists them)"
        )
    return value


def open_run(run: str, flag: str | None) -> tuple[RunStore, int]:
    """The store and run id a ``RUN`` argument names.

    Raises:
        StoreError: Not an id and not a run file; no such run; a run recorded by a newer
            engine version (:class:`~tui.lab.record_version.NewerRecordError`).
    """
    from pathlib import Path

    from tui.lab.record_version import refuse_newer
    from tui.lab.store import RunStore, StoreError

    run_id = run_id_of(run)
    if run_id is not None:
        store = open_store(flag, create=False)
        try:
            refuse_newer(store.run(run_id), f"{store.path}: run {run_id}")
        except StoreError:
            store.close()
            raise
        return store, run_id
    try:
        a_file = bool(run) and Path(run).is_file()
    except OSError:  # a name too long for the file system, say
        a_file = False
    if not a_file:
        raise StoreError(
            f"RUN: {shown(run)} is not allowed; a run id (queens runs lists them) or the "
            "path of a run file (queens export RUN --format run --output FILE makes one)"
        )
    store = RunStore.open(run, create=False, wal=False)
    try:
        run_id = store.single_run_id()
        refuse_newer(store.run(run_id), run)
    except StoreError:
        store.close()
        raise
    return store, run_id


def warn_of_damaged_keyframes(damaged: dict[int, str]) -> None:
    """One line on stderr per keyframe set aside (see :class:`tui.lab.timeline.Timeline`)."""
    for generation, why in sorted(damaged.items()):
        print(
            f"queens: warning: the keyframe of generation {generation} is set aside ({why}); "
            "re-stepped from an earlier one",
            file=sys.stderr,
        )


def reporting_store_errors(handler: Callable[[argparse.Namespace], int]) -> Callable[..., int]:
    """Wrap a handler: a :class:`~tui.lab.store.StoreError` prints one line and exits 2."""

    def run(args: argparse.Namespace) -> int:
        from tui.lab.store import StoreError

        try:
            return handler(args)
        except StoreError as error:
            print(f"queens: error: {error}", file=sys.stderr)
            return EXIT_USAGE

    run.__doc__ = handler.__doc__
    return run


def add_record_flags(parser: argparse.ArgumentParser) -> None:
    """``--record``, ``--label TEXT``, ``--record-budget SIZE`` and ``--store PATH``, for
    ``queens solve``."""
    parser.add_argument(
        "--record",
        action="store_true",
        help="record the run in the run store (the JSON gains run_id; see queens runs)",
    )
    add_label_flag(parser, "--record")
    add_record_budget_flag(parser)
    add_store_flag(parser)
