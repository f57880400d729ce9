"""The store's tables, its version and owner, and the checks that refuse a file that is not ours.

A store says who wrote it (``schema_version``: :data:`APPLICATION` and :data:`SCHEMA_VERSION`).
A file with other tables, another owner, a newer version or missing tables is refused, never
altered: :func:`check_schema` raises, and nothing here "repairs" a file.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Final

from tui.lab.store.errors import StoreError

APPLICATION: Final = "queens-ga"
SCHEMA_VERSION: Final = 1
"""Bump when the tables change; a store with a newer version is refused, never altered."""

STATUSES: Final = ("running", "finished", "interrupted")
STAT_FIELDS: Final = (
    "generation",
    "evaluations",
    "elapsed",
    "best_fitness",
    "mean_fitness",
    "worst_fitness",
    "best_conflicts",
    "mean_conflicts",
    "unique_fraction",
    "entropy",
)
"""The columns of a generation's statistics, as :class:`engine.GenerationStats` names them."""
INTEGER_STATS: Final = frozenset({"generation", "evaluations", "best_conflicts"})
"""The statistics the ``stats`` table keeps as integers (the rest are reals)."""

SCHEMA: Final = f"""
CREATE TABLE schema_version (
    application TEXT NOT NULL,
    version INTEGER NOT NULL
);
CREATE TABLE runs (
    id INTEGER PRIMARY KEY,
    config TEXT NOT NULL,               -- JSON: the run's Config.to_dict()
    seed INTEGER NOT NULL,
    n INTEGER NOT NULL,
    label TEXT,                         -- what a person calls the run (older: its preset)
    engine_version TEXT NOT NULL,
    started REAL NOT NULL,              -- epoch seconds
    ended REAL,
    status TEXT NOT NULL CHECK (status IN {STATUSES}),
    stop_reason TEXT,
    generations INTEGER NOT NULL DEFAULT 0,   -- the last generation recorded
    evaluations INTEGER NOT NULL DEFAULT 0,
    best_conflicts INTEGER,
    solutions INTEGER NOT NULL DEFAULT 0,
    keyframe_spacing INTEGER NOT NULL,
    writer_host TEXT,
    writer_pid INTEGER,
    writer_start TEXT,
    heartbeat REAL                      -- epoch seconds of the writer's last commit
);
CREATE TABLE stats (
    run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    generation INTEGER NOT NULL,
    evaluations INTEGER NOT NULL,
    elapsed REAL NOT NULL,
    best_fitness REAL NOT NULL,
    mean_fitness REAL NOT NULL,
    worst_fitness REAL NOT NULL,
    best_conflicts INTEGER NOT NULL,
    mean_conflicts REAL NOT NULL,
    unique_fraction REAL NOT NULL,
    entropy REAL NOT NULL,
    PRIMARY KEY (run_id, generation)
) WITHOUT ROWID;
CREATE TABLE solutions (
    run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    position INTEGER NOT NULL,          -- 0, 1, ... in the order found
    generation INTEGER NOT NULL,
    board TEXT NOT NULL,                -- JSON: the row of the queen in each column
    PRIMARY KEY (run_id, position)
) WITHOUT ROWID;
CREATE TABLE keyframes (
    run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    generation INTEGER NOT NULL,
    state TEXT NOT NULL,                -- JSON: the engine state's plain values
    bytes INTEGER NOT NULL,             -- its size with its arrays, for the budget
    PRIMARY KEY (run_id, generation)
);
CREATE TABLE keyframe_arrays (
    run_id INTEGER NOT NULL,
    generation INTEGER NOT NULL,
    name TEXT NOT NULL,
    data BLOB NOT NULL,                 -- .npy bytes, read with allow_pickle=False
    PRIMARY KEY (run_id, generation, name),
    FOREIGN KEY (run_id, generation) REFERENCES keyframes(run_id, generation) ON DELETE CASCADE
);
CREATE TABLE sweeps (
    id INTEGER PRIMARY KEY,
    fingerprint TEXT UNIQUE NOT NULL,
    plan TEXT NOT NULL,                 -- JSON
    created REAL NOT NULL,
    finished REAL
);
CREATE TABLE sweep_results (
    sweep_id INTEGER NOT NULL REFERENCES sweeps(id) ON DELETE CASCADE,
    config_fingerprint TEXT NOT NULL,
    seed INTEGER NOT NULL,
    result TEXT NOT NULL,               -- JSON
    run_id INTEGER REFERENCES runs(id) ON DELETE SET NULL,
    PRIMARY KEY (sweep_id, config_fingerprint, seed)
);
"""
"""The tables, one ``CREATE TABLE`` per statement (split on ``;``)."""
TABLES: Final = frozenset(
    {
        "schema_version",
        "runs",
        "stats",
        "solutions",
        "keyframes",
        "keyframe_arrays",
        "sweeps",
        "sweep_results",
    }
)
"""Every table a store of this version holds."""


def table_names(connection: sqlite3.Connection) -> set[str]:
    """The names of the tables in the file, ours or not."""
    return {
        row[0] for row in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
    }


def create_schema(connection: sqlite3.Connection) -> bool:
    """Create the tables in an empty file; run it inside a write transaction.

    Only ever called on a file just made for a new store (:mod:`tui.lab.store.creation`): an
    existing file without tables is refused, not filled.

    Returns:
        ``False`` (and nothing created) when the file has tables already.
    """
    if table_names(connection):
        return False
    for statement in SCHEMA.split(";"):
        if statement.strip():
            connection.execute(statement)
    connection.execute(
        "INSERT INTO schema_version (application, version) VALUES (?, ?)",
        (APPLICATION, SCHEMA_VERSION),
    )
    return True


def check_schema(connection: sqlite3.Connection, path: Path, tables: set[str]) -> None:
    """Refuse a file whose tables are not this version's own.

    Args:
        connection: The open file.
        path: Its name, for the messages.
        tables: Its tables (:func:`table_names`), not empty.

    Raises:
        StoreError: Another application's database, a newer schema, or an older or
            incomplete one.
    """
    if "schema_version" not in tables:
        raise StoreError(
            f"{path}: not a queens run store (a SQLite database with other tables); "
            "refusing to change it: pass another --store"
        )
    rows = connection.execute("SELECT application, version FROM schema_version").fetchall()
    if len(rows) != 1 or rows[0][0] != APPLICATION:
        raise StoreError(f"{path}: not a queens run store; refusing to change it")
    version = rows[0][1]
    if not isinstance(version, int) or version > SCHEMA_VERSION:
        raise StoreError(
            f"{path}: written by a newer queens (store schema {version!r}, this "
            f"version reads up to {SCHEMA_VERSION}); upgrade queens-ga to read it"
        )
    if version < SCHEMA_VERSION or not tables >= TABLES:
        raise StoreError(
            f"{path}: store schema {version!r} is incomplete or older than this "
            f"version's ({SCHEMA_VERSION}); refusing to change it"
        )
