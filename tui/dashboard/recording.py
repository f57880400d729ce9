"""Recording the dashboard's runs in the run store, one at a time.

No Textual here. The engine thread calls :meth:`DashboardRecording.observe` after each step;
the main screen begins a record with each new run and ends it when the run is replaced or the
app quits. :mod:`tui.dashboard.time_travel` reads the records back.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from engine import GeneticAlgorithm, Snapshot
from tui.lab.record_budget import RECORD_BUDGET
from tui.lab.store import RunStore, StoreError, store_path


class DashboardRecording:
    """Records the dashboard's runs, one at a time, into the run store.

    Args:
        store: The store's path (``None``: ``$QUEENS_STORE`` or the user data directory).
        enabled: Record new runs (the form's toggle changes it).
        budget: Bytes each run's record may take (``--record-budget``; the form changes it).
        on_error: Called (from any thread) once when recording fails; recording then stops
            for that run, and the run goes on.
    """

    def __init__(
        self,
        store: str | Path | None,
        *,
        enabled: bool,
        budget: int = RECORD_BUDGET,
        on_error: Callable[[str], None] = lambda message: None,
    ) -> None:
        self.path = store_path(store)
        self.enabled = enabled
        self.budget = budget
        """Bytes each new run's record may take."""
        self._on_error = on_error
        self._store: RunStore | None = None
        self._recorder: Any = None
        self._algorithm: GeneticAlgorithm | None = None
        self._lock = threading.Lock()
        self.failure: str | None = None
        """Why the last run asked to be recorded is not (the store refused it), or ``None``."""

    @property
    def run_id(self) -> int | None:
        """The id of the run being recorded, or ``None``."""
        recorder = self._recorder
        return None if recorder is None else int(recorder.run_id)

    def store(self) -> RunStore:
        """The store, opened on first use.

        Raises:
            StoreError: When it cannot be opened.
        """
        if self._store is None:
            self._store = RunStore.open(self.path)
        return self._store

    def begin(self, algorithm: GeneticAlgorithm, label: str | None = None) -> int | None:
        """Start recording a new run (at its generation 0, before it steps); ends the last.

        Returns:
            The run id, or ``None`` when not recording (disabled, or the store failed: then
            ``on_error`` was called).
        """
        self.end()
        self.failure = None
        if not self.enabled:
            return None
        from tui.lab.recorder import Recorder

        try:
            recorder = Recorder(self.store(), algorithm, label=label, record_budget=self.budget)
        except StoreError as error:
            self.failure = str(error)
            self._on_error(str(error))
            return None
        with self._lock:
            self._recorder, self._algorithm = recorder, algorithm
        return int(recorder.run_id)

    def continue_run(self, algorithm: GeneticAlgorithm, recorder: Any) -> None:
        """Record a resumed run with its own recorder (see :func:`tui.lab.resume.resume`)."""
        self.end()
        with self._lock:
            self._recorder, self._algorithm = recorder, algorithm

    def observe(self, algorithm: GeneticAlgorithm, snapshot: Snapshot) -> None:
        """The engine thread stepped ``algorithm``: record the new generation."""
        recorder = self._recorder
        if recorder is None or algorithm is not self._algorithm:
            return
        try:
            recorder.record(snapshot)
        except StoreError as error:
            self._fail(recorder, error)

    def flush(self) -> None:
        """Commit what is buffered (a pause; a jump back in time reads the store)."""
        recorder = self._recorder
        if recorder is not None:
            try:
                recorder.flush(keyframe=False)
            except StoreError as error:
                self._fail(recorder, error)

    def end(self, *, finished: bool = False) -> None:
        """End the current run's record: ``finished`` when its stop rule fired.

        A finished run's last state is kept as a keyframe (its engine thread has ended, so
        reading the state is safe); an unfinished one's is not (its thread may be stepping).
        """
        with self._lock:
            recorder, self._recorder, self._algorithm = self._recorder, None, None
        if recorder is not None:
            try:
                recorder.close("finished" if finished else "interrupted", keyframe=finished)
            except StoreError as error:
                self._on_error(str(error))

    def close(self) -> None:
        """End the record and close the store (the app is quitting)."""
        self.end()
        if self._store is not None:
            self._store.close()
            self._store = None

    def _fail(self, recorder: Any, error: StoreError) -> None:
        with self._lock:
            if self._recorder is not recorder:
                return
            self._recorder, self._algorithm = None, None
        self.failure = str(error)
        self._on_error(f"recording stopped: {error}")
