"""The run store on real SQLite files: schema, refusals, batches, sweeps."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import numpy as np
import pytest

from tui.lab.npy import ArrayError, from_npy, to_npy
from tui.lab.store import (
    SCHEMA_VERSION,
    STAT_FIELDS,
    Batch,
    Keyframe,
    RunStore,
    StoreError,
    default_store_path,
)
from tui.lab.writer_process import Writer


def _row(generation: int) -> tuple[float, ...]:
    return (generation, 40 + generation, 0.5 * generation, 1.0, 0.5, 0.25, 3, 5.5, 1.0, 2.0)


def _run(store: RunStore) -> int:
    return store.begin_run(
        {"n": 8, "seed": 1},
        seed=1,
        engine_version="test",
        label=None,
        keyframe_spacing=4,
        writer=Writer.this_process(),
    )


def test_a_new_store_is_created_in_wal_mode_with_a_schema_version(tmp_path: Path) -> None:
    path = tmp_path / "runs.sqlite3"
    RunStore.open(path).close()
    with sqlite3.connect(path) as connection:
        assert connection.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert connection.execute("SELECT application, version FROM schema_version").fetchall() == [
            ("queens-ga", SCHEMA_VERSION)
        ]


def test_the_environment_variable_names_the_store(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("QUEENS_STORE", str(tmp_path / "elsewhere.sqlite3"))
    assert default_store_path() == tmp_path / "elsewhere.sqlite3"
    monkeypatch.delenv("QUEENS_STORE")
    assert default_store_path().name == "runs.sqlite3"


def test_a_foreign_database_is_refused_and_left_as_it_was(tmp_path: Path) -> None:
    path = tmp_path / "other.sqlite3"
    with sqlite3.connect(path) as connection:
        connection.execute("CREATE TABLE people (name TEXT)")
    before = path.read_bytes()
    with pytest.raises(StoreError, match="not a queens run store"):
        RunStore.open(path)
    assert path.read_bytes() == before


def test_a_newer_schema_is_refused_and_left_as_it_was(tmp_path: Path) -> None:
    path = tmp_path / "runs.sqlite3"
    RunStore.open(path).close()
    with sqlite3.connect(path) as connection:
        connection.execute("UPDATE schema_version SET version = ?", (SCHEMA_VERSION + 1,))
    before = path.read_bytes()
    with pytest.raises(StoreError, match="newer queens"):
        RunStore.open(path)
    assert path.read_bytes() == before


@pytest.mark.parametrize(
    "content", [b"not a database at all" * 100, b"SQLite format 3\x00" + b"\xff" * 200]
)
def test_a_file_that_is_not_sqlite_is_refused(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "junk.sqlite3"
    path.write_bytes(content)
    with pytest.raises(StoreError, match="damaged or not a SQLite database"):
        RunStore.open(path)
    assert path.read_bytes() == content


def test_a_missing_run_file_is_not_created(tmp_path: Path) -> None:
    with pytest.raises(StoreError, match="no such run file"):
        RunStore.open(tmp_path / "missing.run", create=False)
    assert not (tmp_path / "missing.run").exists()


def test_a_batch_round_trips_exactly(tmp_path: Path) -> None:
    with RunStore.open(tmp_path / "runs.sqlite3") as store:
        run_id = _run(store)
        population = np.arange(16, dtype=np.int64).reshape(2, 8)
        store.record(
            run_id,
            Batch(
                stats=[_row(0), _row(1)],
                solutions=[(1, [0, 4, 7, 5, 2, 6, 1, 3])],
                keyframes=[Keyframe(0, {"generation": 0, "population": population})],
            ),
        )
        info = store.run(run_id)
        assert (info.status, info.generations, info.solutions, info.writer_alive) == (
            "running",
            1,
            1,
            True,
        )
        columns = store.stats(run_id)
        for index, name in enumerate(STAT_FIELDS):
            assert columns[name].tolist() == [_row(0)[index], _row(1)[index]]
        keyframe = store.keyframe_before(run_id, 10)
        assert keyframe is not None and keyframe.generation == 0
        assert np.array_equal(keyframe.state["population"], population)
        assert store.solutions(run_id) == [(1, [0, 4, 7, 5, 2, 6, 1, 3])]
        store.end_run(run_id, "finished", "solved")
        assert store.run(run_id).status == "finished"


def test_thinning_keeps_the_grid_and_the_latest_keyframe(tmp_path: Path) -> None:
    with RunStore.open(tmp_path / "runs.sqlite3") as store:
        run_id = _run(store)
        frames = [Keyframe(g, {"generation": g}) for g in (0, 4, 8, 12, 13)]
        store.record(run_id, Batch(keyframes=frames))
        store.record(run_id, Batch(drop_keyframes_off=(8, 13)))
        assert store.keyframe_generations(run_id) == [0, 8, 13]
        assert store.run(run_id).keyframe_spacing == 8


def test_deleting_a_run_deletes_everything_recorded_with_it(tmp_path: Path) -> None:
    path = tmp_path / "runs.sqlite3"
    with RunStore.open(path) as store:
        run_id = _run(store)
        store.record(
            run_id,
            Batch(stats=[_row(0)], keyframes=[Keyframe(0, {"population": np.zeros((2, 2))})]),
        )
        store.end_run(run_id, "finished", None)
        store.delete_run(run_id)
        with pytest.raises(StoreError, match=f"no run {run_id}"):
            store.run(run_id)
    with sqlite3.connect(path) as connection:
        for table in ("stats", "keyframes", "keyframe_arrays"):
            assert connection.execute(f"SELECT COUNT(*) FROM {table}").fetchone() == (0,)


def test_a_damaged_keyframe_array_is_reported_not_loaded(tmp_path: Path) -> None:
    path = tmp_path / "runs.sqlite3"
    with RunStore.open(path) as store:
        run_id = _run(store)
        store.record(run_id, Batch(keyframes=[Keyframe(0, {"population": np.zeros((4, 4))})]))
    with sqlite3.connect(path) as connection:
        connection.execute("UPDATE keyframe_arrays SET data = substr(data, 1, 100)")
    with RunStore.open(path) as store, pytest.raises(StoreError, match="keyframe of generation 0"):
        store.keyframe_before(run_id, 0)


def test_npy_blobs_are_checked_before_numpy_allocates() -> None:
    blob = to_npy(np.arange(10, dtype=np.int64))
    assert from_npy(blob, name="x").tolist() == list(range(10))
    header_says_more = blob[:-8]
    with pytest.raises(ArrayError, match="bytes of data"):
        from_npy(header_says_more, name="x")
    with pytest.raises(ArrayError, match="npy"):
        from_npy(b"\x93NUMPY garbage", name="x")
    with pytest.raises(ArrayError, match=r"not a \.npy"):
        from_npy(b"plain text", name="x")
    objects = b"\x93NUMPY\x01\x00v\x00{'descr': '|O', 'fortran_order': False, 'shape': (1,), }"
    with pytest.raises(ArrayError):
        from_npy(objects.ljust(128, b" "), name="x")


def test_a_huge_declared_shape_is_refused_without_allocating() -> None:
    import io

    buffer = io.BytesIO()
    np.lib.format.write_array_header_1_0(
        buffer, {"descr": "<i8", "fortran_order": False, "shape": (10**12, 10**6)}
    )
    with pytest.raises(ArrayError, match="bytes of data"):
        from_npy(buffer.getvalue() + b"\x00" * 64, name="population")


def test_sweeps_are_found_or_created_and_results_never_counted_twice(tmp_path: Path) -> None:
    with RunStore.open(tmp_path / "runs.sqlite3") as store:
        sweep_id = store.sweep_for("abc", {"grid": {"mutation_rate": [0.5, 1.0]}})
        assert store.sweep_for("abc", {"ignored": True}) == sweep_id
        assert store.add_sweep_result(sweep_id, "cfg1", 0, {"solved": True})
        assert not store.add_sweep_result(sweep_id, "cfg1", 0, {"solved": False})
        assert store.add_sweep_result(sweep_id, "cfg1", 1, {"solved": False})
        results = store.sweep_results(sweep_id)
        assert [(r["config_fingerprint"], r["seed"], r["result"]) for r in results] == [
            ("cfg1", 0, {"solved": True}),
            ("cfg1", 1, {"solved": False}),
        ]
        sweep = store.sweep(sweep_id)
        assert sweep is not None
        assert (sweep["plan"], sweep["results"], sweep["finished"]) == (
            {"grid": {"mutation_rate": [0.5, 1.0]}},
            2,
            None,
        )
        store.finish_sweep(sweep_id)
        assert store.sweeps()[0]["finished"] is not None
        store.clear_sweep_results(sweep_id)
        assert store.sweep_results(sweep_id) == []
        assert store.sweep(sweep_id + 1) is None


def test_two_openers_creating_a_new_store_at_once_both_open_it(tmp_path: Path) -> None:
    """The second one to create the schema finds it made while it waited for the write lock
    (it failed with "table schema_version already exists", seen in a test run)."""
    import threading
    import time

    from tui.lab.store.schema import APPLICATION, SCHEMA, SCHEMA_VERSION

    path = tmp_path / "new.sqlite3"
    first = sqlite3.connect(path, isolation_level=None)
    first.execute("BEGIN IMMEDIATE")  # the first creator holds the write lock, no tables yet
    opened: list[object] = []

    def second() -> None:
        try:
            with RunStore.open(path) as store:
                opened.append(store.runs())
        except Exception as error:  # reported below
            opened.append(error)

    thread = threading.Thread(target=second)
    thread.start()
    time.sleep(0.5)  # the second has seen no tables and waits for the lock
    for statement in SCHEMA.split(";"):
        if statement.strip():
            first.execute(statement)
    first.execute(
        "INSERT INTO schema_version (application, version) VALUES (?, ?)",
        (APPLICATION, SCHEMA_VERSION),
    )
    first.execute("COMMIT")
    first.close()
    thread.join(timeout=30)
    assert opened == [[]]


def test_a_new_store_has_its_name_only_once_in_wal_mode(tmp_path: Path) -> None:
    """Openers of a store just made never have to switch it (byte 18 of a WAL file is 2)."""
    from tui.lab.store.creation import create_store_file

    path = tmp_path / "runs.sqlite3"
    assert create_store_file(path, wal=True)
    assert path.read_bytes()[18:20] == b"\x02\x02"
    portable = tmp_path / "portable.sqlite3"
    assert create_store_file(portable)
    assert portable.read_bytes()[18:20] == b"\x01\x01"


def test_opening_a_rollback_store_while_another_process_writes_waits_for_it(
    tmp_path: Path,
) -> None:
    """Switching to WAL takes a read lock, then asks for the write lock: held by another,
    SQLite refuses at once ("database is locked"), the busy timeout not waited. Seen as a
    sweep refused while ``queens runs`` opened the store it was making."""
    import threading

    from tui.lab.store.creation import create_store_file

    path = tmp_path / "rollback.sqlite3"
    create_store_file(path)  # rollback mode, as an older or exported store is
    writer = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    writer.execute("BEGIN IMMEDIATE")
    released = threading.Timer(0.3, lambda: writer.execute("ROLLBACK"))
    released.start()
    try:
        with RunStore.open(path, create=False) as store:
            assert store.runs() == []
    finally:
        released.join()
        writer.close()
    with sqlite3.connect(path) as connection:
        assert connection.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    connection.close()
