"""Ctrl+C and SIGTERM to ``queens sweep`` and ``queens compare``, in real processes, at several
moments: while the command imports, builds its plan, opens the store, starts its workers.

Each moment is counted from when the console script has put its handlers in place (before that
the interpreter itself is starting, as in ``test_signals``). The signal goes to the process
alone (``kill``) or to its whole group, workers and fork server included (a terminal's Ctrl+C).
Every time: exit 130 or 143, exactly one ``queens: interrupted``/``terminated`` line, no
traceback from the command or any of its processes, a store that passes SQLite's integrity
check, and the same command, run again, finishes the sweep with every run counted once.
"""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import time
from pathlib import Path

import pytest
from test_signals import queens_script, wait_until_guarded

pytestmark = pytest.mark.skipif(
    not Path("/proc/self/status").exists(), reason="watches processes through /proc (Linux)"
)

ROOT = Path(__file__).resolve().parents[2]
"""The repository, where ``python -m tui`` finds the package."""

WAIT_LIMIT = 60.0
"""Seconds a process may take to end or finish (generous: the machine is shared)."""

SWEEP = (
    "sweep", "--n", "20", "--seeds", "6", "--generations", "600", "--stop-when-solved=false",
    "--population", "100", "--workers", "2", "--json",
)  # fmt: skip
"""Six runs of a fixed length, about two seconds on two workers: still running at 0.5 s."""

COMPARE = (
    "compare", "--preset", "deap-nqueens", "--preset", "default", "--n", "20", "--seeds", "4",
    "--max-evals", "20000", "--jobs", "2", "--json",
)  # fmt: skip
"""Eight runs of two presets, about a second and a half on two workers."""

WORDS: dict[int, str] = {signal.SIGINT: "interrupted", signal.SIGTERM: "terminated"}
CODES: dict[int, int] = {signal.SIGINT: 130, signal.SIGTERM: 143}


def start(command: tuple[str, ...], store: Path) -> subprocess.Popen[str]:
    """The command in a session (and so a process group) of its own."""
    return subprocess.Popen(
        [*queens_script(), *command, "--store", str(store)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
        cwd=ROOT,
    )


def store_state(store: Path) -> tuple[int, int]:
    """Sweeps and results kept, once SQLite's integrity check has passed."""
    if not store.exists():
        return 0, 0
    connection = sqlite3.connect(store)
    try:
        assert connection.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        tables = {row[0] for row in connection.execute("SELECT name FROM sqlite_master")}
        if "sweep_results" not in tables:
            return 0, 0
        sweeps = connection.execute("SELECT COUNT(*) FROM sweeps").fetchone()[0]
        results = connection.execute("SELECT COUNT(*) FROM sweep_results").fetchone()[0]
    finally:
        connection.close()
    return int(sweeps), int(results)


def stop_and_finish(
    command: tuple[str, ...], tasks: int, store: Path, delay: float, signum: int, group: bool
) -> None:
    """Stop the command ``delay`` s after its handlers are in place; check; run it again."""
    process = start(command, store)
    wait_until_guarded(process)
    time.sleep(delay)
    if group:
        os.killpg(process.pid, signum)
    else:
        process.send_signal(signum)
    # communicate() returns only once every holder of the pipes is gone: workers included.
    out, err = process.communicate(timeout=WAIT_LIMIT)
    assert process.returncode == CODES[signum], err
    assert "Traceback" not in err, err
    stops = [
        line
        for line in err.splitlines()
        if line.startswith(("queens: interrupted", "queens: terminated"))
    ]
    assert len(stops) == 1, err
    assert stops[0].startswith(f"queens: {WORDS[signum]}"), err
    assert out == ""
    sweeps, kept = store_state(store)
    assert sweeps <= 1
    assert kept < tasks

    again = subprocess.run(
        [*queens_script(), *command, "--store", str(store)],
        capture_output=True,
        text=True,
        timeout=WAIT_LIMIT * 2,
        cwd=ROOT,
        check=False,
    )
    assert again.returncode == 0, again.stderr
    assert "Traceback" not in again.stderr
    if kept:
        assert f"{kept} of {tasks} runs kept from before" in again.stderr
    document = json.loads(again.stdout)
    assert document["complete"] is True
    runs = document["runs"]
    assert len({(json.dumps(run["values"], sort_keys=True), run["seed"]) for run in runs}) == tasks
    assert len(runs) == tasks
    assert store_state(store) == (1, tasks)


@pytest.mark.parametrize("group", [False, True], ids=["process", "group"])
@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
@pytest.mark.parametrize("delay", [0.05, 0.2, 0.5])
def test_a_stopped_sweep_says_so_once_and_the_same_command_finishes_it(
    tmp_path: Path, delay: float, signum: int, group: bool
) -> None:
    stop_and_finish(SWEEP, 6, tmp_path / "runs.sqlite3", delay, signum, group)


@pytest.mark.parametrize("group", [False, True], ids=["process", "group"])
@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_a_stopped_compare_says_so_once_and_the_same_command_finishes_it(
    tmp_path: Path, signum: int, group: bool
) -> None:
    stop_and_finish(COMPARE, 8, tmp_path / "runs.sqlite3", 0.3, signum, group)
