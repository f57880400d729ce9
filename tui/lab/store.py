"""The run store: one SQLite file holding every recorded run (and every sweep's results).

This is the only module that speaks SQL. Its API is narrow: open a store, start a run, record
a batch (stats, solutions, keyframes: one transaction), read a run, its stats, a keyframe, and
the sweep tables. Everything read back is checked: the store refuses a file it does not
understand (another application's database, a newer schema) instead of altering it, and a
damaged file or record raises :class:`StoreError` with a message, never a raw sqlite3 error.

Where the store lives: the ``--store PATH`` flag, else the ``QUEENS_STORE`` environment
variable, else ``runs.sqlite3`` in the user data directory (``platformdirs``).
"""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
import threading
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from tui.lab.npy import ArrayError, from_npy, to_npy
from tui.lab.writer_process import Writer

APPLICATION: Final = "queens-ga"
SCHEMA_VERSION: Final = 1
"""Bump when the tables change; a store with a newer version is refused, never altered."""
STORE_ENV: Final = "QUEENS_STORE"
STORE_FILE: Final = "runs.sqlite3"
BUSY_TIMEOUT: Final = 10.0
"""Seconds a statement waits for another process's write to finish."""

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

_SCHEMA: Final = f"""
CREATE TABLE schema_version (
    application TEXT NOT NULL,
    version INTEGER NOT NULL
);
CREATE TABLE runs (
    id INTEGER PRIMARY KEY,
    config TEXT NOT NULL,               -- JSON: the run's Config.to_dict()
    seed INTEGER NOT NULL,
    n INTEGER NOT NULL,
    label TEXT,                         -- the preset's name, when the run came from one
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
_TABLES: Final = frozenset(
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


class StoreError(Exception):
    """The store cannot be opened, is not ours, is damaged, or has no such run.

    The message names the file and says what is wrong; the command line prints it and exits 2.
    """


def default_store_path() -> Path:
    """``QUEENS_STORE`` when set, else ``runs.sqlite3`` in the user data directory."""
    from_env = os.environ.get(STORE_ENV)
    if from_env:
        return Path(from_env)
    import platformdirs

    return platformdirs.user_data_path("queens-ga") / STORE_FILE


def store_path(flag: str | os.PathLike[str] | None) -> Path:
    """The store to use: the ``--store`` flag, else :func:`default_store_path`."""
    return Path(flag) if flag else default_store_path()


@dataclass(frozen=True)
class RunInfo:
    """A run's record, without its generations.

    Attributes:
        status: ``running``, ``finished`` or ``interrupted``; a run recorded as ``running``
            whose writer is gone reads as ``interrupted``.
        generations: The last generation recorded.
        writer_alive: Whether a live process is recording this run now.
    """

    id: int
    config: dict[str, Any]
    seed: int
    n: int
    label: str | None
    engine_version: str
    started: float
    ended: float | None
    status: str
    stop_reason: str | None
    generations: int
    evaluations: int
    best_conflicts: int | None
    solutions: int
    keyframe_spacing: int
    writer_alive: bool

    @property
    def solved(self) -> bool:
        """Whether some generation had a solution."""
        return self.best_conflicts == 0 or self.solutions > 0


@dataclass(frozen=True)
class Keyframe:
    """A full engine state at one generation: plain values and numpy arrays.

    ``state`` is what :meth:`engine.GeneticAlgorithm.state` returns, with its arrays as numpy
    arrays (``population``, ``seen``, ``solutions``, ...). Nothing in it has been validated by
    the engine yet: :meth:`engine.GeneticAlgorithm.from_state` does that.
    """

    generation: int
    state: dict[str, Any]


@dataclass(frozen=True)
class Batch:
    """What a recorder commits at once.

    Attributes:
        stats: Rows of :data:`STAT_FIELDS` values, generations in increasing order.
        solutions: ``(generation, board)`` of each new solution, in the order found.
        keyframes: New keyframes.
        drop_keyframes_off: When set, ``(spacing, keep)``: delete the keyframes whose generation
            is not a multiple of ``spacing``, but for generation ``keep`` (thinning).
        keyframe_spacing: The run's keyframe spacing now, when it changed.
    """

    stats: Sequence[Sequence[float]] = ()
    solutions: Sequence[tuple[int, Sequence[int]]] = ()
    keyframes: Sequence[Keyframe] = ()
    drop_keyframes_off: tuple[int, int] | None = None
    keyframe_spacing: int | None = None


NPY_HEADER: Final = 128
"""Bytes a ``.npy`` header takes (numpy pads it to 128 for small shapes)."""


def keyframe_size(state: Mapping[str, Any]) -> int:
    """The bytes a keyframe counts against its run's budget: its JSON and its arrays."""
    plain = {name: value for name, value in state.items() if not isinstance(value, np.ndarray)}
    arrays = sum(
        value.nbytes + NPY_HEADER for value in state.values() if isinstance(value, np.ndarray)
    )
    return len(_json(plain)) + arrays


