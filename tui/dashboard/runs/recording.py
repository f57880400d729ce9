"""Recording the dashboard's runs in the run store, one at a time.

No Textual here. The engine thread calls :meth:`DashboardRecording.observe` after each step;
the main screen names each new run to be recorded (:meth:`DashboardRecording.expect`) and ends
the record when the run is replaced or the app quits. The record itself is made at the run's
first step (:meth:`DashboardRecording.begin_expected`, called before the run is let go, while
it still stands at generation 0): a dashboard opened and closed, or a form tried and replaced,
without a step leaves no empty record behind. :mod:`tui.dashboard.runs.time_travel` reads the
records back.
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
        label: The label of the runs recorded (``queens tui --label``), or ``None``.
    """

    def __init__(
        self,
        store: str | Path | None,
        *,
        enabled: bool,
        budget: int = RECORD_BUDGET,
        on_error: Callable[[str], None] = lambda message: None,
        label: str | None = None,
    ) -> None:
        self.path = store_path(store)
        self.enabled = enabled
        self.label = label
        """The label new records get (the palette's ``Label this run`` names one run)."""
        self.budget = budget
        """Bytes each new run's record may take."""
        self._on_error = on_error
        self._expected: GeneticAlgorithm | None = None
        self._expected_label: str | None = None
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

    @property
    def expecting(self) -> bool:
        """Whether a run waits for its first step to be recorded (no record made yet)."""
        return self._expected is not None

    def expect(self, algorithm: GeneticAlgorithm) -> None:
        """A new run, at its generation 0: record it from its first step (when recording is
        on); ends the last run's record."""
        self.end()
        self.failure = None
        self._expected = algorithm if self.enabled else None
        self._expected_label = None

    def begin_expected(self) -> int | None:
        """Make the record of the run :meth:`expect` named, before its first step.

        Called on the UI thread while the run is paused at generation 0 (its engine thread is
        not stepping it). Nothing happens when no run is expected.

        Returns:
            The new run id, or ``None`` when no record was made (none expected, or the store
            failed: then ``on_error`` was called).
        """
        algorithm, self._expected = self._expected, None
        if algorithm is None:
            return None
        return self.begin(algorithm, label=self._expected_label)

    def begin(self, algorithm: GeneticAlgorithm, *, label: str | None = None) -> int | None:
        """Start recording a run now (at its generation 0, before it steps); ends the last.

        Args:
            algorithm: The run.
            label: Its label (``None``: :attr:`label`).

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
            recorder = Recorder(
                self.store(),
                algorithm,
                label=self.label if label is None else label,
                record_budget=self.budget,
            )
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

    def note_swap(self, algorithm: GeneticAlgorithm, field: str) -> int | None:
        """The paused ``algorithm`` was given another ``field`` operator: keep the swap in its
        record, from its next generation on (a run still waiting for its first step is recorded
        with the operator it has then, from the start).

        Returns:
            The id of the record that keeps the swap, or ``None`` (not recorded).
        """
        recorder = self._recorder
        if recorder is None or algorithm is not self._algorithm:
            return None
        try:
            recorder.note_swap(field)
        except StoreError as error:
            self._fail(recorder, error)
            return None
        return int(recorder.run_id)

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
        self._expected = None
        with self._lock:
            recorder, self._recorder, self._algorithm = self._recorder, None, None
        if recorder is not None:
            try:
                recorder.close("finished" if finished else "interrupted", keyframe=finished)
            except StoreError as error:
                self._on_error(str(error))

    def set_label(self, label: str) -> int | None:
        """Label the run being recorded, or the run waiting for its first step (its record
        gets the label when it is made).

        Returns:
            The run's id; ``None`` for a run not recorded yet.

        Raises:
            LookupError: No run is being recorded or expected.
            StoreError: The store refused it.
            ValueError: A label that is not allowed (naming the value and what is).
        """
        if self._expected is not None:
            from tui.lab.run_label import check_label

            self._expected_label = check_label(label)
            return None
        run_id = self.run_id
        if run_id is None:
            raise LookupError("no run is being recorded")
        self.store().set_label(run_id, label)
        return run_id

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
