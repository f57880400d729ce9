"""The time-travel thread: computes the generation asked for last, and plays the record back.

No Textual here. One thread serves every request, so two jumps never compete for the machine:
a newer request replaces the one waiting, and the one being computed gives up at its next
generation (the run it reached stays a start for the next one, see
:class:`~tui.dashboard.runs.rewind.Rewinder`). Playing back is a request too: the generations from
the one asked for to the record's end, one per tick of the speed limit, until a newer request
or the end.

While the chart shows diversity explained, each generation computed is measured here too
(:class:`~tui.dashboard.runs.travel_variation.TravelVariation`), and so is the generation shown when
the thread has nothing else to do (the view was switched on while it is shown). Each
generation computed also gives its selection pressure (kept in
:class:`~tui.dashboard.runs.pressure_series.PressureSeries`); while the chart shows it, a
generation restored from a keyframe without it is re-stepped from the one before.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from contextlib import suppress
from dataclasses import dataclass
from typing import Final

from engine import Snapshot
from tui.dashboard.runs.pressure_series import with_selection
from tui.dashboard.runs.rewind import Abandoned, Rewinder
from tui.dashboard.runs.time_travel import TimeTravel

WAKE_EVERY: Final = 0.25
"""Seconds between two looks at whether the thread must end, while it waits."""


@dataclass(frozen=True)
class TravelJob:
    """What is asked: generation ``generation`` (and, playing, every one after it)."""

    request: int
    generation: int
    playing: bool = False


@dataclass(frozen=True)
class TravelResult:
    """A generation computed for a request (``snapshot``), or why it could not be (``error``).

    ``playing``: more generations of the same request follow.
    """

    request: int
    generation: int
    snapshot: Snapshot | None
    error: str | None = None
    playing: bool = False


class TravelWorker:
    """Computes requested generations in one thread, the newest request first.

    A job is dropped as soon as it is no longer the travel's latest request (another key, a
    return to the live run, another record), and so is a play-back.

    Args:
        travel: The travel state: its latest request, its record's rewinder and last generation.
        deliver: Called from the thread with each result.
        speed_limit: The generations per second to play back at (``None``: unlimited).
    """

    def __init__(
        self,
        travel: TimeTravel,
        deliver: Callable[[TravelResult], None],
        speed_limit: Callable[[], float | None],
    ) -> None:
        self._travel = travel
        self._deliver = deliver
        self._speed_limit = speed_limit
        self._condition = threading.Condition()
        self._job: TravelJob | None = None
        self._stopped = False
        self._cancelled: Callable[[], bool] = lambda: False

    def ask(self, job: TravelJob) -> None:
        """Compute ``job`` next, instead of whatever was asked before."""
        with self._condition:
            self._job = job
            self._condition.notify_all()

    def wake(self) -> None:
        """Look again at the travel's request at once (it changed: a pause, a return)."""
        with self._condition:
            self._condition.notify_all()

    def stop(self) -> None:
        """End the thread (the screen is closing)."""
        with self._condition:
            self._stopped = True
            self._job = None
            self._condition.notify_all()

    def run(self, cancelled: Callable[[], bool] = lambda: False) -> None:
        """The thread: serve requests until :meth:`stop` (or ``cancelled()``); between them,
        explain the generation shown if the chart wants it."""
        self._cancelled = cancelled
        while True:
            with self._condition:
                while self._job is None and not self._ending() and self._unexplained() is None:
                    self._condition.wait(WAKE_EVERY)
                if self._ending():
                    return
                job, self._job = self._job, None
                rewinder = self._travel.rewinder
                shown = self._unexplained()
            if job is not None and rewinder is not None:
                self._serve(job, rewinder)
            elif shown is not None and rewinder is not None:
                self._explain_shown(shown, rewinder)

    def _ending(self) -> bool:
        return self._stopped or self._cancelled()

    def _unexplained(self) -> int | None:
        """The generation shown, if it is still to be measured for the chart (not while a
        record plays: each generation played is measured as it is computed)."""
        travel = self._travel
        shown = travel.position
        if shown is None or travel.playing:
            return None
        if not (travel.variation.wants(shown) or travel.pressure.wants(shown)):
            return None
        return shown

    def _explain_shown(self, generation: int, rewinder: Rewinder) -> None:
        """Measure the generation shown (the run is at it already: nothing is re-stepped,
        unless it was restored from a keyframe)."""
        variation = self._travel.variation

        def abandon() -> bool:
            return self._job is not None or self._ending()

        try:
            snapshot = variation.explain(
                rewinder.snapshot_at(generation, abandon), rewinder, abandon
            )
        except Abandoned:
            return
        except Exception as error:  # said in the chart, never tried again in a loop
            variation.give_up(rewinder, generation, str(error))
            snapshot = None
        with suppress(Abandoned):
            self._measure(generation, snapshot, rewinder, abandon)

    def _measure(
        self,
        generation: int,
        snapshot: Snapshot | None,
        rewinder: Rewinder,
        abandon: Callable[[], bool],
    ) -> Snapshot | None:
        """Keep the selection pressure of a generation computed (re-stepped from the one
        before if it was restored without it and the chart shows it); say why where it cannot.

        Raises:
            Abandoned: ``abandon()`` said so while re-stepping.
        """
        pressure = self._travel.pressure
        try:
            if pressure.wants(generation):
                if snapshot is None or snapshot.selection is None:
                    snapshot = with_selection(
                        snapshot or rewinder.snapshot_at(generation, abandon), rewinder, abandon
                    )
                if snapshot.selection is None:
                    pressure.note(generation, "its selection is not known")
        except Abandoned:
            raise
        except Exception as error:  # said in the chart, never tried again in a loop
            pressure.note(generation, str(error))
        if snapshot is not None:
            pressure.keep(snapshot)
        return snapshot

    def _replaced(self, job: TravelJob) -> bool:
        """Whether ``job`` is no longer wanted."""
        return self._job is not None or self._travel.request != job.request or self._ending()

    def _serve(self, job: TravelJob, rewinder: Rewinder) -> None:
        """Compute the job's generation, then (playing) the next ones, one per tick."""
        generation = job.generation
        next_due = time.monotonic()

        def abandon() -> bool:
            return self._replaced(job)

        while True:
            started = time.monotonic()
            try:
                snapshot = rewinder.snapshot_at(generation, abandon=abandon)
                snapshot = self._travel.variation.explain(snapshot, rewinder, abandon)
                snapshot = self._measure(generation, snapshot, rewinder, abandon) or snapshot
            except Abandoned:
                return
            except Exception as error:  # a damaged record must not end the thread
                self._deliver(TravelResult(job.request, generation, None, str(error)))
                return
            more = job.playing and generation < self._travel.last_generation()
            self._deliver(TravelResult(job.request, generation, snapshot, playing=more))
            if not more:
                return
            with self._condition:
                while not self._replaced(job):
                    # The limit is read each time round: + and - act on a tick already waited.
                    delay = max(next_due, started) + self._tick() - time.monotonic()
                    if delay <= 0:
                        break
                    self._condition.wait(min(delay, WAKE_EVERY))
                if self._replaced(job):
                    return
            next_due = max(next_due, started) + self._tick()
            generation += 1

    def _tick(self) -> float:
        """Seconds between two generations played back (0: no limit)."""
        limit = self._speed_limit()
        return 1.0 / limit if limit else 0.0