def _plain(value: Any) -> Any:
    """numpy scalars as Python numbers, for sqlite3 and JSON."""
    if isinstance(value, np.generic):
        return value.item()
    return value


def _json(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), allow_nan=False, default=_plain)


class RunStore:
    """An open run store. Use :meth:`open`; close it (or use it as a context manager).

    Safe to share between threads (one lock around the connection); several processes may
    read and write the same file (WAL: readers never wait for the writer).
    """

    def __init__(self, path: Path, connection: sqlite3.Connection) -> None:
        self.path = path
        self._connection = connection
        self._lock = threading.RLock()

    # -- opening --------------------------------------------------------------------------

    @classmethod
    def open(
        cls,
        path: str | os.PathLike[str] | None = None,
        *,
        create: bool = True,
        wal: bool = True,
    ) -> RunStore:
        """Open (and, when new, create) a store.

        Args:
            path: The file; ``None``: :func:`default_store_path`.
            create: Create the file when it does not exist (else: :class:`StoreError`).
            wal: Switch the file to WAL mode (a portable run file stays in rollback mode).

        Raises:
            StoreError: When the file cannot be opened or created, is not a SQLite database,
                is another application's database, or has a newer schema.
        """
        default = path is None
        target = store_path(path)
        exists = target.exists()
        if not exists and not create:
            raise StoreError(f"{target}: no such run file")
        if exists and target.is_dir():
            raise StoreError(f"{target}: is a directory, not a run store")
        if not exists and default:
            try:
                target.parent.mkdir(parents=True, exist_ok=True)
            except OSError as error:
                raise StoreError(
                    f"cannot create the store's folder {target.parent}: {error}"
                ) from None
        try:
            connection = sqlite3.connect(
                target, timeout=BUSY_TIMEOUT, isolation_level=None, check_same_thread=False
            )
        except sqlite3.Error as error:
            raise StoreError(f"cannot open the run store {target}: {error}") from None
        store = cls(target, connection)
        try:
            store._prepare(wal, create)
        except StoreError:
            connection.close()
            raise
        except sqlite3.Error as error:
            connection.close()
            raise StoreError(_explain(target, error)) from None
        return store

    def _prepare(self, wal: bool, create: bool) -> None:
        """Check (or, with ``create``, create) the schema, then set the connection up."""
        connection = self._connection
        connection.execute("PRAGMA foreign_keys = ON")
        tables = self._table_names()
        if not tables and not create:
            raise StoreError(f"{self.path}: an empty file, not a queens run file")
        if not tables and not self._create_schema():
            tables = self._table_names()  # another process created it meanwhile: check it
        if not tables:
            pass  # created here
        elif "schema_version" not in tables:
            raise StoreError(
                f"{self.path}: not a queens run store (a SQLite database with other tables); "
                "refusing to change it: pass another --store"
            )
        else:
            rows = connection.execute("SELECT application, version FROM schema_version").fetchall()
            if len(rows) != 1 or rows[0][0] != APPLICATION:
                raise StoreError(f"{self.path}: not a queens run store; refusing to change it")
            version = rows[0][1]
            if not isinstance(version, int) or version > SCHEMA_VERSION:
                raise StoreError(
                    f"{self.path}: written by a newer queens (store schema {version!r}, this "
                    f"version reads up to {SCHEMA_VERSION}); upgrade queens-ga to read it"
                )
            if version < SCHEMA_VERSION or not tables >= _TABLES:
                raise StoreError(
                    f"{self.path}: store schema {version!r} is incomplete or older than this "
                    f"version's ({SCHEMA_VERSION}); refusing to change it"
                )
        if wal:
            mode = connection.execute("PRAGMA journal_mode = WAL").fetchone()[0]
            if str(mode).lower() != "wal":
                raise StoreError(f"{self.path}: cannot switch the store to WAL mode ({mode})")
            # In WAL mode NORMAL never corrupts; a power cut may lose the last commits.
            connection.execute("PRAGMA synchronous = NORMAL")

    def _table_names(self) -> set[str]:
        return {
            row[0]
            for row in self._connection.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table'"
            )
        }

    def _create_schema(self) -> bool:
        """Create the tables; ``False`` when another process created them first (two
        processes opening a new file at once: the second waits for the first's write lock)."""
        with self._transaction():
            if self._table_names():
                return False
            for statement in _SCHEMA.split(";"):
                if statement.strip():
                    self._connection.execute(statement)
            self._connection.execute(
                "INSERT INTO schema_version (application, version) VALUES (?, ?)",
                (APPLICATION, SCHEMA_VERSION),
            )
        return True

    def close(self) -> None:
        """Close the connection (uncommitted work is rolled back)."""
        with self._lock:
            self._connection.close()

    def __enter__(self) -> RunStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextlib.contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        """One write transaction: all of it is committed, or none of it."""
        with self._lock:
            connection = self._connection
            try:
                connection.execute("BEGIN IMMEDIATE")
            except sqlite3.Error as error:
                raise StoreError(_explain(self.path, error)) from None
            try:
                yield connection
            except BaseException:
                connection.execute("ROLLBACK")
                raise
            try:
                connection.execute("COMMIT")
            except sqlite3.Error as error:
                connection.execute("ROLLBACK")
                raise StoreError(_explain(self.path, error)) from None

    @contextlib.contextmanager
    def _reading(self) -> Iterator[sqlite3.Connection]:
        """Read statements, with sqlite3 errors turned into :class:`StoreError`."""
        with self._lock:
            try:
                yield self._connection
            except sqlite3.Error as error:
                raise StoreError(_explain(self.path, error)) from None

    def _write(self) -> contextlib.AbstractContextManager[sqlite3.Connection]:
        return _Guarded(self)

    # -- runs -------------------------------------------------------------------------------

    def begin_run(
        self,
        config: Mapping[str, Any],
        *,
        seed: int,
        engine_version: str,
        label: str | None,
        keyframe_spacing: int,
        writer: Writer,
    ) -> int:
        """Create a run record (status ``running``, owned by ``writer``); returns its id."""
        now = time.time()
        with self._write() as connection:
            cursor = connection.execute(
                "INSERT INTO runs (config, seed, n, label, engine_version, started, status, "
                "keyframe_spacing, writer_host, writer_pid, writer_start, heartbeat) "
                "VALUES (?, ?, ?, ?, ?, ?, 'running', ?, ?, ?, ?, ?)",
                (
                    _json(dict(config)),
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
            run_id = cursor.lastrowid
        assert run_id is not None
        return int(run_id)

    def claim_run(
        self, run_id: int, writer: Writer, *, config: Mapping[str, Any] | None = None
    ) -> RunInfo:
        """Make ``writer`` the run's writer again (to resume it): status back to ``running``.

        Args:
            config: The run's config, when resuming changes its budget.

        Raises:
            StoreError: No such run, or a live process is recording it.
        """
        with self._write() as connection:
            info = self._run_info(connection, run_id)
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
                    None if config is None else _json(dict(config)),
                    run_id,
                ),
            )
            return self._run_info(connection, run_id)

    def record(self, run_id: int, batch: Batch) -> None:
        """Commit one batch of a run in one transaction, and beat the writer's heart."""
        with self._write() as connection:
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
                    "INSERT INTO solutions (run_id, position, generation, board) "
                    "VALUES (?, ?, ?, ?)",
                    [
                        (run_id, count + offset, int(generation), _json([int(g) for g in board]))
                        for offset, (generation, board) in enumerate(batch.solutions)
                    ],
                )
            for keyframe in batch.keyframes:
                self._put_keyframe(connection, run_id, keyframe)
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

    def _put_keyframe(
        self, connection: sqlite3.Connection, run_id: int, keyframe: Keyframe
    ) -> None:
        plain: dict[str, Any] = {}
        arrays: dict[str, bytes] = {}
        for name, value in keyframe.state.items():
            if isinstance(value, np.ndarray):
                arrays[name] = to_npy(value)
            else:
                plain[name] = value
        text = _json(plain)
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

    def end_run(self, run_id: int, status: str, stop_reason: str | None) -> None:
        """Mark the run ``finished`` or ``interrupted`` and release it."""
        if status not in ("finished", "interrupted"):
            raise ValueError(f"status: {status!r} is not allowed; finished or interrupted")
        with self._write() as connection:
            connection.execute(
                "UPDATE runs SET status = ?, stop_reason = ?, ended = ?, heartbeat = ?, "
                "writer_pid = NULL, writer_host = NULL, writer_start = NULL WHERE id = ?",
                (status, stop_reason, time.time(), time.time(), run_id),
            )

    def truncate_run(self, run_id: int, after: int) -> None:
        """Forget the run's stats, solutions and keyframes after generation ``after``."""
        with self._write() as connection:
            for table in ("stats", "solutions", "keyframes"):
                connection.execute(
                    f"DELETE FROM {table} WHERE run_id = ? AND generation > ?", (run_id, after)
                )
            connection.execute(
                "UPDATE runs SET generations = MIN(generations, ?), "
                "solutions = (SELECT COUNT(*) FROM solutions WHERE run_id = ?) WHERE id = ?",
                (after, run_id, run_id),
            )

    def delete_run(self, run_id: int) -> None:
        """Delete a run and everything recorded with it.

        Raises:
            StoreError: No such run, or a live process is recording it.
        """
        with self._write() as connection:
            info = self._run_info(connection, run_id)
            if info.writer_alive:
                raise StoreError(f"run {run_id} is being recorded right now; stop it first")
            connection.execute("DELETE FROM runs WHERE id = ?", (run_id,))

    # -- reading runs ---------------------------------------------------------------------

    def runs(self) -> list[RunInfo]:
        """Every run, oldest first."""
        with self._reading() as connection:
            rows = connection.execute(f"SELECT {_RUN_COLUMNS} FROM runs ORDER BY id").fetchall()
            return [_run_info(self.path, row) for row in rows]

    def run(self, run_id: int) -> RunInfo:
        """One run's record.

        Raises:
            StoreError: No such run (the message says which store was searched).
        """
        with self._reading() as connection:
            return self._run_info(connection, run_id)

    def _run_info(self, connection: sqlite3.Connection, run_id: int) -> RunInfo:
        row = connection.execute(
            f"SELECT {_RUN_COLUMNS} FROM runs WHERE id = ?", (int(run_id),)
        ).fetchone()
        if row is None:
            raise StoreError(f"no run {run_id} in {self.path} (queens runs lists them)")
        return _run_info(self.path, row)

    def stats(
        self, run_id: int, start: int = 0, stop: int | None = None
    ) -> dict[str, npt.NDArray[Any]]:
        """The run's statistics for generations ``start <= g < stop``, as numpy columns."""
        upper = stop if stop is not None else 2**62
        with self._reading() as connection:
            rows = connection.execute(
                f"SELECT {', '.join(STAT_FIELDS)} FROM stats WHERE run_id = ? "
                "AND generation >= ? AND generation < ? ORDER BY generation",
                (run_id, int(start), int(upper)),
            ).fetchall()
        return _columns(self.path, run_id, rows)

    def iter_stats(self, run_id: int, chunk: int = 65536) -> Iterator[dict[str, Any]]:
        """Every generation's statistics as a dict, read in chunks (for exports)."""
        start = 0
        while True:
            columns = self.stats(run_id, start, start + chunk)
            count = len(columns["generation"])
            if count == 0:
                return
            lists = {name: values.tolist() for name, values in columns.items()}
            for index in range(count):
                yield {name: lists[name][index] for name in STAT_FIELDS}
            start = int(columns["generation"][-1]) + 1

    def solutions(self, run_id: int) -> list[tuple[int, list[int]]]:
        """``(generation, board)`` of each solution, in the order found."""
        with self._reading() as connection:
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
                raise StoreError(f"{self.path}: run {run_id}: a damaged solution row")
            found.append((int(generation), genes))
        return found

    def keyframe_generations(self, run_id: int) -> list[int]:
        """Generations that have a keyframe, in order."""
        with self._reading() as connection:
            rows = connection.execute(
                "SELECT generation FROM keyframes WHERE run_id = ? ORDER BY generation", (run_id,)
            ).fetchall()
        return [int(row[0]) for row in rows]

    def keyframe_bytes(self, run_id: int) -> int:
        """The size of the run's keyframes, as counted against its budget."""
        with self._reading() as connection:
            (size,) = connection.execute(
                "SELECT COALESCE(SUM(bytes), 0) FROM keyframes WHERE run_id = ?", (run_id,)
            ).fetchone()
        return int(size)

    def keyframe_before(self, run_id: int, generation: int) -> Keyframe | None:
        """The latest keyframe at or before ``generation``, or ``None``.

        Raises:
            StoreError: When the keyframe is damaged (not JSON, arrays not plain ``.npy``).
        """
        with self._reading() as connection:
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
        where = f"{self.path}: run {run_id}, keyframe of generation {row[0]}"
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

    def export_run(self, run_id: int, destination: str | os.PathLike[str]) -> None:
        """Write a portable run file: a new store holding this run only (same id).

        Written beside ``destination`` and renamed into place, so a failure leaves nothing
        half-written.

        Raises:
            StoreError: No such run, the destination exists, or it cannot be written.
        """
        target = Path(destination)
        if target.exists():
            raise StoreError(f"{target}: exists already; choose another --output")
        self.run(run_id)
        partial = target.with_name(target.name + ".partial")
        partial.unlink(missing_ok=True)
        RunStore.open(partial, wal=False).close()
        try:
            with self._lock:
                connection = self._connection
                try:
                    connection.execute("ATTACH DATABASE ? AS portable", (str(partial),))
                except sqlite3.Error as error:
                    raise StoreError(_explain(target, error)) from None
                try:
                    with self._transaction():
                        for table, key in _RUN_TABLES:
                            connection.execute(
                                f"INSERT INTO portable.{table} SELECT * FROM main.{table} "
                                f"WHERE {key} = ?",
                                (run_id,),
                            )
                        connection.execute(
                            "UPDATE portable.runs SET writer_host = NULL, writer_pid = NULL, "
                            "writer_start = NULL, status = CASE status WHEN 'running' "
                            "THEN 'interrupted' ELSE status END"
                        )
                finally:
                    connection.execute("DETACH DATABASE portable")
            os.replace(partial, target)
        except BaseException:
            partial.unlink(missing_ok=True)
            raise

    def single_run_id(self) -> int:
        """The id of the one run in a run file.

        Raises:
            StoreError: When the file holds no run or several.
        """
        with self._reading() as connection:
            rows = connection.execute("SELECT id FROM runs LIMIT 2").fetchall()
        if len(rows) != 1:
            raise StoreError(
                f"{self.path}: a run file holds exactly one run; this one holds "
                f"{'none' if not rows else 'several'} (pass an id with --store instead)"
            )
        return int(rows[0][0])

    def size_bytes(self) -> int:
        """The database's size (pages in use, WAL included once checkpointed)."""
        with self._reading() as connection:
            (pages,) = connection.execute("PRAGMA page_count").fetchone()
            (size,) = connection.execute("PRAGMA page_size").fetchone()
        return int(pages) * int(size)

    # -- sweeps (issue 10) ----------------------------------------------------------------

    def sweep_for(self, fingerprint: str, plan: Mapping[str, Any]) -> int:
        """The id of the sweep with this fingerprint, created (with its plan) if new."""
        with self._write() as connection:
            row = connection.execute(
                "SELECT id FROM sweeps WHERE fingerprint = ?", (fingerprint,)
            ).fetchone()
            if row is not None:
                return int(row[0])
            cursor = connection.execute(
                "INSERT INTO sweeps (fingerprint, plan, created) VALUES (?, ?, ?)",
                (fingerprint, _json(dict(plan)), time.time()),
            )
            assert cursor.lastrowid is not None
            return int(cursor.lastrowid)

    def add_sweep_result(
        self,
        sweep_id: int,
        config_fingerprint: str,
        seed: int,
        result: Mapping[str, Any],
        run_id: int | None = None,
    ) -> bool:
        """Keep one run's result; ``False`` (and nothing changed) when it was kept already."""
        with self._write() as connection:
            cursor = connection.execute(
                "INSERT OR IGNORE INTO sweep_results "
                "(sweep_id, config_fingerprint, seed, result, run_id) VALUES (?, ?, ?, ?, ?)",
                (sweep_id, config_fingerprint, int(seed), _json(dict(result)), run_id),
            )
            return cursor.rowcount == 1

    def sweep_results(self, sweep_id: int) -> list[dict[str, Any]]:
        """Every result of a sweep: ``config_fingerprint``, ``seed``, ``result``, ``run_id``."""
        with self._reading() as connection:
            rows = connection.execute(
                "SELECT config_fingerprint, seed, result, run_id FROM sweep_results "
                "WHERE sweep_id = ? ORDER BY config_fingerprint, seed",
                (sweep_id,),
            ).fetchall()
        return [
            {
                "config_fingerprint": fingerprint,
                "seed": int(seed),
                "result": self._loads(result, f"sweep {sweep_id} result"),
                "run_id": run_id,
            }
            for fingerprint, seed, result, run_id in rows
        ]

    def sweeps(self) -> list[dict[str, Any]]:
        """Every sweep, oldest first, with how many results it holds (``results``)."""
        with self._reading() as connection:
            rows = connection.execute(_SWEEP_SELECT + " GROUP BY s.id ORDER BY s.id").fetchall()
        return [self._sweep(row) for row in rows]

    def sweep(self, sweep_id: int) -> dict[str, Any] | None:
        """One sweep (as in :meth:`sweeps`), or ``None``."""
        with self._reading() as connection:
            row = connection.execute(
                _SWEEP_SELECT + " WHERE s.id = ? GROUP BY s.id", (int(sweep_id),)
            ).fetchone()
        return None if row is None else self._sweep(row)

    def finish_sweep(self, sweep_id: int) -> None:
        """Mark a sweep finished (now)."""
        with self._write() as connection:
            connection.execute(
                "UPDATE sweeps SET finished = ? WHERE id = ?", (time.time(), sweep_id)
            )

    def clear_sweep_results(self, sweep_id: int) -> None:
        """Forget a sweep's results (``--fresh``), and that it finished."""
        with self._write() as connection:
            connection.execute("DELETE FROM sweep_results WHERE sweep_id = ?", (sweep_id,))
            connection.execute("UPDATE sweeps SET finished = NULL WHERE id = ?", (sweep_id,))

    def _sweep(self, row: Sequence[Any]) -> dict[str, Any]:
        sweep_id, fingerprint, plan, created, finished, results = row
        return {
            "id": int(sweep_id),
            "fingerprint": fingerprint,
            "plan": self._loads(plan, f"sweep {sweep_id} plan"),
            "created": created,
            "finished": finished,
            "results": int(results),
        }

    def _loads(self, text: Any, what: str) -> Any:
        try:
            return json.loads(text)
        except (TypeError, ValueError):
            raise StoreError(f"{self.path}: {what} is damaged (not JSON)") from None


