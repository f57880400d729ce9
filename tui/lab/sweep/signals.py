"""SIGTERM handled like Ctrl+C: an exception in the main thread, so workers are ended first.

Without it, ``kill PID`` ends the parent at once and its worker processes run on, holding its
stdout open. Inside :func:`terminate_raises`, SIGTERM raises :class:`Terminated`; the command
ends its workers as it would on Ctrl+C and exits with 143 (128 + 15), as shells expect.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType
from typing import Final

EXIT_TERMINATED: Final = 143
"""Exit code after SIGTERM (128 + 15)."""


class Terminated(BaseException):
    """SIGTERM arrived. A BaseException, so that ``except Exception`` does not swallow it."""


def _raise_terminated(signum: int, frame: FrameType | None) -> None:
    raise Terminated


@contextmanager
def terminate_raises() -> Iterator[None]:
    """While inside, SIGTERM raises :class:`Terminated` in the main thread."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGTERM, _raise_terminated)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)
