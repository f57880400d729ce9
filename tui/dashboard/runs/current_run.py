"""The run the main screen shows, as one record: its newest snapshot, history, state, inspected.

No Textual here. :class:`~tui.dashboard.run_control.RunControl` changes the record as the
engine reports, the time-travel and record keys when they show another generation or run, and
:class:`~tui.dashboard.painter.Painter` paints from it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final

from engine import Snapshot
from tui.dashboard.runs.history_series import HistorySeries
from tui.dashboard.runs.pressure_series import PressureSeries
from tui.dashboard.runs.variation_series import VariationSeries

RUN_STATES: Final = ("idle", "running", "paused", "solved", "stopped", "error")
"""What :attr:`CurrentRun.state` may be."""


@dataclass
class CurrentRun:
    """What the main screen shows of the current run."""

    latest: Snapshot | None = None
    """The newest snapshot of the run (in time travel: the past generation shown)."""
    series: HistorySeries = field(default_factory=HistorySeries)
    """The run's history, as the charts read it."""
    variation: VariationSeries = field(default_factory=VariationSeries)
    """Diversity explained, per generation, measured in the engine thread while shown."""
    pressure: PressureSeries = field(default_factory=PressureSeries)
    """Selection pressure, per generation, kept from each snapshot in the engine thread."""
    state: str = "idle"
    """One of :data:`RUN_STATES`."""
    inspected: tuple[Snapshot, int] | None = None
    """The individual on the board instead of the best: a snapshot and a population index."""
    climbed: list[tuple[tuple[Snapshot, int], tuple[Snapshot, int]]] = field(default_factory=list)
    """The parent keys' steps up, newest last: each child stepped up from and the parent then
    inspected; the child key steps back down while the parent is still the one inspected."""
