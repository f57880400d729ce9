"""Signals on the command line, in real processes: Ctrl+C (SIGINT) and SIGTERM, at any moment.

A process is watched through ``/proc/<pid>/status`` (Linux): once its SIGTERM handler is in
place, the console script's guard is active, and every signal from then on must end in one
line on stderr and exit 130 (SIGINT) or 143 (SIGTERM), never a traceback.
"""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from engine import Config, GeneticAlgorithm
from tests.pseudo_terminal import TerminalOutput
from tests.waiting import wait_until

pytestmark = pytest.mark.skipif(
    not Path("/proc/self/status").exists(), reason="watches processes through /proc (Linux)"
)

ENDLESS_RUN = (
    "--time-limit",
    "3600",
    "--n",
    "8",
    "--encoding",
    "integer",
    "--mutation",
    "random-reset",
    "--mutation-rate",
    "0",
    "--no-stop-when-solved",
)
"""A run that does not stop on its own during a test, and is quick per generation. Its time
limit arms a SIGALRM handler once the first population exists, which shows when it steps."""

BIG_RUN = ("--n", "3000", "--population", "600")
"""A run whose first population takes a while: signals land in imports, then in it."""


def queens_script() -> list[str]:
    """The installed console script (``pyproject.toml``'s entry point), else ``python -m tui``."""
    script = Path(sys.executable).with_name("queens")
    return [str(script)] if script.exists() else [sys.executable, "-m", "tui"]


