"""The driver of a served dashboard process: it ends when its server goes or asks it to end.

textual-serve runs each dashboard with Textual's ``WebDriver``, which

- turns SIGTERM and SIGINT into an ``ExitApp`` message, acted on only when the app's event loop
  is free: a dashboard busy painting a large board or table ignores SIGTERM for as long as it
  stays busy, and one whose shutdown waits on a thread never ends;
- ends its input thread quietly when stdin reaches its end (the server is gone), leaving the
  app running with no one to see it.

This driver keeps the protocol and adds a watchdog: when the server says quit, when SIGTERM
arrives, or when stdin ends, the app is asked to exit as before, and if it has not exited
after a short grace the process ends itself (``os._exit``). The server also ends the session's
process group (:mod:`tui.serve.session`); this side covers a server that was killed outright.

Selected with ``TEXTUAL_DRIVER=tui.serve.session_driver:SessionWebDriver``; the dashboard's
code does not change.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
from types import FrameType
from typing import Final

from textual import messages
from textual.drivers.web_driver import WebDriver

QUIT_GRACE: Final = 4.0
"""Seconds a dashboard has to exit after the server said quit or its input ended."""

TERM_GRACE: Final = 2.0
"""Seconds a dashboard has to exit after SIGTERM."""

EXIT_FORCED: Final = 128 + signal.SIGTERM
"""The exit status of a dashboard that had to be ended by its watchdog."""

DRIVER_PATH: Final = "tui.serve.session_driver:SessionWebDriver"
"""The value of ``TEXTUAL_DRIVER`` that selects this driver."""


class SessionWebDriver(WebDriver):
    """Textual's web driver, plus a watchdog that ends a process that will not exit."""

    _watchdog: threading.Timer | None = None

    def exit_within(self, seconds: float, *, ask_app: bool = True) -> None:
        """End the process if the app has not exited after ``seconds``; ask it to exit.

        Args:
            seconds: The grace; a shorter deadline replaces a longer one.
            ask_app: Post ``ExitApp`` to the app (not from a signal handler, which may have
                interrupted the event loop mid-operation: WebDriver's own handler posts it).
        """
        current = self._watchdog
        if current is not None and current.interval <= seconds:
            return
        watchdog = threading.Timer(seconds, os._exit, args=(EXIT_FORCED,))
        watchdog.daemon = True
        watchdog.name = "session-watchdog"
        self._watchdog = watchdog
        watchdog.start()
        if current is not None:
            current.cancel()
        if ask_app:
            self._app.post_message(messages.ExitApp())

    def start_application_mode(self) -> None:
        """Start as ``WebDriver`` does, then let SIGTERM arm the watchdog at once."""
        super().start_application_mode()
        if sys.platform != "win32":
            # WebDriver's handler (kept: asyncio still gets the signal through its wakeup fd)
            # runs only when the event loop is free; a Python-level handler runs in the main
            # thread between two bytecodes, however busy the loop is.
            signal.signal(signal.SIGTERM, self._on_sigterm)

    def _on_sigterm(self, signum: int, frame: FrameType | None) -> None:
        self.exit_within(TERM_GRACE, ask_app=False)

    def on_meta(self, packet_type: str, payload: dict[str, object]) -> None:
        """Handle a packet from the server; ``quit`` arms the watchdog."""
        if packet_type == "quit":
            self.exit_within(QUIT_GRACE)
            return
        super().on_meta(packet_type, payload)

    def run_input_thread(self) -> None:
        """Read input as ``WebDriver`` does; if stdin ends first, the server is gone: exit."""
        super().run_input_thread()
        if not self.exit_event.is_set():
            self.exit_within(QUIT_GRACE)
