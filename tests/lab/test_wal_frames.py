"""Damage inside a store's write-ahead log told apart from the torn tail a crash leaves.

Each log here is real: a process records several runs (one transaction each, never
checkpointed), then is killed with SIGKILL, so its commits stay in the log. A torn last frame
is left to SQLite, which keeps the transactions before it; a damaged frame followed by a frame
that commits is refused, with the store, its log and the log's index left byte for byte.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sqlite3
import struct
import subprocess
import sys
from pathlib import Path

import pytest

from tui.lab.store import RunStore, StoreError
from tui.lab.store.wal_header import wal_checksum

RUNS = 5
"""Runs the killed process records: one transaction each, all in the log."""

KILLED_WRITER = """
import sys, time
from tui.lab.store import Batch, RunStore
from tui.lab.writer_process import Writer
store = RunStore.open(sys.argv[1])
sqlite = store._store.sqlite
sqlite.execute("PRAGMA wal_autocheckpoint = 0")
for index in range(int(sys.argv[2])):
    run_id = store.begin_run({"n": 8}, seed=index, engine_version="test", label=f"run {index}",
                             keyframe_spacing=4, writer=Writer.this_process())
    store.record(run_id, Batch(stats=[(0, 8, 0.0, 1.0, 0.5, 0.25, 3, 5.5, 1.0, 2.0)]))
    store.end_run(run_id, "finished", "solved")
if sys.argv[3] == "spill":
    # A transaction larger than the page cache writes pages into the log before it commits.
    sqlite.execute("PRAGMA cache_size = 4")
    sqlite.execute("BEGIN")
    sqlite.execute("UPDATE runs SET label = ?", ("x" * 60_000,))
print("ready", flush=True)
time.sleep(600)
"""


def killed_writer_store(path: Path, runs: int = RUNS, spill: bool = False) -> None:
    """A store whose ``runs`` runs are only in its log, left by a process killed outright."""
    writer = subprocess.Popen(
        [sys.executable, "-c", KILLED_WRITER, str(path), str(runs), "spill" if spill else "-"],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert writer.stdout is not None
        assert writer.stdout.readline().strip() == "ready"
    finally:
        writer.send_signal(signal.SIGKILL)
        writer.wait(timeout=30)
    assert wal_of(path).stat().st_size > 32


def wal_of(path: Path) -> Path:
    return path.with_name(path.name + "-wal")


def files_of(path: Path) -> dict[str, bytes]:
    return {
        suffix: path.with_name(path.name + suffix).read_bytes()
        for suffix in ("", "-wal", "-shm")
        if path.with_name(path.name + suffix).exists()
    }


def frames_of(log: bytes) -> list[tuple[int, int]]:
    """(offset, commit size) of each whole frame, checked here with the plain checksum."""
    page_size = struct.unpack(">I", log[8:12])[0]
    big_endian = log[3] == 0x83
    running = struct.unpack(">2I", log[24:32])
    frames = []
    for offset in range(32, len(log) - page_size - 23, page_size + 24):
        frame = log[offset : offset + 24 + page_size]
        running = checksum_from(running, frame[:8] + frame[24:], big_endian)
        assert running == struct.unpack(">2I", frame[16:24]), "a real log checks out"
        frames.append((offset, struct.unpack(">I", frame[4:8])[0]))
    return frames


def checksum_from(start: tuple[int, int], data: bytes, big_endian: bool) -> tuple[int, int]:
    """SQLite's checksum of ``data`` carried on from ``start`` (``wal_checksum`` from zero)."""
    first, second = start
    # Two leading words that take the running sums from (0, 0) to ``start``: a = s0, then
    # b = s1 - s0 (mod 2**32).
    lead = struct.pack(f"{'>' if big_endian else '<'}2I", first, (second - first) % 2**32)
    return wal_checksum(lead + data, big_endian)


def labels(path: Path) -> list[str]:
    with RunStore.open(path) as store:
        return [run.label or "" for run in store.runs()]


def flip(path: Path, offset: int) -> None:
    data = bytearray(path.read_bytes())
    data[offset] ^= 0x5A
    path.write_bytes(bytes(data))


def integrity(path: Path) -> str:
    with contextlib.closing(sqlite3.connect(path)) as connection:
        return str(connection.execute("PRAGMA integrity_check").fetchone()[0])


@pytest.fixture(scope="module")
def killed_writers_files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, bytes]:
    """The files a killed writer left (made once: each test damages a copy of its own)."""
    path = tmp_path_factory.mktemp("killed") / "runs.sqlite3"
    killed_writer_store(path)
    return files_of(path)


@pytest.fixture
def logged_store(tmp_path: Path, killed_writers_files: dict[str, bytes]) -> Path:
    path = tmp_path / "runs.sqlite3"
    for suffix, data in killed_writers_files.items():
        path.with_name(path.name + suffix).write_bytes(data)
    return path


