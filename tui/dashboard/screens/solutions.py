"""The `s` screen: every solution of the form's N, exactly, and the GA experiment beside it.

The exact set comes first: up to the engine's listing limit (N = 16) every solution is listed
in a thread worker (:class:`~tui.dashboard.widgets.ExactSearch`), as ``queens solutions``
lists them, and the gallery draws the boards in view, one representative of each fundamental
class marked. Above it the solutions are counted (up to
:data:`~tui.dashboard.pictures.solution_texts.AUTO_COUNT_LIMIT`; beyond, the count is OEIS's), and
the screen says why. ``escape`` stops a listing or a count, then goes back.

The GA experiment is the form's GA in find-all mode: it records each solution it meets with its
rotations and reflections, replaces it by a newcomer and stops when the known total is reached
(past N = 12, after a time budget). ``space`` runs and pauses it, in the same thread worker as
the main run (:class:`~tui.dashboard.widgets.EngineRunner`); the screen repaints from its latest
snapshot on a timer, marks its finds in the gallery and says how many of the exact set it has.
"""

from __future__ import annotations

from typing import ClassVar, Final

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import Screen
from textual.widgets import Footer, Static

from engine import Config, Snapshot
from engine.solutions.archive import KNOWN_TOTALS
from engine.solutions.exact import LISTING_LIMIT
from tui.dashboard.pictures.solution_sets import ExactSolutionSet, FoundSolutionSet
from tui.dashboard.pictures.solution_texts import (
    AUTO_COUNT_LIMIT,
    Wordings,
    counted_text,
    exact_note,
    fitting,
    ga_text,
    known_text,
    listed_text,
    searching_text,
)
from tui.dashboard.widgets.engine_runner import EngineRunner
from tui.dashboard.widgets.exact_search import ExactSearch
from tui.dashboard.widgets.solution_gallery import SolutionGallery

REACHABLE_N: Final = 12
"""The largest N whose solutions (14,200 at N = 12) a run can be expected to find them all."""
TIME_BUDGET: Final = 60.0
"""Seconds of computing a find-all run gets beyond :data:`REACHABLE_N`."""
FRAME_RATE: Final = 10
"""Repaints per second of the GA line."""
GALLERY_EVERY: Final = 5
"""The GA's finds are marked in the gallery at most every this many frames (2 Hz)."""
STATES: Final = ("searching", "done", "stopped", "error")
"""CSS classes of the count line, one per state of the exact search."""


def find_all_config(config: Config) -> Config:
    """The form's GA in find-all mode: no stop rule but "all found" (and a budget past N = 12).

    Args:
        config: The form's config; its N, seed and operators are kept.

    Returns:
        The same GA with harvesting on and its generation, evaluation and stagnation limits
        lifted, since those would end the search before it found everything.
    """
    return config.replace(
        harvest=True,
        stop_when_solved=False,
        generations=None,
        max_evals=None,
        stagnation=None,
        time_limit=TIME_BUDGET if config.n > REACHABLE_N else None,
    )


def reach_note(n: int) -> str:
    """What to expect of the GA experiment at this N."""
    known = KNOWN_TOTALS.get(n)
    if n <= REACHABLE_N:
        total = known[0] if known is not None else 0
        return f"space runs the GA experiment until it has found all {total:,}."
    return (
        f"space runs the GA experiment: finding all is out of reach, so it stops after "
        f"{TIME_BUDGET:.0f} s."
    )


