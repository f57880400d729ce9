"""Run ids are never given twice: the highest id ever given is kept, and new ids start above it.

SQLite's ``INTEGER PRIMARY KEY`` without ``AUTOINCREMENT`` gives a new row the largest id in the
table plus one, so deleting the newest run would hand its id to the next: ``queens show 7``
would then show another run than the one a note or a script meant. The ``runs`` table cannot
take ``AUTOINCREMENT`` without being rebuilt, which a store of the first schema must not be
(an older queens reads it too), so the mark is a one-row table of its own, as SQLite's
``sqlite_sequence`` is: created when a run is first begun or deleted in a store
(``CREATE TABLE IF NOT EXISTS``), taking the largest id there then. A store written before the
mark existed keeps working; the ids it deleted before it got the mark cannot be known.
"""

from __future__ import annotations

import sqlite3
from typing import Final

RUN_ID_TABLE: Final = """
CREATE TABLE IF NOT EXISTS run_id_mark (
    highest INTEGER NOT NULL            -- the highest run id ever given in this store
)
"""
"""The mark's table, one row."""


def _highest_given(connection: sqlite3.Connection) -> int:
    """The mark, raised to the largest id in ``runs`` (an older queens may have added runs
    without moving it); creates the table and its row when missing."""
    connection.execute(RUN_ID_TABLE)
    row = connection.execute("SELECT MAX(highest) FROM run_id_mark").fetchone()
    (largest,) = connection.execute("SELECT COALESCE(MAX(id), 0) FROM runs").fetchone()
    highest = max(int(largest), 0 if row is None or row[0] is None else int(row[0]))
    connection.execute("DELETE FROM run_id_mark")
    connection.execute("INSERT INTO run_id_mark (highest) VALUES (?)", (highest,))
    return highest


def next_run_id(connection: sqlite3.Connection) -> int:
    """An id no run of this store ever had, marked as given; inside a write transaction."""
    run_id = _highest_given(connection) + 1
    connection.execute("UPDATE run_id_mark SET highest = ?", (run_id,))
    return run_id


def keep_mark(connection: sqlite3.Connection) -> None:
    """Mark the ids in use as given before runs are deleted; inside a write transaction."""
    _highest_given(connection)
