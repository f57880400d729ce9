"""A worker process that ends when the process that started its pool ends, even by SIGKILL.

Linux's parent-death signal (``prctl``) watches a process's parent, and a pool's worker is the
child of the fork server, not of the process that owns the pool. The fork server, for its part,
lives as long as any of its children holds its end of a pipe, which every worker does: killed
outright, the owner left its fork server and its workers behind, idle, for good (holding the
owner's stdout and stderr, so a shell pipeline never ended either). So each worker watches the
owner itself: through a pidfd, which becomes readable when the process ends (Linux 5.3), or
else by asking once a second whether it is still there.
"""

from __future__ import annotations

import os
import select
import signal
import threading
from typing import Final

POLL_SECONDS: Final = 1.0
"""How often a worker without pidfds asks whether its owner is still there."""


def end_with_owner(owner: int) -> None:
    """Start a daemon thread that ends this process (exit 143, as SIGTERM would) once the
    process ``owner`` has ended.

    Args:
        owner: The id of the process that started the pool.
    """
    try:
        handle = os.pidfd_open(owner)
    except (AttributeError, OSError):  # no pidfds here (or the owner is already gone)
        handle = None
    thread = threading.Thread(
        target=_wait_for_end, args=(owner, handle), name="owner-watch", daemon=True
    )
    thread.start()


def _wait_for_end(owner: int, handle: int | None) -> None:
    """Block until ``owner`` ends, then end this process at once."""
    if handle is not None:
        select.select([handle], [], [])
    else:
        while _alive(owner):
            threading.Event().wait(POLL_SECONDS)
    os._exit(128 + signal.SIGTERM)  # nothing to finish: the owner wanted no more results


def _alive(pid: int) -> bool:
    """Whether a process ``pid`` exists (and is not this one's to judge otherwise)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # there, though not ours to signal
        return True
    return True
