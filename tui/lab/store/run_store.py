"""The one object callers hold: :class:`RunStore`, an open store and everything it can do.

Each method is one line handing its work to the module of its idea: :mod:`.run_writes`,
:mod:`.run_reads`, :mod:`.sweep_tables`; the connection, its lock and its transactions are
:mod:`.connection`'s.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy.typing as npt

from tui.lab.store import lineage_table, run_reads, run_size, run_writes, sweep_tables
from tui.lab.store.connection import StoreConnection, open_connection
from tui.lab.store.operator_swaps import OperatorSwap
from tui.lab.store.records import Batch, Keyframe, RunInfo
from tui.lab.store.run_size import RunSize
from tui.lab.writer_process import Writer


class RunStore:
    """An open run store. Use :meth:`open`; close it (or use it as a context manager).

    Safe to share between threads (one lock around the connection); several processes may
    read and write the same file (WAL: readers never wait for the writer).

    Attributes:
        path: The store's file.
    """

    def __init__(self, connection: StoreConnection) -> None:
        self.path: Path = connection.path
        self._store = connection

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
            path: The file; ``None``: :func:`~tui.lab.store.location.default_store_path`.
            create: Create the file when it does not exist (else: :class:`StoreError`).
            wal: Switch the file to WAL mode (a portable run file stays in rollback mode).

        Raises:
            StoreError: When the file cannot be opened or created, is not a SQLite database,
                is another application's database, or has a newer schema.
        """
        return cls(open_connection(path, create=create, wal=wal))

    def close(self) -> None:
        """Close the connection (uncommitted work is rolled back)."""
        self._store.close()

    def __enter__(self) -> RunStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

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
        """Create a run record (status ``running``, owned by ``writer``); returns its id, one
        that no run of this store ever had (a deleted run's id is not given again).

        Args:
            label: What the run is called (``queens ... --label``), or ``None``.
        """
        return run_writes.begin_run(
            self._store,
            config,
            seed=seed,
            engine_version=engine_version,
            label=label,
            keyframe_spacing=keyframe_spacing,
            writer=writer,
        )

    def claim_run(
        self, run_id: int, writer: Writer, *, config: Mapping[str, Any] | None = None
    ) -> RunInfo:
        """Make ``writer`` the run's writer again (to resume it): status back to ``running``.

        Args:
            config: The run's config, when resuming changes its budget.

        Raises:
            StoreError: No such run, or a live process is recording it.
        """
        return run_writes.claim_run(self._store, run_id, writer, config=config)

    def record(self, run_id: int, batch: Batch) -> None:
        """Commit one batch of a run in one transaction, and beat the writer's heart."""
        run_writes.record(self._store, run_id, batch)

    def record_swap(self, run_id: int, swap: OperatorSwap) -> None:
        """Keep a swap of the run's operator (:mod:`tui.lab.store.operator_swaps`), after the
        swaps it has: :attr:`RunInfo.swaps` reads them back.

        Raises:
            StoreError: No such run, or a swap from before the last one kept.
        """
        run_writes.record_swap(self._store, run_id, swap)

    def end_run(self, run_id: int, status: str, stop_reason: str | None) -> None:
        """Mark the run ``finished`` or ``interrupted`` and release it."""
        run_writes.end_run(self._store, run_id, status, stop_reason)

    def truncate_run(self, run_id: int, after: int) -> None:
        """Forget the run's stats, solutions and keyframes after generation ``after``."""
        run_writes.truncate_run(self._store, run_id, after)

    def delete_run(self, run_id: int) -> None:
        """Delete a run and everything recorded with it; its id is never given again.

        Raises:
            StoreError: No such run, or a live process is recording it.
        """
        run_writes.delete_run(self._store, run_id)

    def delete_runs(self, run_ids: Sequence[int]) -> None:
        """Delete several runs in one transaction: all of them, or none (an unknown id, or a
        run being recorded, deletes nothing). Their ids are never given again.

        Raises:
            StoreError: No such run, or a live process is recording one.
        """
        run_writes.delete_runs(self._store, run_ids)

    def set_label(self, run_id: int, label: str | None) -> None:
        """Give a run a label (what ``queens runs`` calls it; ``None``: none).

        Raises:
            StoreError: No such run.
            ValueError: A label that is not allowed (see :func:`tui.lab.run_label.check_label`).
        """
        run_writes.set_label(self._store, run_id, label)

    # -- reading runs ---------------------------------------------------------------------

    def runs(self) -> list[RunInfo]:
        """Every run, oldest first."""
        return run_reads.runs(self._store)

    def run(self, run_id: int) -> RunInfo:
        """One run's record.

        Raises:
            StoreError: No such run (the message says which store was searched).
        """
        return run_reads.run(self._store, run_id)

    def stats(
        self, run_id: int, start: int = 0, stop: int | None = None
    ) -> dict[str, npt.NDArray[Any]]:
        """The run's statistics for generations ``start <= g < stop``, as numpy columns."""
        return run_reads.stats(self._store, run_id, start, stop)

    def iter_stats(self, run_id: int, chunk: int = 65536) -> Iterator[dict[str, Any]]:
        """Every generation's statistics as a dict, read in chunks (for exports)."""
        return run_reads.iter_stats(self._store, run_id, chunk)

    def solutions(self, run_id: int) -> list[tuple[int, list[int]]]:
        """``(generation, board)`` of each solution, in the order found."""
        return run_reads.solutions(self._store, run_id)

    def lineage_pieces(
        self, run_id: int, top: int
    ) -> Iterator[tuple[int, lineage_table.KeptFamily] | lineage_table.InPlaceStretch]:
        """The run's kept lineage from generation ``top`` down to 1, newest first (see
        :func:`~tui.lab.store.lineage_table.lineage_pieces`; a store without the table has
        none)."""
        return lineage_table.lineage_pieces(self._store, run_id, top)

    def keyframe_generations(self, run_id: int) -> list[int]:
        """Generations that have a keyframe, in order."""
        return run_reads.keyframe_generations(self._store, run_id)

    def keyframe_bytes(self, run_id: int) -> int:
        """The size of the run's keyframes, as counted against its budget."""
        return run_reads.keyframe_bytes(self._store, run_id)

    def run_size(self, run_id: int) -> RunSize:
        """What the run's record takes, as its record budget counts it
        (:mod:`~tui.lab.store.run_size`)."""
        return run_size.run_size(self._store, run_id)

    def fold_log(self) -> None:
        """Fold the write-ahead log into the file and cut it back (after a thinning)."""
        run_size.fold_log(self._store)

    def keyframe_before(self, run_id: int, generation: int) -> Keyframe | None:
        """The latest keyframe at or before ``generation``, or ``None``.

        Raises:
            StoreError: When the keyframe is damaged (not JSON, arrays not plain ``.npy``).
        """
        return run_reads.keyframe_before(self._store, run_id, generation)

    def export_run(self, run_id: int, destination: str | os.PathLike[str]) -> None:
        """Write a portable run file: a new store holding this run only (same id).

        Written beside ``destination`` and renamed into place, so a failure leaves nothing
        half-written.

        Raises:
            StoreError: No such run, the destination exists, or it cannot be written.
        """
        run_reads.export_run(self._store, run_id, destination)

    def single_run_id(self) -> int:
        """The id of the one run in a run file.

        Raises:
            StoreError: When the file holds no run or several.
        """
        return run_reads.single_run_id(self._store)

    def size_bytes(self) -> int:
        """The database's size (pages in use, WAL included once checkpointed)."""
        return run_reads.size_bytes(self._store)

    # -- sweeps ---------------------------------------------------------------------------

    def sweep_for(self, fingerprint: str, plan: Mapping[str, Any]) -> int:
        """The id of the sweep with this fingerprint, created (with its plan) if new."""
        return sweep_tables.sweep_for(self._store, fingerprint, plan)

    def add_sweep_result(
        self,
        sweep_id: int,
        config_fingerprint: str,
        seed: int,
        result: Mapping[str, Any],
        run_id: int | None = None,
    ) -> bool:
        """Keep one run's result; ``False`` (and nothing changed) when it was kept already."""
        return sweep_tables.add_sweep_result(
            self._store, sweep_id, config_fingerprint, seed, result, run_id
        )

    def sweep_results(self, sweep_id: int) -> list[dict[str, Any]]:
        """Every result of a sweep: ``config_fingerprint``, ``seed``, ``result``, ``run_id``."""
        return sweep_tables.sweep_results(self._store, sweep_id)

    def sweeps(self) -> list[dict[str, Any]]:
        """Every sweep, oldest first, with how many results it holds (``results``)."""
        return sweep_tables.sweeps(self._store)

    def sweep(self, sweep_id: int) -> dict[str, Any] | None:
        """One sweep (as in :meth:`sweeps`), or ``None``."""
        return sweep_tables.sweep(self._store, sweep_id)

    def finish_sweep(self, sweep_id: int) -> None:
        """Mark a sweep finished (now)."""
        sweep_tables.finish_sweep(self._store, sweep_id)

    def clear_sweep_results(self, sweep_id: int) -> None:
        """Forget a sweep's results (``--fresh``), and that it finished."""
        sweep_tables.clear_sweep_results(self._store, sweep_id)
