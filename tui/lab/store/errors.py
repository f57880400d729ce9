"""What goes wrong with a store, said as a sentence about the file: :class:`StoreError`."""

from __future__ import annotations

import sqlite3
from pathlib import Path


class StoreError(Exception):
    """The store cannot be opened, is not ours, is damaged, or has no such run.

    The message names the file and says what is wrong; the command line prints it and exits 2.
    """


def explain(path: Path, error: sqlite3.Error) -> str:
    """A sqlite3 error as a sentence about the store.

    Args:
        path: The store's file, named at the start of the sentence.
        error: What sqlite3 raised.

    Returns:
        The sentence, with a hint at what to do where there is one.
    """
    text = str(error)
    if "not a database" in text or "malformed" in text or "disk image" in text:
        return f"{path}: damaged or not a SQLite database ({text})"
    if "readonly" in text or "read-only" in text:
        return (
            f"{path}: the store is read-only, nothing was written ({text}); make the file "
            "writable, or pass --store or set QUEENS_STORE to use another store"
        )
    if "unable to open" in text:
        return (
            f"{path}: cannot write the run store there ({text}); pass --store or set QUEENS_STORE"
        )
    if "disk is full" in text or "disk full" in text:
        # The transaction that ran out of room was rolled back: what was committed is whole.
        return (
            f"{path}: the disk is full, this change was not saved ({text}); what was saved "
            "before is intact: free some space and try again"
        )
    if "locked" in text or "busy" in text:
        return f"{path}: the store is busy (another process holds a write lock): {text}"
    return f"{path}: {text}"