class _Guarded(contextlib.AbstractContextManager[sqlite3.Connection]):
    """A write transaction whose sqlite3 errors become :class:`StoreError`."""

    def __init__(self, store: RunStore) -> None:
        self._store = store
        self._inner: contextlib.AbstractContextManager[sqlite3.Connection] | None = None

    def __enter__(self) -> sqlite3.Connection:
        self._inner = self._store._transaction()
        return self._inner.__enter__()

    def __exit__(self, kind: Any, error: Any, trace: Any) -> bool | None:
        assert self._inner is not None
        try:
            return self._inner.__exit__(kind, error, trace)
        except sqlite3.Error as failure:
            raise StoreError(_explain(self._store.path, failure)) from None


_RUN_COLUMNS: Final = (
    "id, config, seed, n, label, engine_version, started, ended, status, stop_reason, "
    "generations, evaluations, best_conflicts, solutions, keyframe_spacing, "
    "writer_host, writer_pid, writer_start, heartbeat"
)
_RUN_TABLES: Final = (
    ("runs", "id"),
    ("stats", "run_id"),
    ("solutions", "run_id"),
    ("keyframes", "run_id"),
    ("keyframe_arrays", "run_id"),
)
_SWEEP_SELECT: Final = (
    "SELECT s.id, s.fingerprint, s.plan, s.created, s.finished, COUNT(r.seed) "
    "FROM sweeps s LEFT JOIN sweep_results r ON r.sweep_id = s.id"
)


