"""Ctrl+C and SIGTERM held back while a sweep does what must not be cut in half.

Starting a worker process, ending the workers, importing a module: cut by a
``KeyboardInterrupt`` half-way, each leaves something behind. A worker the pool has not yet
written down outlives the sweep, then finds its start-up data deleted and prints a traceback;
an import's lock callback swallows the exception, and the signal is lost. Inside
:func:`signals_held` the two signals are written down instead of raised; once the block ends,
the first one acts as it would have (the handler that was in place is called).

The signals are also blocked in the kernel for the block's duration, so that a process started
inside it (the fork server, a worker, the resource tracker) starts with them blocked: a Ctrl+C
sent to the whole process group cannot kill it half-way through its own start-up. The standard
library's resource tracker is started the same way for the same reason. A worker unblocks them
first thing (:func:`release_held_signals`), once it has set up its own handling.
"""

from __future__ import annotations

import os
import signal
import threading
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from types import FrameType
from typing import Any, Final

HELD: Final = (signal.SIGINT, signal.SIGTERM)
"""The signals held back: Ctrl+C and SIGTERM."""


def release_held_signals() -> None:
    """Unblock :data:`HELD` in a process started inside :func:`signals_held`."""
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, HELD)


def _put_back(handlers: Mapping[int, Any]) -> KeyboardInterrupt | None:
    """Install ``handlers`` again, every one of them; the interruption raised meanwhile, if any.

    ``signal.signal`` first runs the handlers of signals that have arrived, and installs
    nothing if one raises: a signal arriving now must not leave a handler out.
    """
    raised: KeyboardInterrupt | None = None
    for signum, handler in handlers.items():
        while True:
            try:
                signal.signal(signum, handler)
                break
            except KeyboardInterrupt as interruption:
                raised = raised or interruption
    return raised


def _deliver(signum: int, handler: Any) -> None:
    """Do what ``handler`` (as ``signal.signal`` returned it) does with ``signum``."""
    if callable(handler):
        handler(signum, None)
    elif handler == signal.SIG_DFL:
        os.kill(os.getpid(), signum)
    # SIG_IGN, or a handler not installed from Python (None): nothing to do here.


@contextmanager
def signals_held() -> Iterator[None]:
    """Hold Ctrl+C and SIGTERM until the block ends, then let the first one act.

    In a thread other than the main one (where Python runs signal handlers) it does nothing.
    An exception from the block still propagates; an interruption that arrived meanwhile
    replaces it.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    arrived: list[int] = []

    def write_down(signum: int, frame: FrameType | None) -> None:
        arrived.append(signum)

    blocked = hasattr(signal, "pthread_sigmask")
    mask = signal.pthread_sigmask(signal.SIG_BLOCK, HELD) if blocked else set()
    previous: dict[int, Any] = {}
    try:
        for signum in HELD:
            previous[signum] = signal.getsignal(signum)
            signal.signal(signum, write_down)
    except BaseException:
        _put_back(previous)
        if blocked:
            signal.pthread_sigmask(signal.SIG_SETMASK, mask)
        raise
    try:
        yield
    finally:
        if blocked:  # a signal pending in the kernel now reaches write_down
            signal.pthread_sigmask(signal.SIG_SETMASK, mask)
        late = _put_back(previous)
        if arrived:
            _deliver(arrived[0], previous[arrived[0]])
        elif late is not None:
            raise late
