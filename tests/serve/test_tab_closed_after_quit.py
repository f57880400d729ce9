"""A browser tab closed right after ``q``: its dashboard process ends, without spinning.

A real ``queens serve`` on 127.0.0.1, a real websocket client: the dashboard draws, ``q`` is
sent, and the socket is closed 0 to 0.5 s later, across the moments the dashboard is quitting
(its driver saying goodbye, its record closing, Textual's threads stopping). Every process the
session started must be gone within :data:`GONE_WITHIN` seconds, and the CPU time they and the
server used from ``q`` on must stay that of a dashboard quitting, not of a process spinning
until it is killed. Two dashboards: one waiting, one running generation after generation.
"""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Final

import aiohttp
import pytest

from tests.process_tree import alive, descendants

GONE_WITHIN = 4.0
"""Seconds the session's processes may take to end once the tab closed: quitting takes well
under one; the server's own escalation (quit, SIGTERM, SIGKILL) would take five."""

CPU_LIMIT = 1.5
"""CPU seconds the session's processes may use from ``q`` on (a Textual app closing uses a
few tenths; one spinning until the server kills it, a core for every second)."""

START_LIMIT = 60.0

CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


RUNS: Final = {
    "idle": ["--n", "8", "--seed", "1"],
    "running": ["--n", "300", "--population", "300", "--no-stop-when-solved", "--seed", "1"],
}
"""Dashboards quit: one that waits, and one running a generation after another (space)."""


@pytest.fixture(params=sorted(RUNS))
def server(
    tmp_path: Path, request: pytest.FixtureRequest
) -> Iterator[tuple[subprocess.Popen[str], int, bool]]:
    """``queens serve`` on a free port of 127.0.0.1, recording into a store of its own."""
    process = subprocess.Popen(
        [sys.executable, "-m", "tui", "serve", "--port", "0", *RUNS[request.param]],
        stderr=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        text=True,
        env={**os.environ, "QUEENS_STORE": str(tmp_path / "runs.sqlite3")},
    )
    try:
        assert process.stderr is not None
        first = process.stderr.readline()
        assert first.startswith("Serving the dashboard on http://127.0.0.1:"), first
        yield process, int(first.split(":")[2].split("/")[0]), request.param == "running"
    finally:
        for pid in descendants(process.pid):
            if alive(pid):
                os.kill(pid, signal.SIGKILL)
        process.send_signal(signal.SIGTERM)
        try:
            process.communicate(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def cpu_seconds(pid: int) -> float | None:
    """User and system CPU seconds ``pid`` has used (``None``: it is gone)."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = text[text.rfind(")") + 2 :].split()
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS


async def quit_then_close(
    port: int, delay: float, running: bool, before_quit: Callable[[], None]
) -> None:
    """Open a tab, wait for the dashboard to draw, press ``q``, close the tab ``delay`` s later."""
    origin = f"http://127.0.0.1:{port}"
    async with (
        aiohttp.ClientSession() as client,
        client.ws_connect(f"{origin}/ws", origin=origin) as websocket,
    ):
        await websocket.send_json(["resize", {"width": 100, "height": 30}])
        async with asyncio.timeout(START_LIMIT):
            async for message in websocket:
                if message.type == aiohttp.WSMsgType.BINARY and len(message.data) > 1000:
                    break
        await asyncio.sleep(0.5)  # drawn and idle
        if running:
            await websocket.send_json(["stdin", " "])
            await asyncio.sleep(1.0)
        before_quit()
        await websocket.send_json(["stdin", "q"])
        if delay:
            await asyncio.sleep(delay)
        await websocket.close()


@pytest.mark.parametrize("delay", [0.0, 0.05, 0.1, 0.2, 0.5])
def test_the_dashboard_ends_when_its_tab_closes_right_after_q(
    server: tuple[subprocess.Popen[str], int, bool], delay: float
) -> None:
    process, port, running = server
    sessions: set[int] = set()
    used: dict[int, float] = {}

    def sample() -> None:
        for pid in descendants(process.pid):
            sessions.add(pid)
        for pid in {process.pid} | sessions:  # the server's own CPU counts too
            seconds = cpu_seconds(pid)
            if seconds is not None:
                used.setdefault(pid, seconds)
                used[pid] = max(used[pid], seconds)

    at_quit: dict[int, float] = {}

    def before_quit() -> None:
        sample()
        at_quit.update(used)

    asyncio.run(quit_then_close(port, delay, running, before_quit))
    started = time.monotonic()
    while any(alive(pid) for pid in descendants(process.pid) | sessions):
        assert time.monotonic() - started < GONE_WITHIN, (
            f"the session's processes {sorted(p for p in sessions if alive(p))} still run "
            f"{GONE_WITHIN} s after its tab closed"
        )
        sample()
        time.sleep(0.02)
    assert sessions, "the session started no process"
    spent = sum(used[pid] - at_quit.get(pid, 0.0) for pid in used)
    assert spent < CPU_LIMIT, f"the session and server used {spent:.2f} CPU s while it ended"
    assert process.poll() is None  # the server serves on
