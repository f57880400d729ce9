"""The ``lineage`` table: who each generation's individuals came from, a few bytes apiece.

One row per generation: the population's size, its best individual and the best of the
generation before, and the *family*: each individual's first parent (in the narrowest unsigned
type that holds the population's size, as ``parent + 1 - index`` modulo the type's range, so a
survivor in its own place is 0), its flag byte (:mod:`engine.lineage.lineage`: the kind and
``MOSTLY_SECOND``), then the second parent of each crossed individual, in order, and the byte
:data:`FAMILY_VERSION`; as a zlib stream, compressed (level 1) or stored (level 0: the bytes
as they are, which a recorder writes for a run's first families, see :mod:`tui.lab.recorder`);
either reads the same. A generation in which every individual survived in its own place (most
of a long run's) keeps no family at all: it follows from the best indices, and so do the flags
a family leaves out, ``BEST`` and ``FROM_BEST`` (a parent is the best of the generation
before), as ``MUTATED`` is recomputed from a keyframe. A family of the first format (no
version byte) holds ``BEST`` and ``FROM_BEST`` in its flags: it reads the same.

The table is optional: a store written before it existed still opens, and gets the table when
a run is next recorded into it (``CREATE TABLE IF NOT EXISTS``); reading a store without it
finds no lineage, which is then recomputed from the keyframes. What is read back is checked
before it is used: a damaged row is a :class:`~tui.lab.store.errors.StoreError`.
"""

from __future__ import annotations

import itertools
import sqlite3
import zlib
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
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
"""The kind of an individual carried over (as :data:`engine.lineage.lineage.SURVIVOR`)."""
CROSSED: Final = 3
"""The kind of a crossed child (as :data:`engine.lineage.lineage.CROSSED`)."""
KIND: Final = 0b11
BEST: Final = 0b1_0000
FROM_BEST: Final = 0b10_0000
COMPRESSION: Final = 1
"""zlib's level: the fastest; the families of a run's first generations are the large ones,
and a long run's are nearly all kept without a family."""
FAMILY_VERSION: Final = 2
"""The byte that ends a family whose flags leave out ``BEST`` and ``FROM_BEST`` (a family of
the first format has none, and holds them). An older reader refuses such a family as one of
the wrong size, rather than read it without those flags."""
STORED: Final = 0
"""zlib's level that keeps a family's bytes as they are (stored blocks): still a zlib stream,
read like any other, made in a fifth to a tenth of level 1's time (no search, no coding), for
about twice to three times the bytes of a dense family (one whose children's parents are
random draws)."""
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
        flags: ``(P,)`` flag bytes (only the kind and ``MOSTLY_SECOND`` are needed: the
            others are left out of the record, or follow from the best indices).
        best: The generation's best individual.
        previous_best: The best of the generation before (``-1`` for generation 0).
    """
    second = parents[:, 1]
    return pack_origins(generation, parents[:, 0], second[second >= 0], flags, best, previous_best)


_UNSIGNED: Final = {width: np.dtype(f"<u{width}") for width in (1, 2, 4)}
"""The unsigned little-endian type of each width."""


@lru_cache(maxsize=4)
def _indices_less_one(size: int) -> npt.NDArray[np.int64]:
    """``index - 1`` for every individual (read-only, cached: a run asks with one size)."""
    indices = np.arange(-1, size - 1, dtype=np.int64)
    indices.flags.writeable = False
    return indices


def forget_sizes() -> None:
    """Let go of the cached offsets of the population sizes seen (a large run's are
    megabytes; the next run makes its own)."""
    _indices_less_one.cache_clear()


def pack_origins(
    generation: int,
    first: npt.NDArray[np.int64],
    seconds: npt.NDArray[np.int64],
    flags: npt.NDArray[np.uint8],
    best: int,
    previous_best: int,
    level: int = COMPRESSION,
) -> LineageRow:
    """:func:`pack_family` from the first parents and the crossed individuals' second parents
    (in the order of their indices), as a recorder has them; ``level`` is zlib's
    (:data:`COMPRESSION`, or :data:`STORED`).

    The family's bytes are written into one buffer, each part cast in place (a cast to the
    unsigned type keeps the low bytes: the offsets modulo its range), and compressed from
    there: a run's first generations record a family each, so its cost is a generation's.
    """
    size = int(flags.shape[0])
    width = width_for(size)
    unsigned = _UNSIGNED[width]
    end = size * (width + 1) + seconds.shape[0] * width
    raw = np.empty(end + 1, dtype=np.uint8)
    np.subtract(
        first,
        _indices_less_one(size),
        out=raw[: size * width].view(unsigned),
        casting="unsafe",
    )
    raw[size * width : size * (width + 1)] = flags
    raw[size * (width + 1) : end].view(unsigned)[:] = seconds
    raw[end] = FAMILY_VERSION
    family = zlib.compress(raw.data, level)
    return LineageRow(generation, size, best, previous_best, width, family)


class KeptFamily:
    """One generation's family read back from the table; decompressed when first read.

    Satisfies :class:`tui.lab.lineage.Family`: :attr:`best` and :meth:`row`.
    """

    def __init__(self, row: LineageRow, path: Path, run_id: int) -> None:
        self._row = row
        self._path = path
        self._run_id = run_id
        self.best = row.best
        self._raw: bytes | None = None

    def _damaged(self, why: str) -> StoreError:
        return StoreError(f"{_where(self._path, self._run_id, self._row.generation)}: {why}")

    def row(self, index: int) -> tuple[int, int, int]:
        """Individual ``index``'s ``(first parent, second parent, flags)``.

        Raises:
            StoreError: The row is damaged.
        """
        row = self._row
        if not 0 <= index < row.individuals:
            raise self._damaged(f"no individual {index}")
        if row.family is None:  # everyone survived in place
            return index, -1, SURVIVOR | self._best_flags(index, index, -1)
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
            raise self._damaged("damaged (a parent out of range)")
        return first, second, flags | self._best_flags(index, first, second)

    def _best_flags(self, index: int, first: int, second: int) -> int:
        """``BEST`` and ``FROM_BEST`` of an individual, from the row's best indices."""
        row = self._row
        flags = BEST if index == row.best else 0
        before = row.previous_best
        return flags | (FROM_BEST if before >= 0 and before in (first, second) else 0)

    def _decompressed(self) -> bytes:
        """The family's bytes, checked for size before and after (never more than the most a
        family of this size can be)."""
        row = self._row
        most = row.individuals * (2 * row.width + 1) + 1
        try:
            reader = zlib.decompressobj()
            raw = reader.decompress(row.family or b"", most)
            complete = reader.eof and not reader.unconsumed_tail
        except zlib.error as error:
            raise self._damaged(f"damaged ({error})") from None
        size, width = row.individuals, row.width
        if not complete or len(raw) < size * (width + 1):
            raise self._damaged("damaged (a family of the wrong size)")
        flags = np.frombuffer(raw, np.uint8, size, size * width)
        crossed = int(np.count_nonzero((flags & KIND) == CROSSED))
        end = size * (width + 1) + crossed * width
        if len(raw) != end and (len(raw) != end + 1 or raw[end] != FAMILY_VERSION):
            raise self._damaged("damaged (a family of the wrong size)")
        self._raw = raw
        return raw


