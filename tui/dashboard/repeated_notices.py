"""Notices said once while they are on show: a key pressed again where it is refused (``n``
after the run is over, say) does not stack the same notice over the screen again and again.

A notice is the same when its message, title and severity are. It is on show from when it is
said until its timeout has passed; only the notices on show are kept.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Hashable


class RepeatedNotices:
    """Which notices are on show, to tell a repeat from a new one (from any thread).

    Args:
        clock: Seconds, monotonic (tests pass their own).
    """

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._lock = threading.Lock()
        self._until: dict[Hashable, float] = {}

    def on_show(self, notice: Hashable, timeout: float) -> bool:
        """Whether ``notice`` is on show already; if it is not, it is from now on, for
        ``timeout`` seconds."""
        now = self._clock()
        with self._lock:
            self._until = {shown: until for shown, until in self._until.items() if until > now}
            if notice in self._until:
                return True
            self._until[notice] = now + timeout
            return False
