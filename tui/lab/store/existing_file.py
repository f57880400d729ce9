"""An existing file, judged before anything may write to it: :func:`refuse_unless_ours`.

SQLite changes a file merely by opening it read-write: it recovers a write-ahead log (dropping
one it finds damaged), checkpoints it into the database, deletes it on close, and rolls a
journal back. None of that may happen to a file that is not a store, nor to a store whose log
is damaged. So the log's header is read first (:mod:`.wal_header`), and the tables are read
through an *immutable* read-only connection, which takes no lock and opens neither the log
nor the journal: it leaves every file as it was.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from tui.lab.store.errors import StoreError, explain
from tui.lab.store.schema import check_schema, table_names
from tui.lab.store.wal_header import WAL_HEADER_BYTES, WAL_SUFFIX, refuse_damaged_wal


def empty_file_error(path: Path) -> StoreError:
    """The refusal of a zero-length file: no store, and not one being created (see
    :mod:`.creation`)."""
    return StoreError(
        f"{path}: an empty file (0 bytes), not a queens run store; refusing to change it: "
        "delete it or pass another --store"
    )


def refuse_unless_ours(path: Path) -> None:
    """Refuse an existing file that is not a store of this version, or whose log is damaged.

    A zero-length file is left to the opener: an older queens created stores in place, and
    one may be creating this one right now (the opener waits for its write lock, then looks).

    Raises:
        StoreError: A damaged log; not a SQLite database; another application's database
            (tables or none); a newer or incomplete schema.
    """
    log = path.with_name(path.name + WAL_SUFFIX)
    if path.stat().st_size == 0:
        if log.exists() and log.stat().st_size > 0:
            # A database whose every page is still in its log: never a store of ours, which
            # has its tables in the file from the moment it has a name.
            raise StoreError(
                f"{path}: not a queens run store (an empty file beside a write-ahead log); "
                "refusing to change it: pass another --store"
            )
        return
    refuse_damaged_wal(path)
    try:
        _check_reading(path, immutable=True)
    except sqlite3.DatabaseError as error:
        journal = path.with_name(path.name + "-journal")
        if not (_longer_than(log, WAL_HEADER_BYTES) or _longer_than(journal, 0)):
            raise StoreError(_explain_reading(path, error)) from None
        # The file alone may be caught in the middle of a write: a checkpoint that a full disk
        # cut short, or one another process is running now (its log, checked above, completes
        # it), or a commit cut short (its journal undoes it). Read through them, still
        # read-only: SQLite may rebuild the log's index (-shm), but writes neither the file
        # nor its log, and leaves a journal to be rolled back as it is.
        try:
            _check_reading(path, immutable=False)
        except sqlite3.Error as error:
            raise StoreError(_explain_reading(path, error)) from None
    except sqlite3.Error as error:
        raise StoreError(_explain_reading(path, error)) from None


def _longer_than(path: Path, size: int) -> bool:
    """Whether ``path`` exists and holds more than ``size`` bytes."""
    try:
        return path.stat().st_size > size
    except OSError:
        return False


def _check_reading(path: Path, *, immutable: bool) -> None:
    """:func:`~tui.lab.store.schema.check_schema` on a read-only connection; ``immutable``:
    one that reads the file alone, taking no lock and opening neither log nor journal."""
    uri = path.absolute().as_uri() + ("?mode=ro&immutable=1" if immutable else "?mode=ro")
    connection = sqlite3.connect(uri, uri=True, isolation_level=None)
    try:
        tables = table_names(connection)
        if not tables:
            raise StoreError(
                f"{path}: not a queens run store (a SQLite database without tables); "
                "refusing to change it: pass another --store"
            )
        check_schema(connection, path, tables)
    finally:
        connection.close()


def _explain_reading(path: Path, error: sqlite3.Error) -> str:
    """A failed read-only look as a sentence; a journal to roll back is not a read-only file."""
    if getattr(error, "sqlite_errorname", "") == "SQLITE_READONLY_ROLLBACK":
        return (
            f"{path}: a write to it was cut short and its journal ({path.name}-journal) must "
            "be rolled back before it can be read; refusing to do that to a file not known to "
            "be a queens store: open it once with the sqlite3 shell (which rolls it back), "
            "then try again"
        )
    return explain(path, error)