@dataclass(frozen=True)
class InPlaceStretch:
    """Consecutive generations, ``high`` down to ``low``, in each of which every individual
    survived in its own place: no family is kept for them.

    Satisfies :class:`tui.lab.lineage.Stretch` (and is no tuple, unlike a
    ``(generation, family)``).

    Attributes:
        high: The newest generation.
        low: The oldest generation.
        carried: The generations whose best is the best of the generation before (which,
            everyone being in place, is the same individual carried over).
    """

    high: int
    low: int
    carried: int


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


def copy_lineage(connection: sqlite3.Connection, run_id: int, schema: str) -> None:
    """Copy the run's kept lineage into the attached database ``schema`` (a run file being
    written), inside the caller's write transaction; nothing when this store keeps none."""
    if _has_table(connection):
        connection.execute(LINEAGE_TABLE.replace("EXISTS lineage", f"EXISTS {schema}.lineage"))
        connection.execute(
            f"INSERT INTO {schema}.lineage SELECT * FROM main.lineage WHERE run_id = ?", (run_id,)
        )


def delete_lineage_after(connection: sqlite3.Connection, run_id: int, after: int) -> None:
    """Forget the lineage of the run's generations after ``after`` (inside a transaction)."""
    if _has_table(connection):
        connection.execute(
            "DELETE FROM lineage WHERE run_id = ? AND generation > ?", (run_id, after)
        )


def delete_lineage_off(connection: sqlite3.Connection, run_id: int, spacing: int) -> None:
    """Forget the lineage of the run's generations that are not multiples of ``spacing``
    (inside a transaction): a record thinned to its budget recomputes them when asked."""
    if _has_table(connection):
        connection.execute(
            "DELETE FROM lineage WHERE run_id = ? AND generation % ? != 0",
            (run_id, int(spacing)),
        )


def lineage_pieces(
    store: StoreConnection, run_id: int, top: int
) -> Iterator[tuple[int, KeptFamily] | InPlaceStretch]:
    """The run's kept lineage from generation ``top`` down to 1, newest first: a
    ``(generation, family)`` for each generation that kept a family, an
    :class:`InPlaceStretch` for each run of consecutive generations that did not (everyone
    survived in place). Generations whose lineage was not kept are skipped.

    The stretches are found and counted by SQLite in one query, whatever their length: a long
    run's hundred thousand generations in place cost no Python object each. Families are read
    a chunk at a time; every row is checked before it is handed on.

    Raises:
        StoreError: A damaged row.
    """
    stretches = _stretches(store, run_id, top)
    families = _families(store, run_id, top)
    family = next(families, None)
    for stretch in stretches:
        while family is not None and family[0] > stretch.high:
            yield family
            family = next(families, None)
        yield stretch
    while family is not None:
        yield family
        family = next(families, None)


