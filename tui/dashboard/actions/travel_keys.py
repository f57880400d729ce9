"""The time-travel keys: ``[`` ``]`` ``{`` ``}`` ``g`` ``end``, and ``space``/``n`` in the past.

Going back pauses the run and shows a past generation exactly (recomputed from the store by the
time-travel thread, :mod:`tui.dashboard.runs.travel_worker`): board, table, inspect and conflict
list show it, the status line says ``REPLAY gen 37 / 412`` and the chart marks it. While a
generation is computed the status line says so at once (``computing gen 190…``) and every key
still acts; a newer jump replaces it. In the past, ``space`` plays the record back from the
generation shown at the speed limit (``+``/``-`` as for a live run) and ``n`` steps one
recorded generation; a replayed record stops at its end, the past of a live run goes on into
the live run. ``end`` returns to the live run.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Final

from textual.actions import SkipAction
from textual.message import Message
from textual.screen import Screen
from textual.worker import get_current_worker

from engine import Snapshot
from tui.dashboard.painter import Painter
from tui.dashboard.run_control import RunControl
from tui.dashboard.runs.travel_worker import TravelJob, TravelResult, TravelWorker
from tui.dashboard.widgets import FitnessPlot, StatusLine

BIG_STEP: Final = 10
"""Generations ``{`` and ``}`` travel."""
MARK_EVERY: Final = 0.5
"""Seconds between two marks of the chart while playing back (drawing it costs)."""


class TravelKeys:
    """Shows past generations of the recorded run, plays them back, and the live run again.

    Args:
        screen: The main screen: it runs the time-travel thread and receives :class:`Travelled`.
        run_control: The current run (paused before travelling).
        painter: Paints the generation shown.
        status: Says which generation is shown, and which one is being computed.
        plot: Marks it on the chart.
    """

    @dataclass
    class Travelled(Message):
        """A past generation was computed (or could not be); ``playing``: more follow."""

        request: int
        generation: int
        snapshot: Snapshot | None
        error: str | None
        playing: bool = False

        def can_replace(self, message: Message) -> bool:
            """A play-back frame still queued is stale once a newer one of its request exists."""
            return (
                isinstance(message, TravelKeys.Travelled)
                and message.request == self.request
                and message.playing
            )

    def __init__(
        self,
        screen: Screen[None],
        run_control: RunControl,
        painter: Painter,
        status: StatusLine,
        plot: FitnessPlot,
    ) -> None:
        self.screen = screen
        self.run_control = run_control
        self.travel = run_control.travel
        self.painter = painter
        self.status = status
        self.plot = plot
        self._keyframes_warned_of: set[int] = set()
        self._marked_at = 0.0
        self.worker = TravelWorker(
            self.travel, self._deliver, lambda: run_control.runner.speed_limit
        )
        run_control.past = self
        screen.run_worker(self._run_worker, thread=True, group="time-travel", exit_on_error=False)

    def _run_worker(self) -> None:
        """The time-travel thread, a Textual thread worker like every job of the dashboard.

        A thread, not an ``async`` task: computing a generation is numpy work that holds its
        thread for as long as it takes, and it must give up at the next generation when a newer
        jump is asked for; the loop (:class:`~tui.dashboard.runs.travel_worker.TravelWorker`)
        checks its latest request and this worker's cancellation between generations. One
        worker for the screen's life, not one per key: two jumps never compete for the cores,
        and a rewind's kept runs serve the next jump.
        """
        worker = get_current_worker()
        self.worker.run(lambda: worker.is_cancelled)

    def _deliver(self, result: TravelResult) -> None:
        """From the time-travel thread: hand a result to the screen."""
        self.screen.post_message(
            self.Travelled(
                result.request, result.generation, result.snapshot, result.error, result.playing
            )
        )

    def shown_generation(self) -> int | None:
        """The generation on screen."""
        latest = self.run_control.run.latest
        return None if latest is None else latest.generation

    def move(self, delta: int) -> None:
        """``delta`` generations from the one asked for last (back from the live run pauses
        it); a jump still being computed is replaced."""
        latest = self.run_control.run.latest
        if not self._can_travel() or latest is None:
            return
        current = self.travel.position
        if current is None:
            if delta > 0:
                return  # already live
            self._pause_for_travel()
            current = latest.generation
        target = self.travel.target(current, delta)
        if target is None:
            self.run_control.show_live()
        else:
            self.show_generation(target)

    def go_to(self) -> None:
        """Ask for a generation and jump to it."""
        from tui.dashboard.screens.generation_prompt import GenerationPrompt

        if not self._can_travel():
            return
        self._pause_for_travel()
        last = self.travel.last_generation()

        def chosen(generation: int | None) -> None:
            if generation is not None:
                self.show_generation(generation)

        self.screen.app.push_screen(GenerationPrompt(last), chosen)

    def go_live(self) -> None:
        """Back to the live run (a replayed run: its last generation).

        Raises:
            SkipAction: Outside time travel, so that ``end`` (a priority key) goes on to the
                focused widget (the table's last row).
        """
        if not self.travel.active:
            raise SkipAction
        if self.travel.replay_only:
            self.show_generation(self.travel.last_generation())
            return
        self.run_control.show_live()

    def toggle_play(self) -> None:
        """``space`` in the past: play the record back from the generation shown, or pause."""
        if self.travel.playing:
            self.travel.hold()
            self.worker.wake()
            self.run_control.run.move_to("paused")
            self._say_shown()
            return
        shown, asked = self.shown_generation(), self.travel.position
        if shown is None or asked is None:
            return
        last = self.travel.last_generation()
        # A jump still being computed is played from; else the generation after the one shown.
        start = asked if asked != shown else shown + 1
        if start > last:
            self.screen.notify(
                f"The record ends at generation {last:,}: [ or g to go back, then space.",
                timeout=4,
            )
            return
        self.run_control.run.move_to("running")
        self.show_generation(start, playing=True)

    def step(self) -> None:
        """``n`` in the past: one recorded generation on (past the end of a live run's record:
        the live run)."""
        if self.travel.playing:
            self.toggle_play()
        asked = self.travel.position
        if asked is None:
            return
        target = self.travel.target(asked, 1)
        if target is None:
            self.run_control.show_live()
        elif target == asked and self.shown_generation() == asked:
            last = self.travel.last_generation()
            self.screen.notify(f"The record ends at generation {last:,}.", timeout=3)
        else:
            self.show_generation(target)

    def _can_travel(self) -> bool:
        if self.travel.timeline is None and self.run_control.recording.expecting:
            self.screen.notify(
                "Nothing recorded yet: a run is recorded from its first step (space or n).",
                timeout=4,
            )
            return False
        if self.travel.timeline is None:
            failure = self.run_control.recording.failure
            why = (
                f"the run store refused it: {failure}"
                if failure is not None
                else "the form's record toggle is off"
            )
            self.screen.notify(
                f"This run is not recorded ({why}): nothing to go back to.",
                timeout=8 if failure is not None else 4,
            )
            return False
        return True

    def _pause_for_travel(self) -> None:
        self.run_control.pause()
        self.run_control.recording.flush()

    def show_generation(self, generation: int, *, playing: bool = False) -> None:
        """Have generation ``generation`` computed (``playing``: and the ones after it, in
        turn); the status line says so at once, :meth:`show_travelled` shows it."""
        if not playing and self.travel.playing:
            self.run_control.run.move_to("paused")
        request = self.travel.ask(generation, playing=playing)
        if not playing:  # a sign at once: the generation may take seconds to compute
            shown = self.shown_generation()
            self._say_shown(computing=None if generation == shown else generation)
        self.worker.ask(TravelJob(request, generation, playing))

    def _say_shown(self, *, computing: int | None = None) -> None:
        """The status line: the generation shown, and the one being computed if any."""
        shown = self.shown_generation()
        last = self.travel.last_generation()
        mark = "▶ " if self.travel.playing else ""
        note = "REPLAY" if shown is None else f"REPLAY {mark}gen {shown:,} / {last:,}"
        if computing is not None:
            note += f"  computing gen {computing:,}…"
        elif shown is None:
            return
        self.status.note = note
        self.painter.paint_status()

    def show_travelled(self, message: Travelled) -> None:
        """Show a computed generation, unless another was asked for since."""
        if not self.travel.is_latest(message.request):
            return
        if message.snapshot is None:
            self.travel.hold()
            self.run_control.run.move_to("paused")
            self._say_shown()
            self.screen.notify(
                message.error or "", title="Time travel", severity="error", timeout=8
            )
            return
        self._warn_of_damaged_keyframes()
        snapshot = message.snapshot
        run = self.run_control.run
        run.latest = snapshot
        run.inspected = None
        self.travel.position = snapshot.generation
        ended = self.travel.playing and not message.playing
        if ended:
            self.travel.playing = False
        self._say_shown()
        self.painter.dirty = True
        now = time.monotonic()
        if not message.playing or now - self._marked_at >= MARK_EVERY:
            self._marked_at = now
            self.painter.redraw_chart()
            self.painter.repaint(force=True)
            self.painter.paint_plot()
            self.plot.mark(self.painter.x_of(snapshot))
        if ended:
            self._end_of_play_back(snapshot)

    def _end_of_play_back(self, snapshot: Snapshot) -> None:
        """Play-back reached the record's end: a replay stops there, a live run goes on."""
        if self.travel.replay_only:
            self.run_control.run.move_to("paused")
            self.painter.repaint(force=True)
            self.screen.notify(f"End of the record: generation {snapshot.generation:,}.", timeout=4)
            return
        self.run_control.show_live()
        self.run_control.toggle()

    def _warn_of_damaged_keyframes(self) -> None:
        """Say once per keyframe that a damaged one was set aside (the generation shown is
        still exact: it was re-stepped from an earlier keyframe and checked)."""
        timeline = self.travel.timeline
        if timeline is None:
            return
        for generation, why in list(timeline.damaged.items()):
            if generation in self._keyframes_warned_of:
                continue
            self._keyframes_warned_of.add(generation)
            self.screen.notify(
                f"The keyframe of generation {generation:,} is damaged and was set aside; "
                f"generations after it are re-stepped from an earlier one. {why}",
                title="Time travel",
                severity="warning",
                timeout=8,
            )
