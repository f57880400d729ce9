"""The dashboard in a terminal that may go away: closing signals, and a hang-up that always ends it.

SIGINT, SIGTERM and SIGHUP close the dashboard as ``q`` does (the terminal given back, the run's
record closed) and leave exit codes 130, 143 and 129. A terminal that goes away while the app
quits must not keep the process: when a terminal hangs up, the kernel sends its foreground
processes SIGHUP and then SIGCONT, and Textual's driver answers SIGCONT by starting application
mode again (it is how the app comes back after Ctrl+Z). Started on a terminal that is gone, its
input thread reads end-of-file forever, a whole core spinning in a process that never exits. So:

- once a closing signal arrives, SIGCONT no longer restarts anything (the default action);
- after a hang-up, the app has :data:`HANG_UP_GRACE` seconds to close by itself; then its
  record is ended and the process exits 129 whatever it was doing (a writer blocked on a
  terminal that fails every write, say);
- once the app has returned, the driver's SIGCONT and SIGTSTP handlers are taken back, and the
  command ends the process at once (:mod:`tui.cli.entry`), so a thread the driver left behind
  cannot hold it.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import sys
import threading
from types import FrameType
from typing import TYPE_CHECKING, Final

from tui.cli.exit_codes import EXIT_SOLVED

if TYPE_CHECKING:
    from tui.dashboard.app import QueensApp

CLOSING_SIGNALS: Final = {"SIGINT": 130, "SIGTERM": 143, "SIGHUP": 129}
"""Signals that close the dashboard as ``q`` does, and the exit code each leaves (128 + its
number): Ctrl+C sent by ``kill``, a termination, and an SSH connection that drops."""

HANG_UP_GRACE: Final = 0.8
"""Seconds the app has to close by itself after its terminal hung up."""

RESTARTING_SIGNALS: Final = ("SIGCONT", "SIGTSTP")
"""The signals Textual's driver handles to suspend and restart the terminal's application mode."""


def run_dashboard(app: QueensApp) -> int:
    """Run ``app`` in this terminal; the exit code (0, or that of the signal that closed it).

    A second SIGINT or SIGTERM while it closes raises at once (``KeyboardInterrupt``); a
    second hang-up is left to the deadline the first one set.
    """
    from tui.cli.signals import Terminated, report_interruption

    received: list[int] = []
    hang_up = getattr(signal, "SIGHUP", None)

    def close(signum: int, frame: FrameType | None) -> None:
        stop_restarts()
        if signum == hang_up and not any(number == hang_up for number in received):
            end_after_grace(app, CLOSING_SIGNALS["SIGHUP"])
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # the app's loop is not running (yet, or any more)
            loop = None
        if signum == hang_up and (loop is None or received):
            received.append(signum)
            return  # nothing is shown any more: the app closes, or the deadline ends it
        if loop is None or received:
            raise KeyboardInterrupt if signum == signal.SIGINT else Terminated
        received.append(signum)
        # Not app.exit() here: a signal handler may run in the middle of the app's own code.
        loop.call_soon_threadsafe(app.exit)

    handled = [getattr(signal, name) for name in CLOSING_SIGNALS if hasattr(signal, name)]
    previous = {signum: signal.signal(signum, close) for signum in handled}
    try:
        app.run()
    finally:
        stop_restarts()
        for signum, handler in previous.items():
            signal.signal(signum, handler)
    if not received:
        return EXIT_SOLVED
    if received[0] == signal.SIGINT:
        return report_interruption(KeyboardInterrupt())
    code = report_interruption(Terminated())
    return CLOSING_SIGNALS["SIGHUP"] if received[0] == hang_up else code


def stop_restarts() -> None:
    """SIGCONT and SIGTSTP back to their default actions: the app no longer restarts."""
    for name in RESTARTING_SIGNALS:
        number = getattr(signal, name, None)
        if number is not None:
            signal.signal(number, signal.SIG_DFL)


def end_after_grace(app: QueensApp, code: int) -> None:
    """End the process :data:`HANG_UP_GRACE` seconds from now unless it has ended by then.

    The run's record is ended first (what it buffered is committed): what a hang-up cuts
    short is the screen, never the record.
    """

    def deadline() -> None:
        threading.Event().wait(HANG_UP_GRACE)
        with contextlib.suppress(Exception):
            app.end_record()
        with contextlib.suppress(Exception):
            sys.stderr.flush()
        os._exit(code)

    threading.Thread(target=deadline, name="hang-up deadline", daemon=True).start()