_ROW_CHECKS: Final = (
    "typeof(individuals) != 'integer' OR typeof(best) != 'integer' "
    "OR typeof(previous_best) != 'integer' OR typeof(width) != 'integer' "
    "OR width NOT IN (1, 2, 4) OR individuals < 1 OR individuals >= (1 << (8 * width)) "
    "OR best < 0 OR best >= individuals OR previous_best < -1 OR previous_best >= individuals"
)
"""A row that is damaged (SQL): a value that is no whole number, or out of its range."""


def _stretches(store: StoreConnection, run_id: int, top: int) -> list[InPlaceStretch]:
    """The runs of consecutive generations kept without a family, newest first.

    They lie between the generations kept with a family (few in a long run): each gap
    between two of those is counted by one aggregate query, and is one stretch when it is
    whole (no generation missing from the record), else it is split where one is.
    """
    with store.reading() as connection:
        if not _has_table(connection):
            return []
        kept = connection.execute(
            "SELECT generation FROM lineage WHERE run_id = ? AND generation BETWEEN 1 AND ? "
            "AND family IS NOT NULL ORDER BY generation",
            (run_id, int(top)),
        ).fetchall()
        bounds = [0, *(int(row[0]) for row in kept), int(top) + 1]
        stretches: list[InPlaceStretch] = []
        for below, above in itertools.pairwise(bounds):
            if above - below > 1:
                stretches += _stretches_between(store, connection, run_id, below, above)
    return stretches[::-1]


def _stretches_between(
    store: StoreConnection, connection: sqlite3.Connection, run_id: int, below: int, above: int
) -> list[InPlaceStretch]:
    """The stretches strictly between generations ``below`` and ``above``, oldest first."""
    where = "run_id = ? AND generation > ? AND generation < ? AND family IS NULL"
    found = connection.execute(
        "SELECT COUNT(*), SUM(best = previous_best), MIN(best), MAX(best - individuals), "
        f"MIN(previous_best), MAX(previous_best - individuals), MIN(individuals) FROM lineage "
        f"WHERE {where}",
        (run_id, below, above),
    ).fetchone()
    count, carried, least_best, most_best, least_before, most_before, least_size = found
    if not count:
        return []
    if least_best < 0 or most_best >= 0 or least_before < -1 or most_before >= 0 or least_size < 1:
        raise StoreError(f"{_where(store.path, run_id, below + 1, above - 1)}: damaged")
    if count == above - below - 1:  # no generation missing: one stretch
        return [InPlaceStretch(above - 1, below + 1, int(carried))]
    rows = connection.execute(
        f"SELECT generation, best = previous_best FROM lineage WHERE {where} ORDER BY generation",
        (run_id, below, above),
    ).fetchall()
    stretches: list[InPlaceStretch] = []
    for generation, same in rows:
        last = stretches[-1] if stretches else None
        if last is not None and last.high == generation - 1:
            stretches[-1] = InPlaceStretch(generation, last.low, last.carried + same)
        else:
            stretches.append(InPlaceStretch(generation, generation, int(same)))
    return stretches


def _families(store: StoreConnection, run_id: int, top: int) -> Iterator[tuple[int, KeptFamily]]:
    """The generations kept with a family, newest first, a chunk at a time."""
    upper = int(top)
    while upper >= 1:
        with store.reading() as connection:
            if not _has_table(connection):
                return
            found = connection.execute(
                "SELECT generation, individuals, best, previous_best, width, family, "
                f"{_ROW_CHECKS} OR typeof(family) != 'blob' FROM lineage WHERE run_id = ? "
                "AND generation BETWEEN 1 AND ? AND family IS NOT NULL "
                "ORDER BY generation DESC LIMIT ?",
                (run_id, upper, READ_CHUNK),
            ).fetchall()
        for *values, damaged in found:
            if damaged:
                raise StoreError(f"{_where(store.path, run_id, values[0])}: damaged")
            row = LineageRow(*values)
            yield row.generation, KeptFamily(row, store.path, run_id)
        if len(found) < READ_CHUNK:
            return
        upper = int(found[-1][0]) - 1


def _where(path: Path, run_id: int, generation: object, last: object = None) -> str:
    """Where in a store a damaged lineage is: a generation, or generations up to ``last``."""
    generations = (
        f"generation {generation}" if last is None else (f"generations {generation} to {last}")
    )
    return f"{path}: run {run_id}, lineage of {generations}"
