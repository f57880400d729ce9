"""The run store against failing writes, on real SQLite files.

A read-only file, a full disk: each write fails with a :class:`StoreError` naming the file,
and nothing that was saved is lost or half-written. A full disk is SQLite's own
``SQLITE_FULL``: ``PRAGMA max_page_count`` makes SQLite raise it exactly as a full disk does,
and a small tmpfs, where one can be mounted, is a full disk for real.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from engine import Config, GeneticAlgorithm
from tui.lab.recorder import Recorder
from tui.lab.store import Batch, Keyframe, RunStore, StoreError
from tui.lab.writer_process import Writer


def begin(store: RunStore, label: str = "first") -> int:
    return store.begin_run(
        {"n": 8},
        seed=1,
        engine_version="test",
        label=label,
        keyframe_spacing=4,
        writer=Writer.this_process(),
    )


def integrity(path: Path) -> str:
    with contextlib.closing(sqlite3.connect(path)) as connection:
        return str(connection.execute("PRAGMA integrity_check").fetchone()[0])


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


# -- a tmpfs, full for real -------------------------------------------------------------------


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    """A 1 MiB tmpfs (skipped where this process may not mount one)."""
    mount_point = tmp_path / "small"
    mount_point.mkdir()
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", str(mount_point)],
        capture_output=True,
        check=False,
    )
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {mounted.stderr.decode().strip()}")
    try:
        yield mount_point
    finally:
        subprocess.run(["umount", "-l", str(mount_point)], check=False)


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
        filler.unlink()
    assert integrity(path) == "ok"
    with RunStore.open(path) as store:
        assert [run.label for run in store.runs()] == ["first", "second"]


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
