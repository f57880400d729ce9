"""Diversity explained, per generation, for the chart: collected in the engine thread.

No Textual here. A run at unlimited speed publishes generations faster than the screen paints
them, so the engine thread measures each one right after its step (the runner's ``after_step``
hook) and appends the figures here; the chart reads a copy.

Measuring costs about a third of a generation of the default GA at N = 64 (an evaluation of
the crossed children and two column entropies; 1.9 ms against a 5.6 ms step at P = 1,000),
so it is done only while the chart shows it (:attr:`VariationSeries.enabled`); a run that is
not watched this way is not slowed down.
The series stays bounded however long the run: past :data:`LIMIT` generations, every other
one is let go.
"""

from __future__ import annotations

import bisect
import threading
from typing import Final

from engine import GeneticAlgorithm, Snapshot
from engine.lineage.variation_effects import OUTCOMES, STAGES, VariationEffects, variation_effects

LIMIT: Final = 4096
"""Generations kept at most; beyond, every other one is dropped (the chart thins anyway)."""
SHARES: Final = tuple(
    f"{operator} {outcome}" for operator in ("crossover", "mutation") for outcome in OUTCOMES
)
"""The share columns: ``crossover improved`` ... ``mutation worse``."""
COLUMNS: Final = ("generation", *STAGES, *SHARES)
"""Every column, generation first."""


def effects_row(effects: VariationEffects) -> tuple[float, ...]:
    """One generation's figures in the order of :data:`COLUMNS`."""
    return (
        float(effects.generation),
        *effects.diversity(),
        *effects.crossover,
        *effects.mutation,
    )


class VariationSeries:
    """Diversity at each stage of a generation and the operators' shares, one row per
    generation measured, for one run at a time."""

    def __init__(self) -> None:
        self.enabled = False
        """Measure each new generation (set while the chart shows diversity explained)."""
        self._lock = threading.Lock()
        self._algorithm: GeneticAlgorithm | None = None
        self._columns: dict[str, list[float]] = {name: [] for name in COLUMNS}
        self.measured = 0
        """Generations measured since the run began (also those let go since)."""
        self._last: tuple[int, float] = (-1, 0.0)

    def reset(self, algorithm: GeneticAlgorithm | None) -> None:
        """Follow a new run (``None``: none), from nothing."""
        with self._lock:
            self._algorithm = algorithm
            self._columns = {name: [] for name in COLUMNS}
            self.measured = 0
            self._last = (-1, 0.0)
            if algorithm is not None:
                self._last = (algorithm.snapshot.generation, algorithm.snapshot.stats.entropy)

    def __len__(self) -> int:
        return len(self._columns["generation"])

    def has(self, generation: int) -> bool:
        """Whether ``generation`` is measured and kept (from any thread)."""
        with self._lock:
            measured = self._columns["generation"]
            at = bisect.bisect_left(measured, generation)
            return at < len(measured) and measured[at] == generation

    def observe(self, algorithm: GeneticAlgorithm, snapshot: Snapshot) -> None:
        """The engine thread stepped ``algorithm``: measure the new generation if enabled."""
        if algorithm is not self._algorithm:
            return
        if not self.enabled or snapshot.lineage is None:
            self._last = (snapshot.generation, snapshot.stats.entropy)
            return
        # The diversity of g - 1 is the one published with it: known if it was seen.
        last_generation, last_entropy = self._last
        previous = last_entropy if last_generation == snapshot.generation - 1 else None
        self._last = (snapshot.generation, snapshot.stats.entropy)
        effects = variation_effects(
            snapshot.lineage,
            snapshot.population,
            snapshot.n,
            algorithm.encoding,
            algorithm.shape,
            diversity=(previous, snapshot.stats.entropy),
        )
        if effects is None:
            return
        row = effects_row(effects)
        with self._lock:
            if algorithm is not self._algorithm:
                return
            for values, value in zip(self._columns.values(), row, strict=True):
                values.append(value)
            self.measured += 1
            if len(self._columns["generation"]) > LIMIT:
                # Keep the newest row and every other one before it.
                for name, values in self._columns.items():
                    self._columns[name] = values[-1::-2][::-1]

    def columns(self) -> dict[str, list[float]]:
        """A copy of every column (the engine thread may append meanwhile)."""
        with self._lock:
            return {name: list(values) for name, values in self._columns.items()}
