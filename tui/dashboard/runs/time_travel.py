"""Time travel: which past generation of a recorded run the dashboard shows, and that generation.

No Textual here. :class:`TimeTravel` says which generation is shown (``None``: the live run),
whether the record is playing back, and computes a generation exactly from the store (through a
:class:`~tui.dashboard.runs.rewind.Rewinder`, which keeps the runs passed on the way); the
time-travel keys (:mod:`tui.dashboard.actions.travel_keys`) move it and show what the
time-travel thread (:mod:`tui.dashboard.runs.travel_worker`) computed.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from engine import Snapshot
from tui.dashboard.runs.pressure_series import PressureSeries
from tui.dashboard.runs.rewind import Rewinder
from tui.dashboard.runs.travel_variation import TravelVariation
from tui.lab.store import RunStore, StoreError
from tui.lab.timeline import Timeline


class StoredHistory:
    """A recorded run's statistics, read like :class:`engine.History` by the charts."""

    def __init__(self, columns: dict[str, npt.NDArray[Any]]) -> None:
        self._columns = columns

    def __len__(self) -> int:
        return len(self._columns["generation"])

    def column(self, name: str, start: int = 0) -> npt.NDArray[np.float64]:
        """One statistic from generation ``start`` on."""
        return np.asarray(self._columns[name][start:], dtype=np.float64)

    def since(self, generation: int, names: Sequence[str]) -> dict[str, npt.NDArray[np.float64]]:
        """Columns ``names`` (and ``generation``) of the rows from ``generation`` on."""
        generations = self._columns["generation"]
        start = int(np.searchsorted(generations, generation))
        return {name: self.column(name, start) for name in ("generation", *names)}


class TimeTravel:
    """Which past generation of a recorded run the dashboard shows, and that generation.

    ``position`` is ``None`` while the dashboard follows the live run; else the generation
    asked for last (while it is computed, the screen still shows the one before).
    """

    def __init__(self) -> None:
        self.position: int | None = None
        self.timeline: Timeline | None = None
        self.rewinder: Rewinder | None = None
        """Computes the record's generations (``None``: no record)."""
        self.replay_only = False
        """A recorded run loaded for replay: there is no live run to return to."""
        self.playing = False
        """The record is playing back (``position`` moves on by itself)."""
        self.request = 0
        """Counts the generations asked for, the returns to live and the records attached: a
        generation computed for an older request is no longer wanted."""
        self.variation = TravelVariation()
        """Diversity explained for the generations of the record reached (while shown)."""
        self.pressure = PressureSeries()
        """Selection pressure of the generations of the record reached."""

    @property
    def active(self) -> bool:
        """Whether a past generation is shown."""
        return self.position is not None

    def ask(self, generation: int, *, playing: bool = False) -> int:
        """Show ``generation`` from now on (``playing``: and the ones after it, in turn);
        returns the request to compute it under."""
        self.request += 1
        self.position = generation
        self.playing = playing
        return self.request

    def hold(self) -> None:
        """Stop playing back at the generation shown; one still being computed is not
        wanted."""
        self.request += 1
        self.playing = False

    def leave(self) -> None:
        """Follow the live run again; a generation still being computed is not wanted."""
        self.position = None
        self.playing = False
        self.request += 1

    def is_latest(self, request: int) -> bool:
        """Whether a generation computed for ``request`` is still the one to show."""
        return request == self.request and self.active

    def attach(self, store: RunStore, run_id: int, *, replay_only: bool) -> None:
        """Travel in this run from now on."""
        self.timeline = Timeline(store, run_id)
        self.rewinder = Rewinder(self.timeline)
        self.variation.reset(self.timeline)
        self.pressure.reset()
        self.replay_only = replay_only
        self.leave()

    def detach(self) -> None:
        """No recorded run (recording off, or a new run not yet recorded)."""
        self.timeline = None
        self.rewinder = None
        self.variation.reset(None)
        self.pressure.reset()
        self.replay_only = False
        self.leave()

    def last_generation(self) -> int:
        """The last recorded generation (the record is re-read: a live run grows)."""
        if self.timeline is None:
            return 0
        return self.timeline.refresh().generations

    def target(self, current: int, delta: int) -> int | None:
        """The generation ``delta`` away from ``current``, clamped to the record; ``None``
        when that is past the record's end (back to live, for a live run)."""
        last = self.last_generation()
        wanted = current + delta
        if wanted > last or (wanted == last and not self.replay_only and delta > 0):
            return last if self.replay_only else None
        return max(0, wanted)

    def snapshot_at(self, generation: int) -> Snapshot:
        """Generation ``generation``, exactly (may take a moment: run it off the UI thread).

        Raises:
            StoreError: No such generation, a damaged record, or a re-step that differs.
        """
        if self.rewinder is None:
            raise StoreError("this run is not recorded: nothing to travel back to")
        return self.rewinder.snapshot_at(generation)

    def history(self) -> StoredHistory:
        """The recorded statistics, for the charts of a replayed run."""
        if self.timeline is None:
            return StoredHistory({"generation": np.empty(0)})
        return StoredHistory(self.timeline.store.stats(self.timeline.run_id))
