"""The run store: one SQLite file holding every recorded run (and every sweep's results).

This package is the only place that speaks SQL. Its API is narrow: open a store, start a run,
record a batch (stats, solutions, keyframes: one transaction), read a run, its stats, a
keyframe, and the sweep tables. Everything read back is checked: the store refuses a file it
does not understand (another application's database, an empty file, a newer schema, a damaged
write-ahead log) instead of altering it, and a damaged file or record, or a write that fails
(a read-only file, a full disk: rolled back whole), raises :class:`StoreError` with a message
naming the file, never a raw sqlite3 error.

Where the store lives: the ``--store PATH`` flag, else the ``QUEENS_STORE`` environment
variable, else ``runs.sqlite3`` in the user data directory (:mod:`tui.lab.user_folders`).

What lives where:

- :mod:`.run_store`: :class:`RunStore`, the one object callers hold; each method hands its
  work to one of the modules below.
- :mod:`.schema`: the tables, :data:`SCHEMA_VERSION`, :data:`APPLICATION`, :data:`STAT_FIELDS`,
  and the checks that refuse a file that is not ours.
- :mod:`.connection`: opening a file; the connection, its lock, its transactions.
- :mod:`.existing_file`: an existing file judged before anything writes to it (through
  :mod:`.wal_header` and :mod:`.wal_frames`, its write-ahead log, too); :mod:`.creation`: a
  new store made whole before it takes its name.
- :mod:`.records`: :class:`RunInfo`, :class:`Keyframe`, :class:`Batch`, the JSON written and
  the checked conversion of rows read back.
- :mod:`.run_writes`: begin, claim, record, end, truncate, label and delete runs;
  :mod:`.run_ids`: the highest id ever given, so a deleted run's id is never given again.
- :mod:`.operator_swaps`: :class:`OperatorSwap`, the operators a run was given from a
  generation on, kept in its config's JSON.
- :mod:`.run_reads`: runs, stats, solutions, keyframes, a portable run file, the store's size.
- :mod:`.run_size`: what a run's record takes, as its record budget counts it.
- :mod:`.sweep_tables`: sweeps and their results.
- :mod:`.count_tables`: exact counts split into parts, each part's count (tables made when a
  count is first kept); :mod:`.count_store`: :class:`~.count_store.CountStore`, the store as a
  count sees it.
- :mod:`.location`: which file (:func:`store_path`); :mod:`.errors`: :class:`StoreError`.
"""

from __future__ import annotations

from tui.lab.store.errors import StoreError
from tui.lab.store.location import default_store_path, store_path
from tui.lab.store.operator_swaps import OperatorSwap
from tui.lab.store.records import Batch, Keyframe, RunInfo, keyframe_size
from tui.lab.store.run_store import RunStore
from tui.lab.store.schema import APPLICATION, SCHEMA_VERSION, STAT_FIELDS

__all__ = [
    "APPLICATION",
    "SCHEMA_VERSION",
    "STAT_FIELDS",
    "Batch",
    "Keyframe",
    "OperatorSwap",
    "RunInfo",
    "RunStore",
    "StoreError",
    "default_store_path",
    "keyframe_size",
    "store_path",
]
