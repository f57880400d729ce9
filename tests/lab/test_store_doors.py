"""The run store against bad files and failing writes, on real SQLite files.

A damaged write-ahead log, a file that is not a store (empty, or another program's), a
read-only file, a full disk: each is refused or fails with a :class:`StoreError` naming the
file, and nothing that was saved is lost or half-written. A full disk is SQLite's own
``SQLITE_FULL``: ``PRAGMA max_page_count`` makes SQLite raise it exactly as a full disk does,
and a small tmpfs, where one can be mounted, is a full disk for real.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from engine import Config, GeneticAlgorithm
from tui.lab.recorder import Recorder
from tui.lab.store import Batch, Keyframe, RunStore, StoreError
from tui.lab.store.wal_header import wal_checksum, wal_header_problem
from tui.lab.writer_process import Writer

WAL_RUN = """
import os, sys
from tui.lab.store import Batch, Keyframe, RunStore
from tui.lab.writer_process import Writer
store = RunStore.open(sys.argv[1])
store._store.sqlite.execute("PRAGMA wal_autocheckpoint = 0")
run_id = store.begin_run({"n": 8}, seed=5, engine_version="test", label="in the log",
                         keyframe_spacing=4, writer=Writer.this_process())
store.record(run_id, Batch(stats=[(0, 8, 0.0, 1.0, 0.5, 0.25, 3, 5.5, 1.0, 2.0)]))
store.end_run(run_id, "finished", "solved")
os._exit(0)  # as a killed process: the commits stay in the log, never checkpointed
"""
"""Leave a store's last run in its write-ahead log only, as a process killed after it."""

FOREIGN_WAL = """
import os, sqlite3, sys
connection = sqlite3.connect(sys.argv[1], isolation_level=None)
connection.execute("PRAGMA journal_mode = WAL")
connection.execute("PRAGMA wal_autocheckpoint = 0")
connection.execute("CREATE TABLE notes (text TEXT)")
connection.execute("INSERT INTO notes VALUES ('kept in the log')")
os._exit(0)
"""
"""Another program's database in WAL mode, its last commits in its log."""


def begin(store: RunStore, label: str = "first") -> int:
    return store.begin_run(
        {"n": 8},
        seed=1,
        engine_version="test",
        label=label,
        keyframe_spacing=4,
        writer=Writer.this_process(),
    )


def files_of(path: Path) -> dict[str, bytes]:
    """The store, its log and the log's index, as bytes, where they exist."""
    return {
        name: path.with_name(path.name + name).read_bytes()
        for name in ("", "-wal", "-shm")
        if path.with_name(path.name + name).exists()
    }


def run_python(code: str, *args: str) -> None:
    subprocess.run([sys.executable, "-c", code, *args], check=True, timeout=60)


def store_with_a_run_in_its_log(path: Path) -> None:
    """A store whose first run was checkpointed and whose second is only in its log."""
    with RunStore.open(path) as store:
        store.end_run(begin(store), "finished", "solved")
    run_python(WAL_RUN, str(path))
    assert path.with_name(path.name + "-wal").stat().st_size > 32


def integrity(path: Path) -> str:
    with contextlib.closing(sqlite3.connect(path)) as connection:
        return str(connection.execute("PRAGMA integrity_check").fetchone()[0])


# -- the write-ahead log ----------------------------------------------------------------------


def test_a_valid_log_with_commits_opens_and_keeps_them(tmp_path: Path) -> None:
    path = tmp_path / "runs.sqlite3"
    store_with_a_run_in_its_log(path)
    with RunStore.open(path) as store:
        assert [(run.label, run.status) for run in store.runs()] == [
            ("first", "finished"),
            ("in the log", "finished"),
        ]
        assert store.stats(2)["best_conflicts"].tolist() == [3]
    with RunStore.open(path) as store:  # checkpointed into the store on close: still there
        assert len(store.runs()) == 2
    assert integrity(path) == "ok"


