"""Diversity explained for the generations time travel shows: measured in the time-travel thread.

No Textual here. Live, the engine thread measures each new generation from its lineage
(:class:`~tui.dashboard.runs.variation_series.VariationSeries`). A recorded generation is rebuilt
by re-stepping the run from a keyframe (:class:`~tui.dashboard.runs.rewind.Rewinder`), and a
re-stepped generation has its lineage again: the time-travel thread measures it the same way,
with the same figures the live run measured for it (the diversity of ``g - 1`` and of ``g`` is
the record's, as the live run's was its history's). A generation restored from a keyframe has
no lineage (its generation before is not in the keyframe): that one is re-stepped from the
generation before it. Where a generation cannot be explained, :meth:`TravelVariation.note`
says why, in words.

Only while the chart shows diversity explained (:attr:`TravelVariation.enabled`); the figures
stay bounded as the live series does: past :data:`~tui.dashboard.runs.variation_series.LIMIT`
generations, every other one is let go.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping, Sequence
from typing import Final

from engine import Config, ConfigError, Snapshot, fitness_shape_of
from engine.genomes.encodings import ENCODINGS
from engine.lineage.variation_effects import variation_effects
from tui.dashboard.runs import variation_series
from tui.dashboard.runs.rewind import Rewinder
from tui.dashboard.runs.variation_series import COLUMNS, effects_row
from tui.lab.store import StoreError
from tui.lab.timeline import Timeline

NOTES_KEPT: Final = 64
"""Generations whose note (why they have no figures) is kept at most, the newest."""

Note = tuple[str, ...]
"""Why a generation has no figures, in words: variants from the longest to the shortest."""


def first_population_note() -> Note:
    """Generation 0: nothing made it."""
    return (
        "gen 0 is the first population: no operator made it (space or n plays on)",
        "gen 0: the first population, made by no operator",
        "gen 0: the first population",
    )


def no_lineage_note(generation: int) -> Note:
    """A generation whose lineage the record cannot give."""
    return (
        f"gen {generation:,}: this record does not give its lineage: nothing to explain",
        f"gen {generation:,}: no lineage kept: nothing to explain",
        f"gen {generation:,}: no lineage",
    )


def failed_note(generation: int, why: str) -> Note:
    """A generation that could not be measured, and why."""
    return (
        f"gen {generation:,} cannot be explained: {why}",
        f"gen {generation:,}: the record cannot be re-stepped to explain it",
        f"gen {generation:,}: not explained",
    )


def finished_note(recorded: bool) -> Note:
    """The run is over and the view was shown too late to measure any of it live."""
    if recorded:
        return (
            "the run is over: [ or g goes back, and each generation shown is measured",
            "run over: [ or g goes back to measure it",
            "run over: [ or g",
        )
    return (
        "the run is over and not recorded: r starts a new one, measured while shown",
        "run over, not recorded: r for a new one",
        "run over: r",
    )


def measuring_note(generation: int) -> Note:
    """A generation not measured yet (the time-travel thread is at it)."""
    return (f"gen {generation:,}: measuring…",)


def unmeasured_note(generation: int) -> Note:
    """A generation shown but not the one time travel is at (another is being computed, or
    could not be): measured once shown again."""
    return (
        f"gen {generation:,}: not measured; measured while shown (space or n)",
        f"gen {generation:,}: not measured",
    )


def shown_columns(
    generation: int, *sources: Mapping[str, Sequence[float]]
) -> dict[str, list[float]]:
    """The rows of generations up to ``generation`` from every source (columns as
    :data:`~tui.dashboard.runs.variation_series.COLUMNS`), one per generation, in order: what the
    chart shows of a past generation, as the live chart showed it then."""
    rows: dict[int, tuple[float, ...]] = {}
    for columns in sources:
        for row in zip(*(columns.get(name, ()) for name in COLUMNS), strict=True):
            if row[0] <= generation:
                rows.setdefault(int(row[0]), row)
    ordered = [rows[g] for g in sorted(rows)]
    return {name: [row[index] for row in ordered] for index, name in enumerate(COLUMNS)}


class TravelVariation:
    """Diversity explained for the generations of one record time travel reached.

    Measured from the time-travel thread (:meth:`explain`); read by the painter
    (:meth:`columns`, :meth:`note`, :attr:`version`).
    """

    def __init__(self) -> None:
        self.enabled = False
        """Measure each generation reached (set while the chart shows diversity explained)."""
        self.known: Callable[[int], bool] = lambda generation: False
        """Whether the live run measured a generation already (its figures are the same:
        the chart shows the live ones, and it is not measured again)."""
        self._lock = threading.Lock()
        self._timeline: Timeline | None = None
        self._rows: dict[int, tuple[float, ...]] = {}
        self._notes: dict[int, Note] = {}
        self.version = 0
        """Changes whenever a generation is measured or noted (the chart redraws)."""

    def reset(self, timeline: Timeline | None) -> None:
        """Follow another record (``None``: none), from nothing."""
        with self._lock:
            self._timeline = timeline
            self._rows = {}
            self._notes = {}
            self.version += 1

    def __len__(self) -> int:
        return len(self._rows)

    def wants(self, generation: int) -> bool:
        """Whether ``generation`` of the record followed is still to be measured (while
        enabled)."""
        with self._lock:
            return self._wants(self._timeline, generation)

    def _wants(self, timeline: Timeline | None, generation: int) -> bool:
        return (
            self.enabled
            and timeline is not None
            and timeline is self._timeline
            and generation not in self._rows
            and generation not in self._notes
            and not self.known(generation)
        )

    def explain(
        self, snapshot: Snapshot, rewinder: Rewinder, abandon: Callable[[], bool] = lambda: False
    ) -> Snapshot:
        """Measure ``snapshot``'s generation of ``rewinder``'s record, if wanted (from the
        time-travel thread).

        Returns:
            The generation, re-stepped from the one before if it had to be for its lineage
            (the same generation, bit for bit), else ``snapshot`` itself.

        Raises:
            Abandoned: ``abandon()`` said so while re-stepping.
        """
        generation, timeline = snapshot.generation, rewinder.timeline
        with self._lock:
            if not self._wants(timeline, generation):
                return snapshot
        if generation == 0:
            self._keep(timeline, generation, note=first_population_note())
            return snapshot
        try:
            if snapshot.lineage is None:
                # Restored from a keyframe or a state kept in memory: the lineage holds the
                # generation before, which neither keeps; re-stepped from there, it has one.
                rewinder.snapshot_at(generation - 1, abandon)
                snapshot = rewinder.snapshot_at(generation, abandon)
            lineage = snapshot.lineage
            if lineage is None:
                self._keep(timeline, generation, note=no_lineage_note(generation))
                return snapshot
            config = Config.from_mapping(timeline.info.config)
            before = timeline.store.stats(timeline.run_id, generation - 1, generation)["entropy"]
            effects = variation_effects(
                lineage,
                snapshot.population,
                snapshot.n,
                ENCODINGS[snapshot.encoding],
                fitness_shape_of(config.fitness),
                # The diversities the live run had in its history, as the record has them.
                diversity=(float(before[0]) if len(before) else None, snapshot.stats.entropy),
            )
        except (StoreError, ConfigError) as error:
            self._keep(timeline, generation, note=failed_note(generation, str(error)))
            return snapshot
        if effects is None:
            self._keep(timeline, generation, note=no_lineage_note(generation))
        else:
            self._keep(timeline, generation, row=effects_row(effects))
        return snapshot

    def give_up(self, rewinder: Rewinder, generation: int, why: str) -> None:
        """``generation`` could not be reached to be measured: say why instead."""
        self._keep(rewinder.timeline, generation, note=failed_note(generation, why))

    def _keep(
        self,
        timeline: Timeline,
        generation: int,
        *,
        row: tuple[float, ...] | None = None,
        note: Note | None = None,
    ) -> None:
        """Keep a generation's figures or note, if the record is still the one followed."""
        with self._lock:
            if timeline is not self._timeline:
                return
            if row is not None:
                self._rows[generation] = row
                if len(self._rows) > variation_series.LIMIT:
                    # The generation just measured, and every other one of the rest.
                    rest = sorted(g for g in self._rows if g != generation)
                    kept = {generation, *rest[-1::-2]}
                    self._rows = {g: r for g, r in self._rows.items() if g in kept}
            if note is not None:
                self._notes[generation] = note
                while len(self._notes) > NOTES_KEPT:
                    del self._notes[next(iter(self._notes))]
            self.version += 1

    def columns(self) -> dict[str, list[float]]:
        """Every generation measured, in order, as columns (a copy)."""
        with self._lock:
            ordered = [self._rows[g] for g in sorted(self._rows)]
        return {name: [row[index] for row in ordered] for index, name in enumerate(COLUMNS)}

    def note(self, generation: int) -> Note | None:
        """Why ``generation`` has no figures (``None``: it has, or nothing was said yet)."""
        with self._lock:
            return self._notes.get(generation)
