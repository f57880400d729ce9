"""When an engine worker may take its next turn: run, pause, single steps, cancel.

Shared by the dashboard's runner and the race's runner. Plain ``threading``: the UI calls the
control methods from the event loop, the worker thread waits on :attr:`condition`.
"""

from __future__ import annotations

import threading


class RunGate:
    """Run/pause/step/cancel state, guarded by one condition the worker waits on."""

    def __init__(self) -> None:
        self.condition = threading.Condition()
        """Held while reading or changing the state; notified on every change."""
        self._running = False
        self._pending_steps = 0
        self._cancelled = False

    @property
    def running(self) -> bool:
        """Whether the worker steps on its own."""
        return self._running

    @property
    def cancelled(self) -> bool:
        """Whether the worker must end (read with :attr:`condition` held)."""
        return self._cancelled

    def reset(self, *, run: bool) -> None:
        """A new run: running or waiting, nothing pending, not cancelled."""
        with self.condition:
            self._cancelled = False
            self._running = run
            self._pending_steps = 0

    def cancel(self) -> None:
        """Tell the worker to end after its current turn."""
        with self.condition:
            self._cancelled = True
            self._running = False
            self.condition.notify_all()

    def set_running(self, running: bool) -> None:
        """Run on, or pause after the current turn."""
        with self.condition:
            self._running = running
            self.condition.notify_all()

    def request_step(self) -> None:
        """Pause, then allow exactly one more turn."""
        with self.condition:
            self._running = False
            self._pending_steps += 1
            self.condition.notify_all()

    def halt(self) -> None:
        """The worker's run is over (finished or failed): no longer running."""
        with self.condition:
            self._running = False

    def idle(self) -> bool:
        """Nothing to do: not running, no step asked for, not cancelled (hold the condition)."""
        return not (self._cancelled or self._running or self._pending_steps)

    def take_turn(self) -> bool:
        """Claim the next turn (hold the condition); ``True`` when it is a single step."""
        single = not self._running
        if single:
            self._pending_steps -= 1
        return single
