"""What a child process writes to a pseudo-terminal, read as it comes.

The tests that start the dashboard on a real terminal (``pty.fork``) read it the same way: wait
for a text (the footer's ``Quit``: the dashboard is drawn), let it draw for a while after a key,
read to the end once it quits. A wait for a text goes through :mod:`tests.waiting`, so a
dashboard never drawn fails naming what was awaited and showing the last of what it wrote.
"""

from __future__ import annotations

import os
import select
import time

from tests.waiting import wait_until

SHOWN_ON_FAILURE = 2000
"""Bytes of the terminal's last output a failed wait shows."""


class TerminalOutput:
    """Everything written to the master side ``terminal`` of a pseudo-terminal so far."""

    def __init__(self, terminal: int, *, look: float = 0.1) -> None:
        self.terminal = terminal
        self.look = look
        """Seconds one read waits for output."""
        self.written = b""
        self.closed = False
        """Whether the child has closed the terminal (it exited)."""

    def read(self) -> None:
        """Read what the child writes within one look; note when it closed the terminal."""
        if self.closed:
            return
        ready, _, _ = select.select([self.terminal], [], [], self.look)
        if ready:
            try:
                self.written += os.read(self.terminal, 1 << 16)
            except OSError:  # the child closed the terminal
                self.closed = True

    def wait_for(self, text: bytes, limit: float, what: str) -> float:
        """Read until ``text`` has been written; the seconds it took.

        Raises:
            AssertionError: If it is not written within ``limit`` seconds, or the child closes
                the terminal first.
        """

        def written() -> bool:
            self.read()
            if text in self.written:
                return True
            assert not self.closed, f"the terminal closed before {what}: {self.last()!r}"
            return False

        return wait_until(written, limit, what, interval=0, detail=lambda: repr(self.last()))

    def read_for(self, seconds: float) -> None:
        """Read what the child writes in the next ``seconds``, or until it closes the terminal
        (a time to draw, not a wait for something)."""
        end = time.monotonic() + seconds
        while not self.closed and time.monotonic() < end:
            self.read()

    def last(self) -> bytes:
        """The end of what was written, for a failure's message."""
        return self.written[-SHOWN_ON_FAILURE:]
