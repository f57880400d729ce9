"""Selection pressure per generation, for the chart: kept from the snapshots as they come.

No Textual here. Every stepped snapshot carries its selection's measure
(:class:`engine.SelectionPressure`: the intensity beside its expectation, the share nobody
picked beside its own), so nothing is computed here: the live run's engine thread keeps each
generation's (:meth:`PressureSeries.keep`, from the runner's ``after_step`` hook), and the
time-travel thread keeps each generation it computes of a record. A generation restored from a
keyframe has no measure (its selection was made from the generation before, which the keyframe
does not hold): :func:`with_selection` re-steps it from that one, the same generation bit for
bit, and the same measure the live run had.

Bounded as the other series: past :data:`LIMIT` generations, every other one of the rest is
let go, the newest always kept.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from typing import Final

from engine import SelectionPressure, Snapshot
from tui.dashboard.runs.rewind import Rewinder

LIMIT: Final = 4096
"""Generations kept at most."""
NOTES_KEPT: Final = 64
"""Generations whose note (why they have no measure) is kept at most, the newest."""

Row = tuple[int, SelectionPressure]
"""A generation and its measure."""


class PressureSeries:
    """Each generation's selection pressure, for one run or record at a time (thread-safe)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._rows: dict[int, SelectionPressure] = {}
        self._notes: dict[int, str] = {}
        self.enabled = False
        """Re-step generations restored without their measure (set while the chart shows
        selection pressure)."""
        self.version = 0
        """Changes whenever a generation is kept or noted (the chart redraws)."""

    def __len__(self) -> int:
        return len(self._rows)

    def reset(self) -> None:
        """Follow another run or record, from nothing."""
        with self._lock:
            self._rows, self._notes = {}, {}
            self.version += 1

    def keep(self, snapshot: Snapshot) -> None:
        """Keep ``snapshot``'s measure, if it has one."""
        if snapshot.selection is None:
            return
        with self._lock:
            generation = snapshot.generation
            self._rows[generation] = snapshot.selection
            if len(self._rows) > LIMIT:
                rest = sorted(g for g in self._rows if g != generation)
                kept = {generation, *rest[-1::-2]}
                self._rows = {g: row for g, row in self._rows.items() if g in kept}
            self.version += 1

    def note(self, generation: int, why: str) -> None:
        """``generation`` could not be measured: say why instead."""
        with self._lock:
            self._notes[generation] = why
            while len(self._notes) > NOTES_KEPT:
                del self._notes[next(iter(self._notes))]
            self.version += 1

    def said(self, generation: int) -> str | None:
        """Why ``generation`` has no measure (``None``: it has, or nothing was said)."""
        with self._lock:
            return self._notes.get(generation)

    def wants(self, generation: int) -> bool:
        """Whether ``generation`` is still to be measured (while enabled)."""
        with self._lock:
            return (
                self.enabled
                and generation > 0
                and generation not in self._rows
                and generation not in self._notes
            )

    def rows(self, upto: int | None = None) -> list[Row]:
        """The generations kept (up to ``upto``), in order."""
        with self._lock:
            rows = list(self._rows.items())
        return sorted(row for row in rows if upto is None or row[0] <= upto)


def shown_rows(shown: int | None, *sources: PressureSeries) -> list[Row]:
    """The rows of generations up to ``shown`` (``None``: all) from every source, one per
    generation, in order: what the chart shows of a past generation, as the live chart did."""
    rows: dict[int, SelectionPressure] = {}
    for source in sources:
        for generation, pressure in source.rows(shown):
            rows.setdefault(generation, pressure)
    return sorted(rows.items())


def with_selection(
    snapshot: Snapshot, rewinder: Rewinder, abandon: Callable[[], bool] = lambda: False
) -> Snapshot:
    """``snapshot``, re-stepped from the generation before it when it was restored without its
    selection's measure (generation 0 has none to give)."""
    generation = snapshot.generation
    if snapshot.selection is not None or generation == 0:
        return snapshot
    rewinder.snapshot_at(generation - 1, abandon)
    return rewinder.snapshot_at(generation, abandon)


def columns_of(rows: Sequence[Row]) -> dict[str, list[float]]:
    """Rows as the chart's columns: ``generation``, and each figure of the measure."""
    columns: dict[str, list[float]] = {"generation": [float(g) for g, _ in rows]}
    for name in (
        "intensity",
        "expected_intensity",
        "unselected",
        "expected_unselected",
    ):
        columns[name] = [float(getattr(pressure, name)) for _, pressure in rows]
    return columns
