"""Reading runs back: records, statistics, solutions, keyframes; a run file; the store's size.

Every function takes the open :class:`~tui.lab.store.connection.StoreConnection`; what it reads
is checked before it is handed on (:mod:`tui.lab.store.records`).
"""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Final

import numpy.typing as npt

from tui.lab.npy import ArrayError, from_npy
from tui.lab.store.connection import StoreConnection, roll_back
from tui.lab.store.creation import create_store_file, remove_with_side_files
from tui.lab.store.errors import StoreError, explain
from tui.lab.store.lineage_table import copy_lineage
from tui.lab.store.records import RUN_COLUMNS, Keyframe, RunInfo, run_info, stat_columns
from tui.lab.store.schema import STAT_FIELDS

RUN_TABLES: Final = (
    ("runs", "id"),
    ("stats", "run_id"),
    ("solutions", "run_id"),
    ("keyframes", "run_id"),
    ("keyframe_arrays", "run_id"),
)
"""The tables that hold a run, each with its column naming the run: what a run file copies
(with the run's kept lineage, when the store has that table: :func:`copy_lineage`)."""


def runs(store: StoreConnection) -> list[RunInfo]:
    """Every run, oldest first."""
    with store.reading() as connection:
        rows = connection.execute(f"SELECT {RUN_COLUMNS} FROM runs ORDER BY id").fetchall()
        return [run_info(store.path, row) for row in rows]


def run(store: StoreConnection, run_id: int) -> RunInfo:
    """One run's record; :class:`StoreError` when there is no such run."""
    with store.reading() as connection:
        return find_run(connection, store.path, run_id)


def find_run(connection: sqlite3.Connection, path: Path, run_id: int) -> RunInfo:
    """One run's record, read on ``connection`` (inside a caller's transaction, say).

    Raises:
        StoreError: No such run (the message says which store was searched).
    """
    row = connection.execute(
        f"SELECT {RUN_COLUMNS} FROM runs WHERE id = ?", (int(run_id),)
    ).fetchone()
    if row is None:
        raise StoreError(f"no run {run_id} in {path} (queens runs lists them)")
    return run_info(path, row)


def stats(
    store: StoreConnection, run_id: int, start: int = 0, stop: int | None = None
) -> dict[str, npt.NDArray[Any]]:
    """The run's statistics for generations ``start <= g < stop``, as numpy columns."""
    upper = stop if stop is not None else 2**62
    with store.reading() as connection:
        rows = connection.execute(
            f"SELECT {', '.join(STAT_FIELDS)} FROM stats WHERE run_id = ? "
            "AND generation >= ? AND generation < ? ORDER BY generation",
            (run_id, int(start), int(upper)),
        ).fetchall()
    return stat_columns(store.path, run_id, rows)


def iter_stats(store: StoreConnection, run_id: int, chunk: int = 65536) -> Iterator[dict[str, Any]]:
    """Every generation's statistics as a dict, read in chunks (for exports)."""
    start = 0
    while True:
        columns = stats(store, run_id, start, start + chunk)
        count = len(columns["generation"])
        if count == 0:
            return
        lists = {name: values.tolist() for name, values in columns.items()}
        for index in range(count):
            yield {name: lists[name][index] for name in STAT_FIELDS}
        start = int(columns["generation"][-1]) + 1


def solutions(store: StoreConnection, run_id: int) -> list[tuple[int, list[int]]]:
    """``(generation, board)`` of each solution, in the order found."""
    with store.reading() as connection:
        rows = connection.execute(
            "SELECT generation, board FROM solutions WHERE run_id = ? ORDER BY position",
            (run_id,),
        ).fetchall()
    found: list[tuple[int, list[int]]] = []
    for generation, board in rows:
        try:
            genes = json.loads(board)
        except (TypeError, ValueError):
            genes = None
        if not isinstance(genes, list) or not all(type(g) is int for g in genes):
            raise StoreError(f"{store.path}: run {run_id}: a damaged solution row")
        found.append((int(generation), genes))
    return found


def keyframe_generations(store: StoreConnection, run_id: int) -> list[int]:
    """Generations that have a keyframe, in order."""
    with store.reading() as connection:
        rows = connection.execute(
            "SELECT generation FROM keyframes WHERE run_id = ? ORDER BY generation", (run_id,)
        ).fetchall()
    return [int(row[0]) for row in rows]


def keyframe_bytes(store: StoreConnection, run_id: int) -> int:
    """The size of the run's keyframes, as counted against its budget."""
    with store.reading() as connection:
        (size,) = connection.execute(
            "SELECT COALESCE(SUM(bytes), 0) FROM keyframes WHERE run_id = ?", (run_id,)
        ).fetchone()
    return int(size)


