"""Writing runs: begin one, claim it back, record a batch, end, truncate or delete it.

Every function takes the open :class:`~tui.lab.store.connection.StoreConnection` and writes in
one transaction: all of it is committed, or none of it.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from tui.lab.npy import to_npy
from tui.lab.store.connection import StoreConnection
from tui.lab.store.errors import StoreError
from tui.lab.store.lineage_table import delete_lineage_after, delete_lineage_off, put_lineage
from tui.lab.store.operator_swaps import OperatorSwap, stored_config
from tui.lab.store.records import Batch, Keyframe, RunInfo, compact_json, keyframe_size
from tui.lab.store.run_ids import keep_mark, next_run_id
from tui.lab.store.run_reads import find_run
from tui.lab.store.schema import STAT_FIELDS
from tui.lab.writer_process import Writer


def begin_run(
    store: StoreConnection,
    config: Mapping[str, Any],
    *,
    seed: int,
    engine_version: str,
    label: str | None,
    keyframe_spacing: int,
    writer: Writer,
) -> int:
    """Create a run record (status ``running``, owned by ``writer``); returns its id, one no
    run of this store ever had (:mod:`.run_ids`)."""
    now = time.time()
    with store.writing() as connection:
        run_id = next_run_id(connection)
        connection.execute(
            "INSERT INTO runs (id, config, seed, n, label, engine_version, started, status, "
            "keyframe_spacing, writer_host, writer_pid, writer_start, heartbeat) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, 'running', ?, ?, ?, ?, ?)",
            (
                run_id,
                compact_json(dict(config)),
                int(seed),
                int(config["n"]),
                label,
                engine_version,
                now,
                int(keyframe_spacing),
                writer.host,
                writer.pid,
                writer.start,
                now,
            ),
        )
    return run_id


def claim_run(
    store: StoreConnection,
    run_id: int,
    writer: Writer,
    *,
    config: Mapping[str, Any] | None = None,
) -> RunInfo:
    """Make ``writer`` the run's writer again (to resume it): status back to ``running``.

    Raises:
        StoreError: No such run, or a live process is recording it.
    """
    with store.writing() as connection:
        info = find_run(connection, store.path, run_id)
        if info.writer_alive:
            raise StoreError(f"run {run_id} is being recorded by another process right now")
        connection.execute(
            "UPDATE runs SET status = 'running', ended = NULL, stop_reason = NULL, "
            "writer_host = ?, writer_pid = ?, writer_start = ?, heartbeat = ?, "
            "config = COALESCE(?, config) WHERE id = ?",
            (
                writer.host,
                writer.pid,
                writer.start,
                time.time(),
                # A new budget changes the starting config; the swaps made since stay.
                None if config is None else compact_json(stored_config(config, info.swaps)),
                run_id,
            ),
        )
        return find_run(connection, store.path, run_id)


def record_swap(store: StoreConnection, run_id: int, swap: OperatorSwap) -> None:
    """Keep a swap of the run's operator after those it has (one transaction).

    Raises:
        StoreError: No such run, or a swap from an earlier generation than the last one kept.
    """
    with store.writing() as connection:
        info = find_run(connection, store.path, run_id)
        if info.swaps and swap.generation < info.swaps[-1].generation:
            raise StoreError(
                f"run {run_id}: a swap from generation {swap.generation} after one from "
                f"{info.swaps[-1].generation}"
            )
        _keep_swaps(connection, run_id, info, (*info.swaps, swap))


def _keep_swaps(
    connection: sqlite3.Connection, run_id: int, info: RunInfo, swaps: tuple[OperatorSwap, ...]
) -> None:
    """Write the run's config column anew: its starting config and ``swaps``."""
    connection.execute(
        "UPDATE runs SET config = ? WHERE id = ?",
        (compact_json(stored_config(info.config, swaps)), run_id),
    )


def record(store: StoreConnection, run_id: int, batch: Batch) -> None:
    """Commit one batch of a run in one transaction, and beat the writer's heart."""
    with store.writing() as connection:
        if batch.stats:
            connection.executemany(
                f"INSERT OR REPLACE INTO stats (run_id, {', '.join(STAT_FIELDS)}) "
                f"VALUES (?{', ?' * len(STAT_FIELDS)})",
                # Rows of Python numbers (a snapshot's stats are): no conversion.
                [(run_id, *row) for row in batch.stats],
            )
        if batch.solutions:
            (count,) = connection.execute(
                "SELECT COUNT(*) FROM solutions WHERE run_id = ?", (run_id,)
            ).fetchone()
            connection.executemany(
                "INSERT INTO solutions (run_id, position, generation, board) VALUES (?, ?, ?, ?)",
                [
                    (run_id, count + offset, int(generation), compact_json([int(g) for g in board]))
                    for offset, (generation, board) in enumerate(batch.solutions)
                ],
            )
        for keyframe in batch.keyframes:
            _put_keyframe(connection, run_id, keyframe)
        if batch.lineage:
            put_lineage(connection, run_id, batch.lineage)
        if batch.drop_keyframes_off is not None:
            spacing, keep = batch.drop_keyframes_off
            connection.execute(
                "DELETE FROM keyframes WHERE run_id = ? AND generation % ? != 0 "
                "AND generation != ?",
                (run_id, int(spacing), int(keep)),
            )
            connection.execute(
                "UPDATE runs SET keyframe_spacing = ? WHERE id = ?", (int(spacing), run_id)
            )
        if batch.drop_lineage_off is not None:
            delete_lineage_off(connection, run_id, batch.drop_lineage_off)
        summary = ""
        values: list[Any] = [time.time()]
        if batch.stats:
            last = dict(zip(STAT_FIELDS, batch.stats[-1], strict=True))
            summary = (
                ", generations = ?, evaluations = ?, "
                "best_conflicts = MIN(COALESCE(best_conflicts, ?), ?)"
            )
            values += [
                int(last["generation"]),
                int(last["evaluations"]),
                int(last["best_conflicts"]),
                int(last["best_conflicts"]),
            ]
        if batch.solutions:
            summary += ", solutions = solutions + ?"
            values.append(len(batch.solutions))
        if batch.keyframe_spacing is not None:
            summary += ", keyframe_spacing = ?"
            values.append(int(batch.keyframe_spacing))
        connection.execute(
            f"UPDATE runs SET heartbeat = ?{summary} WHERE id = ?", (*values, run_id)
        )


