"""The open file: one sqlite3 connection behind one lock, its transactions, and opening it.

:class:`StoreConnection` is what every reading and writing function of the package takes. It
turns every sqlite3 error raised while it reads or writes, in a transaction's body as much as
in its BEGIN and COMMIT, into a :class:`~tui.lab.store.errors.StoreError` naming the store, and
rolls a failed transaction back; :func:`open_connection` opens (and, when new, creates) a store
and refuses a file that is not one before anything is written to it.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Final

from tui.lab.store.creation import create_store_file
from tui.lab.store.errors import StoreError, explain
from tui.lab.store.existing_file import empty_file_error, refuse_unless_ours
from tui.lab.store.location import store_path, user_store_path
from tui.lab.store.schema import check_schema, table_names
from tui.lab.user_folders import make_private_folder

BUSY_TIMEOUT: Final = 10.0
"""Seconds a statement waits for another process's write to finish."""


class StoreConnection:
    """A store's sqlite3 connection, shared between threads behind one re-entrant lock.

    Args:
        path: The store's file, named in every error message.
        sqlite: The connection, opened in autocommit mode (transactions are explicit).
    """

    def __init__(self, path: Path, sqlite: sqlite3.Connection) -> None:
        self.path = path
        self.sqlite = sqlite
        self.lock = threading.RLock()

    def close(self) -> None:
        """Close the connection (uncommitted work is rolled back)."""
        with self.lock:
            self.sqlite.close()

    @contextlib.contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """One write transaction: all of it is committed, or none of it.

        Any sqlite3 error, from the body or from the commit, rolls the transaction back and
        comes out as a :class:`StoreError` naming the store; any other exception rolls it back
        and goes on as it was.
        """
        with self.lock:
            connection = self.sqlite
            try:
                connection.execute("BEGIN IMMEDIATE")
            except sqlite3.Error as error:
                raise StoreError(explain(self.path, error)) from None
            try:
                yield connection
                connection.execute("COMMIT")
            except sqlite3.Error as error:
                roll_back(connection)
                raise StoreError(explain(self.path, error)) from None
            except BaseException:
                roll_back(connection)
                raise

    @contextlib.contextmanager
    def reading(self) -> Iterator[sqlite3.Connection]:
        """Read statements, with sqlite3 errors turned into :class:`StoreError`."""
        with self.lock:
            try:
                yield self.sqlite
            except sqlite3.Error as error:
                raise StoreError(explain(self.path, error)) from None

    def writing(self) -> contextlib.AbstractContextManager[sqlite3.Connection]:
        """A write transaction (:meth:`transaction`), its sqlite3 errors as StoreError."""
        return self.transaction()


def roll_back(connection: sqlite3.Connection) -> None:
    """End a failed transaction, if SQLite has not ended it already.

    SQLite rolls a transaction back by itself after some errors (a full disk, say); a second
    ROLLBACK would fail with "no transaction is active" and hide the first error. A ROLLBACK
    that fails is let go for the same reason: the first error is the one to report.
    """
    if connection.in_transaction:
        with contextlib.suppress(sqlite3.Error):
            connection.execute("ROLLBACK")


def open_connection(
    path: str | os.PathLike[str] | None, *, create: bool, wal: bool
) -> StoreConnection:
    """Open (and, when new, create) a store; see :meth:`tui.lab.store.RunStore.open`.

    An existing file is judged before anything may write to it (:mod:`.existing_file`); a
    new one is created whole under its name (:mod:`.creation`), so the tables are only ever
    created in a file this call made.

    Raises:
        StoreError: When the file cannot be opened or created, is not a SQLite database,
            is another application's database, has a newer schema, or has a damaged
            write-ahead log.
    """
    target = store_path(path)
    exists = target.exists()
    if not exists and not create:
        raise StoreError(f"{target}: no such run file")
    if exists and target.is_dir():
        raise StoreError(f"{target}: is a directory, not a run store")
    if not exists:
        _make_folder_for(target)
        create_store_file(target, wal=wal)  # False: another process made it first; judged below
    try:
        refuse_unless_ours(target)
    except OSError as error:  # gone or unreadable since the checks above
        reason = error.strerror or error
        raise StoreError(f"{target}: cannot read the run store ({reason})") from None
    try:
        connection = sqlite3.connect(
            target, timeout=BUSY_TIMEOUT, isolation_level=None, check_same_thread=False
        )
    except sqlite3.Error as error:
        raise StoreError(f"cannot open the run store {target}: {error}") from None
    store = StoreConnection(target, connection)
    try:
        _prepare(store, wal)
    except StoreError:
        connection.close()
        raise
    except sqlite3.Error as error:
        connection.close()
        raise StoreError(explain(target, error)) from None
    return store


