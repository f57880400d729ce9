"""Recording a live run into the store, as it goes.

Call :meth:`Recorder.record` with every snapshot the run publishes, right after the step that
published it (before the next step), from whatever thread steps the run. The recorder buffers
the statistics and commits them in one transaction at least once a second, and at every
:meth:`Recorder.flush` (a pause) and :meth:`Recorder.close` (a stop): a process killed with
SIGKILL loses at most the last second.

Keyframes (full engine states) are taken every ``spacing`` generations. When a run's keyframes
would pass the byte budget, the spacing doubles and the keyframes off the new grid are deleted,
so a run of any length stays within the budget while every generation stays within ``spacing``
steps of a keyframe. The latest pause or stop also gets a keyframe (off the grid if need be),
so a stopped run resumes without re-stepping. A paused run given another operator keeps the
swap in its record (:meth:`Recorder.note_swap`), from its next generation on.

The whole record has a budget too (:data:`~tui.lab.record_budget.RECORD_BUDGET`, counted as
:mod:`tui.lab.store.run_size` counts it). Past it, older detail is thinned: every generation's
statistics stay, but the keyframes' spacing and the lineage's doubles (the keyframes and
lineage rows off the new grid are deleted, and new ones are kept on it only) until the record
is back under :data:`THIN_TARGET` of its budget. A thinned generation is still recomputed
exactly, from the nearest keyframe. When the statistics alone fill the budget, recording ends
(:class:`RecordBudgetReached`) and the run goes on unrecorded.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any, Final

from engine import GeneticAlgorithm, Snapshot
from tui.lab.engine_state import capture
from tui.lab.record_budget import RECORD_BUDGET, budget_text
from tui.lab.record_version import engine_version
from tui.lab.store import STAT_FIELDS, Batch, Keyframe, RunStore, StoreError, keyframe_size
from tui.lab.store.lineage_table import (
    COMPRESSION,
    STORED,
    LineageRow,
    in_place_row,
    pack_origins,
)
from tui.lab.store.run_size import (
    ARRAY_ROW,
    KEYFRAME_ROW,
    SOLUTION_ROW,
    STATS_ROW,
    lineage_row_bytes,
)
from tui.lab.swapped_operators import recorded_swap
from tui.lab.writer_process import Writer

COMMIT_INTERVAL: Final = 1.0
"""Seconds between two commits at most (while generations keep coming)."""
KEYFRAME_BUDGET: Final = 64 * 2**20
"""Bytes of keyframes a run may keep."""
FIRST_SPACING: Final = 16
"""Generations between two keyframes at the start of a run."""
KEYFRAME_SHARE: Final = 0.03
"""Keyframes may cost this share of the run's computing time: when one costs more than that
share of the generations since the last, the spacing doubles (a fast run keyframes less
often in generations, about as often in seconds)."""
MAX_TIMED_SPACING: Final = 64
"""The spacing the cost rule may reach (the budget rule alone may go further)."""
STORED_LINEAGE: Final = 2**20
"""Bytes of families a recording keeps stored, uncompressed (zlib level 0), before it
compresses the next ones. A run's first generations, where children still get in, are the
ones people watch most, and their families are dense (a child's parent is a random draw):
compressing one took 2 to 4% of such a generation at P = 1000, storing it a fifth to a tenth of
that, for about 3 bytes an individual instead of 1 to 2. This caps the bytes it costs a
recording (a resumed run's recording has its own)."""
THIN_TARGET: Final = 0.75
"""A record thinned because it passed its budget is thinned until it is back under this share
of it: thinning then happens once in a while, not at every commit."""


class RecordBudgetReached(StoreError):
    """The statistics alone fill the record's budget: the record was ended (``interrupted``),
    and the run may go on unrecorded."""


def stats_row(snapshot: Snapshot) -> tuple[Any, ...]:
    """A snapshot's statistics in :data:`~tui.lab.store.STAT_FIELDS` order."""
    return tuple(getattr(snapshot.stats, name) for name in STAT_FIELDS)


def lineage_row(snapshot: Snapshot, level: int = COMPRESSION) -> LineageRow | None:
    """A snapshot's lineage as the store keeps it (``None`` when it has none): its parents and
    its kinds and ``MOSTLY_SECOND`` flags (``BEST`` and ``FROM_BEST`` follow from the best
    indices; ``MUTATED`` costs a comparison of every child with its unmutated self and is
    recomputed from a keyframe when asked for); its family at zlib's ``level``."""
    lineage = snapshot.lineage
    if lineage is None:
        return None
    generation, best, before = snapshot.generation, lineage.best_index, lineage.previous_best
    if lineage.all_in_place:
        return in_place_row(generation, lineage.size, best, before)
    first, seconds = lineage.first_parents, lineage.crossed_second_parents
    return pack_origins(generation, first, seconds, lineage.kind_flags, best, before, level)


class Recorder:
    """Records one run of a :class:`~engine.GeneticAlgorithm` into a :class:`RunStore`.

    Args:
        store: Where to record.
        algorithm: The run, at the generation of its current snapshot.
        label: What a person calls the run (``--label``), shown by ``queens runs``.
        run_id: Continue recording this run (resume): the store must already hold its
            generations up to the algorithm's current one.
        budget: Bytes of keyframes the run may keep.
        spacing: Generations between two keyframes to begin with (a new run only).
        commit_interval: Seconds between two commits at most.
        keyframe_share: The share of computing time keyframes may cost before the spacing
            doubles (``None``: the spacing follows the budget only, as tests want).
        stored_lineage: Bytes of families to keep uncompressed (see :data:`STORED_LINEAGE`).
        record_budget: Bytes the whole record may take (see :mod:`tui.lab.record_budget`).
        clock: Monotonic seconds (tests pass a fake one).
    """

    def __init__(
        self,
        store: RunStore,
        algorithm: GeneticAlgorithm,
        *,
        label: str | None = None,
        run_id: int | None = None,
        budget: int = KEYFRAME_BUDGET,
        spacing: int = FIRST_SPACING,
        commit_interval: float = COMMIT_INTERVAL,
        keyframe_share: float | None = KEYFRAME_SHARE,
        stored_lineage: int = STORED_LINEAGE,
        record_budget: int = RECORD_BUDGET,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if spacing < 1:
            raise ValueError(f"spacing: {spacing!r} is not allowed; a whole number >= 1")
        self._store = store
        self._algorithm = algorithm
        self._budget = budget
        self._record_budget = record_budget
        self._lineage_spacing = 1
        self._interval = commit_interval
        self._share = keyframe_share
        self._clock = clock
        self._lock = threading.RLock()
        self._stats: list[tuple[Any, ...]] = []
        self._lineage: list[LineageRow] = []
        self._stored_lineage = stored_lineage  # bytes of families still to keep uncompressed
        self._solutions: list[tuple[int, list[int]]] = []
        self._keyframes: list[Keyframe] = []
        self._closed = False
        snapshot = algorithm.snapshot
        self._keyframe_elapsed = snapshot.elapsed
        if run_id is None:
            self.run_id = store.begin_run(
                algorithm.config.to_dict(),
                seed=algorithm.seed,
                engine_version=engine_version(),
                label=label,
                keyframe_spacing=spacing,
                writer=Writer.this_process(),
            )
            self._spacing = spacing
            self._solutions_seen = 0
            self._keyframe_bytes = 0
            self._record_bytes = 0
            self._last_keyframe = -1
            self._last_generation = -1
            self._last_commit = clock()
            self.record(snapshot)
            self.flush()
        else:
            info = store.run(run_id)
            self.run_id = run_id
            self._spacing = info.keyframe_spacing
            self._solutions_seen = info.solutions
            self._keyframe_bytes = store.keyframe_bytes(run_id)
            self._record_bytes = store.run_size(run_id).bytes
            kept = store.keyframe_generations(run_id)
            self._last_keyframe = kept[-1] if kept else -1
            self._last_generation = snapshot.generation
            self._last_commit = clock()

    @property
    def spacing(self) -> int:
        """Generations between two keyframes now."""
        return self._spacing

    @property
    def lineage_spacing(self) -> int:
        """Generations between two lineage rows kept now (1 until the record is thinned)."""
        return self._lineage_spacing

    @property
    def record_budget(self) -> int:
        """Bytes the whole record may take."""
        return self._record_budget

    @property
    def closed(self) -> bool:
        """Whether :meth:`close` was called."""
        return self._closed

    def record(self, snapshot: Snapshot) -> None:
        """Record one published generation (in order; a repeated generation is ignored)."""
        with self._lock:
            if self._closed or snapshot.generation <= self._last_generation:
                return
            generation = snapshot.generation
            self._last_generation = generation
            self._stats.append(stats_row(snapshot))
            self._record_bytes += STATS_ROW
            stored = self._stored_lineage > 0
            kept = None
            if generation % self._lineage_spacing == 0:
                kept = lineage_row(snapshot, STORED if stored else COMPRESSION)
            if kept is not None:
                self._lineage.append(kept)
                self._record_bytes += lineage_row_bytes(kept.family)
                if stored and kept.family is not None:
                    self._stored_lineage -= len(kept.family)
            found = snapshot.solutions.shape[0]
            if found > self._solutions_seen:
                self._solutions += [
                    (generation, [int(gene) for gene in board])
                    for board in snapshot.solutions[self._solutions_seen :]
                ]
                # A board's JSON: up to a digit or more and a comma a gene.
                new = found - self._solutions_seen
                self._record_bytes += new * (SOLUTION_ROW + 2 * snapshot.n * len(str(snapshot.n)))
                self._solutions_seen = found
            if generation % self._spacing == 0:
                self._take_keyframe(snapshot)
            if snapshot.stop_reason is not None or self._clock() - self._last_commit >= (
                self._interval
            ):
                self._commit()

    def _take_keyframe(self, snapshot: Snapshot) -> None:
        """A keyframe of the algorithm now, if it still is at ``snapshot``'s generation."""
        if self._algorithm.snapshot is not snapshot or snapshot.generation == self._last_keyframe:
            return
        started = time.perf_counter()
        state = capture(self._algorithm)
        keyframe = Keyframe(snapshot.generation, state)
        self._keyframes.append(keyframe)
        size = keyframe_size(state)
        self._keyframe_bytes += size
        arrays = sum(1 for value in state.values() if hasattr(value, "nbytes"))
        self._record_bytes += size + KEYFRAME_ROW + arrays * ARRAY_ROW
        cost = time.perf_counter() - started
        computed = snapshot.elapsed - self._keyframe_elapsed
        if (
            self._share is not None
            and self._last_keyframe >= 0
            and snapshot.generation % self._spacing == 0
            and cost > self._share * computed
            and self._spacing < MAX_TIMED_SPACING
        ):
            self._spacing *= 2
        self._keyframe_elapsed = snapshot.elapsed
        self._last_keyframe = snapshot.generation

    def flush(self, *, keyframe: bool = True) -> None:
        """Commit now (a pause); with ``keyframe``, keep the current generation's state too
        (only from the thread that steps the run, or once it has stopped stepping)."""
        with self._lock:
            if self._closed:
                return
            if keyframe and self._algorithm.snapshot.generation == self._last_generation:
                self._take_keyframe(self._algorithm.snapshot)
            self._commit()

    def note_swap(self, field: str) -> None:
        """The paused run was given another ``field`` operator
        (:meth:`engine.GeneticAlgorithm.swap_operator`): commit what is buffered, and keep the
        swap in the record from the run's next generation on (only from the thread that steps
        the run, or while it is not stepping)."""
        with self._lock:
            if self._closed:
                return
            self._commit()
            self._store.record_swap(self.run_id, recorded_swap(self._algorithm, field))

    def close(
        self,
        status: str | None = None,
        *,
        keyframe: bool | None = None,
        stop_reason: str | None = None,
    ) -> None:
        """Commit everything and end the run's record.

        Args:
            status: ``finished`` or ``interrupted``; by default ``finished`` when a stop rule
                fired, else ``interrupted``.
            keyframe: Keep the last state as a keyframe (only from the thread that steps the
                run, once a step has completed: never after an interrupted step). By default
                only when a stop rule has fired: a run stopped from outside (Ctrl+C, an
                exception) may have been stopped in the middle of a step.
            stop_reason: Why the run stopped, when it was stopped from outside the engine (a
                time limit passing inside a generation); by default the engine's.
        """
        with self._lock:
            if self._closed:
                return
            final = self._algorithm.snapshot
            if keyframe is None:
                keyframe = final.stop_reason is not None
            self.flush(keyframe=keyframe)
            if status is None:
                status = "finished" if final.stop_reason is not None else "interrupted"
            self._closed = True
            self._store.end_run(self.run_id, status, stop_reason or final.stop_reason)

    def _commit(self) -> None:
        """One transaction: the buffered rows, keyframes, and thinning when over budget."""
        thin: tuple[int, int] | None = None
        if self._keyframes and self._keyframe_bytes > self._budget:
            thin = self._thin()
        if self._keyframes and self._last_keyframe % self._spacing:
            # An off-grid keyframe (a pause, a stop) replaces the previous off-grid one.
            thin = (self._spacing, self._last_keyframe)
        self._store.record(
            self.run_id,
            Batch(
                stats=self._stats,
                solutions=self._solutions,
                keyframes=self._keyframes,
                drop_keyframes_off=thin,
                keyframe_spacing=self._spacing,
                lineage=self._lineage,
            ),
        )
        if thin is not None:
            self._keyframe_bytes = self._store.keyframe_bytes(self.run_id)
        self._stats, self._solutions, self._keyframes, self._lineage = [], [], [], []
        self._last_commit = self._clock()
        if self._record_bytes > self._record_budget:
            self._fit_record_budget()

    def _fit_record_budget(self) -> None:
        """Thin the committed record until it is under :data:`THIN_TARGET` of its budget: the
        keyframes' and the lineage's spacing double, and the rows off their grids go (the first
        and the latest keyframe stay). Every generation's statistics stay: when they alone
        fill the budget, the record ends.

        Raises:
            RecordBudgetReached: When thinning cannot bring the record under its budget.
        """
        size = self._store.run_size(self.run_id)
        target = int(self._record_budget * THIN_TARGET)
        last = self._last_generation
        thinned = False
        while size.bytes > target and size.thinnable:
            if self._spacing > last and self._lineage_spacing > last:
                break  # only generation 0 and the latest keyframe are left
            self._spacing *= 2
            self._lineage_spacing *= 2
            self._store.record(
                self.run_id,
                Batch(
                    drop_keyframes_off=(self._spacing, self._last_keyframe),
                    keyframe_spacing=self._spacing,
                    drop_lineage_off=self._lineage_spacing,
                ),
            )
            size = self._store.run_size(self.run_id)
            thinned = True
        if thinned:
            self._store.fold_log()
        self._record_bytes = size.bytes
        self._keyframe_bytes = self._store.keyframe_bytes(self.run_id)
        if size.bytes > self._record_budget:
            self._closed = True
            self._store.end_run(self.run_id, "interrupted", None)
            raise RecordBudgetReached(
                f"run {self.run_id} reached its record budget of "
                f"{budget_text(self._record_budget)} at generation {last:,}: every "
                "generation's statistics alone fill it (--record-budget, or the form's "
                "record-budget, allows more)"
            )

    def _thin(self) -> tuple[int, int]:
        """Double the spacing until the keyframes fit the budget; returns the thinning."""
        stored = self._store.keyframe_generations(self.run_id)
        sizes = dict.fromkeys(stored, 0)
        pending = {keyframe.generation: keyframe for keyframe in self._keyframes}
        total_stored = self._store.keyframe_bytes(self.run_id)
        # Stored keyframes all cost about the same: estimate each as the mean.
        mean = total_stored / len(stored) if stored else 0.0
        for generation in sizes:
            sizes[generation] = int(mean)
        for generation, keyframe in pending.items():
            sizes[generation] = keyframe_size(keyframe.state)
        keep = self._last_keyframe
        while True:
            kept = [g for g in sizes if g % self._spacing == 0 or g == keep]
            if sum(sizes[g] for g in kept) <= self._budget or len(kept) <= 2:
                break
            self._spacing *= 2
        self._keyframes = [
            keyframe
            for keyframe in self._keyframes
            if keyframe.generation % self._spacing == 0 or keyframe.generation == keep
        ]
        return self._spacing, keep
