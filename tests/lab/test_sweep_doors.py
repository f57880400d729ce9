"""What comes into a sweep from outside: plan files that are not plans, seeds past the engine's
limit, runs that fail in their worker, runner errors, and other processes on the same store.

Each refusal is one line naming the field, the value and what is allowed, exit 2, before any
worker starts; two sweeps of one plan at once, or a sweep under many readers, each print the
whole report and count every run once.
"""

from __future__ import annotations

import json
import os
import resource
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from engine.config.config import LARGEST_WHOLE_NUMBER
from tui.cli.command_line import main
from tui.lab.store import RunStore, StoreError
from tui.lab.sweep.errors import ClusterError, TaskFailed, WorkersLost
from tui.lab.sweep.held_signals import signals_held
from tui.lab.sweep.local_pool import LocalPool
from tui.lab.sweep.plan import build_plan, spec_from_flags
from tui.lab.sweep.plan_document import spec_from_file
from tui.lab.sweep.plan_error import PlanError
from tui.lab.sweep.plan_file import MAX_PLAN_BYTES, deepest_nesting, read_plan_text
from tui.lab.sweep.task import Task, run_task, task_config

ROOT = Path(__file__).resolve().parents[2]
"""The repository, where ``python -m tui`` finds the package."""

WAIT_LIMIT = 60.0
"""Seconds a subprocess may take (generous: the machine is shared)."""


