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

from tui.cli import main

pytestmark = pytest.mark.skipif(
    not Path("/proc/self/status").exists(), reason="watches processes through /proc (Linux)"
)

ENDLESS_RUN = (
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
"""A run that never stops on its own, and is quick per generation."""

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
    deadline = time.monotonic() + timeout
    while not catches(process.pid, signal.SIGTERM):
        assert process.poll() is None, "the process ended before handling signals"
        assert time.monotonic() < deadline, "the process never installed a SIGTERM handler"
        time.sleep(0.002)


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
def test_interrupted_json_run_prints_one_document_that_replays(
    signum: int, code: int, capsys: pytest.CaptureFixture[str]
) -> None:
    process = start("solve", "--json", *ENDLESS_RUN)
    wait_until_guarded(process)
    time.sleep(2.0)
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

    # The random seed it drew replays the run: the same best, generation for generation.
    flags = [*ENDLESS_RUN, "--seed", str(document["seed"])]
    if generations:
        flags += ["--generations", str(generations)]
    else:
        flags = [*ENDLESS_RUN[:-1], "--seed", str(document["seed"]), "--generations", "1"]
    assert main(["solve", "--json", *flags]) in (0, 1)
    replay = json.loads(capsys.readouterr().out)
    if generations:
        assert replay["generations"] == generations
        assert replay["genome"] == document["genome"]
        assert replay["evaluations"] == document["evaluations"]


@pytest.mark.parametrize(("signum", "code"), [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_interrupted_solutions_json_prints_what_was_found(signum: int, code: int) -> None:
    # N = 14 has 365,596 solutions: far more than a few seconds find.
    process = start("solutions", "--json", "--n", "14", "--population", "200")
    wait_until_guarded(process)
    time.sleep(2.5)
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
