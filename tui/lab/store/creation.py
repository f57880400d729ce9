"""A new store, made whole beside its name and then given it: :func:`create_store_file`.

The tables are created in a file of a name no other process uses, which is then linked to the
store's name only if that name is still free. So a store's name never shows a file half made:
an empty file, or one without our tables, under a store's name is never one being created
right now, and is refused like any file that is not a store (:mod:`.existing_file`).
"""

from __future__ import annotations

import contextlib
import os
import secrets
import shutil
import sqlite3
from pathlib import Path
from typing import Final

from tui.lab.store.errors import StoreError
from tui.lab.store.schema import create_schema

SIDE_FILES: Final = ("-journal", "-wal", "-shm")
"""What SQLite may leave beside a database it was writing when it stopped."""


def create_store_file(
    target: Path,
    *,
    named: Path | None = None,
    hint: str = "pass --store or set QUEENS_STORE",
    wal: bool = False,
) -> bool:
    """Create an empty store (the tables, in rollback-journal mode unless ``wal``) at ``target``.

    A store meant for WAL mode is switched before it gets its name: switching a file that
    others have open needs every one of them to let go, and several openers switching at
    once refuse each other at once ("database is locked", without waiting).

    Args:
        target: Where the store goes; its folder must exist.
        named: The file to name in error messages (default ``target``).
        hint: What to do instead, said at the end of an error message.
        wal: Make the file in WAL mode (a portable run file stays in rollback mode).

    Returns:
        ``True`` when this call created it; ``False`` when a file of that name appeared
        meanwhile (another process created it first: open it as an existing file).

    Raises:
        StoreError: When the folder cannot hold a new file (read-only, full, missing).
    """
    shown = named or target
    making = target.with_name(f".{target.name}.{secrets.token_hex(6)}.new")
    try:
        try:
            connection = sqlite3.connect(making, isolation_level=None)
            try:
                connection.execute("BEGIN IMMEDIATE")
                create_schema(connection)
                connection.execute("COMMIT")
                if wal:
                    connection.execute("PRAGMA journal_mode = WAL")
            finally:
                connection.close()
        except sqlite3.Error as error:
            raise StoreError(
                f"{shown}: cannot create a run store there ({error}); {hint}"
            ) from None
        return _give_name(making, target, shown, hint)
    finally:
        remove_with_side_files(making)


def _give_name(made: Path, target: Path, shown: Path, hint: str) -> bool:
    """Link ``made`` to ``target`` unless ``target`` exists; ``False`` when it does."""
    try:
        os.link(made, target)
        return True
    except FileExistsError:
        return False
    except OSError:  # a file system without hard links: create the name exclusively, copy
        pass
    try:
        with open(target, "xb") as destination, open(made, "rb") as source:
            shutil.copyfileobj(source, destination)
            destination.flush()
            os.fsync(destination.fileno())
        return True
    except FileExistsError:
        return False
    except OSError as error:
        with contextlib.suppress(OSError):
            target.unlink()
        reason = error.strerror or error
        raise StoreError(f"{shown}: cannot create a run store there ({reason}); {hint}") from None


def remove_with_side_files(path: Path) -> None:
    """Remove ``path`` and what SQLite may have left beside it, where they exist."""
    for name in ("", *SIDE_FILES):
        with contextlib.suppress(OSError):  # missing, or a folder that forbids it: leave it
            path.with_name(path.name + name).unlink()
