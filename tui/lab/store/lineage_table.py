"""The ``lineage`` table: who each generation's individuals came from, a few bytes apiece.

One row per generation: the population's size, its best individual and the best of the
generation before, and the *family*: each individual's first parent (in the narrowest unsigned
type that holds the population's size, as ``parent + 1 - index`` modulo the type's range, so a
survivor in its own place is 0), its flag byte (:mod:`engine.lineage`, without ``MUTATED``),
then the second parent of each crossed individual, in order; zlib-compressed. A generation in
which every individual survived in its own place (most of a long run's) keeps no family at
all: it follows from the best indices.

The table is optional: a store written before it existed still opens, and gets the table when
a run is next recorded into it (``CREATE TABLE IF NOT EXISTS``); reading a store without it
finds no lineage, which is then recomputed from the keyframes. What is read back is checked
before it is used: a damaged row is a :class:`~tui.lab.store.errors.StoreError`.
"""

from __future__ import annotations

import sqlite3
import zlib
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Final, NamedTuple

import numpy as np
import numpy.typing as npt

from tui.lab.store.connection import StoreConnection
from tui.lab.store.errors import StoreError

LINEAGE_TABLE: Final = """
CREATE TABLE IF NOT EXISTS lineage (
    run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    generation INTEGER NOT NULL,
    individuals INTEGER NOT NULL,
    best INTEGER NOT NULL,              -- the generation's best individual
    previous_best INTEGER NOT NULL,     -- the best of the generation before (-1: none)
    width INTEGER NOT NULL,             -- bytes per parent index: 1, 2 or 4
    family BLOB,                        -- zlib (see lineage_table.py); NULL: all in place
    PRIMARY KEY (run_id, generation)
) WITHOUT ROWID
"""
"""The table, created when a run's lineage is first recorded into a store."""

SURVIVOR: Final = 1
"""The kind of an individual carried over (as :data:`engine.lineage.SURVIVOR`)."""
CROSSED: Final = 3
"""The kind of a crossed child (as :data:`engine.lineage.CROSSED`)."""
KIND: Final = 0b11
BEST: Final = 0b1_0000
FROM_BEST: Final = 0b10_0000
COMPRESSION: Final = 1
"""zlib's level: the fastest; the families of a run's first generations are the large ones,
and a long run's are nearly all kept without a family."""
READ_CHUNK: Final = 4096
"""Generations read in one query while walking a run's lineage."""


class LineageRow(NamedTuple):
    """One generation's lineage, as the table keeps it."""

    generation: int
    individuals: int
    best: int
    previous_best: int
    width: int
    family: bytes | None


def width_for(individuals: int) -> int:
    """Bytes per parent index: the narrowest unsigned type holding ``0 .. individuals``."""
    return 1 if individuals < 2**8 else 2 if individuals < 2**16 else 4


def in_place_row(generation: int, size: int, best: int, previous_best: int) -> LineageRow:
    """The row of a generation in which every individual survived in its own place."""
    return LineageRow(generation, size, best, previous_best, width_for(size), None)


def pack_family(
    generation: int,
    parents: npt.NDArray[np.int64],
    flags: npt.NDArray[np.uint8],
    best: int,
    previous_best: int,
) -> LineageRow:
    """A generation's lineage as a row of the table.

    Args:
        generation: The generation.
        parents: ``(P, 2)`` parents' indices in the generation before (``-1``: none).
        flags: ``(P,)`` flag bytes (``MUTATED`` is left out of the record).
        best: The generation's best individual.
        previous_best: The best of the generation before (``-1`` for generation 0).
    """
    size = int(flags.shape[0])
    width = width_for(size)
    unsigned = np.dtype(f"<u{width}")
    wrap = (1 << (8 * width)) - 1
    offsets = (parents[:, 0] + 1 - np.arange(size)) & wrap
    seconds = parents[:, 1]
    raw = b"".join(
        (
            offsets.astype(unsigned).tobytes(),
            np.asarray(flags, dtype=np.uint8).tobytes(),
            seconds[seconds >= 0].astype(unsigned).tobytes(),
        )
    )
    family = zlib.compress(raw, COMPRESSION)
    return LineageRow(generation, size, best, previous_best, width, family)


