"""``queens solutions --count --workers W`` and ``--scheduler``: the count a count in this
process prints, on two local workers and on a real Dask ``LocalCluster``; stopped by Ctrl+C,
SIGTERM or a crash, the same command finishes it with no prefix counted twice; bad flags are
one line naming the flag, exit 2.

Real processes, and a real store file named by ``QUEENS_STORE``.
"""

from __future__ import annotations

import json
import os
import re
import signal
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Final

import pytest

from tests.process_tree import alive, descendants
from tests.waiting import wait_until
from tui.cli.command_line import main
from tui.lab.store import StoreError
from tui.lab.sweep.errors import ClusterError, SweepError, TaskFailed, WorkersLost

pytestmark = pytest.mark.skipif(
    not Path("/proc/self/status").exists(), reason="watches processes through /proc (Linux)"
)

ROOT: Final = Path(__file__).resolve().parents[2]
"""The repository, where ``python -m tui`` finds the package."""

WAIT_LIMIT: Final = 60.0
"""Seconds a process may take to reach a state or end (generous: the machine is shared)."""

N15: Final = (2_279_184, 285_053)
"""N = 15's solutions and fundamental ones (OEIS A000170, A002562)."""

SUMMARY: Final = re.compile(r"N = (\d+): ([\d,]+) solutions?, ([\d,]+) fundamental \([\d.]+ s\)\n")

NOWHERE: Final = "tcp://127.0.0.1:1"
"""A well-formed scheduler address where no scheduler listens."""


def queens_script() -> list[str]:
    """The installed console script, else ``python -m tui``."""
    script = Path(sys.executable).with_name("queens")
    return [str(script)] if script.exists() else [sys.executable, "-m", "tui"]


@pytest.fixture
def store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The store ``QUEENS_STORE`` names, for this test alone (in this process and its
    children)."""
    path = tmp_path / "runs.sqlite3"
    monkeypatch.setenv("QUEENS_STORE", str(path))
    return path


def kept_parts(path: Path) -> list[tuple[int, int, int]]:
    """(count, part, prefixes) of every part kept, once SQLite's integrity check passed."""
    if not path.exists():
        return []
    connection = sqlite3.connect(path)
    try:
        assert connection.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        tables = {row[0] for row in connection.execute("SELECT name FROM sqlite_master")}
        if "exact_count_parts" not in tables:
            return []
        rows = connection.execute("SELECT count_id, part, prefixes FROM exact_count_parts")
        return [(int(a), int(b), int(c)) for a, b, c in rows.fetchall()]
    finally:
        connection.close()


