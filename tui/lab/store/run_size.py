"""How many bytes a run's record takes in the store, as its record budget counts them.

SQLite keeps each row in a B-tree page with a few bytes of cell header, key and pointer, and
pages are seldom full: a row takes more room in the file than its values. The budget counts
each row's payload (a family's, a keyframe's JSON, an array's ``.npy`` bytes, a board's JSON)
plus a fixed cost per row of each table, measured with SQLite's ``dbstat`` table on a long
recorded N = 8 run (pages used per row, their unused room included): a generation's statistics
take 54 bytes, a lineage row without a family 16, a keyframe row about 100 beside its JSON and
an array row about 58 beside its bytes (its primary-key index included). The costs below round
those up, so the count stays above what the file holds for the run.

Rows deleted when a record is thinned free their pages, which SQLite keeps in the file's free
list and fills with the next rows written (the store never vacuums and has no ``auto_vacuum``):
the file does not shrink, but it stops growing while the record stays within its budget.
The deletes of a thinning touch pages all over the run's tables, which the write-ahead log
then holds; the log is folded back and cut to nothing right after (:func:`fold_log`).
"""

from __future__ import annotations

import sqlite3
from typing import Final, NamedTuple

from tui.lab.store.connection import StoreConnection

STATS_ROW: Final = 60
"""Bytes a generation's statistics row takes (measured: 54)."""
LINEAGE_ROW: Final = 20
"""Bytes a lineage row takes beside its family (measured: 16 without one)."""
KEYFRAME_ROW: Final = 112
"""Bytes a keyframe row takes beside its JSON (measured: about 100)."""
ARRAY_ROW: Final = 64
"""Bytes a keyframe's array row takes beside its ``.npy`` bytes, with its index (about 58)."""
SOLUTION_ROW: Final = 24
"""Bytes a solution row takes beside its board's JSON."""


class RunSize(NamedTuple):
    """A run's rows, and the bytes its record budget counts for them."""

    stats: int
    """Generations with statistics."""
    lineage: int
    """Generations with a lineage row."""
    keyframes: int
    """Keyframes."""
    bytes: int
    """Bytes counted (see the module's docstring)."""

    @property
    def thinnable(self) -> bool:
        """Whether thinning could still free something: more than the first and the latest
        keyframe, or a lineage row."""
        return self.keyframes > 2 or self.lineage > 0


def fold_log(store: StoreConnection) -> None:
    """Fold the write-ahead log into the file and cut it back to nothing (after thinning: the
    deletes touch pages all over the run's tables, and the log would keep their size)."""
    with store.reading() as connection:
        connection.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchall()


def lineage_row_bytes(family: bytes | None) -> int:
    """Bytes a lineage row counts, with its family (``None``: every individual in place)."""
    return LINEAGE_ROW + (0 if family is None else len(family))


def run_size(store: StoreConnection, run_id: int) -> RunSize:
    """What the run's record takes, counted as its budget counts it (one query per table)."""
    with store.reading() as connection:
        return _run_size(connection, run_id)


def _run_size(connection: sqlite3.Connection, run_id: int) -> RunSize:
    (stats,) = connection.execute(
        "SELECT COUNT(*) FROM stats WHERE run_id = ?", (run_id,)
    ).fetchone()
    keyframes, state_bytes = connection.execute(
        "SELECT COUNT(*), COALESCE(SUM(LENGTH(state)), 0) FROM keyframes WHERE run_id = ?",
        (run_id,),
    ).fetchone()
    arrays, array_bytes = connection.execute(
        "SELECT COUNT(*), COALESCE(SUM(LENGTH(data)), 0) FROM keyframe_arrays WHERE run_id = ?",
        (run_id,),
    ).fetchone()
    solutions, board_bytes = connection.execute(
        "SELECT COUNT(*), COALESCE(SUM(LENGTH(board)), 0) FROM solutions WHERE run_id = ?",
        (run_id,),
    ).fetchone()
    lineage, family_bytes = 0, 0
    has_lineage = connection.execute(
        "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'lineage'"
    ).fetchone()
    if has_lineage is not None:
        lineage, family_bytes = connection.execute(
            "SELECT COUNT(*), COALESCE(SUM(LENGTH(family)), 0) FROM lineage WHERE run_id = ?",
            (run_id,),
        ).fetchone()
    counted = (
        int(stats) * STATS_ROW
        + int(lineage) * LINEAGE_ROW
        + int(family_bytes)
        + int(keyframes) * KEYFRAME_ROW
        + int(state_bytes)
        + int(arrays) * ARRAY_ROW
        + int(array_bytes)
        + int(solutions) * SOLUTION_ROW
        + int(board_bytes)
    )
    return RunSize(int(stats), int(lineage), int(keyframes), counted)