def queens(*args: str, timeout: float = WAIT_LIMIT) -> subprocess.CompletedProcess[str]:
    """``queens ARGS`` in a process of its own, with 1 GB of memory at most (a plan read
    without a limit would otherwise take the machine's)."""

    def limit_memory() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))

    return subprocess.run(
        [sys.executable, "-m", "tui", *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        cwd=ROOT,
        preexec_fn=limit_memory,
        check=False,
    )


def assert_refused(done: subprocess.CompletedProcess[str], start: str) -> None:
    """Exit 2 with one line on stderr that starts with ``start``, nothing on stdout."""
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr
    assert done.stdout == ""
    lines = done.stderr.splitlines()
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith(start), lines[0]


# Plan files -----------------------------------------------------------------------------------


def deep_plan(tmp_path: Path) -> Path:
    path = tmp_path / "deep.toml"
    path.write_text("seeds = 2\n\nmax_evals = " + "[" * 5000 + "]" * 5000 + "\n")
    return path


def pipe(tmp_path: Path) -> Path:
    path = tmp_path / "plan.fifo"
    os.mkfifo(path)
    return path


def oversized(tmp_path: Path) -> Path:
    path = tmp_path / "large.toml"
    path.write_text("seeds = 2\n" + "# padding\n" * (MAX_PLAN_BYTES // 10 + 1))
    return path


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="needs /dev/zero and named pipes")
@pytest.mark.parametrize(
    ("make", "allowed"),
    [
        (lambda tmp: Path("/dev/zero"), "a regular file (a character device is not one)"),
        (pipe, "a regular file (a named pipe is not one)"),
        (lambda tmp: tmp, "a regular file (a directory is not one)"),
        (oversized, f"a readable UTF-8 TOML file of at most {MAX_PLAN_BYTES:,} bytes (it has"),
        (deep_plan, "valid TOML (lists or tables nested 5,000 deep, at line 3;"),
    ],
    ids=["device", "named-pipe", "directory", "oversized", "nested"],
)
def test_a_plan_that_is_no_small_toml_file_is_refused_before_it_is_read(
    tmp_path: Path, make: Callable[[Path], Path], allowed: str
) -> None:
    path = make(tmp_path)
    done = queens("sweep", str(path), "--store", str(tmp_path / "runs.sqlite3"))
    assert_refused(done, f"queens: error: plan: '{path}' is not allowed; {allowed}")
    assert not (tmp_path / "runs.sqlite3").exists()


@pytest.mark.parametrize(
    ("text", "where"),
    [
        ("seeds = 3\nmax_evals = = 10\n", "(at line 2, column 13)"),
        ("seeds = 3\n\nmax_evals = [[1], [2]\n", "(at end of document, line 3)"),
    ],
)
def test_a_parser_error_names_the_file_and_line(tmp_path: Path, text: str, where: str) -> None:
    path = tmp_path / "plan.toml"
    path.write_text(text)
    with pytest.raises(PlanError) as refused:
        spec_from_file(path)
    assert str(refused.value).startswith(f"plan: '{path}' is not allowed; valid TOML (")
    assert str(refused.value).endswith(f"{where})")


def test_a_plan_that_grows_past_the_limit_is_not_read_past_it(tmp_path: Path) -> None:
    path = tmp_path / "plan.toml"
    path.write_bytes(b"#" * MAX_PLAN_BYTES)
    assert len(read_plan_text(path)) == MAX_PLAN_BYTES
    path.write_bytes(b"#" * (MAX_PLAN_BYTES + 1))
    with pytest.raises(PlanError, match="at most 1,000,000 bytes"):
        read_plan_text(path)


def test_brackets_in_strings_and_comments_are_no_nesting() -> None:
    text = 'a = "[[[{"\nb = \'[[\'\n# [[[[\nc = """\n[[[\n"""\nd = [[1], {e = [2]}]\n'
    assert deepest_nesting(text) == (3, 7)


# Seeds and cells: checked by the engine's rules before any worker starts -----------------------


def seeds_plan(seeds: str) -> Any:
    return build_plan(spec_from_flags([], [], "8", seeds, {"max_evals": "200"}))


def test_seeds_past_the_engines_limit_are_refused_naming_the_seed() -> None:
    last = LARGEST_WHOLE_NUMBER + 1
    with pytest.raises(PlanError) as refused:
        seeds_plan(f"{LARGEST_WHOLE_NUMBER}-{last}")
    message = str(refused.value)
    assert message.startswith(f"seeds: '{LARGEST_WHOLE_NUMBER}-{last}' is not allowed; ")
    assert f"seed {last:,} is above it" in message
    assert "2**62" in message


def test_the_largest_seeds_run_and_every_cell_is_a_config_the_engine_takes() -> None:
    plan = build_plan(
        spec_from_flags(
            ["mutation_rate=0.5,1.0"],
            ["default", "queens-ai"],
            "8",
            f"{LARGEST_WHOLE_NUMBER - 1}-{LARGEST_WHOLE_NUMBER}",
            {"max_evals": "200"},
        )
    )
    for cell in plan.cells:
        for seed in plan.seeds:
            assert task_config(cell.config, seed).seed == seed
    result = run_task(plan.cells[0].config, LARGEST_WHOLE_NUMBER)
    assert result["evaluations"] <= 200


def test_the_command_refuses_the_seed_before_any_worker_starts(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(
        [
            "sweep", "--store", str(tmp_path / "runs.sqlite3"), "--n", "8", "--max-evals",
            "100", "--seeds", f"{LARGEST_WHOLE_NUMBER}-{LARGEST_WHOLE_NUMBER + 1}",
        ]
    )  # fmt: skip
    captured = capsys.readouterr()
    assert code == 2
    assert captured.err.startswith("queens: error: seeds: '4611686018427387904-"), captured.err
    assert "worker" not in captured.err
    assert captured.err.count("\n") == 1


# Runs that fail in their worker, and the runner's errors --------------------------------------


def test_a_run_that_fails_in_its_worker_says_why_instead_of_losing_workers() -> None:
    good = build_plan(spec_from_flags([], [], "8", "1", {"max_evals": "200"})).cells[0]
    refused = Task(good.fingerprint, {**good.config, "n": 3}, 0)
    with pytest.raises(TaskFailed, match=r"seed 0 failed: ConfigError: n: 3 is not allowed"):
        LocalPool(1).run([refused], lambda task, result: None)


RUNNER_ERRORS = [
    WorkersLost("worker processes died 4 times in a row before any run ended"),
    ClusterError("Dask workers kept dying on a run"),
    TaskFailed("the run of seed 3 failed: MemoryError: "),
    StoreError("/somewhere/runs.sqlite3: database or disk is full"),
]


@pytest.mark.parametrize("error", RUNNER_ERRORS, ids=lambda error: type(error).__name__)
@pytest.mark.parametrize(
    "command",
    [
        ["sweep", "--n", "8", "--seeds", "2", "--max-evals", "100", "--workers", "1"],
        ["compare", "--preset", "default", "--seeds", "2", "--jobs", "1"],
    ],
    ids=["sweep", "compare"],
)
def test_sweep_and_compare_say_every_runner_error_the_same_way(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    command: list[str],
    error: Exception,
) -> None:
    import tui.lab.sweep.runner

    def failing(*args: object, **kwargs: object) -> int:
        raise error

    monkeypatch.setattr(tui.lab.sweep.runner, "run_sweep", failing)
    code = main([*command, "--store", str(tmp_path / "runs.sqlite3"), "--json"])
    captured = capsys.readouterr()
    assert code == 2
    assert captured.out == ""
    assert captured.err.splitlines()[-1] == f"queens: error: {error}"
    assert "Traceback" not in captured.err


@pytest.mark.parametrize("command", ["sweep", "compare"])
def test_a_bad_scheduler_is_refused_by_both_commands_alike(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str
) -> None:
    pytest.importorskip("distributed")
    flags = ["--n", "8", "--max-evals", "100"] if command == "sweep" else ["--preset", "default"]
    code = main(
        [command, *flags, "--seeds", "1", "--store", str(tmp_path / "s.sqlite3"), "--scheduler",
         "garbage"]
    )  # fmt: skip
    err = capsys.readouterr().err
    assert code == 2
    assert err.startswith("queens: error: --scheduler: 'garbage' is not allowed; not a scheduler")
    assert err.count("\n") == 1


# Signals held while a pool starts or ends its workers ----------------------------------------


@pytest.fixture
def default_ctrl_c() -> Iterator[None]:
    """Ctrl+C raises KeyboardInterrupt, as in a shell's foreground: pytest started in the
    background by a script (``nohup sh -c 'pytest' &``) inherits SIGINT ignored."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, previous)


@pytest.mark.usefixtures("default_ctrl_c")
def test_a_signal_inside_a_held_block_acts_once_the_block_ends() -> None:
    steps = []
    with pytest.raises(KeyboardInterrupt), signals_held():
        with signals_held():  # nested, as a pool's start inside a command's import
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(0.05)  # an unheld handler would have run by now
            steps.append("inner")
        steps.append("outer")
    assert steps == ["inner", "outer"]
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_an_ignored_signal_stays_ignored_after_a_held_block() -> None:
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        with signals_held():
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(0.05)
        assert signal.getsignal(signal.SIGINT) == signal.SIG_IGN
    finally:
        signal.signal(signal.SIGINT, previous)


def test_a_process_started_in_a_held_block_starts_with_the_signals_blocked() -> None:
    probe = "import signal; print([int(s) for s in signal.pthread_sigmask(signal.SIG_BLOCK, [])])"
    with signals_held():
        inside = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True)
    outside = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True)
    assert {int(signal.SIGINT), int(signal.SIGTERM)} <= set(json.loads(inside.stdout))
    assert not {int(signal.SIGINT), int(signal.SIGTERM)} & set(json.loads(outside.stdout))


# Other processes on the same store ------------------------------------------------------------

SWEEP = ["sweep", "--n", "8,10", "--seeds", "5", "--max-evals", "1500", "--workers", "1", "--json"]
"""Ten quick runs: two configs, five seeds."""


def sweep_process(store: Path) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "tui", *SWEEP, "--store", str(store)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
    )


def assert_whole_report(out: str, err: str, code: int | None, tasks: int) -> int:
    """The report is complete and lists each run once; its sweep id."""
    assert code == 0, err
    assert "Traceback" not in err
    document = json.loads(out)
    assert document["complete"] is True
    runs = document["runs"]
    assert len(runs) == tasks
    assert all(run["solved"] is not None and run["evaluations"] is not None for run in runs)
    assert len({(json.dumps(run["values"], sort_keys=True), run["seed"]) for run in runs}) == tasks
    return int(document["sweep_id"])


def stored_counts(store: Path) -> tuple[int, int, str]:
    """Sweeps, results, and the integrity check of the store file."""
    with sqlite3.connect(store) as connection:
        sweeps = connection.execute("SELECT COUNT(*) FROM sweeps").fetchone()[0]
        results = connection.execute("SELECT COUNT(*) FROM sweep_results").fetchone()[0]
        check = connection.execute("PRAGMA integrity_check").fetchone()[0]
    connection.close()
    return int(sweeps), int(results), str(check)


@pytest.mark.slow  # sweeps in processes
@pytest.mark.parametrize("repetition", range(3))
def test_two_sweeps_of_one_plan_at_once_both_report_it_whole(
    tmp_path: Path, repetition: int
) -> None:
    store = tmp_path / "runs.sqlite3"  # made by whichever sweep comes first
    processes = [sweep_process(store) for _ in range(2)]
    ids = set()
    for process in processes:
        out, err = process.communicate(timeout=WAIT_LIMIT)
        ids.add(assert_whole_report(out, err, process.returncode, 10))
    assert len(ids) == 1
    assert stored_counts(store) == (1, 10, "ok")


@pytest.mark.slow  # a sweep and its readers in processes
def test_a_sweep_under_many_readers_reports_every_run(tmp_path: Path) -> None:
    store = tmp_path / "runs.sqlite3"
    sweep = sweep_process(store)
    stop = threading.Event()
    failures: list[BaseException] = []

    reads = []

    def read() -> None:
        """Open the store as ``queens runs`` does, read every sweep and run, close; again."""
        while not stop.is_set():
            if not store.exists():
                continue
            try:
                with RunStore.open(store, create=False) as runs:
                    for kept in runs.sweeps():
                        runs.sweep_results(kept["id"])
                    runs.runs()
                reads.append(1)
            except StoreError:  # a store still being made is refused, by name: fine here
                pass
            except BaseException as error:  # reported below, in the test's thread
                failures.append(error)

    readers = [threading.Thread(target=read) for _ in range(6)]
    for reader in readers:
        reader.start()
    listings = [
        subprocess.Popen(
            [sys.executable, "-m", "tui", *command, "--store", str(store)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
            cwd=ROOT,
        )
        for command in (["runs", "--json"], ["sweeps"], ["runs", "--json"], ["sweeps"])
    ]
    try:
        out, err = sweep.communicate(timeout=WAIT_LIMIT)
    finally:
        stop.set()
        for reader in readers:
            reader.join()
    for listing in listings:
        _, listed = listing.communicate(timeout=WAIT_LIMIT)
        assert "Traceback" not in listed
    assert not failures, failures
    assert reads
    assert_whole_report(out, err, sweep.returncode, 10)
    assert stored_counts(store) == (1, 10, "ok")
