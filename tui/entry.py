"""The ``queens`` console script: as small as possible, so that signals are handled from the start.

Importing the program (numpy, the engine) takes a noticeable fraction of a second, and Ctrl+C
in that time would otherwise print a traceback of whatever import it hit. This module imports
nothing before it guards the rest: Ctrl+C anywhere exits 130 and SIGTERM exits 143, each with
one line on stderr. SIGTERM is turned into :class:`Terminated`, a ``KeyboardInterrupt``, so
every place that cleans up after Ctrl+C (the live status line, the partial ``--json`` result)
does the same for it.

A signal that lands inside a C extension's import can come out as an ``ImportError`` (numpy's
does: "could not import module 'datetime'"), so the signals are recorded as they arrive, and
any error after one is reported as the interruption it is.
"""

from __future__ import annotations

import sys
from types import FrameType

EXIT_INTERRUPTED = 130
"""Exit code after Ctrl+C (SIGINT): 128 + 2, as a shell reports it."""

EXIT_TERMINATED = 143
"""Exit code after SIGTERM: 128 + 15."""

_SIGTERM = 15
"""SIGTERM's number on every POSIX system (written here so nothing is imported for it)."""

_received: list[int] = []
"""The signals that have arrived, in order."""


class Terminated(KeyboardInterrupt):
    """SIGTERM arrived: unwind as for Ctrl+C, but exit 143."""


def raise_interruption(signum: int, frame: FrameType | None) -> None:
    """The SIGINT and SIGTERM handler: record the signal, raise where the program is."""
    _received.append(signum)
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


def _interruption_received() -> KeyboardInterrupt:
    """The interruption the first signal received stands for."""
    return Terminated() if _received[0] == _SIGTERM else KeyboardInterrupt()


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


def _quick_exit(code: int) -> None:
    """End the process now, skipping Python's shutdown, once stdout and stderr are flushed.

    Freeing numpy's and the engine's objects one by one at exit took 25-40 ms here, a fifth of
    a ``queens solve --n 8``; the kernel takes the whole process back at once instead. Only
    after a command of :data:`QUICK_EXIT_COMMANDS` returned normally; if a flush fails (the
    reader went away), the normal exit reports it.
    """
    import os

    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except (OSError, ValueError):
        return
    os._exit(code)


def main() -> int:
    """Run the ``queens`` command (the console script); returns its exit code.

    For some commands it does not return but ends the process (:func:`_quick_exit`): call
    :func:`tui.cli.main` to run a command inside a program of your own.
    """
    try:
        _single_threaded_blas()
        import signal

        signal.signal(signal.SIGINT, raise_interruption)
        signal.signal(signal.SIGTERM, raise_interruption)
        # numpy imports numpy.random on first use, inside the run; and numpy.random imports
        # hashlib, which swallows an ImportError (what a signal inside a C extension's import
        # can become). Imported here, a Ctrl+C during it is caught by the check below instead
        # of vanishing (seen: 1 start in 30 ran on after Ctrl+C at 0.1 s).
        import numpy.random  # noqa: F401

        from tui.cli import main as command_line
        from tui.commands import chosen_command

        if _received:  # an import swallowed the interruption (``except ImportError``)
            raise _interruption_received()
        code = command_line()
        if chosen_command(sys.argv[1:]) in QUICK_EXIT_COMMANDS:
            _quick_exit(code)
        return code
    except BaseException as error:
        if isinstance(error, KeyboardInterrupt):
            return report_interruption(error)
        if _received:  # an interruption that an import turned into another error
            return report_interruption(_interruption_received())
        raise


if __name__ == "__main__":
    sys.exit(main())