class SolutionsScreen(Screen[None]):
    """The exact count, the gallery of solutions and the GA experiment's progress."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("space", "toggle_run", "GA run/pause", id="solutions-toggle-run"),
        Binding(
            "v",
            "next_picture",
            "View",
            id="solutions-view",
            tooltip="the next picture that fits: squares, half blocks, Braille, genomes",
        ),
        Binding(
            "escape",
            "back",
            "Stop/Back",
            id="solutions-back",
            tooltip="stop the listing or count; when none runs, go back",
        ),
    ]

    AUTO_FOCUS = "#solutions-gallery"

    DEFAULT_CSS = """
    SolutionsScreen {
        layout: vertical;
    }
    SolutionsScreen #solutions-count, SolutionsScreen #solutions-progress {
        height: 1;
        background: $panel;
        padding: 0 1;
        text-wrap: nowrap;
        text-overflow: ellipsis;
    }
    SolutionsScreen #solutions-count { text-style: bold; }
    SolutionsScreen #solutions-count.-searching { background: $primary 40%; }
    SolutionsScreen #solutions-count.-done { background: $success 30%; }
    SolutionsScreen #solutions-count.-stopped { background: $warning 40%; }
    SolutionsScreen #solutions-count.-error { background: $error 50%; }
    SolutionsScreen #solutions-progress.-running { background: $primary 40%; }
    SolutionsScreen #solutions-progress.-done { background: $success 50%; }
    SolutionsScreen #solutions-progress.-stopped { background: $warning 40%; }
    SolutionsScreen #solutions-progress.-error { background: $error 50%; }
    SolutionsScreen #solutions-note {
        height: auto;
        color: $text-muted;
        padding: 0 1;
    }
    SolutionsScreen #solutions-gallery {
        border: round $frame;
        padding: 0 0 0 1;
    }
    """

    def __init__(self, config: Config, *, ascii: bool = False) -> None:
        """Args:
        config: The form's config; the GA experiment runs it in find-all mode.
        ascii: Draw the boards in ASCII only.
        """
        super().__init__()
        self.config = config
        """The form's config (its find-all version once the screen is mounted)."""
        self.ascii = ascii
        """Whether the gallery draws in ASCII only."""
        self.latest: Snapshot | None = None
        """The newest snapshot of the GA experiment."""
        self.run_state = "paused"
        """The GA experiment: paused, running, done (all found), stopped (budget spent) or
        error."""
        self.exact_state = "searching"
        """The exact set: searching, done, stopped (by escape), known (OEIS's count) or error."""
        self.solutions: ExactSolutionSet | None = None
        """The exact set once listed (up to N = 16)."""
        self.found: FoundSolutionSet | None = None
        """The GA's finds, which the gallery shows above N = 16."""
        self._count_wordings: Wordings = ("",)
        self._ga_marked = 0
        self._frame = 0
        self._gallery_stale = False

    def compose(self) -> ComposeResult:
        """The count, why, the GA line, the gallery, the footer."""
        n = self.config.n
        yield Static("", id="solutions-count")
        note = exact_note(n) + (f" {reach_note(n)}" if n <= LISTING_LIMIT else "")
        yield Static(note, id="solutions-note")
        yield Static("", id="solutions-progress")
        yield SolutionGallery(ascii=self.ascii, id="solutions-gallery")
        yield Footer(compact=True)
        yield EngineRunner()
        yield ExactSearch()

    def on_mount(self) -> None:
        """Start the exact search, set the GA experiment up paused at generation 0, and the
        repaint timer."""
        self.runner = self.query_one(EngineRunner)
        self.exact = self.query_one(ExactSearch)
        self.count_line = self.query_one("#solutions-count", Static)
        self.progress = self.query_one("#solutions-progress", Static)
        self.gallery = self.query_one(SolutionGallery)
        self._start_exact(self.config.n)
        try:
            self.config = find_all_config(self.config)
            self.latest = self.runner.start(self.config, run=False).snapshot
            self._mark_ga_finds()  # generation 0 may hold solutions already
        except Exception as error:
            self._failed(f"{type(error).__name__}: {error}")
        self._repaint(force=True)
        self.set_interval(1 / FRAME_RATE, self._repaint, name="solutions-repaint")

    def _start_exact(self, n: int) -> None:
        if n <= LISTING_LIMIT:
            self.gallery.border_title = f"Solutions of N = {n}"
            self.gallery.show(None, f"Listing every solution of N = {n}…")
            self._set_count_line("searching", (f"N = {n}: listing every solution…",))
            self.exact.list_solutions(n)
            return
        self.found = FoundSolutionSet(n)
        self.gallery.border_title = (
            f"Solutions the GA found at N = {n} · * fundamental · {self.gallery.tick} by generation"
        )
        self.gallery.show(self.found, "The GA experiment's solutions appear here: space runs it.")
        if n <= AUTO_COUNT_LIMIT:
            self._set_count_line("searching", (f"N = {n}: counting…",))
            self.exact.count_solutions(n)
        else:
            self._set_count_line("done" if n in KNOWN_TOTALS else "stopped", known_text(n))
            self.exact_state = "known"

    def _set_count_line(self, state: str, wordings: Wordings) -> None:
        self.exact_state = state
        for name in STATES:
            self.count_line.set_class(state == name, f"-{name}")
        self._show_count(wordings)

    def _show_count(self, wordings: Wordings) -> None:
        self._count_wordings = wordings
        self.count_line.update(fitting(wordings, self.count_line.content_region.width))

    def on_resize(self) -> None:
        """Another width may fit other wordings of the status lines."""
        self._show_count(self._count_wordings)
        self._paint_progress()

    # Messages from the exact search -------------------------------------------------------

    @on(ExactSearch.Progress)
    def _exact_progress(self, message: ExactSearch.Progress) -> None:
        message.stop()
        if message.search_id != self.exact.search_id or not self.exact.running:
            return  # a stopped search keeps its "stopping" line until it reports
        verb = "listing" if message.n <= LISTING_LIMIT else "counting"
        self._show_count(
            searching_text(
                message.n,
                verb,
                message.searched,
                message.prefixes,
                message.solutions,
                message.elapsed,
            )
        )

    @on(ExactSearch.Listed)
    def _listed(self, message: ExactSearch.Listed) -> None:
        message.stop()
        if message.search_id != self.exact.search_id:
            return
        solutions = message.solutions
        complete = solutions.listing.complete
        self.solutions = solutions
        self._set_count_line(
            "done" if complete else "stopped",
            listed_text(
                solutions.n,
                solutions.count,
                solutions.fundamental_count,
                message.elapsed,
                complete=complete,
                searched=message.searched,
                prefixes=message.prefixes,
            ),
        )
        self.gallery.border_title = (
            f"Solutions of N = {solutions.n} · * fundamental · "
            f"{self.gallery.tick} found by the GA (generation)"
        )
        self._ga_marked = 0  # the GA's finds so far are marked from the first
        self._mark_ga_finds()
        self.gallery.show(solutions, "No solution.")

    @on(ExactSearch.Counted)
    def _counted(self, message: ExactSearch.Counted) -> None:
        message.stop()
        if message.search_id != self.exact.search_id:
            return
        text = counted_text(
            message.n,
            message.total,
            message.fundamental,
            message.elapsed,
            searched=message.searched,
            prefixes=message.prefixes,
        )
        known = KNOWN_TOTALS.get(message.n)
        if message.complete and known is not None and (message.total, message.fundamental) != known:
            self._set_count_line("error", (f"{text[-1]}, not OEIS's {known[0]:,}, {known[1]:,}",))
            return
        self._set_count_line("done" if message.complete else "stopped", text)

    @on(ExactSearch.Failed)
    def _exact_failed(self, message: ExactSearch.Failed) -> None:
        message.stop()
        if message.search_id == self.exact.search_id:
            self._set_count_line("error", (f"N = {self.config.n}: {message.error}",))
            self.notify(message.error, title="Exact search failed", severity="error", timeout=10)

    # Messages from the GA experiment's runner: they concern this screen alone -------------

    @on(EngineRunner.Stepped)
    def _stepped(self, message: EngineRunner.Stepped) -> None:
        message.stop()
        if message.run_id == self.runner.run_id:
            self.latest = message.snapshot
            self._mark_ga_finds()

    @on(EngineRunner.Finished)
    def _finished(self, message: EngineRunner.Finished) -> None:
        message.stop()
        if message.run_id != self.runner.run_id:
            return
        snapshot = message.snapshot
        self.latest = snapshot
        self._mark_ga_finds()
        found = f"{snapshot.solutions.shape[0]:,}"
        if snapshot.stop_reason == "all-found":
            self.run_state = "done"
            self.notify(f"N = {snapshot.n}: the GA found all {found} solutions.")
        else:
            self.run_state = "stopped"
            self.notify(
                f"The GA stopped ({snapshot.stop_reason}) with {found} solutions found.",
                severity="warning",
            )
        self._repaint(force=True)

    @on(EngineRunner.Failed)
    def _engine_failed(self, message: EngineRunner.Failed) -> None:
        message.stop()
        if message.run_id == self.runner.run_id:
            self._failed(message.error)

    def _failed(self, error: str) -> None:
        self.run_state = "error"
        self.notify(error, title="Engine error", severity="error", timeout=10)
        self._repaint(force=True)

    # Painting -----------------------------------------------------------------------------

    def _repaint(self, force: bool = False) -> None:
        self._frame += 1
        self._paint_progress()
        if self._gallery_stale and (force or self._frame % GALLERY_EVERY == 0):
            self._gallery_stale = False
            self.gallery.source_changed()

    def _mark_ga_finds(self) -> None:
        """Mark the GA's new finds in the exact set (or add them to the gallery above it) as
        found by the generation of the first snapshot that holds them; the gallery shows them
        at its next repaint."""
        snapshot = self.latest
        if snapshot is None:
            return
        boards = snapshot.solutions
        if self.found is not None:
            self._gallery_stale |= self.found.update(boards, snapshot.generation)
        elif self.solutions is not None and boards.shape[0] > self._ga_marked:
            new = boards[self._ga_marked :]
            self._ga_marked = boards.shape[0]
            self._gallery_stale |= self.solutions.mark_found(new, snapshot.generation) > 0

    def _paint_progress(self) -> None:
        snapshot = self.latest
        state = self.run_state
        for name in ("running", "done", "stopped", "error"):
            self.progress.set_class(state == name, f"-{name}")
        if snapshot is None:
            self.progress.update(f"GA: {state}")
            return
        wordings = ga_text(
            snapshot.solutions.shape[0],
            snapshot.fundamental_solutions,
            snapshot.generation,
            snapshot.elapsed,
            state,
            KNOWN_TOTALS.get(snapshot.n),
            self.config.time_limit,
        )
        self.progress.update(fitting(wordings, self.progress.content_region.width))

    # Actions ------------------------------------------------------------------------------

    def action_toggle_run(self) -> None:
        """Run or pause the GA experiment."""
        if self.run_state in ("done", "stopped", "error"):
            self.notify("The GA experiment is over: escape, then s for another.", timeout=3)
            return
        if self.runner.running:
            self.runner.pause()
            self.run_state = "paused"
        else:
            self.runner.resume()
            self.run_state = "running"
        self._paint_progress()

    def action_next_picture(self) -> None:
        """Draw the boards in the next smaller picture that fits, or as genomes."""
        self.gallery.next_picture()

    def action_back(self) -> None:
        """Stop the listing or count; when none runs, stop the GA and go back."""
        if self.exact.running:
            self.exact.stop()
            self._show_count((f"N = {self.config.n}: stopping after this batch…",))
            return
        self.runner.stop()
        self.dismiss()