class KeptFamily:
    """One generation's family read back from the table; decompressed when first read.

    Satisfies :class:`tui.lab.lineage.Family`: :attr:`best` and :meth:`row`.
    """

    def __init__(self, row: LineageRow, where: str) -> None:
        self._row = row
        self._where = where
        self.best = row.best
        self._raw: bytes | None = None

    def row(self, index: int) -> tuple[int, int, int]:
        """Individual ``index``'s ``(first parent, second parent, flags)``.

        Raises:
            StoreError: The row is damaged.
        """
        row = self._row
        if not 0 <= index < row.individuals:
            raise StoreError(f"{self._where}: no individual {index}")
        if row.family is None:  # everyone survived in place
            flags = SURVIVOR | (BEST if index == row.best else 0)
            return index, -1, flags | (FROM_BEST if index == row.previous_best else 0)
        raw = self._raw if self._raw is not None else self._decompressed()
        size, width = row.individuals, row.width
        stored = int.from_bytes(raw[index * width : (index + 1) * width], "little")
        first = (stored + index) % (1 << (8 * width)) - 1
        flags = raw[size * width + index]
        second = -1
        if (flags & KIND) == CROSSED:
            before = np.frombuffer(raw, np.uint8, index, size * width)
            at = size * (width + 1) + int(np.count_nonzero((before & KIND) == CROSSED)) * width
            second = int.from_bytes(raw[at : at + width], "little")
        if not -1 <= first < size or not -1 <= second < size:
            raise StoreError(f"{self._where}: damaged (a parent out of range)")
        return first, second, flags

    def _decompressed(self) -> bytes:
        """The family's bytes, checked for size before and after (never more than the most a
        family of this size can be)."""
        row = self._row
        most = row.individuals * (2 * row.width + 1)
        try:
            reader = zlib.decompressobj()
            raw = reader.decompress(row.family or b"", most)
            complete = reader.eof and not reader.unconsumed_tail
        except zlib.error as error:
            raise StoreError(f"{self._where}: damaged ({error})") from None
        size, width = row.individuals, row.width
        if not complete or len(raw) < size * (width + 1):
            raise StoreError(f"{self._where}: damaged (a family of the wrong size)")
        flags = np.frombuffer(raw, np.uint8, size, size * width)
        crossed = int(np.count_nonzero((flags & KIND) == CROSSED))
        if len(raw) != size * (width + 1) + crossed * width:
            raise StoreError(f"{self._where}: damaged (a family of the wrong size)")
        self._raw = raw
        return raw


def _has_table(connection: sqlite3.Connection) -> bool:
    found = connection.execute(
        "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'lineage'"
    ).fetchone()
    return found is not None


def put_lineage(connection: sqlite3.Connection, run_id: int, rows: Sequence[LineageRow]) -> None:
    """Keep some generations' lineage, inside the caller's write transaction (the table is
    created if the store has none yet)."""
    connection.execute(LINEAGE_TABLE)
    connection.executemany(
        "INSERT OR REPLACE INTO lineage (run_id, generation, individuals, best, previous_best, "
        "width, family) VALUES (?, ?, ?, ?, ?, ?, ?)",
        [(run_id, *row) for row in rows],
    )


def delete_lineage_after(connection: sqlite3.Connection, run_id: int, after: int) -> None:
    """Forget the lineage of the run's generations after ``after`` (inside a transaction)."""
    if _has_table(connection):
        connection.execute(
            "DELETE FROM lineage WHERE run_id = ? AND generation > ?", (run_id, after)
        )


def lineage_families(
    store: StoreConnection, run_id: int, top: int
) -> Iterator[tuple[int, KeptFamily]]:
    """The run's kept families from generation ``top`` down, newest first (generations
    whose lineage was not kept are skipped), read a chunk of generations at a time."""
    upper = int(top)
    while upper >= 0:
        rows = _chunk(store, run_id, upper)
        for row in rows:
            yield row.generation, KeptFamily(row, _where(store.path, run_id, row.generation))
        if len(rows) < READ_CHUNK:
            return
        upper = rows[-1].generation - 1


def _chunk(store: StoreConnection, run_id: int, upper: int) -> list[LineageRow]:
    """Up to :data:`READ_CHUNK` kept generations at or below ``upper``, newest first, checked."""
    with store.reading() as connection:
        if not _has_table(connection):
            return []
        found = connection.execute(
            "SELECT generation, individuals, best, previous_best, width, family FROM lineage "
            "WHERE run_id = ? AND generation <= ? ORDER BY generation DESC LIMIT ?",
            (run_id, upper, READ_CHUNK),
        ).fetchall()
    rows = []
    for values in found:
        generation, individuals, best, previous_best, width, family = values
        integers = (generation, individuals, best, previous_best, width)
        if (
            not all(type(value) is int for value in integers)
            or width not in (1, 2, 4)
            or individuals < 1
            or individuals >= 1 << (8 * width)
            or not 0 <= best < individuals
            or not -1 <= previous_best < individuals
            or not (family is None or isinstance(family, bytes))
        ):
            raise StoreError(f"{_where(store.path, run_id, generation)}: damaged")
        rows.append(LineageRow(generation, individuals, best, previous_best, width, family))
    return rows


def _where(path: Path, run_id: int, generation: object) -> str:
    return f"{path}: run {run_id}, lineage of generation {generation}"