@pytest.mark.parametrize(
    ("words", "flag"),
    [
        (["--count", "--workers", "0"], "workers"),
        (["--count", "--workers", "two"], "workers"),
        (["--workers", "2"], "workers"),
        (["--by-ga", "--workers", "2"], "workers"),
        (["--scheduler", "tcp://127.0.0.1:8786"], "scheduler"),
        (["--count", "--scheduler", "garbage"], "scheduler"),
        (["--count", "--scheduler", "tcp://127.0.0.1"], "scheduler"),
        (["--count", "--workers", "2", "--scheduler", NOWHERE], "workers"),
        (["--count", "--store", "elsewhere.sqlite3"], "store"),
        (["--count", "--fresh"], "fresh"),
        (["--count", "--force-workers", "--scheduler", NOWHERE], "force-workers"),
        (["--count", "--workers", "2", "--connect-timeout", "3"], "connect-timeout"),
        (["--count", "--scheduler", NOWHERE, "--connect-timeout", "0"], "connect-timeout"),
        (["--count", "--workers", "2", "--n", "0"], "n"),
    ],
)  # fmt: skip
def test_bad_flags_are_one_line_naming_the_flag_exit_2(
    store: Path, capsys: pytest.CaptureFixture[str], words: list[str], flag: str
) -> None:
    assert main(["solutions", "--n", "10", *words]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.count("\n") == 1, captured.err
    assert captured.err.startswith(f"queens: error: --{flag}: "), captured.err
    assert not store.exists()  # refused before anything is kept


def test_a_bad_flag_in_a_real_process_is_one_line_too(store: Path) -> None:
    done = subprocess.run(
        [*queens_script(), "solutions", "--n", "18", "--count", "--workers", "0"],
        capture_output=True,
        text=True,
        timeout=WAIT_LIMIT,
        check=False,
    )
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr == (
        "queens: error: --workers: 0 is not allowed; a whole number between 1 and 256\n"
    )


def test_two_workers_print_what_one_process_prints(
    store: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for n in (1, 8, 11, 12):
        assert main(["solutions", "--n", str(n), "--count"]) == 0
        alone = capsys.readouterr()
        assert main(["solutions", "--n", str(n), "--count", "--workers", "2"]) == 0
        split = capsys.readouterr()
        found, expected = SUMMARY.fullmatch(split.out), SUMMARY.fullmatch(alone.out)
        assert found is not None and expected is not None, split.out
        assert found.groups() == expected.groups()
        assert re.fullmatch(
            rf"queens: count \d+: N = {n} in \d+ parts? \([\d,]+ prefix(es)?\) on "
            r"(1 local worker|2 local workers)\n",
            split.err,
        ), split.err
    assert main(["solutions", "--n", "12", "--count", "--workers", "2", "--json"]) == 0
    again = capsys.readouterr()
    document = json.loads(again.out)
    assert (document["total"], document["fundamental"], document["complete"]) == (14200, 1787, True)
    assert document["prefixes_searched"] == document["prefixes"] == 55
    assert document["prefixes_kept_before"] == 55  # the count above is kept: nothing to do
    assert again.err == f"queens: count {document['count_id']}: every part kept from before\n"


@pytest.fixture(scope="module")
def cluster() -> Iterator[Any]:
    """A real two-process Dask cluster on loopback."""
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(
        n_workers=2,
        threads_per_worker=1,
        processes=True,
        host="127.0.0.1",
        dashboard_address=":0",
    ) as local:
        yield local


def test_a_dask_cluster_counts_as_oeis_says(
    cluster: Any, store: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    expected = {10: (724, 92), 11: (2680, 341), 12: (14200, 1787)}
    for n, (total, fundamental) in expected.items():
        words = ["solutions", "--n", str(n), "--count", "--json"]
        assert main([*words, "--scheduler", cluster.scheduler_address]) == 0
        captured = capsys.readouterr()
        document = json.loads(captured.out)
        assert (document["total"], document["fundamental"]) == (total, fundamental)
        assert document["complete"] is True and document["prefixes_kept_before"] == 0
        assert f"on Dask cluster at {cluster.scheduler_address}: 2 workers" in captured.err


COUNT_15: Final = ("solutions", "--n", "15", "--count", "--workers", "2")
"""32 parts of about 30 to 100 ms each on two workers: still counting once two are kept."""


@pytest.mark.parametrize(
    ("signum", "group", "code"),
    [
        (signal.SIGINT, True, 130),  # a terminal's Ctrl+C reaches the whole group
        (signal.SIGTERM, False, 143),
        (signal.SIGKILL, False, -signal.SIGKILL),  # a crash: nothing said, nothing cleaned
    ],
    ids=["ctrl-c", "sigterm", "crash"],
)
def test_a_stopped_count_is_finished_by_the_same_command_counting_no_prefix_twice(
    store: Path, signum: int, group: bool, code: int
) -> None:
    process = subprocess.Popen(
        [*queens_script(), *COUNT_15],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
        cwd=ROOT,
    )

    def two_parts_kept() -> bool:
        assert process.poll() is None, process.communicate()
        return len(kept_parts(store)) >= 2

    wait_until(two_parts_kept, WAIT_LIMIT, "two of the count's parts kept", interval=0.02)
    workers = descendants(process.pid)
    assert workers
    if group:
        os.killpg(process.pid, signum)
    else:
        process.send_signal(signum)
    # communicate() returns once every holder of the pipes has gone: no orphan keeps them.
    out, err = process.communicate(timeout=WAIT_LIMIT)
    assert process.returncode == code, err
    assert "Traceback" not in err
    wait_until(lambda: not any(alive(pid) for pid in workers), 10, "the workers to end")
    kept = kept_parts(store)
    assert 2 <= len(kept) < 32
    if signum != signal.SIGKILL:
        word = "interrupted" if signum == signal.SIGINT else "terminated"
        partial = re.fullmatch(
            r"N = 15: PARTIAL count, interrupted after ([\d,]+) of 882 prefixes \(.*\): "
            r"([\d,]+) solutions so far \(fundamental: not counted\) \([\d.]+ s\)\n",
            out,
        )
        assert partial is not None, out
        assert int(partial.group(1).replace(",", "")) == sum(row[2] for row in kept)
        stops = [line for line in err.splitlines() if line.startswith(f"queens: {word}")]
        assert len(stops) == 1, err
        assert stops[0].endswith("run the same command again to continue")

    finished = subprocess.run(
        [*queens_script(), *COUNT_15, "--json"],
        capture_output=True,
        text=True,
        timeout=WAIT_LIMIT * 2,
        cwd=ROOT,
        check=False,
    )
    assert finished.returncode == 0, finished.stderr
    assert f"{len(kept)} of 32 parts (" in finished.stderr
    assert "kept from before; counting the other" in finished.stderr
    document = json.loads(finished.stdout)
    assert (document["total"], document["fundamental"]) == N15
    assert document["complete"] is True
    assert document["prefixes_kept_before"] == sum(row[2] for row in kept)
    parts = kept_parts(store)
    assert sorted(part for _, part, _ in parts) == list(range(32))  # each part once
    assert sum(prefixes for _, _, prefixes in parts) == document["prefixes"] == 882
    assert set(kept) <= set(parts)  # what was kept stayed as it was


def test_fresh_counts_every_part_again(store: Path, capsys: pytest.CaptureFixture[str]) -> None:
    words = ["solutions", "--n", "11", "--count", "--workers", "1", "--json"]
    assert main(words) == 0
    first = json.loads(capsys.readouterr().out)
    assert main([*words, "--fresh"]) == 0
    captured = capsys.readouterr()
    again = json.loads(captured.out)
    assert again["count_id"] == first["count_id"]
    assert again["prefixes_kept_before"] == 0
    assert (again["total"], again["fundamental"]) == (2680, 341)
    assert "kept from before" not in captured.err
    assert "on 1 local worker\n" in captured.err


RUNNER_ERRORS: Final = [
    WorkersLost("worker processes died 4 times in a row before any run ended"),
    ClusterError("Dask workers kept dying on a run"),
    TaskFailed("the count of part 3 of N = 12 failed: MemoryError: "),
    SweepError("the count of N = 12 ended with 40 of 55 prefixes counted"),
    StoreError("/somewhere/runs.sqlite3: database or disk is full"),
]


@pytest.mark.parametrize("error", RUNNER_ERRORS, ids=lambda error: type(error).__name__)
def test_every_runner_error_is_one_line_exit_2(
    store: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    error: Exception,
) -> None:
    import tui.lab.exact_count.runner

    def failing(*args: object, **kwargs: object) -> None:
        raise error

    monkeypatch.setattr(tui.lab.exact_count.runner, "run_count", failing)
    assert main(["solutions", "--n", "12", "--count", "--workers", "1", "--json"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.splitlines()[-1] == f"queens: error: {error}"
    assert "Traceback" not in captured.err
