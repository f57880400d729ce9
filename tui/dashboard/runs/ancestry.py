"""An inspected individual's line back to generation 0, and its parents' generation, for the
dashboard.

No Textual here. Two sources: the live run's last generations kept in memory
(:class:`~tui.dashboard.runs.lineage_ring.LineageRing`), read at once; and a recorded run's store,
read by the lab (:func:`tui.lab.lineage.trace`; re-stepping from keyframes may take a moment, so
callers run :func:`recorded_line` and :func:`recorded_generation` off the UI thread). The line
follows, as the lab's does, the parent that gave most of the queens (the first on a tie).
"""

from __future__ import annotations

import dataclasses
import math
import threading
from dataclasses import dataclass

from engine import Snapshot
from engine.lineage.lineage import CROSSED, KIND, MOSTLY_SECOND
from tui.dashboard.runs.lineage_ring import LineageRing
from tui.lab.lineage import Ancestor, ArrayFamily, BestDescent, trace
from tui.lab.recorded_lineage import RecordedSource, snapshot_with_lineage
from tui.lab.store import RunStore
from tui.lab.timeline import Timeline


@dataclass(frozen=True)
class Line:
    """An individual's ancestry as the dashboard shows it.

    Attributes:
        ancestors: The individual first, then one ancestor a generation, older and older.
        descent: Over the generations read: how often the best descends from the best before.
        complete: Whether the line reaches where it began (generation 0, or a newcomer).
        source: Where it was read: ``memory`` or ``run N``.
    """

    ancestors: list[Ancestor]
    descent: BestDescent
    complete: bool
    source: str

    @property
    def oldest(self) -> int:
        """The generation of the oldest ancestor listed."""
        return self.ancestors[-1].generation if self.ancestors else 0


def previous_generation(snapshot: Snapshot) -> Snapshot:
    """Generation ``g - 1`` as the lineage of ``snapshot`` keeps it: its population, fitness,
    conflicts and best (no lineage; the statistics the board and table do not read, the
    evaluations and times, are left out as zero and NaN).

    Raises:
        ValueError: The snapshot has no lineage, or is generation 0.
    """
    lineage = snapshot.lineage
    if lineage is None or lineage.previous.shape[0] == 0:
        raise ValueError(f"generation {snapshot.generation} keeps no generation before it")
    fitness, conflicts = lineage.previous_fitness, lineage.previous_conflicts
    best = lineage.previous_best
    stats = snapshot.stats._replace(
        generation=snapshot.generation - 1,
        evaluations=0,
        elapsed=0.0,
        best_fitness=float(fitness[best]),
        mean_fitness=float(fitness.mean()),
        worst_fitness=float(fitness.min()),
        best_conflicts=int(conflicts[best]),
        mean_conflicts=float(conflicts.mean()),
        unique_fraction=math.nan,
        entropy=math.nan,
    )
    return dataclasses.replace(
        snapshot,
        stats=stats,
        population=lineage.previous,
        fitness=fitness,
        conflicts=conflicts,
        best_index=best,
        stop_reason=None,
        lineage=None,
    )


def _ancestor(snapshot: Snapshot, index: int) -> Ancestor:
    """One generation of a line, as :func:`tui.lab.lineage.trace` describes it."""
    genome = tuple(int(gene) for gene in snapshot.population[index])
    fitness, conflicts = float(snapshot.fitness[index]), int(snapshot.conflicts[index])
    lineage = snapshot.lineage
    if lineage is None or snapshot.generation == 0:
        return Ancestor(
            snapshot.generation, index, genome, fitness, conflicts, "new", (), None, None
        )
    first, second = (int(parent) for parent in lineage.parents[index])
    flags = int(lineage.flags[index])
    parents = tuple(parent for parent in (first, second) if parent >= 0)
    main = lineage.main_parent(index)
    other = first if flags & MOSTLY_SECOND else second
    return Ancestor(
        generation=snapshot.generation,
        individual=index,
        genome=genome,
        fitness=fitness,
        conflicts=conflicts,
        operator=lineage.operator(index),
        parents=parents,
        followed=main if main >= 0 else None,
        other=other if flags & KIND == CROSSED else None,
    )


def ring_line(ring: LineageRing, snapshot: Snapshot, index: int) -> Line:
    """The line of individual ``index`` of ``snapshot`` through the generations the ring keeps
    (incomplete where the ring runs out), and the bests' descent over those generations."""
    ancestors: list[Ancestor] = []
    descent = BestDescent(0, 0, 0)
    shown: Snapshot | None = snapshot
    at = index
    complete = False
    while shown is not None:
        ancestor = _ancestor(shown, at)
        ancestors.append(ancestor)
        lineage = shown.lineage
        if shown.generation == 0:
            complete = True
            break
        if lineage is None:
            break
        descent = descent.counting(ArrayFamily.of(lineage))
        if ancestor.followed is None:  # a newcomer: the line began here
            complete = True
            at = -1
        else:
            at = ancestor.followed
        before = ring.at(shown.generation - 1, same_as=shown)
        if before is None and shown.generation == 1:
            before = previous_generation(shown)  # generation 0 is the lineage's own copy
        if at < 0:
            # The descent still counts the generations below, as far as they are kept.
            descent = _count_down(ring, before, descent)
            break
        shown = before
    return Line(ancestors, descent, complete, "memory")


def _count_down(ring: LineageRing, shown: Snapshot | None, descent: BestDescent) -> BestDescent:
    """``descent`` with the generations from ``shown`` down, as far as the ring keeps them."""
    while shown is not None and shown.lineage is not None and shown.generation > 0:
        descent = descent.counting(ArrayFamily.of(shown.lineage))
        shown = ring.at(shown.generation - 1, same_as=shown)
    return descent


class RecordedRun:
    """A recorded run's generations for the dashboard's lineage views, read off the UI thread.

    One lock: the views' worker threads take turns on the run's timeline (its own, apart from
    time travel's, so neither moves the other's re-stepped run).

    Args:
        store: The run store.
        run_id: The run.
    """

    def __init__(self, store: RunStore, run_id: int) -> None:
        self.store = store
        self.run_id = run_id
        self._lock = threading.Lock()
        self._timeline: Timeline | None = None

    def _fresh_timeline(self) -> Timeline:
        if self._timeline is None:
            self._timeline = Timeline(self.store, self.run_id)
        else:
            self._timeline.refresh()  # a live run's record grows
        return self._timeline

    def generation(self, generation: int) -> Snapshot:
        """Generation ``generation`` with its lineage (generation 0 has no parents).

        Raises:
            StoreError: Not recorded, or the record cannot be re-stepped.
        """
        with self._lock:
            timeline = self._fresh_timeline()
            if generation == 0:
                return timeline.snapshot_at(0)
            return snapshot_with_lineage(timeline, generation)

    def line(self, generation: int, index: int) -> Line:
        """The whole line of individual ``index`` of ``generation`` back to generation 0, and
        the bests' descent over generations 1 to ``generation`` (the lab's :func:`trace`).

        Raises:
            StoreError: Not recorded, or the record cannot be re-stepped.
        """
        with self._lock:
            timeline = self._fresh_timeline()
            traced = trace(RecordedSource(timeline), generation, index)
        return Line(traced.ancestors, traced.descent, True, f"run {self.run_id}")