def keyframe_before(store: StoreConnection, run_id: int, generation: int) -> Keyframe | None:
    """The latest keyframe at or before ``generation``, or ``None``.

    Raises:
        StoreError: When the keyframe is damaged (not JSON, arrays not plain ``.npy``).
    """
    with store.reading() as connection:
        row = connection.execute(
            "SELECT generation, state FROM keyframes WHERE run_id = ? AND generation <= ? "
            "ORDER BY generation DESC LIMIT 1",
            (run_id, int(generation)),
        ).fetchone()
        if row is None:
            return None
        arrays = connection.execute(
            "SELECT name, data FROM keyframe_arrays WHERE run_id = ? AND generation = ?",
            (run_id, row[0]),
        ).fetchall()
    where = f"{store.path}: run {run_id}, keyframe of generation {row[0]}"
    try:
        state = json.loads(row[1])
    except (TypeError, ValueError) as error:
        raise StoreError(f"{where}: damaged ({error})") from None
    if not isinstance(state, dict):
        raise StoreError(f"{where}: damaged (not a mapping)")
    for name, blob in arrays:
        if not isinstance(name, str) or name in state:
            raise StoreError(f"{where}: damaged (array {name!r})")
        try:
            state[name] = from_npy(blob, name=name)
        except ArrayError as error:
            raise StoreError(f"{where}: damaged ({error})") from None
    return Keyframe(int(row[0]), state)


def export_run(store: StoreConnection, run_id: int, destination: str | os.PathLike[str]) -> None:
    """Write a portable run file: a new store holding this run only (same id).

    Written beside ``destination`` and renamed into place, so a failure (a full disk, a
    read-only folder, Ctrl+C) leaves nothing behind: neither the file nor a partial one.

    Raises:
        StoreError: No such run, the destination exists, or it cannot be written.
    """
    target = Path(destination)
    if target.exists():
        raise StoreError(f"{target}: exists already; choose another --output")
    run(store, run_id)
    partial = target.with_name(target.name + ".partial")
    remove_with_side_files(partial)  # left by an export that was killed
    try:
        if not create_store_file(partial, named=target, hint="choose another --output"):
            raise StoreError(f"{target}: another export is writing it right now")
        _copy_run(store, run_id, partial, target)
        os.replace(partial, target)
    except BaseException:
        remove_with_side_files(partial)
        raise


def _copy_run(store: StoreConnection, run_id: int, portable: Path, target: Path) -> None:
    """Copy the run's rows into the store file ``portable``, in one transaction.

    Raises:
        StoreError: Naming ``target`` when a statement fails (the transaction is rolled back).
    """
    with store.lock:
        connection = store.sqlite
        try:
            connection.execute("ATTACH DATABASE ? AS portable", (str(portable),))
        except sqlite3.Error as error:
            raise StoreError(explain(target, error)) from None
        try:
            connection.execute("BEGIN IMMEDIATE")
            for table, key in RUN_TABLES:
                connection.execute(
                    f"INSERT INTO portable.{table} SELECT * FROM main.{table} WHERE {key} = ?",
                    (run_id,),
                )
            copy_lineage(connection, run_id, "portable")
            connection.execute(
                "UPDATE portable.runs SET writer_host = NULL, writer_pid = NULL, "
                "writer_start = NULL, status = CASE status WHEN 'running' "
                "THEN 'interrupted' ELSE status END"
            )
            connection.execute("COMMIT")
        except sqlite3.Error as error:
            roll_back(connection)
            raise StoreError(explain(target, error)) from None
        except BaseException:
            roll_back(connection)
            raise
        finally:
            with contextlib.suppress(sqlite3.Error):  # the file is removed all the same
                connection.execute("DETACH DATABASE portable")


def single_run_id(store: StoreConnection) -> int:
    """The id of the one run in a run file.

    Raises:
        StoreError: When the file holds no run or several.
    """
    with store.reading() as connection:
        rows = connection.execute("SELECT id FROM runs LIMIT 2").fetchall()
    if len(rows) != 1:
        raise StoreError(
            f"{store.path}: a run file holds exactly one run; this one holds "
            f"{'none' if not rows else 'several'} (pass an id with --store instead)"
        )
    return int(rows[0][0])


def size_bytes(store: StoreConnection) -> int:
    """The database's size (pages in use, WAL included once checkpointed)."""
    with store.reading() as connection:
        (pages,) = connection.execute("PRAGMA page_count").fetchone()
        (size,) = connection.execute("PRAGMA page_size").fetchone()
    return int(pages) * int(size)
