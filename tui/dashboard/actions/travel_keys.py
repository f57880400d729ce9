"""The time-travel keys: ``[`` ``]`` ``{`` ``}`` ``g`` ``end``.

Going back pauses the run and shows a past generation exactly (recomputed from the store in a
thread, see :class:`tui.dashboard.time_travel.TimeTravel`): board, table, inspect and conflict
list show it, the status line says ``REPLAY gen 37 / 412`` and the chart marks it. ``end``
returns to the live run.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from textual.actions import SkipAction
from textual.message import Message
from textual.screen import Screen

from engine import Snapshot
from tui.dashboard.painter import Painter
from tui.dashboard.run_control import RunControl
from tui.dashboard.widgets import FitnessPlot, StatusLine

BIG_STEP: Final = 10
"""Generations ``{`` and ``}`` travel."""


class TravelKeys:
    """Shows past generations of the recorded run, and the live run again.

    Args:
        screen: The main screen: it runs the computing thread and receives :class:`Travelled`.
        run_control: The current run (paused before travelling).
        painter: Paints the generation shown.
        status: Says which generation is shown.
        plot: Marks it on the chart.
    """

    @dataclass
    class Travelled(Message):
        """A past generation was computed (or could not be)."""

        request: int
        generation: int
        snapshot: Snapshot | None
        error: str | None

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

    def move(self, delta: int) -> None:
        """``delta`` generations from the one shown (back from the live run pauses it)."""
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

    def _can_travel(self) -> bool:
        if self.travel.timeline is None:
            self.screen.notify(
                "This run is not recorded (the form's record toggle): nothing to go back to.",
                timeout=4,
            )
            return False
        return True

    def _pause_for_travel(self) -> None:
        self.run_control.pause()
        self.run_control.recording.flush()

    def show_generation(self, generation: int) -> None:
        """Compute generation ``generation`` in a thread; :meth:`show_travelled` shows it."""
        request = self.travel.ask(generation)
        travel = self.travel
        screen = self.screen

        def compute() -> None:
            try:
                snapshot = travel.snapshot_at(generation)
            except Exception as error:  # a damaged record must not kill the dashboard
                screen.post_message(self.Travelled(request, generation, None, str(error)))
            else:
                screen.post_message(self.Travelled(request, generation, snapshot, None))

        screen.run_worker(compute, thread=True, group="time-travel", exit_on_error=False)

    def show_travelled(self, message: Travelled) -> None:
        """Show a computed generation, unless another was asked for since."""
        if not self.travel.is_latest(message.request):
            return
        if message.snapshot is None:
            self.screen.notify(
                message.error or "", title="Time travel", severity="error", timeout=8
            )
            return
        self._warn_of_damaged_keyframes()
        snapshot = message.snapshot
        last = self.travel.last_generation()
        self.status.note = f"REPLAY gen {snapshot.generation:,} / {last:,}"
        run = self.run_control.run
        run.latest = snapshot
        run.inspected = None
        self.painter.dirty = True
        self.painter.redraw_chart()
        self.painter.repaint(force=True)
        self.painter.paint_plot()
        self.plot.mark(self.painter.x_of(snapshot))

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
