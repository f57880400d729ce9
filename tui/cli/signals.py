"""Ctrl+C and SIGTERM as the command line sees them: recorded as they arrive, raised as
``KeyboardInterrupt`` where the program is, reported as one line and an exit code.

SIGTERM is turned into :class:`Terminated`, a ``KeyboardInterrupt``, so every place that cleans
up after Ctrl+C (the live status line, the partial ``--json`` result) does the same for it.
This module imports only the exit codes (not even ``typing`` or ``types``): the console script
installs its handler first thing, and everything imported before that is a window in which
Ctrl+C would print a traceback.
"""

import sys

from tui.cli.exit_codes import EXIT_INTERRUPTED, EXIT_TERMINATED

_SIGTERM = 15
"""SIGTERM's number on every POSIX system (written here so nothing is imported for it)."""

received_signals: list[int] = []
"""The signals that have arrived, in order."""


class Terminated(KeyboardInterrupt):
    """SIGTERM arrived: unwind as for Ctrl+C, but exit 143."""


def raise_interruption(signum: int, frame: object) -> None:
    """The SIGINT and SIGTERM handler: record the signal, raise where the program is."""
    received_signals.append(signum)
    raise Terminated if signum == _SIGTERM else KeyboardInterrupt


def interrupted_exit_code(interruption: KeyboardInterrupt) -> int:
    """The exit code for a Ctrl+C (130) or a SIGTERM (143)."""
    return EXIT_TERMINATED if isinstance(interruption, Terminated) else EXIT_INTERRUPTED


def report_interruption(interruption: KeyboardInterrupt) -> int:
    """Say on stderr how the program was stopped; return its exit code."""
    from contextlib import suppress

    word = "terminated" if isinstance(interruption, Terminated) else "interrupted"
    # A second signal, or stderr gone: the exit code still says it.
    with suppress(KeyboardInterrupt, OSError):
        print(f"queens: {word}", file=sys.stderr, flush=True)
    return interrupted_exit_code(interruption)


def interruption_received() -> KeyboardInterrupt:
    """The interruption the first signal received stands for."""
    return Terminated() if received_signals[0] == _SIGTERM else KeyboardInterrupt()
