"""The origin keys: ``p`` and ``P`` step to the inspected individual's parents, ``d`` back down
to the child, ``w`` opens its ancestry.

The parent is shown inspected, in generation ``g - 1`` (the board follows): from the live run's
generations kept in memory when they are this run's, else from the run's record (re-stepped in
a thread), else from the lineage's own copy of generation ``g - 1`` (which has no lineage of its
own: the next step up is then not known). The ancestry is read from memory when the line there
reaches generation 0, else from the record; an unrecorded run's line stops where memory does.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final, TypeVar

from textual.screen import Screen

from engine import Snapshot
from tui.dashboard.painter import Painter
from tui.dashboard.runs.ancestry import Line, RecordedRun, previous_generation, ring_line
from tui.dashboard.runs.current_run import CurrentRun
from tui.dashboard.runs.lineage_ring import RING_BYTES, RING_GENERATIONS, LineageRing
from tui.dashboard.runs.recording import DashboardRecording
from tui.dashboard.runs.time_travel import TimeTravel

Result = TypeVar("Result")

NOTICE_DELAY: Final = 0.5
"""Seconds a read from the record goes before it is said to be under way: a quicker one says
nothing, since its notice would outlive the answer and sit over what the answer opened."""


class OriginKeys:
    """Steps between an inspected individual and its parents, and opens its ancestry.

    Args:
        screen: The main screen (notifications, workers, the ancestry screen).
        run: The current run: what is inspected, and the steps up taken.
        painter: Paints the board of the individual inspected.
        ring: The live run's last generations in memory.
        travel: The recorded run, if any (its store and number).
        recording: Flushed before the record of a live run is read.
        ascii: Draw the ancestry's board in ASCII.
    """

    def __init__(
        self,
        screen: Screen[None],
        run: CurrentRun,
        painter: Painter,
        ring: LineageRing,
        travel: TimeTravel,
        recording: DashboardRecording,
        *,
        ascii: bool = False,
    ) -> None:
        self.screen = screen
        self.run = run
        self.painter = painter
        self.ring = ring
        self.travel = travel
        self.recording = recording
        self.ascii = ascii
        self._recorded: RecordedRun | None = None
        self._request = 0

    # What is inspected -------------------------------------------------------------------

    def _shown(self) -> tuple[Snapshot, int] | None:
        """The individual on the board: the inspected one, else the best."""
        if self.run.inspected is not None:
            return self.run.inspected
        latest = self.run.latest
        return None if latest is None else (latest, latest.best_index)

    def _record(self) -> RecordedRun | None:
        """The recorded run being shown, if it is recorded."""
        timeline = self.travel.timeline
        if timeline is None:
            return None
        recorded = self._recorded
        if recorded is None or recorded.run_id != timeline.run_id:
            recorded = self._recorded = RecordedRun(timeline.store, timeline.run_id)
        if not self.travel.replay_only:
            self.recording.flush()  # the generations the live run has stepped, in the store
        return recorded

    def _in_thread(
        self,
        work: Callable[[], Result],
        done: Callable[[Result], None],
        what: str,
        *,
        quiet: bool = False,
    ) -> None:
        """Run ``work`` in a thread, then ``done`` with its result on the UI thread (unless
        another request came since); an error is said, never raised. A read that takes more
        than :data:`NOTICE_DELAY` is said to be under way (unless ``quiet``)."""
        self._request += 1
        request = self._request
        screen = self.screen

        notice = None
        if not quiet:
            notice = screen.set_timer(
                NOTICE_DELAY,
                lambda: screen.notify(f"{what}: reading the run's record…", timeout=2),
            )

        def finish(result: Result) -> None:
            if notice is not None:
                notice.stop()
            if request == self._request:
                done(result)

        def failed(error: str) -> None:
            if notice is not None:
                notice.stop()
            if request == self._request:
                screen.notify(error, title=what, severity="error", timeout=8)

        def compute() -> None:
            try:
                result = work()
            except Exception as error:  # a damaged record must not kill the dashboard
                screen.app.call_from_thread(failed, str(error))
            else:
                screen.app.call_from_thread(finish, result)

        screen.run_worker(compute, thread=True, group="origin", exit_on_error=False)

    def fill_in(self) -> None:
        """The individual just inspected is of a generation restored from a keyframe, which
        keeps no lineage: read the generation again from the record, with its lineage, and
        show where the individual came from."""
        shown = self.run.inspected
        if shown is None or shown[0].lineage is not None or shown[0].generation == 0:
            return
        recorded = self._record()
        if recorded is None:
            return
        snapshot, index = shown
        generation = snapshot.generation

        def done(full: Snapshot) -> None:
            if self.run.inspected is shown:
                self.run.inspected = (full, index)
                self.painter.paint_board()

        self._in_thread(lambda: recorded.generation(generation), done, "Origin", quiet=True)

    # Parents -----------------------------------------------------------------------------

    def parent(self, *, other: bool = False) -> None:
        """Show the main parent (``other``: the other one) of the individual on the board."""
        shown = self._shown()
        if shown is None:
            return
        snapshot, index = shown
        if snapshot.lineage is None and snapshot.generation > 0:
            recorded = self._record()
            if recorded is None:
                self._say(
                    f"Generation {snapshot.generation:,} is no longer kept in memory: record "
                    "the run (the form's record toggle) to walk its whole lineage."
                )
                return
            generation = snapshot.generation
            self._in_thread(
                lambda: recorded.generation(generation),
                lambda full: self._climb((full, index), other),
                "Parent",
            )
            return
        self._climb(shown, other)

    def _climb(self, child: tuple[Snapshot, int], other: bool) -> None:
        snapshot, index = child
        lineage = snapshot.lineage
        label = f"#{index} of gen {snapshot.generation:,}"
        if snapshot.generation == 0 or lineage is None:
            self._say(f"{label} is of generation 0: it has no parents.")
            return
        first, second = (int(parent) for parent in lineage.parents[index])
        main = lineage.main_parent(index)
        if main < 0:
            self._say(f"{label} is new (the harvest's newcomer): it has no parents.")
            return
        parent = (second if main == first else first) if other else main
        if parent < 0:
            self._say(f"{label} has one parent ({lineage.operator(index)}): p shows it.")
            return
        generation = snapshot.generation - 1
        kept = self.ring.at(generation, same_as=snapshot)
        if kept is not None:
            self._show_parent(child, (kept, parent))
            return
        recorded = self._record()
        if recorded is not None:
            self._in_thread(
                lambda: recorded.generation(generation),
                lambda found: self._show_parent(child, (found, parent)),
                "Parent",
            )
            return
        self._show_parent(child, (previous_generation(snapshot), parent))

    def _show_parent(self, child: tuple[Snapshot, int], parent: tuple[Snapshot, int]) -> None:
        run = self.run
        climbed = run.climbed
        if climbed and climbed[-1][1] is not run.inspected:
            climbed.clear()  # inspected some other way since: the steps up are done with
        climbed.append((child, parent))
        run.inspected = parent
        self.painter.paint_board()

    def child(self) -> None:
        """Back down to the child the last parent key stepped up from."""
        run = self.run
        climbed = run.climbed
        if not climbed or climbed[-1][1] is not run.inspected:
            climbed.clear()
            self._say("No child to go back to: p steps up to a parent first.")
            return
        child, _ = climbed.pop()
        run.inspected = child
        self.painter.paint_board()

    def _say(self, text: str) -> None:
        self.screen.notify(text, timeout=4)

    # Ancestry ----------------------------------------------------------------------------

    def ancestry(self) -> None:
        """Open the ancestry of the individual on the board."""
        shown = self._shown()
        if shown is None:
            return
        snapshot, index = shown
        line = ring_line(self.ring, snapshot, index)
        if line.complete:
            self._open(snapshot, line)
            return
        recorded = self._record()
        if recorded is None:
            self._open(snapshot, line)
            return
        generation = snapshot.generation
        self._in_thread(
            lambda: recorded.line(generation, index),
            lambda whole: self._open(snapshot, whole),
            "Ancestry",
        )

    def _open(self, snapshot: Snapshot, line: Line) -> None:
        from tui.dashboard.screens.ancestry import AncestryScreen

        note = None
        if not line.complete:
            note = (
                f"kept in memory back to generation {line.oldest:,} (memory keeps the newest "
                f"{RING_GENERATIONS:,} generations at most, {RING_BYTES // 2**20} MiB at most): "
                "record the run (the form's record toggle) for the whole line"
            )

        def chosen(ancestor: tuple[int, int] | None) -> None:
            if ancestor is not None:
                self.inspect_ancestor(snapshot, *ancestor)

        self.screen.app.push_screen(
            AncestryScreen(line, snapshot.n, snapshot.encoding, note=note, ascii=self.ascii),
            chosen,
        )

    def inspect_ancestor(self, descendant: Snapshot, generation: int, index: int) -> None:
        """Inspect individual ``index`` of ``generation``, an ancestor of an individual of
        ``descendant`` (from memory, else from the record)."""

        def show(snapshot: Snapshot) -> None:
            self.run.climbed.clear()
            self.run.inspected = (snapshot, index)
            self.painter.paint_board()

        if generation == descendant.generation:
            show(descendant)
            return
        kept = self.ring.at(generation, same_as=descendant)
        if kept is None and generation == 0:
            first = self.ring.at(1, same_as=descendant)
            kept = None if first is None else previous_generation(first)
        if kept is not None:
            show(kept)
            return
        recorded = self._record()
        if recorded is None:
            self._say(f"Generation {generation:,} is no longer kept in memory.")
            return
        self._in_thread(lambda: recorded.generation(generation), show, "Ancestor")
