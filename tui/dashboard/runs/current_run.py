"""The run the main screen shows, as one record: its newest snapshot, history, state, inspected.

No Textual here. :class:`~tui.dashboard.run_control.RunControl` changes the record as the
engine reports, the time-travel and record keys when they show another generation or run, and
:class:`~tui.dashboard.painter.Painter` paints from it.

The run's state is a :data:`RunState` with one writer, :meth:`CurrentRun.move_to`, which
allows only the moves of :data:`RUN_STATE_MOVES`; everything else reads
:attr:`CurrentRun.state`. While a record is shown, ``running`` and ``paused`` are its play-back's.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final, Literal, get_args

from engine import Config, Snapshot
from tui.dashboard.runs.history_series import HistorySeries
from tui.dashboard.runs.pressure_series import PressureSeries
from tui.dashboard.runs.variation_series import VariationSeries

RunState = Literal["idle", "running", "paused", "solved", "stopped", "error"]
"""What the current run is doing: nothing yet (``idle``), stepping or playing back
(``running``), waiting (``paused``), over (``solved``, ``stopped`` by a stop rule) or failed
(``error``)."""

RUN_STATES: Final[tuple[RunState, ...]] = get_args(RunState)
"""Every :data:`RunState`."""

OVER: Final[frozenset[RunState]] = frozenset({"solved", "stopped"})
"""A run whose stop rule fired: it goes no further."""

RUN_STATE_MOVES: Final[dict[RunState, frozenset[RunState]]] = {
    # A new run starts running or paused from any state, and may fail to start; a record's
    # play-back runs and pauses whatever the live run's state (``r``, ``space`` in the past).
    "idle": frozenset({"running", "paused", "error"}),
    # Only a run that steps can end, by its stop rule or by the engine failing.
    "running": frozenset({"running", "paused", "solved", "stopped", "error"}),
    "paused": frozenset({"running", "paused", "solved", "stopped", "error"}),
    # An ended run stays as it ended; a run kept behind a replay comes back as it was.
    "solved": frozenset({"running", "paused", "solved", "error"}),
    "stopped": frozenset({"running", "paused", "stopped", "error"}),
    "error": frozenset({"running", "paused", "error"}),
}
"""The states each state may move to: a run never goes back to ``idle``, never ends without
having run, and never ends twice in two ways."""


class RunStateError(RuntimeError):
    """A move :data:`RUN_STATE_MOVES` does not allow: a fault of the dashboard, not the user's."""


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
    _state: RunState = field(default="idle", init=False, repr=False)
    started_with: Config | None = None
    """The config the live run started with (``None``: it was resumed from a record)."""
    first_swap: int | None = None
    """The first generation the live run made with a swapped operator (``None``: none yet)."""
    inspected: tuple[Snapshot, int] | None = None
    """The individual on the board instead of the best: a snapshot and a population index."""
    climbed: list[tuple[tuple[Snapshot, int], tuple[Snapshot, int]]] = field(default_factory=list)
    """The parent keys' steps up, newest last: each child stepped up from and the parent then
    inspected; the child key steps back down while the parent is still the one inspected."""

    @property
    def state(self) -> RunState:
        """What the run is doing (see :data:`RunState`); changed by :meth:`move_to` alone."""
        return self._state

    def move_to(self, state: RunState) -> None:
        """Change the run's state: the one place that does.

        Raises:
            RunStateError: A move :data:`RUN_STATE_MOVES` does not allow.
        """
        if state not in RUN_STATE_MOVES[self._state]:
            raise RunStateError(f"the run cannot go from {self._state} to {state}")
        self._state = state