@pytest.mark.parametrize(
    ("offset", "problem"),
    [
        (0, "magic number"),
        (5, "format version"),
        (10, "page size"),
        (17, "checksum"),  # a salt: the header no longer matches its checksum
        (26, "checksum"),
    ],
)
def test_a_damaged_log_is_refused_and_every_file_left_as_it_was(
    tmp_path: Path, offset: int, problem: str
) -> None:
    path = tmp_path / "runs.sqlite3"
    store_with_a_run_in_its_log(path)
    log = path.with_name("runs.sqlite3-wal")
    damaged = bytearray(log.read_bytes())
    damaged[offset] ^= 0x5A
    log.write_bytes(bytes(damaged))
    before = files_of(path)
    assert set(before) == {"", "-wal", "-shm"}
    for create, wal in ((True, True), (False, True), (False, False)):
        with pytest.raises(StoreError) as refused:
            RunStore.open(path, create=create, wal=wal)
        message = str(refused.value)
        assert str(log) in message and "damaged" in message and problem in message
        assert "move runs.sqlite3-wal" in message
        assert files_of(path) == before
    # What the message advises: without its log, the store opens as of its last checkpoint.
    log.rename(tmp_path / "aside-wal")
    path.with_name("runs.sqlite3-shm").rename(tmp_path / "aside-shm")
    with RunStore.open(path) as store:
        assert [run.label for run in store.runs()] == ["first"]


def test_a_store_whose_checkpoint_was_cut_short_opens_through_its_log(tmp_path: Path) -> None:
    """A checkpoint that a full disk stops after page 1 leaves a file that, alone, says it has
    more pages than it holds (SQLite calls it malformed); with its log it is whole."""
    path = tmp_path / "runs.sqlite3"
    with RunStore.open(path) as store:
        store.end_run(begin(store), "finished", "solved")
    run_python(
        WAL_RUN.replace("stats=[", "keyframes=[Keyframe(0, {'a': list(range(9000))})], stats=["),
        str(path),
    )
    log = path.with_name("runs.sqlite3-wal").read_bytes()
    page_size = int.from_bytes(log[8:12], "big")
    frames = range(32, len(log) - page_size - 23, page_size + 24)
    last_first_page = max(f for f in frames if int.from_bytes(log[f : f + 4], "big") == 1)
    data = bytearray(path.read_bytes())
    data[:page_size] = log[last_first_page + 24 : last_first_page + 24 + page_size]
    path.write_bytes(bytes(data))
    assert int.from_bytes(data[28:32], "big") > len(data) // page_size  # as a full disk left it
    with RunStore.open(path) as store:
        assert [run.label for run in store.runs()] == ["first", "in the log"]
    assert integrity(path) == "ok"


def test_the_checksum_is_sqlites() -> None:
    """A header SQLite wrote checks out; one bit off anywhere in it does not."""
    header = bytes.fromhex("377f0682002de2180000100000000000c4da91e8f8bfbb61bd78ddd7d71c7574")
    assert wal_checksum(header[:24], big_endian=False) == (0xBD78DDD7, 0xD71C7574)
    assert wal_header_problem(header) is None
    for index in range(len(header)):
        flipped = header[:index] + bytes([header[index] ^ 1]) + header[index + 1 :]
        assert wal_header_problem(flipped) is not None
    assert wal_header_problem(header[:20]) is not None


def test_a_log_holding_no_frame_is_no_reason_to_refuse(tmp_path: Path) -> None:
    """SQLite ignores a log no longer than its header: so does the check."""
    path = tmp_path / "runs.sqlite3"
    RunStore.open(path).close()
    path.with_name("runs.sqlite3-wal").write_bytes(b"\x00" * 32)
    with RunStore.open(path) as store:
        assert store.runs() == []


# -- files that are not stores ----------------------------------------------------------------


def test_a_foreign_file_without_tables_is_refused_by_every_opener(tmp_path: Path) -> None:
    path = tmp_path / "other.sqlite3"
    with contextlib.closing(sqlite3.connect(path)) as connection:
        connection.execute("PRAGMA user_version = 7")
    before = files_of(path)
    for create, wal in ((True, True), (False, True), (False, False)):
        with pytest.raises(StoreError, match="not a queens run store"):
            RunStore.open(path, create=create, wal=wal)
        assert files_of(path) == before


def test_an_empty_file_is_refused_and_stays_empty(tmp_path: Path) -> None:
    path = tmp_path / "empty.sqlite3"
    path.touch()
    for create in (True, False):
        with pytest.raises(StoreError, match=r"an empty file \(0 bytes\)"):
            RunStore.open(path, create=create)
        assert path.read_bytes() == b""
        assert sorted(p.name for p in tmp_path.iterdir()) == ["empty.sqlite3"]


