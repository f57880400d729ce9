"""A dashboard whose terminal goes away ends, at any moment around a quit, and keeps its record.

The dashboard runs on a pseudo-terminal of its own (it is the session leader, as under tmux or
sshd); the test presses ``q`` and closes the terminal a moment later, as a window closed or an
SSH connection dropped right after quitting. The kernel then hangs the terminal up: SIGHUP and
SIGCONT to the dashboard, reads that return nothing, writes that fail.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from tests.cli.test_signals import queens_script
from tests.process_tree import alive
from tests.pseudo_terminal import TerminalOutput
from tui.lab.store import RunStore

pytestmark = pytest.mark.skipif(
    not Path("/proc/self/status").exists(), reason="watches processes through /proc (Linux)"
)

ENDS_WITHIN = 5.0
"""Seconds a test waits for the process to end (it should take under one; the margin is for a
loaded machine). A process that spins never ends at all."""


def cpu_seconds(pid: int) -> float:
    """User and system time of ``pid`` so far, from ``/proc``."""
    fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def open_dashboard(store: Path, *arguments: str) -> tuple[int, int]:
    """The dashboard on a new pseudo-terminal, drawn; its pid and the terminal's master side."""
    import pty

    pid, terminal = pty.fork()
    if pid == 0:  # the child: the dashboard, its run store in the test's folder
        os.environ["TERM"] = "xterm-256color"
        os.environ["QUEENS_STORE"] = str(store)
        command = [*queens_script(), *arguments]
        os.execv(command[0], command)
    TerminalOutput(terminal).wait_for(b"Quit", 60.0, "the dashboard's footer")
    return pid, terminal


def ended_within(pid: int, seconds: float) -> float | None:
    """Seconds until ``pid`` ended (reaped), or ``None`` if it is still there after ``seconds``."""
    start = time.monotonic()
    while time.monotonic() - start < seconds:
        done, _ = os.waitpid(pid, os.WNOHANG)
        if done:
            return time.monotonic() - start
        time.sleep(0.02)
    return None


@pytest.mark.parametrize("delay", [0.0, 0.05, 0.1, 0.15, 0.2, 0.3, 0.5])
def test_closing_the_terminal_right_after_q_ends_the_dashboard(
    tmp_path: Path, delay: float
) -> None:
    """Close the terminal ``delay`` s after ``q``: the process ends, and the run it recorded
    is closed in the store (its end written), not left open by a process that spins."""
    store = tmp_path / "runs.sqlite3"
    pid, terminal = open_dashboard(store)
    os.write(terminal, b" ")  # the showcase opens paused: run it
    time.sleep(1.5)  # a few generations recorded
    os.write(terminal, b"q")
    time.sleep(delay)
    os.close(terminal)
    took = ended_within(pid, ENDS_WITHIN)
    if took is None:
        spent = cpu_seconds(pid) if alive(pid) else float("nan")
        os.kill(pid, 9)
        os.waitpid(pid, 0)
        pytest.fail(
            f"closed {delay} s after q, the dashboard had not ended {ENDS_WITHIN} s later "
            f"({spent:.1f} s of CPU so far)"
        )
    with RunStore.open(store, create=False) as runs:
        recorded = runs.runs()
    assert recorded, "the run was not recorded"
    assert all(run.ended is not None for run in recorded), "a record was left open"
    assert recorded[-1].generations > 0


@pytest.mark.parametrize("delay", [0.1, 0.5])
def test_closing_the_terminal_of_a_replay_right_after_q_ends_it(
    tmp_path: Path, delay: float
) -> None:
    """``queens replay`` is the same dashboard: it ends too."""
    store = tmp_path / "runs.sqlite3"
    import subprocess

    subprocess.run(
        [*queens_script(), "solve", "--n", "8", "--seed", "3", "--record", "--store", str(store)],
        check=True,
        capture_output=True,
    )
    pid, terminal = open_dashboard(store, "replay", "1")
    os.write(terminal, b"q")
    time.sleep(delay)
    os.close(terminal)
    took = ended_within(pid, ENDS_WITHIN)
    if took is None:
        os.kill(pid, 9)
        os.waitpid(pid, 0)
        pytest.fail(f"closed {delay} s after q, the replay had not ended {ENDS_WITHIN} s later")
