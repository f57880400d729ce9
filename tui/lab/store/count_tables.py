"""The exact-count tables: a count of N's solutions split into parts, and each part's count.

``queens solutions --count --workers W`` splits the search into parts (batches of prefixes,
:func:`engine.solutions.exact.count_parts`) and keeps each part's count here as it arrives, so
that the same command, run again after a Ctrl+C, a SIGTERM or a crash, counts only the parts
that are missing. A count is found by its split's fingerprint (N, the prefixes and how they are
cut into parts): a split that changed is another count. A part is kept under (count, part); a
second result for it is ignored, so no prefix is ever counted twice.

The tables are optional, as the lineage table is: a store written before them still opens, and
gets them when a count is first kept in it (``CREATE TABLE IF NOT EXISTS``); reading a store
without them finds no count. Every function takes the open
:class:`~tui.lab.store.connection.StoreConnection`; rows read back are checked, and a damaged
one is a :class:`~tui.lab.store.errors.StoreError`.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

from tui.lab.store.connection import StoreConnection
from tui.lab.store.errors import StoreError
from tui.lab.store.schema import table_names

COUNT_TABLES: Final = (
    """
CREATE TABLE IF NOT EXISTS exact_counts (
    id INTEGER PRIMARY KEY,
    fingerprint TEXT UNIQUE NOT NULL,   -- the split: N, its prefixes, its parts
    n INTEGER NOT NULL,
    parts INTEGER NOT NULL,
    prefixes INTEGER NOT NULL,
    created REAL NOT NULL,              -- epoch seconds
    finished REAL,                      -- NULL until every part is counted
    total INTEGER,                      -- every solution (OEIS A000170), once finished
    fundamental INTEGER                 -- distinct under rotations and reflections (A002562)
)
""",
    """
CREATE TABLE IF NOT EXISTS exact_count_parts (
    count_id INTEGER NOT NULL REFERENCES exact_counts(id) ON DELETE CASCADE,
    part INTEGER NOT NULL,              -- 0, 1, ...: its place in the split
    prefixes INTEGER NOT NULL,          -- prefixes it holds
    solutions INTEGER NOT NULL,         -- solutions beginning with them, with mirror images
    seconds REAL NOT NULL,              -- the worker's time on it
    PRIMARY KEY (count_id, part)
) WITHOUT ROWID
""",
)
"""The tables, created when a count is first kept in a store."""

COUNT_SELECT: Final = (
    "SELECT c.id, c.fingerprint, c.n, c.parts, c.prefixes, c.created, c.finished, c.total, "
    "c.fundamental, COUNT(p.part) FROM exact_counts c "
    "LEFT JOIN exact_count_parts p ON p.count_id = c.id"
)
"""A count's row and how many parts it holds; callers add the WHERE and GROUP BY."""


@dataclass(frozen=True)
class KeptPart:
    """One part's count, as kept."""

    part: int
    prefixes: int
    solutions: int
    seconds: float


@dataclass(frozen=True)
class KeptCount:
    """A count as kept: its split, and its result once finished."""

    id: int
    fingerprint: str
    n: int
    parts: int
    prefixes: int
    created: float
    finished: float | None
    total: int | None
    fundamental: int | None
    parts_kept: int


def count_for(store: StoreConnection, fingerprint: str, n: int, parts: int, prefixes: int) -> int:
    """The id of the count with this split's fingerprint, created if new (tables too).

    Raises:
        StoreError: If a count with this fingerprint is kept with another N or split size
            (a damaged row: the fingerprint names them).
    """
    with store.writing() as connection:
        for statement in COUNT_TABLES:
            connection.execute(statement)
        row = connection.execute(
            "SELECT id, n, parts, prefixes FROM exact_counts WHERE fingerprint = ?",
            (fingerprint,),
        ).fetchone()
        if row is not None:
            if tuple(row[1:]) != (n, parts, prefixes):
                raise StoreError(
                    f"{store.path}: count {row[0]} is damaged (kept as N = {row[1]!r}, "
                    f"{row[2]!r} parts, {row[3]!r} prefixes; its split says N = {n}, {parts} "
                    f"parts, {prefixes} prefixes)"
                )
            return int(row[0])
        cursor = connection.execute(
            "INSERT INTO exact_counts (fingerprint, n, parts, prefixes, created) "
            "VALUES (?, ?, ?, ?, ?)",
            (fingerprint, n, parts, prefixes, time.time()),
        )
        assert cursor.lastrowid is not None
        return int(cursor.lastrowid)


