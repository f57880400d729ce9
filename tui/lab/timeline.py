"""Any generation of a recorded run, exactly: the nearest keyframe, re-stepped.

The engine is deterministic, so generation G is the latest keyframe at or before G, restored
and stepped ``G - k`` times, each step made by the operators the record says make it (a run
may have swapped some while paused: :mod:`tui.lab.swapped_operators`); a damaged keyframe is
set aside for the one before it. Every
re-stepped generation's statistics are compared with the recorded ones (all but the computing
time): a difference means the record or the engine changed, and is reported, never papered
over.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable
from typing import Any, Final

from engine import GenerationStats, GeneticAlgorithm, Snapshot
from tui.lab.engine_state import StateError, restore
from tui.lab.record_version import refuse_newer
from tui.lab.recorder import stats_row
from tui.lab.store import STAT_FIELDS, RunInfo, RunStore, StoreError
from tui.lab.swapped_operators import follow_swaps

COMPARED: Final = tuple(index for index, name in enumerate(STAT_FIELDS) if name != "elapsed")
"""What must match between a re-stepped generation and its record: all but the time."""
BUDGET_FIELDS: Final = ("generations", "max_evals", "time_limit", "stagnation")
"""Config fields that only say when a run stops: resuming may change them."""
RESTORE_STEPS: Final = 2
"""Generations that restoring a keyframe costs about as much as re-stepping (measured at
P = 200,000, N = 28: reading and restoring one takes 0.6 to 0.7 s, a generation 0.3 to 0.5 s)."""


class RecordMismatch(StoreError):
    """A re-stepped generation differs from the recorded one.

    Attributes:
        generation: The first generation that differs.
        field: The first statistic that differs.
    """

    def __init__(self, run_id: int, generation: int, field: str, recorded: Any, now: Any) -> None:
        self.generation = generation
        self.field = field
        super().__init__(
            f"run {run_id}: re-stepping does not reproduce the record at generation "
            f"{generation} ({field}: recorded {recorded!r}, re-stepped {now!r}); the record "
            "was made by another engine version, or it was changed"
        )


def first_difference(recorded: tuple[Any, ...], now: tuple[Any, ...]) -> str | None:
    """The first compared statistic that differs, or ``None``."""
    for index in COMPARED:
        a, b = recorded[index], now[index]
        if a != b and not (isinstance(a, float) and math.isnan(a) and math.isnan(b)):
            return STAT_FIELDS[index]
    return None


def without_time_limit(state: dict[str, Any], config: dict[str, Any]) -> dict[str, Any]:
    """The state with ``config`` (budgets only taken from it) and no wall-clock limit.

    Re-stepping recorded generations must reach them whatever the time it takes now, and with
    the budget the run has now (resuming may have raised it).
    """
    saved = dict(state["config"]) if isinstance(state.get("config"), dict) else {}
    for name in BUDGET_FIELDS:
        if name in config:
            saved[name] = config[name]
    saved["time_limit"] = None
    return {**state, "config": saved}


class Timeline:
    """Reach any recorded generation of one run.

    Args:
        store: The store holding the run.
        run_id: The run.

    Raises:
        StoreError: No such run.
        NewerRecordError: The run was recorded by a newer engine version (re-stepping it here
            could reproduce something else).
    """

    def __init__(self, store: RunStore, run_id: int) -> None:
        self._store = store
        self.run_id = run_id
        self.info: RunInfo = store.run(run_id)
        refuse_newer(self.info, f"{store.path}: run {run_id}")
        self._algorithm: GeneticAlgorithm | None = None
        self._keyframe: tuple[int, dict[str, Any]] | None = None
        self.damaged: dict[int, str] = {}
        """Keyframes found unusable so far, by generation: why each was set aside."""

    @property
    def store(self) -> RunStore:
        """The store holding the run."""
        return self._store

    def refresh(self) -> RunInfo:
        """Re-read the run's record (a live run grows)."""
        self.info = self._store.run(self.run_id)
        return self.info

    @property
    def last_generation(self) -> int:
        """The last recorded generation (as of the last :meth:`refresh`)."""
        return self.info.generations

    @property
    def cached_generation(self) -> int | None:
        """The generation of the run kept from the last call (``None``: none kept)."""
        algorithm = self._algorithm
        return None if algorithm is None else algorithm.snapshot.generation

    def algorithm_at(
        self,
        generation: int,
        *,
        start: GeneticAlgorithm | None = None,
        after_step: Callable[[GeneticAlgorithm], None] | None = None,
    ) -> GeneticAlgorithm:
        """A run at ``generation``, re-stepped from the nearest start and checked.

        The nearest start is the latest of: the run kept from the last call, ``start``, and
        the latest keyframe at or before ``generation`` (restoring one costs about as much as
        :data:`RESTORE_STEPS` generations, so a run in memory that is not further behind is
        preferred). The returned algorithm has the wall-clock limit removed; do not step it
        past the record (see :func:`tui.lab.resume.resume` to continue a run).

        Args:
            generation: The generation wanted.
            start: A run of this record at an earlier generation (a copy kept in memory by
                the caller); it is stepped, so the caller must not use it again.
            after_step: Called with the run after each generation re-stepped and checked; it
                may raise to abandon the walk (the run kept is then the one it reached).

        Raises:
            StoreError: No such generation, no keyframe, a damaged keyframe.
            RecordMismatch: A re-stepped generation differs from the record.
        """
        if not 0 <= generation <= self.info.generations:
            raise StoreError(
                f"run {self.run_id}: generation {generation} is not recorded; "
                f"0 to {self.info.generations}"
            )
        algorithm = self._nearest_start(generation, start)
        at = algorithm.snapshot.generation
        self._algorithm = algorithm
        if generation > at:
            recorded = self._store.stats(self.run_id, at + 1, generation + 1)
            rows = list(zip(*(recorded[name].tolist() for name in STAT_FIELDS), strict=True))
            if len(rows) != generation - at:
                raise StoreError(f"run {self.run_id}: stats missing between {at} and {generation}")
            for row in rows:
                self._follow_swaps(algorithm)
                snapshot = algorithm.step()
                try:
                    self._check(row, snapshot)
                except RecordMismatch:
                    self._algorithm = None  # off the record: never a start again
                    raise
                if after_step is not None:
                    after_step(algorithm)
        return algorithm

    def snapshot_at(
        self,
        generation: int,
        *,
        start: GeneticAlgorithm | None = None,
        after_step: Callable[[GeneticAlgorithm], None] | None = None,
    ) -> Snapshot:
        """Generation ``generation`` as the live run published it.

        Everything is recomputed but the computing time and the stop reason, which are the
        record's (re-stepping takes its own time). ``start`` and ``after_step`` are as for
        :meth:`algorithm_at`.
        """
        algorithm = self.algorithm_at(generation, start=start, after_step=after_step)
        snapshot = algorithm.snapshot
        recorded = self._store.stats(self.run_id, generation, generation + 1)
        stats = GenerationStats(**{name: recorded[name][0].item() for name in STAT_FIELDS})
        stop = None
        if generation == self.info.generations and self.info.status == "finished":
            stop = self.info.stop_reason
        return dataclasses.replace(snapshot, stats=stats, stop_reason=stop)

    def _nearest_start(self, generation: int, start: GeneticAlgorithm | None) -> GeneticAlgorithm:
        """The run to step from: in memory if no keyframe is nearer, else a keyframe's."""
        in_memory = [
            algorithm
            for algorithm in (start, self._algorithm)
            if algorithm is not None and self._can_step_to(algorithm, generation)
        ]
        if in_memory:
            nearest = max(in_memory, key=lambda algorithm: algorithm.snapshot.generation)
            usable = [
                g
                for g in self._store.keyframe_generations(self.run_id)
                if g <= generation and g not in self.damaged
            ]
            if not usable or usable[-1] - RESTORE_STEPS <= nearest.snapshot.generation:
                return nearest
        return self._from_keyframe(generation)

    @staticmethod
    def _can_step_to(algorithm: GeneticAlgorithm, generation: int) -> bool:
        """Whether a run in memory reaches ``generation`` by stepping forward."""
        at = algorithm.snapshot.generation
        return at == generation or (at < generation and algorithm.has_next())

    def _from_keyframe(self, generation: int) -> GeneticAlgorithm:
        """The run restored from the latest usable keyframe at or before ``generation``.

        A keyframe that cannot be read or restored, or whose generation does not match its
        record, is set aside (:attr:`damaged` says which and why) and the one before it is
        used: the generations in between are re-stepped and checked against the record like
        any others, so the result is as exact as from an intact keyframe, only slower.

        Raises:
            StoreError: When no keyframe at or before ``generation`` can be used (the error is
                the latest keyframe's).
        """
        kept = [g for g in self._store.keyframe_generations(self.run_id) if g <= generation]
        if not kept:
            raise StoreError(f"run {self.run_id}: no keyframe at or before {generation}")
        first_error: StoreError | None = None
        for at in reversed(kept):
            if at in self.damaged:
                continue
            try:
                return self._restore_keyframe(at)
            except StoreError as error:  # RecordMismatch included
                self.damaged[at] = str(error)
                first_error = first_error or error
        if first_error is None:  # every one was set aside before
            first_error = StoreError(self.damaged[kept[-1]])
        raise first_error

    def _restore_keyframe(self, at: int) -> GeneticAlgorithm:
        """The run restored from the keyframe of generation ``at``, checked against the record."""
        if self._keyframe is None or self._keyframe[0] != at:
            keyframe = self._store.keyframe_before(self.run_id, at)
            if keyframe is None or keyframe.generation != at:
                raise StoreError(f"run {self.run_id}: the keyframe of generation {at} is missing")
            self._keyframe = (keyframe.generation, keyframe.state)
        state = self._keyframe[1]
        try:
            algorithm = restore(without_time_limit(state, self.info.config))
        except StateError as error:
            where = f"{self._store.path}: run {self.run_id}, keyframe of generation {at}"
            raise StoreError(f"{where}: {error}") from None
        if algorithm.snapshot.generation != at:
            raise StoreError(f"run {self.run_id}: the keyframe of generation {at} is damaged")
        recorded = self._store.stats(self.run_id, at, at + 1)
        if len(recorded["generation"]) == 1:
            row = tuple(recorded[name][0].item() for name in STAT_FIELDS)
            self._check(row, algorithm.snapshot)
        return algorithm

    def _follow_swaps(self, algorithm: GeneticAlgorithm) -> None:
        """Give the run the operators that make its next generation, as the record's swaps
        say (:mod:`tui.lab.swapped_operators`)."""
        where = f"{self._store.path}: run {self.run_id}"
        follow_swaps(algorithm, self.info.config, self.info.swaps, where)

    def _check(self, recorded: tuple[Any, ...], snapshot: Snapshot) -> None:
        now = stats_row(snapshot)
        field = first_difference(recorded, now)
        if field is not None:
            index = STAT_FIELDS.index(field)
            raise RecordMismatch(
                self.run_id, snapshot.generation, field, recorded[index], now[index]
            )
