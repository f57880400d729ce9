"""The ``queens`` console script: as small as possible, so that signals are handled from the start.

Importing the program (numpy, the engine) takes a noticeable fraction of a second, and Ctrl+C
in that time would otherwise print a traceback of whatever import it hit. This module imports
only :mod:`tui.cli.signals` (and its exit codes) before it guards the rest: Ctrl+C anywhere
exits 130 and SIGTERM exits 143, each with one line on stderr.

A signal that lands inside a C extension's import can come out as an ``ImportError`` (numpy's
does: "could not import module 'datetime'"), so the signals are recorded as they arrive, and
any error after one is reported as the interruption it is.
"""

from __future__ import annotations

import sys

from tui.cli.signals import (
    interruption_received,
    raise_interruption,
    received_signals,
    report_interruption,
)


def _single_threaded_blas() -> None:
    """Ask OpenBLAS for one thread, unless the user chose a number.

    numpy starts OpenBLAS's thread pool as it is imported (~9 ms of every start-up here), and
    nothing in ``queens`` uses BLAS: the engine's products are integer ``einsum`` and ``@`` on
    ``uint64``, which numpy computes itself. Sweep workers inherit the setting, so a pool of
    W workers does not also start W idle thread pools.
    """
    import os

    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")


QUICK_EXIT_COMMANDS = frozenset({"solve", "presets", "solutions"})
"""Commands that, once done, hold nothing for Python's shutdown to finish: their output is
printed, their run store (``solve --record``) closed, no thread or child process is left."""

DASHBOARD_COMMANDS = frozenset({None, "tui", "replay"})
"""Commands that run the dashboard (``queens`` alone among them): once it has returned, its
record is closed and its workers joined, but Textual's driver may have left a thread on a
terminal that has gone (:mod:`tui.cli.dashboard_session`), which must not hold the process."""


def _quick_exit(code: int, *, always: bool = False) -> None:
    """End the process now, skipping Python's shutdown, once stdout and stderr are flushed.

    Freeing numpy's and the engine's objects one by one at exit took 25-40 ms here, a fifth of
    a ``queens solve --n 8``; the kernel takes the whole process back at once instead. Only
    after a command of :data:`QUICK_EXIT_COMMANDS` returned normally; if a flush fails (the
    reader went away), the normal exit reports it, unless ``always`` (the dashboard: its
    terminal may be gone, and nothing is left to report).
    """
    import os

    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except (OSError, ValueError):
        if not always:
            return
    os._exit(code)


def main() -> int:
    """Run the ``queens`` command (the console script); returns its exit code.

    For some commands it does not return but ends the process (:func:`_quick_exit`): call
    :func:`tui.cli.command_line.main` to run a command inside a program of your own.
    """
    try:
        _single_threaded_blas()
        import signal

        signal.signal(signal.SIGINT, raise_interruption)
        signal.signal(signal.SIGTERM, raise_interruption)
        held = {signal.SIGINT, signal.SIGTERM}
        # The program's imports run with the two signals held by the kernel: raised inside
        # the import machinery, a KeyboardInterrupt can be swallowed (hashlib's
        # ``except ImportError``, an import lock's callback printing "Exception ignored").
        # Let go below, a signal that came meanwhile is raised there, at a clean point.
        signal.pthread_sigmask(signal.SIG_BLOCK, held)
        try:
            # numpy imports numpy.random on first use, inside the run: imported here, under
            # the hold, rather than in the middle of the run.
            import numpy.random  # noqa: F401

            from tui.cli.command_line import main as command_line
            from tui.cli.commands import chosen_command
        finally:
            signal.pthread_sigmask(signal.SIG_UNBLOCK, held)

        if received_signals:  # an import swallowed the interruption (``except ImportError``)
            raise interruption_received()
        code = command_line()
        command = chosen_command(sys.argv[1:])
        if command in QUICK_EXIT_COMMANDS:
            _quick_exit(code)
        elif command in DASHBOARD_COMMANDS:
            _quick_exit(code, always=True)
        return code
    except BaseException as error:
        if isinstance(error, KeyboardInterrupt):
            return report_interruption(error)
        if received_signals:  # an interruption that an import turned into another error
            return report_interruption(interruption_received())
        raise


if __name__ == "__main__":
    sys.exit(main())
