"""The run store as an exact count sees it: :class:`CountStore`, on a connection of its own.

Each method is one line handing its work to :mod:`.count_tables`; opening is the same as a
:class:`~tui.lab.store.RunStore`'s (:func:`~tui.lab.store.connection.open_connection`): the
same file, found the same way, judged and created by the same rules.
"""

from __future__ import annotations

import os
from pathlib import Path

from tui.lab.store import count_tables
from tui.lab.store.connection import StoreConnection, open_connection
from tui.lab.store.count_tables import KeptCount, KeptPart


class CountStore:
    """An open run store, for its exact counts. Use :meth:`open`; close it (or use ``with``).

    Attributes:
        path: The store's file.
    """

    def __init__(self, connection: StoreConnection) -> None:
        self.path: Path = connection.path
        self._store = connection

    @classmethod
    def open(cls, path: str | os.PathLike[str] | None = None) -> CountStore:
        """Open (and, when new, create) a store, as :meth:`tui.lab.store.RunStore.open` does.

        Raises:
            StoreError: When the file cannot be opened or created, or is not a store this
                version reads.
        """
        return cls(open_connection(path, create=True, wal=True))

    def close(self) -> None:
        """Close the connection."""
        self._store.close()

    def __enter__(self) -> CountStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def count_for(self, fingerprint: str, n: int, parts: int, prefixes: int) -> int:
        """The id of the count with this split's fingerprint, created if new."""
        return count_tables.count_for(self._store, fingerprint, n, parts, prefixes)

    def add_part(self, count_id: int, part: KeptPart) -> bool:
        """Keep one part's count; ``False`` (and nothing changed) when it was kept already."""
        return count_tables.add_part(self._store, count_id, part)

    def parts(self, count_id: int) -> list[KeptPart]:
        """Every part kept for a count, in order."""
        return count_tables.parts(self._store, count_id)

    def finish_count(self, count_id: int, total: int, fundamental: int) -> None:
        """Mark a count finished (now), with its result."""
        count_tables.finish_count(self._store, count_id, total, fundamental)

    def clear_count(self, count_id: int) -> None:
        """Forget a count's parts and result (``--fresh``)."""
        count_tables.clear_count(self._store, count_id)

    def counts(self) -> list[KeptCount]:
        """Every count, oldest first, with how many parts it holds."""
        return count_tables.counts(self._store)
