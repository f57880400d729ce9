"""Why a sweep could not go on: one family, so that every command that runs sweeps reports each
the same way (one line, exit 2) and what was kept stays kept.

Each carries only a message, so that it crosses from a worker process or a Dask worker as it
is (an exception whose ``__init__`` wants more arguments cannot be unpickled there, and the
pool would take it for a dead worker).
"""

from __future__ import annotations


class SweepError(RuntimeError):
    """A sweep stopped short of its runs for a reason a person must act on."""


class WorkersLost(SweepError):
    """Worker processes kept dying before any task came back (a task kills its worker), or
    could not be started at all."""


class ClusterError(SweepError):
    """The cluster cannot be used: Dask is not installed, the scheduler is unreachable, or
    workers keep dying on a task."""


class TaskFailed(SweepError):
    """A run raised an error in its worker (a config the engine refused, say)."""
