"""Who is writing a run: enough to tell, later, whether that writer is still alive.

A run whose status says ``running`` but whose writer is gone (killed, crashed, machine
rebooted) was interrupted. On the same host the process id, with its start time (so a reused
pid is not mistaken for the writer), settles it; from another host only the heartbeat can.
"""

from __future__ import annotations

import os
import socket
import time
from dataclasses import dataclass
from typing import Final

STALE_AFTER: Final = 30.0
"""A writer on another host whose heartbeat is older than this many seconds is gone."""


def _stat_fields(pid: int) -> list[str] | None:
    """``/proc/PID/stat`` from field 3 (the state) on (Linux), else ``None``."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as stat:
            text = stat.read()
    except OSError:
        return None
    # The command name (field 2) may hold spaces and parentheses: split after its last ')'.
    return text[text.rfind(")") + 2 :].split()


def process_start(pid: int) -> str | None:
    """The start time of a process as the kernel counts it (Linux), else ``None``."""
    fields = _stat_fields(pid)
    return fields[19] if fields is not None and len(fields) > 19 else None


@dataclass(frozen=True)
class Writer:
    """A process writing a run: host, pid, and the pid's start time when known."""

    host: str
    pid: int
    start: str | None

    @classmethod
    def this_process(cls) -> Writer:
        """The current process."""
        pid = os.getpid()
        return cls(socket.gethostname(), pid, process_start(pid))

    def alive(self, heartbeat: float | None, now: float | None = None) -> bool:
        """Whether this writer may still be running.

        Args:
            heartbeat: When the writer last committed (epoch seconds).
            now: The current time (epoch seconds), for tests.
        """
        if self.host != socket.gethostname():
            now = time.time() if now is None else now
            return heartbeat is not None and now - heartbeat < STALE_AFTER
        try:
            os.kill(self.pid, 0)
        except ProcessLookupError:
            return False
        except PermissionError:
            pass  # a process of another user holds the pid: compare start times below
        fields = _stat_fields(self.pid)
        if fields is None or len(fields) <= 19:
            return self.start is None  # no /proc: the pid exists, trust it
        return fields[0] != "Z" and fields[19] == self.start