def test_a_foreign_database_in_wal_mode_is_refused_with_its_log_untouched(
    tmp_path: Path,
) -> None:
    """Opened read-write, even only to read its tables, SQLite would checkpoint the other
    program's log into its database and delete the log on closing."""
    path = tmp_path / "notes.sqlite3"
    run_python(FOREIGN_WAL, str(path))
    before = files_of(path)
    assert "-wal" in before
    with pytest.raises(StoreError, match="not a queens run store"):
        RunStore.open(path)
    assert files_of(path) == before


def test_a_new_store_appears_whole_and_leaves_nothing_beside_it(tmp_path: Path) -> None:
    path = tmp_path / "runs.sqlite3"
    with RunStore.open(path) as store:
        assert store.runs() == []
    assert sorted(p.name for p in tmp_path.iterdir()) == ["runs.sqlite3"]
    assert integrity(path) == "ok"


# -- failing writes ---------------------------------------------------------------------------


class FullDisk:
    """Every sqlite3 connection opened from now on, and each one opened before through
    :meth:`install`, gets a page limit when :meth:`fill` is called: SQLite then raises
    SQLITE_FULL ("database or disk is full") for any write that needs a new page."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.connections: list[sqlite3.Connection] = []
        self.full = False
        real: Callable[..., sqlite3.Connection] = sqlite3.connect

        def connect(*args: Any, **kwargs: Any) -> sqlite3.Connection:
            connection = real(*args, **kwargs)
            self.connections.append(connection)
            if self.full:
                self._limit(connection)
            return connection

        monkeypatch.setattr(sqlite3, "connect", connect)

    @staticmethod
    def _limit(connection: sqlite3.Connection) -> None:
        with contextlib.suppress(sqlite3.ProgrammingError):  # closed already
            pages = connection.execute("PRAGMA page_count").fetchone()[0]
            connection.execute(f"PRAGMA max_page_count = {max(int(pages), 1)}")

    def fill(self) -> None:
        self.full = True
        for connection in self.connections:
            self._limit(connection)

    def free(self) -> None:
        self.full = False
        for connection in self.connections:
            with contextlib.suppress(sqlite3.ProgrammingError):
                connection.execute("PRAGMA max_page_count = 1073741823")


@pytest.fixture
def disk(monkeypatch: pytest.MonkeyPatch) -> FullDisk:
    return FullDisk(monkeypatch)


def big_keyframe(generation: int) -> Keyframe:
    return Keyframe(generation, {"population": np.arange(50_000, dtype=np.int64)})


def test_a_full_disk_fails_the_batch_whole_and_keeps_what_was_saved(
    tmp_path: Path, disk: FullDisk
) -> None:
    path = tmp_path / "runs.sqlite3"
    with RunStore.open(path) as store:
        run_id = begin(store)
        store.record(run_id, Batch(keyframes=[big_keyframe(0)]))
        disk.fill()
        with pytest.raises(StoreError) as failed:
            store.record(run_id, Batch(keyframes=[big_keyframe(4)]))
        message = str(failed.value)
        assert message.startswith(f"{path}: the disk is full")
        assert "cannot rollback" not in message
        assert store.keyframe_generations(run_id) == [0]  # nothing of the failed batch
        disk.free()  # the connection is not left inside a transaction: it writes on
        store.record(run_id, Batch(keyframes=[big_keyframe(4)]))
        assert store.keyframe_generations(run_id) == [0, 4]
    assert integrity(path) == "ok"


def test_a_sqlite_error_inside_a_write_is_a_store_error_and_rolled_back(tmp_path: Path) -> None:
    path = tmp_path / "runs.sqlite3"
    with RunStore.open(path) as store:
        run_id = begin(store)
        with pytest.raises(StoreError, match=str(path)), store._store.writing() as connection:
            connection.execute("DELETE FROM runs")
            connection.execute("INSERT INTO runs (id) VALUES (1)")  # NOT NULL constraints
        assert [run.id for run in store.runs()] == [run_id]
        assert not store._store.sqlite.in_transaction


def test_a_recorder_on_a_full_disk_raises_a_store_error_and_keeps_its_rows(
    tmp_path: Path, disk: FullDisk
) -> None:
    path = tmp_path / "runs.sqlite3"
    algorithm = GeneticAlgorithm(
        Config(n=12, population=400, seed=3, generations=30, stop_when_solved=False)
    )
    with RunStore.open(path) as store:
        recorder = Recorder(store, algorithm, commit_interval=3600, keyframe_share=None)
        for _ in range(20):
            recorder.record(algorithm.step())
        disk.fill()
        with pytest.raises(StoreError, match="the disk is full"):
            recorder.flush()
        assert store.run(recorder.run_id).generations == 0
        disk.free()
        recorder.close()  # the rows kept in memory are committed once there is room
        info = store.run(recorder.run_id)
        assert (info.generations, info.status) == (20, "interrupted")
    assert integrity(path) == "ok"


def test_an_export_on_a_full_disk_leaves_no_file_behind(tmp_path: Path, disk: FullDisk) -> None:
    path = tmp_path / "runs.sqlite3"
    with RunStore.open(path) as store:
        run_id = begin(store)
        store.record(run_id, Batch(keyframes=[big_keyframe(0)]))
        disk.fill()
        output = tmp_path / "out" / "run.queens"
        output.parent.mkdir()
        with pytest.raises(StoreError) as failed:
            store.export_run(run_id, output)
        assert str(output) in str(failed.value) and "full" in str(failed.value)
        assert list(output.parent.iterdir()) == []
        disk.free()
        store.export_run(run_id, output)
    assert [p.name for p in output.parent.iterdir()] == ["run.queens"]


# -- a tmpfs, full for real -------------------------------------------------------------------


def fill_up(folder: Path) -> Path:
    """Write a file in ``folder`` until the disk is full; returns it."""
    filler = folder / "filler"
    descriptor = os.open(filler, os.O_WRONLY | os.O_CREAT)
    try:
        with contextlib.suppress(OSError):
            while os.write(descriptor, b"\xff" * 4096):
                pass
        with contextlib.suppress(OSError):
            while os.write(descriptor, b"\xff"):
                pass
    finally:
        os.close(descriptor)
    return filler


def test_a_really_full_disk_keeps_what_was_saved(small_disk: Path) -> None:
    path = small_disk / "runs.sqlite3"
    with RunStore.open(path) as store:
        first = begin(store)
        store.end_run(first, "finished", "solved")
        second = begin(store, "second")
        filler = fill_up(small_disk)
        with pytest.raises(StoreError, match="the disk is full"):
            for generation in range(0, 400, 4):
                store.record(second, Batch(keyframes=[big_keyframe(generation)]))
        assert store.run(first).status == "finished"
        with RunStore.open(path) as again:  # opened anew while the disk is still full
            assert [run.label for run in again.runs()] == ["first", "second"]
        filler.unlink()
    assert integrity(path) == "ok"
    with RunStore.open(path) as store:
        assert [run.label for run in store.runs()] == ["first", "second"]


def test_an_export_to_a_really_full_disk_leaves_no_file_behind(
    tmp_path: Path, small_disk: Path
) -> None:
    with RunStore.open(tmp_path / "runs.sqlite3") as store:
        run_id = begin(store)
        for generation in range(0, 80, 4):
            store.record(run_id, Batch(keyframes=[big_keyframe(generation)]))
        before = sorted(p.name for p in small_disk.iterdir())
        with pytest.raises(StoreError, match="full"):
            store.export_run(run_id, small_disk / "run.queens")
        assert sorted(p.name for p in small_disk.iterdir()) == before
        assert store.run(run_id).label == "first"


# -- read-only --------------------------------------------------------------------------------


@pytest.fixture
def immutable_store(tmp_path: Path) -> Iterator[Path]:
    """A store with one run, made immutable (``chattr +i``: it binds root as well)."""
    path = tmp_path / "runs.sqlite3"
    with RunStore.open(path) as store:
        store.end_run(begin(store), "finished", "solved")
    made = subprocess.run(["chattr", "+i", str(path)], capture_output=True, check=False)
    if made.returncode != 0:
        pytest.skip(f"cannot make a file immutable here: {made.stderr.decode().strip()}")
    try:
        yield path
    finally:
        subprocess.run(["chattr", "-i", str(path)], check=False)


def test_a_read_only_store_reads_and_refuses_writes_by_name(immutable_store: Path) -> None:
    before = immutable_store.read_bytes()
    with RunStore.open(immutable_store) as store:
        assert [run.label for run in store.runs()] == ["first"]
        for write in (lambda: store.delete_run(1), lambda: begin(store)):
            with pytest.raises(StoreError) as refused:
                write()
            assert str(refused.value).startswith(f"{immutable_store}: the store is read-only")
        assert [run.label for run in store.runs()] == ["first"]
    assert immutable_store.read_bytes() == before