def add_part(store: StoreConnection, count_id: int, part: KeptPart) -> bool:
    """Keep one part's count; ``False`` (and nothing changed) when it was kept already."""
    with store.writing() as connection:
        cursor = connection.execute(
            "INSERT OR IGNORE INTO exact_count_parts "
            "(count_id, part, prefixes, solutions, seconds) VALUES (?, ?, ?, ?, ?)",
            (count_id, part.part, part.prefixes, part.solutions, float(part.seconds)),
        )
        return cursor.rowcount == 1


def parts(store: StoreConnection, count_id: int) -> list[KeptPart]:
    """Every part kept for a count, in order (none in a store without the tables).

    Raises:
        StoreError: A damaged row (a part or a number that cannot be one).
    """
    with store.reading() as connection:
        if "exact_count_parts" not in table_names(connection):
            return []
        rows = connection.execute(
            "SELECT part, prefixes, solutions, seconds FROM exact_count_parts "
            "WHERE count_id = ? ORDER BY part",
            (count_id,),
        ).fetchall()
    return [_part(store, count_id, row) for row in rows]


def finish_count(store: StoreConnection, count_id: int, total: int, fundamental: int) -> None:
    """Mark a count finished (now), with its result."""
    with store.writing() as connection:
        connection.execute(
            "UPDATE exact_counts SET finished = ?, total = ?, fundamental = ? WHERE id = ?",
            (time.time(), total, fundamental, count_id),
        )


def clear_count(store: StoreConnection, count_id: int) -> None:
    """Forget a count's parts and result (``--fresh``)."""
    with store.writing() as connection:
        connection.execute("DELETE FROM exact_count_parts WHERE count_id = ?", (count_id,))
        connection.execute(
            "UPDATE exact_counts SET finished = NULL, total = NULL, fundamental = NULL "
            "WHERE id = ?",
            (count_id,),
        )


def counts(store: StoreConnection) -> list[KeptCount]:
    """Every count, oldest first, with how many parts it holds (none without the tables).

    Raises:
        StoreError: A damaged row.
    """
    with store.reading() as connection:
        if "exact_counts" not in table_names(connection):
            return []
        rows = connection.execute(COUNT_SELECT + " GROUP BY c.id ORDER BY c.id").fetchall()
    return [_count(store, row) for row in rows]


def _part(store: StoreConnection, count_id: int, row: Sequence[Any]) -> KeptPart:
    """A part read back, checked."""
    part, prefixes, solutions, seconds = row
    whole = (part, prefixes, solutions)
    if not all(_natural(value) for value in whole) or not _seconds(seconds):
        raise StoreError(f"{store.path}: part {part!r} of count {count_id} is damaged")
    return KeptPart(part, prefixes, solutions, float(seconds))


def _count(store: StoreConnection, row: Sequence[Any]) -> KeptCount:
    """A count read back, checked."""
    count_id, fingerprint, n, parts_, prefixes, created, finished, total, fundamental, kept = row
    good = (
        isinstance(fingerprint, str)
        and all(_natural(value) for value in (count_id, n, parts_, prefixes, kept))
        and _seconds(created)
        and (finished is None or _seconds(finished))
        and all(value is None or _natural(value) for value in (total, fundamental))
    )
    if not good:
        raise StoreError(f"{store.path}: count {count_id!r} is damaged")
    return KeptCount(
        count_id,
        fingerprint,
        n,
        parts_,
        prefixes,
        float(created),
        None if finished is None else float(finished),
        total,
        fundamental,
        kept,
    )


def _natural(value: Any) -> bool:
    """Whether a value read back is a whole number >= 0 (SQLite keeps what it is given)."""
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _seconds(value: Any) -> bool:
    """Whether a value read back is a time: a finite number >= 0."""
    return isinstance(value, int | float) and 0 <= value < float("inf")