def _put_keyframe(connection: sqlite3.Connection, run_id: int, keyframe: Keyframe) -> None:
    """Replace the run's keyframe at its generation: plain values as JSON, arrays as ``.npy``."""
    plain: dict[str, Any] = {}
    arrays: dict[str, bytes] = {}
    for name, value in keyframe.state.items():
        if isinstance(value, np.ndarray):
            arrays[name] = to_npy(value)
        else:
            plain[name] = value
    text = compact_json(plain)
    size = keyframe_size(keyframe.state)
    connection.execute(
        "DELETE FROM keyframes WHERE run_id = ? AND generation = ?",
        (run_id, keyframe.generation),
    )
    connection.execute(
        "INSERT INTO keyframes (run_id, generation, state, bytes) VALUES (?, ?, ?, ?)",
        (run_id, int(keyframe.generation), text, size),
    )
    connection.executemany(
        "INSERT INTO keyframe_arrays (run_id, generation, name, data) VALUES (?, ?, ?, ?)",
        [(run_id, int(keyframe.generation), name, blob) for name, blob in arrays.items()],
    )


def end_run(store: StoreConnection, run_id: int, status: str, stop_reason: str | None) -> None:
    """Mark the run ``finished`` or ``interrupted`` and release it.

    Raises:
        ValueError: When ``status`` is neither.
    """
    if status not in ("finished", "interrupted"):
        raise ValueError(f"status: {status!r} is not allowed; finished or interrupted")
    with store.writing() as connection:
        connection.execute(
            "UPDATE runs SET status = ?, stop_reason = ?, ended = ?, heartbeat = ?, "
            "writer_pid = NULL, writer_host = NULL, writer_start = NULL WHERE id = ?",
            (status, stop_reason, time.time(), time.time(), run_id),
        )


def truncate_run(store: StoreConnection, run_id: int, after: int) -> None:
    """Forget the run's stats, solutions, keyframes, lineage and swaps after generation
    ``after``."""
    with store.writing() as connection:
        for table in ("stats", "solutions", "keyframes"):
            connection.execute(
                f"DELETE FROM {table} WHERE run_id = ? AND generation > ?", (run_id, after)
            )
        delete_lineage_after(connection, run_id, after)
        # A swap made while paused at ``after`` makes generation ``after + 1``: it stays.
        info = find_run(connection, store.path, run_id)
        kept = tuple(swap for swap in info.swaps if swap.generation <= after + 1)
        if kept != info.swaps:
            _keep_swaps(connection, run_id, info, kept)
        connection.execute(
            "UPDATE runs SET generations = MIN(generations, ?), "
            "solutions = (SELECT COUNT(*) FROM solutions WHERE run_id = ?) WHERE id = ?",
            (after, run_id, run_id),
        )


def set_label(store: StoreConnection, run_id: int, label: str | None) -> None:
    """Give the run a label (``None``: none), checked by :func:`tui.lab.run_label.check_label`.

    Raises:
        StoreError: No such run.
        ValueError: A label that is not allowed (naming the value and what is).
    """
    from tui.lab.run_label import check_label

    text = None if label is None else check_label(label)
    with store.writing() as connection:
        find_run(connection, store.path, run_id)
        connection.execute("UPDATE runs SET label = ? WHERE id = ?", (text, run_id))


def delete_run(store: StoreConnection, run_id: int) -> None:
    """Delete a run and everything recorded with it.

    Raises:
        StoreError: No such run, or a live process is recording it.
    """
    delete_runs(store, [run_id])


def delete_runs(store: StoreConnection, run_ids: Sequence[int]) -> None:
    """Delete runs and everything recorded with them, all in one transaction or none.

    Their ids are never given again (:mod:`.run_ids`).

    Raises:
        StoreError: No such run, or a live process is recording one (nothing is deleted).
    """
    with store.writing() as connection:
        for run_id in run_ids:
            info = find_run(connection, store.path, run_id)
            if info.writer_alive:
                raise StoreError(f"run {run_id} is being recorded right now; stop it first")
        keep_mark(connection)
        connection.executemany("DELETE FROM runs WHERE id = ?", [(run_id,) for run_id in run_ids])