def start(*args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [*queens_script(), *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def catches(pid: int, signum: int) -> bool:
    """Whether process ``pid`` has installed a handler for ``signum``."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("SigCgt:"):
            return bool(int(line.split()[1], 16) >> (signum - 1) & 1)
    return False


def wait_until_guarded(process: subprocess.Popen[str], timeout: float = 30.0) -> None:
    """Wait until the console script has put its SIGTERM handler (and so its guard) in place."""

    def guarded() -> bool:
        assert process.poll() is None, "the process ended before handling signals"
        return catches(process.pid, signal.SIGTERM)

    wait_until(guarded, timeout, "the process's SIGTERM handler", interval=0.002)


def wait_until_stepping(process: subprocess.Popen[str], timeout: float = 60.0) -> None:
    """Wait until a run with a time limit has its first population (its timer is armed)."""

    def stepping() -> bool:
        assert process.poll() is None, "the process ended before stepping"
        return catches(process.pid, signal.SIGALRM)

    wait_until(stepping, timeout, "the run's first step (its timer armed)", interval=0.005)


@pytest.mark.parametrize("delay", [0.0, 0.03, 0.06, 0.1, 0.15, 0.2, 0.3])
def test_ctrl_c_while_starting_exits_130_without_a_traceback(delay: float) -> None:
    process = start("solve", *BIG_RUN)
    wait_until_guarded(process)
    time.sleep(delay)
    process.send_signal(signal.SIGINT)
    _, err = process.communicate(timeout=60)
    assert "Traceback" not in err
    assert process.returncode == 130
    assert err.endswith("queens: interrupted\n")


@pytest.mark.parametrize("delay", [0.0, 0.1, 0.3, 1.5])
def test_sigterm_exits_143_with_a_message(delay: float) -> None:
    process = start("solve", *ENDLESS_RUN)
    wait_until_guarded(process)
    time.sleep(delay)
    process.send_signal(signal.SIGTERM)
    _, err = process.communicate(timeout=60)
    assert "Traceback" not in err
    assert process.returncode == 143
    assert err.endswith("queens: terminated\n")


@pytest.mark.parametrize(("signum", "code"), [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_interrupted_json_run_prints_one_document_that_replays(signum: int, code: int) -> None:
    process = start("solve", "--json", *ENDLESS_RUN)
    wait_until_stepping(process)
    time.sleep(0.5)
    process.send_signal(signum)
    out, err = process.communicate(timeout=60)
    assert process.returncode == code
    assert "Traceback" not in err
    document = json.loads(out)
    assert document["stop_reason"] == "interrupted"
    assert document["solved"] is False
    assert isinstance(document["seed"], int)
    assert document["config"]["seed"] == document["seed"]
    assert len(document["genome"]) == 8
    generations = document["generations"]
    assert isinstance(generations, int) and generations >= 0

    # The config and the seed it drew replay the run: the same best after as many generations.
    replay = GeneticAlgorithm(Config.from_mapping(document["config"]))
    for _ in range(generations):
        replay.step()
    assert replay.snapshot.best.tolist() == document["genome"]
    assert replay.snapshot.evaluations == document["evaluations"]


@pytest.mark.parametrize(("signum", "code"), [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_interrupted_solutions_json_prints_what_was_found(signum: int, code: int) -> None:
    # N = 14 has 365,596 solutions: far more than a few seconds find.
    process = start(
        "solutions", "--by-ga", "--json", "--n", "14", "--population", "200", "--time-limit", "3600"
    )
    wait_until_stepping(process)
    time.sleep(1.0)
    process.send_signal(signum)
    out, err = process.communicate(timeout=60)
    assert process.returncode == code
    assert "Traceback" not in err
    document = json.loads(out)
    assert document["stop_reason"] == "interrupted"
    assert document["all_found"] is False
    assert isinstance(document["seed"], int)
    assert document["found"] == len(document["solutions"])
    for board in document["solutions"]:
        assert sorted(board) == list(range(14))


@pytest.mark.parametrize(
    ("signum", "code", "said"),
    [
        (signal.SIGTERM, 143, b"queens: terminated"),
        (signal.SIGINT, 130, b"queens: interrupted"),
        (signal.SIGHUP, 129, b"queens: terminated"),
        (signal.SIGINT, 130, b"queens: interrupted"),  # again: it must hold every time
    ],
    ids=["SIGTERM", "SIGINT", "SIGHUP", "SIGINT-again"],
)
def test_a_signal_closes_the_dashboard_and_restores_the_terminal(
    tmp_path: Path, signum: int, code: int, said: bytes
) -> None:
    """SIGTERM, a SIGINT sent by kill, and SIGHUP (an SSH connection dropping) close the
    dashboard as q does: the terminal given back, the run's record closed, one line."""
    import os
    import pty

    pid, terminal = pty.fork()
    if pid == 0:  # the child: the dashboard on a pseudo-terminal, its run store in tmp_path
        os.environ["TERM"] = "xterm-256color"
        os.environ["QUEENS_STORE"] = str(tmp_path / "runs.sqlite3")
        command = queens_script()
        os.execv(command[0], command)
    output = TerminalOutput(terminal)
    output.wait_for(b"Quit", 60.0, "the dashboard's footer")  # the dashboard is drawn
    drawn = len(output.written)
    os.kill(pid, signum)
    output.read_for(20.0)  # to the end: the child closes the terminal when it exits
    _, status = os.waitpid(pid, 0)
    after = output.written[drawn:]
    assert os.waitstatus_to_exitcode(status) == code
    assert b"Traceback" not in after
    assert b"\x1b[?1049l" in after  # left the alternate screen
    assert b"\x1b[?25h" in after  # cursor shown again
    assert after.endswith(said + b"\r\n")


def test_the_console_script_imports_almost_nothing_before_its_handlers() -> None:
    """Until ``main`` installs its handlers a Ctrl+C prints a traceback of whatever import it
    hits: what the console script imports before that is our four tiny modules, nothing more
    (``typing`` alone took 3 ms there)."""
    probe = (
        "import sys; before = set(sys.modules); import tui.cli.entry; "
        "print(' '.join(sorted(set(sys.modules) - before)))"
    )
    loaded = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True
    ).stdout.split()
    ours = {"tui", "tui.cli", "tui.cli.entry", "tui.cli.signals", "tui.cli.exit_codes"}
    assert set(loaded) <= ours | {"__future__"}, sorted(set(loaded) - ours)
    assert "tui.cli.entry" in loaded
