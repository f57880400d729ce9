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
import time
from pathlib import Path

from tui.lab.store.errors import StoreError, explain
from tui.lab.store.schema import check_schema, table_names
from tui.lab.store.wal_header import RECHECK_PAUSE, WAL_SUFFIX, refuse_damaged_wal


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
    if path.stat().st_size == 0:
        log = path.with_name(path.name + WAL_SUFFIX)
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
        _check_untouched(path)
    except sqlite3.DatabaseError:
        # A checkpoint of another process may have been rewriting the first page: once more.
        time.sleep(RECHECK_PAUSE)
        try:
            _check_untouched(path)
        except sqlite3.Error as error:
            raise StoreError(explain(path, error)) from None
    except sqlite3.Error as error:
        raise StoreError(explain(path, error)) from None


def _check_untouched(path: Path) -> None:
    """:func:`~tui.lab.store.schema.check_schema` on an immutable read-only connection."""
    uri = path.absolute().as_uri() + "?mode=ro&immutable=1"
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