def test_the_killed_writers_log_opens_whole(logged_store: Path) -> None:
    commits = [offset for offset, size in frames_of(wal_of(logged_store).read_bytes()) if size]
    assert len(commits) >= 3 * RUNS  # begin, record and end: a transaction each
    assert labels(logged_store) == [f"run {index}" for index in range(RUNS)]
    assert integrity(logged_store) == "ok"


@pytest.mark.parametrize("cut", [1, 100, 4000])
def test_a_last_frame_cut_short_is_a_crash_and_opens(logged_store: Path, cut: int) -> None:
    log = wal_of(logged_store)
    data = log.read_bytes()
    frames = frames_of(data)
    last, _ = frames[-1]
    assert last + 24 < len(data) - cut  # cut inside the last frame
    log.write_bytes(data[:-cut])
    # The last transaction (the last run's end) is lost; everything before it is there.
    with RunStore.open(logged_store) as store:
        runs = store.runs()
        assert [run.label for run in runs] == [f"run {index}" for index in range(RUNS)]
        assert runs[-1].status != "finished"
        assert all(run.status == "finished" for run in runs[:-1])
    assert integrity(logged_store) == "ok"


@pytest.mark.parametrize("where", ["page", "checksum", "page number"])
def test_a_last_frame_not_matching_its_checksum_is_a_crash_and_opens(
    logged_store: Path, where: str
) -> None:
    log = wal_of(logged_store)
    last, _ = frames_of(log.read_bytes())[-1]
    flip(log, last + {"page": 24 + 500, "checksum": 18, "page number": 3}[where])
    with RunStore.open(logged_store) as store:
        runs = store.runs()
        assert [run.label for run in runs] == [f"run {index}" for index in range(RUNS)]
        assert runs[-1].status != "finished"
    assert integrity(logged_store) == "ok"


@pytest.mark.parametrize(
    ("where", "why"),
    [
        (24 + 100, "does not match its checksum"),  # the page
        (24 + 4000, "does not match its checksum"),
        (1, "page number is 0"),  # the page number, to 0 on a small store
        (5, "does not match its checksum"),  # the commit size
        (9, "salts are not the log's"),
        (17, "does not match its checksum"),  # the stored checksum itself
        (22, "does not match its checksum"),
    ],
)
@pytest.mark.parametrize("frame", ["second", "middle", "last but one"])
def test_a_damaged_frame_before_a_commit_is_refused_and_every_file_left_as_it_was(
    logged_store: Path, where: int, why: str, frame: str
) -> None:
    log = wal_of(logged_store)
    frames = frames_of(log.read_bytes())
    index = {"second": 1, "middle": len(frames) // 2, "last but one": len(frames) - 2}[frame]
    offset, _ = frames[index]
    data = bytearray(log.read_bytes())
    if where == 1:
        data[offset : offset + 4] = bytes(4)
    else:
        data[offset + where] ^= 0x5A
    log.write_bytes(bytes(data))
    before = files_of(logged_store)
    assert set(before) == {"", "-wal", "-shm"}
    for create, wal in ((True, True), (False, True), (False, False)):
        with pytest.raises(StoreError) as refused:
            RunStore.open(logged_store, create=create, wal=wal)
        message = str(refused.value)
        assert message.startswith(f"{log}: the store's write-ahead log is damaged")
        assert f"frame {index + 1} (at byte {offset}) " in message and why in message
        assert "commits a transaction" in message
        assert files_of(logged_store) == before


def test_the_command_line_refuses_it_in_one_line_with_exit_2(logged_store: Path) -> None:
    log = wal_of(logged_store)
    frames = frames_of(log.read_bytes())
    flip(log, frames[len(frames) // 2][0] + 24 + 100)
    before = files_of(logged_store)
    queens = Path(sys.executable).with_name("queens")
    finished = subprocess.run(
        [str(queens), "runs", "--store", str(logged_store)],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "NO_COLOR": "1"},
    )
    assert finished.returncode == 2, finished.stderr
    assert "Traceback" not in finished.stderr
    lines = finished.stderr.strip().splitlines()
    assert len(lines) == 1 and str(log) in lines[0] and "damaged" in lines[0]
    assert files_of(logged_store) == before


def test_a_transaction_cut_short_after_spilling_into_the_log_opens(tmp_path: Path) -> None:
    """Pages a transaction spilled before a crash follow the last commit, and one of them may
    not match its checksum (SQLite rewrites spilled pages in place and their checksums only
    at commit): no frame after it commits, so it is a crash's tail, not damage."""
    path = tmp_path / "runs.sqlite3"
    killed_writer_store(path, runs=2, spill=True)
    log = wal_of(path)
    frames = frames_of(log.read_bytes())
    last_commit = max(index for index, (_, size) in enumerate(frames) if size)
    assert len(frames) - last_commit > 3  # spilled pages after the last commit
    flip(log, frames[last_commit + 1][0] + 24 + 100)
    assert labels(path) == ["run 0", "run 1"]
    assert integrity(path) == "ok"
