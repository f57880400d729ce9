"""Time travel: which past generation of a recorded run the dashboard shows, and that generation.

No Textual here. :class:`TimeTravel` says which generation is shown (``None``: the live run)
and computes it exactly from the store; the time-travel keys
(:mod:`tui.dashboard.actions.travel_keys`) move it and show what it computed.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from engine import Snapshot
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


class TimeTravel:
    """Which past generation of a recorded run the dashboard shows, and that generation.

    ``position`` is ``None`` while the dashboard follows the live run.
    """

    def __init__(self) -> None:
        self.position: int | None = None
        self.timeline: Timeline | None = None
        self.replay_only = False
        """A recorded run loaded for replay: there is no live run to return to."""
        self.request = 0
        """Counts the generations asked for and the returns to live: a generation computed
        for an older request is no longer wanted."""

    @property
    def active(self) -> bool:
        """Whether a past generation is shown."""
        return self.position is not None

    def ask(self, generation: int) -> int:
        """Show ``generation`` from now on; returns the request to compute it under."""
        self.request += 1
        self.position = generation
        return self.request

    def leave(self) -> None:
        """Follow the live run again; a generation still being computed is not wanted."""
        self.position = None
        self.request += 1

    def is_latest(self, request: int) -> bool:
        """Whether a generation computed for ``request`` is still the one to show."""
        return request == self.request and self.active

    def attach(self, store: RunStore, run_id: int, *, replay_only: bool) -> None:
        """Travel in this run from now on."""
        self.timeline = Timeline(store, run_id)
        self.replay_only = replay_only
        self.position = None

    def detach(self) -> None:
        """No recorded run (recording off, or a new run not yet recorded)."""
        self.timeline = None
        self.position = None
        self.replay_only = False

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
        if self.timeline is None:
            raise StoreError("this run is not recorded: nothing to travel back to")
        return self.timeline.snapshot_at(generation)

    def history(self) -> StoredHistory:
        """The recorded statistics, for the charts of a replayed run."""
        if self.timeline is None:
            return StoredHistory({"generation": np.empty(0)})
        return StoredHistory(self.timeline.store.stats(self.timeline.run_id))
