"""The commands on stores they must not open as they are, or cannot write: one line, exit 2.

A damaged write-ahead log, another program's file, an empty file, a read-only store, a full
disk: every command says what is wrong in one line on stderr, naming the file, exits 2, never
shows a traceback, and leaves what was saved as it was (a refused store byte for byte).
"""

from __future__ import annotations

import contextlib
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tui.cli.command_line import main

WAL_RUN = """
import os, sys
from tui.lab.store import RunStore
from tui.lab.writer_process import Writer
store = RunStore.open(sys.argv[1])
store._store.sqlite.execute("PRAGMA wal_autocheckpoint = 0")
run_id = store.begin_run({"n": 8}, seed=5, engine_version="test", label="in the log",
                         keyframe_spacing=4, writer=Writer.this_process())
store.end_run(run_id, "finished", "solved")
os._exit(0)  # as a killed process: the run stays in the log, never checkpointed
"""

SOLVE = (
    "solve",
    "--record",
    "--n",
    "8",
    "--seed",
    "1",
    "--generations",
    "20",
    "--no-stop-when-solved",
)
"""A recorded run small enough for every test."""


def command(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def refused(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    """Run a command that must fail as a user error; its error, one line, the last on stderr
    (a sweep tells what it runs first)."""
    code, _, err = command(capsys, *argv)
    assert code == 2, (argv, err)
    lines = err.splitlines()
    assert lines and lines[-1].startswith("queens: error: "), (argv, err)
    assert err.count("queens: error: ") == 1 and "Traceback" not in err, (argv, err)
    return lines[-1]


def files_of(path: Path) -> dict[str, bytes]:
    """The store, its log and the log's index, as bytes, where they exist."""
    return {
        name: path.with_name(path.name + name).read_bytes()
        for name in ("", "-wal", "-shm")
        if path.with_name(path.name + name).exists()
    }


def integrity(path: Path) -> str:
    with contextlib.closing(sqlite3.connect(path)) as connection:
        return str(connection.execute("PRAGMA integrity_check").fetchone()[0])


@pytest.fixture
def store_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """``QUEENS_STORE`` pointing at a new file."""
    path = tmp_path / "runs.sqlite3"
    monkeypatch.setenv("QUEENS_STORE", str(path))
    return path


# -- a damaged write-ahead log ----------------------------------------------------------------


@pytest.fixture
def store_with_a_run_in_its_log(store_file: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    """Run 1 checkpointed into the store, run 2 only in its log (its writer was killed)."""
    assert command(capsys, *SOLVE)[0] == 0
    subprocess.run([sys.executable, "-c", WAL_RUN, str(store_file)], check=True, timeout=60)
    assert store_file.with_name("runs.sqlite3-wal").stat().st_size > 32
    return store_file


def test_a_valid_log_is_read_with_its_commits(
    store_with_a_run_in_its_log: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = command(capsys, "runs")
    assert code == 0 and "in the log" in out
    assert integrity(store_with_a_run_in_its_log) == "ok"


COMMANDS_ON_THE_STORE = [
    ("runs",),
    ("runs", "--json"),
    ("show", "1"),
    ("rm", "1", "--yes"),
    ("export", "1", "--format", "csv"),
    SOLVE,
    ("sweeps",),
    ("sweep", "--show", "1"),
    ("sweep", "--n", "6", "--seeds", "1", "--generations", "3", "--workers", "1"),
]


def test_a_damaged_log_is_refused_by_every_command_and_left_as_it_was(
    store_with_a_run_in_its_log: Path, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = store_with_a_run_in_its_log
    log = path.with_name("runs.sqlite3-wal")
    damaged = bytearray(log.read_bytes())
    damaged[0] ^= 0xFF  # the magic number
    log.write_bytes(bytes(damaged))
    before = files_of(path)
    for argv in COMMANDS_ON_THE_STORE:
        err = refused(capsys, *argv)
        assert str(log) in err and "write-ahead log is damaged" in err, argv
        assert files_of(path) == before, argv
    log.rename(tmp_path / "aside-wal")  # as the message says: the store as of its checkpoint
    code, out, _ = command(capsys, "runs")
    assert code == 0 and "in the log" not in out and "finished" in out


# -- files that are not stores ----------------------------------------------------------------


def foreign(path: Path) -> None:
    with contextlib.closing(sqlite3.connect(path)) as connection:
        connection.execute("PRAGMA user_version = 7")


@pytest.mark.parametrize(
    ("make", "why"),
    [(foreign, "not a queens run store"), (Path.touch, "an empty file (0 bytes)")],
    ids=["another program's", "empty"],
)
def test_a_file_that_is_no_store_is_refused_by_every_command_unchanged(
    store_file: Path,
    capsys: pytest.CaptureFixture[str],
    make: Callable[[Path], Any],
    why: str,
) -> None:
    make(store_file)
    before = store_file.read_bytes()
    for argv in COMMANDS_ON_THE_STORE:
        err = refused(capsys, *argv)
        assert str(store_file) in err and why in err, argv
        assert store_file.read_bytes() == before, argv
        assert [p.name for p in store_file.parent.iterdir()] == ["runs.sqlite3"], argv


def test_a_damaged_sweep_plan_is_one_line_from_queens_sweeps(
    store_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    sweep = ("sweep", "--n", "6", "--seeds", "1", "--generations", "2", "--workers", "1")
    assert command(capsys, *sweep)[0] == 0
    with contextlib.closing(sqlite3.connect(store_file)) as connection, connection:
        connection.execute("UPDATE sweeps SET plan = '{not json'")
    err = refused(capsys, "sweeps")
    assert f"{store_file}: sweep 1 plan is damaged" in err


# -- read-only --------------------------------------------------------------------------------


@contextlib.contextmanager
def immutable(path: Path) -> Iterator[None]:
    """``chattr +i``: no process may write the file, root included."""
    made = subprocess.run(["chattr", "+i", str(path)], capture_output=True, check=False)
    if made.returncode != 0:
        pytest.skip(f"cannot make a file immutable here: {made.stderr.decode().strip()}")
    try:
        yield
    finally:
        subprocess.run(["chattr", "-i", str(path)], check=False)


@contextlib.contextmanager
def not_writable_for_this_user(path: Path) -> Iterator[None]:
    """Mode 444, and a user it binds: root acts as nobody for the while (root ignores modes)."""
    path.chmod(0o444)
    if os.geteuid() != 0:
        yield
        return
    try:
        os.seteuid(65534)
    except OSError as error:
        pytest.skip(f"cannot act as another user here: {error}")
    try:
        yield
    finally:
        os.seteuid(0)


@pytest.fixture
def shared_folder() -> Iterator[Path]:
    """A folder any user may write in (pytest's own is root's alone when root runs it)."""
    folder = Path(tempfile.mkdtemp(prefix="queens-read-only-"))
    folder.chmod(0o777)
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


@pytest.mark.parametrize("read_only", [immutable, not_writable_for_this_user])
def test_writing_to_a_read_only_store_exits_2_in_one_line(
    shared_folder: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    read_only: Callable[[Path], contextlib.AbstractContextManager[None]],
) -> None:
    path = shared_folder / "runs.sqlite3"
    monkeypatch.setenv("QUEENS_STORE", str(path))
    assert command(capsys, *SOLVE)[0] == 0
    assert command(capsys, "rm", "99")[0] == 2  # the same code paths, imported while we may
    before = path.read_bytes()
    with read_only(path):
        for argv in (("rm", "1", "--yes"), SOLVE):
            err = refused(capsys, *argv)
            assert f"{path}: the store is read-only" in err, argv
        code, out, _ = command(capsys, "runs", "--json")
        assert code == 0 and '"id": 1' in out
    assert path.read_bytes() == before


# -- a full disk ------------------------------------------------------------------------------


def fill_the_disk(patch: pytest.MonkeyPatch) -> None:
    """Every sqlite3 connection opened from now on may not grow its database: SQLite raises
    SQLITE_FULL ("database or disk is full") for a write that needs a new page, as it does on
    a full disk."""
    real: Callable[..., sqlite3.Connection] = sqlite3.connect

    def connect(*args: Any, **kwargs: Any) -> sqlite3.Connection:
        connection = real(*args, **kwargs)
        pages = connection.execute("PRAGMA page_count").fetchone()[0]
        connection.execute(f"PRAGMA max_page_count = {max(int(pages), 1)}")
        return connection

    patch.setattr(sqlite3, "connect", connect)


def test_a_recorded_solve_on_a_full_disk_exits_2_and_keeps_the_runs_before(
    store_file: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    assert command(capsys, *SOLVE)[0] == 0
    with monkeypatch.context() as patch:
        fill_the_disk(patch)
        big = ("solve", "--record", "--n", "64", "--population", "400", "--generations", "40")
        err = refused(capsys, *big, "--no-stop-when-solved")
        assert f"{store_file}: the disk is full" in err and "cannot rollback" not in err
    assert integrity(store_file) == "ok"
    code, out, _ = command(capsys, "show", "1", "--generation", "20")
    assert code == 0 and "generation 20" in out


def test_an_export_on_a_full_disk_exits_2_and_leaves_no_partial_file(
    store_file: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    assert command(capsys, *SOLVE)[0] == 0
    output = store_file.parent / "out" / "run.queens"
    output.parent.mkdir()
    with monkeypatch.context() as patch:
        fill_the_disk(patch)
        err = refused(capsys, "export", "1", "--format", "run", "--output", str(output))
        assert str(output) in err and "full" in err
    assert list(output.parent.iterdir()) == []


def test_a_sweep_on_a_full_disk_exits_2_and_keeps_its_results(
    store_file: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    sweep = ("sweep", "--n", "6", "--seeds", "150", "--generations", "2", "--workers", "1")
    assert command(capsys, *SOLVE)[0] == 0
    with monkeypatch.context() as patch:
        fill_the_disk(patch)
        err = refused(capsys, *sweep, "--store", str(store_file))
        assert f"{store_file}: the disk is full" in err
    assert integrity(store_file) == "ok"
    code, _, err = command(capsys, *sweep, "--store", str(store_file))
    assert code == 0 and "kept from before" in err  # what was kept counts


# -- a tmpfs, full for real -------------------------------------------------------------------


def test_a_sweep_recording_its_runs_on_a_really_full_disk_exits_2(
    small_disk: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = small_disk / "runs.sqlite3"
    sweep = ("sweep", "--n", "48", "--seeds", "40", "--generations", "60", "--workers", "2")
    big = ("--population", "300", "--stop-when-solved", "false", "--record-runs")
    err = refused(capsys, *sweep, *big, "--store", str(path))
    assert "the disk is full" in err and "cannot rollback" not in err
    assert integrity(path) == "ok"
    code, out, _ = command(capsys, "runs", "--json", "--store", str(path))  # still full
    assert code == 0 and '"id": 1' in out