def _make_folder_for(target: Path) -> None:
    """Make the user's own store folder on first use; say so when another store's is missing.

    The folder of the default store (``~/.local/share/queens-ga`` on Linux) is made, private
    to the user, the first time a store is created in it: a new account records its first
    run with no step by hand. A folder named by ``--store`` or ``QUEENS_STORE`` is not made
    (a typing mistake would leave folders about): its absence is said in words.

    Raises:
        StoreError: The folder is missing and not ours to make, or cannot be made.
    """
    folder = target.parent
    if target.absolute() == user_store_path().absolute():
        try:
            make_private_folder(folder)
        except OSError as error:
            reason = error.strerror or error
            raise StoreError(
                f"{target}: cannot create the run store's folder {folder} ({reason}); "
                "pass --store or set QUEENS_STORE to keep runs elsewhere"
            ) from None
    elif not folder.is_dir():
        raise StoreError(
            f"{target}: cannot create a run store there: the folder {folder} does not exist; "
            "create it, or pass --store or set QUEENS_STORE to a file in a folder that does"
        )


def _prepare(store: StoreConnection, wal: bool) -> None:
    """Check the schema again on this connection, then set the connection up."""
    connection = store.sqlite
    connection.execute("PRAGMA foreign_keys = ON")
    tables = table_names(connection)
    if not tables:
        tables = _tables_once_created(store)
    check_schema(connection, store.path, tables)
    if wal:
        mode = _switch_to_wal(connection)
        if str(mode).lower() != "wal":
            raise StoreError(f"{store.path}: cannot switch the store to WAL mode ({mode})")
        # In WAL mode NORMAL never corrupts; a power cut may lose the last commits.
        connection.execute("PRAGMA synchronous = NORMAL")


def _switch_to_wal(connection: sqlite3.Connection) -> str:
    """``PRAGMA journal_mode = WAL``, tried again while other openers hold the file.

    Switching a rollback-mode file takes a read lock, then asks for the write lock; when
    another connection holds it, or asks for it too, SQLite refuses at once ("database is
    locked", the busy timeout not waited: an upgrade from a read lock does not wait). So a
    busy refusal is tried again until :data:`BUSY_TIMEOUT` has passed. A file already in
    WAL mode answers at once.
    """
    deadline = time.monotonic() + BUSY_TIMEOUT
    pause = 0.001
    while True:
        try:
            return str(connection.execute("PRAGMA journal_mode = WAL").fetchone()[0])
        except sqlite3.OperationalError as error:
            text = str(error).lower()
            busy = "locked" in text or "busy" in text
            if not busy or time.monotonic() + pause > deadline:
                raise
        time.sleep(pause)
        pause = min(pause * 2, 0.05)


def _tables_once_created(store: StoreConnection) -> set[str]:
    """The tables of an empty file once no process holds its write lock.

    An older queens created a store in place: the file exists, empty, while it creates the
    tables under its write lock. Waiting for that lock (and writing nothing) tells such a
    file from an empty file that nobody is creating, which is refused.

    Raises:
        StoreError: Still no tables once the lock is free.
    """
    connection = store.sqlite
    try:
        connection.execute("BEGIN IMMEDIATE")
    except sqlite3.Error:  # read-only, say: nobody is creating it through this file
        raise empty_file_error(store.path) from None
    try:
        tables = table_names(connection)
    finally:
        roll_back(connection)
    if not tables:
        raise empty_file_error(store.path)
    return tables