def _run_info(path: Path, row: Sequence[Any]) -> RunInfo:
    """A :class:`RunInfo` from a ``runs`` row, checked."""
    (run_id, config, seed, n, label, version, started, ended, status, reason) = row[:10]
    (generations, evaluations, best, solutions, spacing) = row[10:15]
    (host, pid, start, heartbeat) = row[15:]
    try:
        config = json.loads(config)
    except (TypeError, ValueError):
        config = None
    if not isinstance(config, dict) or status not in STATUSES:
        raise StoreError(f"{path}: run {run_id} is damaged (config or status)")
    alive = False
    if status == "running" and host is not None and pid is not None:
        alive = Writer(str(host), int(pid), start).alive(heartbeat)
        if not alive:
            status = "interrupted"
    elif status == "running":
        status = "interrupted"
    return RunInfo(
        id=int(run_id),
        config=config,
        seed=int(seed),
        n=int(n),
        label=label,
        engine_version=str(version),
        started=float(started),
        ended=None if ended is None else float(ended),
        status=status,
        stop_reason=reason,
        generations=int(generations),
        evaluations=int(evaluations),
        best_conflicts=None if best is None else int(best),
        solutions=int(solutions),
        keyframe_spacing=int(spacing),
        writer_alive=alive,
    )


def _columns(path: Path, run_id: int, rows: list[Any]) -> dict[str, npt.NDArray[Any]]:
    """Stats rows as typed numpy columns, refusing damaged values."""
    columns: dict[str, npt.NDArray[Any]] = {}
    for index, name in enumerate(STAT_FIELDS):
        values = [row[index] for row in rows]
        dtype = np.int64 if name in INTEGER_STATS else np.float64
        try:
            columns[name] = np.asarray(values, dtype=dtype)
        except (TypeError, ValueError, OverflowError):
            raise StoreError(f"{path}: run {run_id}: damaged stats ({name})") from None
    generations = columns["generation"]
    if generations.size > 1 and not bool(np.all(np.diff(generations) == 1)):
        raise StoreError(f"{path}: run {run_id}: generations missing from the stats")
    return columns


def _explain(path: Path, error: sqlite3.Error) -> str:
    """A sqlite3 error as a sentence about the store."""
    text = str(error)
    if "not a database" in text or "malformed" in text or "disk image" in text:
        return f"{path}: damaged or not a SQLite database ({text})"
    if "readonly" in text or "read-only" in text or "unable to open" in text:
        return (
            f"{path}: cannot write the run store there ({text}); pass --store or set QUEENS_STORE"
        )
    if "locked" in text or "busy" in text:
        return f"{path}: the store is busy (another process holds a write lock): {text}"
    return f"{path}: {text}"
