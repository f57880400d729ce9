"""One browser tab's dashboard process, which always ends when the tab's socket goes.

textual-serve's ``AppService`` stops a session by writing a ``quit`` packet and waiting for its
reader task, which ends when stdout closes or as soon as a write to the (already closed)
websocket fails. It never signals, waits for or kills the process; the shell it starts it
under shares the server's process group. So a dashboard that does not act on ``quit`` at once
(busy painting, or waiting on a thread at exit) is left running with nobody reading its output.

:class:`DashboardSession` starts the command without a shell, in a process group of its own, and
stops it in escalating steps: ``quit``, then SIGTERM to the group after
:data:`QUIT_GRACE`, then SIGKILL after :data:`TERM_GRACE`. Its output is drained until the end,
even after the browser has gone, so the process never blocks writing to a full pipe.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import signal
from asyncio.subprocess import Process
from typing import Any, Final

from textual_serve.app_service import AppService

from tui.serve.session_driver import DRIVER_PATH

QUIT_GRACE: Final = 2.0
"""Seconds a dashboard has to exit on its own after ``quit`` before SIGTERM."""

TERM_GRACE: Final = 3.0
"""Seconds after SIGTERM before SIGKILL."""

log = logging.getLogger("queens-serve")


class DashboardSession(AppService):
    """The process behind one websocket: started in its own process group, always ended."""

    def __init__(self, argv: list[str], **kwargs: Any) -> None:
        """Run ``argv`` (no shell) for one websocket; ``kwargs`` go to ``AppService``."""
        super().__init__(" ".join(argv), **kwargs)
        self.argv = argv
        """The dashboard command, as a list of arguments."""
        self._stopping: asyncio.Future[None] | None = None

    @property
    def process(self) -> Process | None:
        """The dashboard process, once started."""
        return self._process

    def _build_environment(self, width: int = 80, height: int = 24) -> dict[str, str]:
        environment = super()._build_environment(width=width, height=height)
        environment["TEXTUAL_DRIVER"] = DRIVER_PATH
        return environment

    async def _open_app_process(self, width: int = 80, height: int = 24) -> Process:
        environment = self._build_environment(width=width, height=height)
        self._process = process = await asyncio.create_subprocess_exec(
            *self.argv,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
            env=environment,
            start_new_session=True,  # its own process group: ended as one, never the server's
        )
        assert process.stdin is not None
        self._stdin = process.stdin
        return process

    async def on_data(self, payload: bytes) -> None:
        """Forward output to the browser; once the browser is gone, keep draining it."""
        with contextlib.suppress(ConnectionError, RuntimeError):
            await super().on_data(payload)

    async def on_meta(self, data: bytes) -> None:
        """Handle a meta packet; once the browser is gone, keep draining."""
        with contextlib.suppress(ConnectionError, RuntimeError):
            await super().on_meta(data)

    async def run(self) -> None:
        """Relay the dashboard's output until it ends, then close the browser's socket.

        textual-serve closes it only when the dashboard says goodbye; one that crashed or was
        killed would leave the tab connected to nothing.
        """
        await super().run()
        with contextlib.suppress(Exception):
            await self.remote_close()

    async def stop(self) -> None:
        """End the dashboard: ``quit``, then SIGTERM, then SIGKILL to its process group.

        Returns when the process has exited and its output is drained. Every caller waits for
        the same stop, and cancelling a caller does not cancel it.
        """
        if self._stopping is None:
            self._stopping = asyncio.ensure_future(self._stop())
        await asyncio.shield(self._stopping)

    async def _stop(self) -> None:
        task, process = self._task, self._process
        if task is None or process is None:
            return
        self._task = None
        await self._download_manager.cancel_app_downloads(app_service_id=self.app_service_id)
        await self.send_meta({"type": "quit"})
        with contextlib.suppress(Exception):
            self.stdin.close()  # stdin ends too: the driver's watchdog is armed either way
        if not await _exited_within(process, QUIT_GRACE):
            log.warning("dashboard %s ignored quit: SIGTERM", process.pid)
            _signal_group(process, signal.SIGTERM)
            if not await _exited_within(process, TERM_GRACE):
                log.warning("dashboard %s ignored SIGTERM: SIGKILL", process.pid)
        # Whatever it left behind in its group (workers of its own) goes with it. The group id
        # cannot have been reused yet: it stays taken while any member lives, and no process
        # becomes a group leader by chance.
        _signal_group(process, signal.SIGKILL)
        await process.wait()
        # A grandchild that left the group may still hold stdout: then stop reading.
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(task, TERM_GRACE)


async def _exited_within(process: Process, seconds: float) -> bool:
    """Whether ``process`` exits within ``seconds``."""
    try:
        await asyncio.wait_for(asyncio.shield(process.wait()), seconds)
    except TimeoutError:
        return False
    return True


def _signal_group(process: Process, signum: int) -> None:
    """Send ``signum`` to the process group ``process`` leads (gone already: nothing to do)."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(process.pid, signum)
