"""The `s` screen: find every solution for the form's N with the form's GA (find-all mode).

The run records each solution it meets with its rotations and reflections, replaces it by a
newcomer and stops when the known total is reached. It steps in the same thread worker as the
main run (:class:`~tui.dashboard.widgets.EngineRunner`); the screen repaints from the latest
snapshot on a timer. Past N = 12 the totals run to tens of thousands and more, so the run gets a
time budget and the screen shows what it found within it.
"""

from __future__ import annotations

from typing import ClassVar, Final

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import Screen
from textual.widgets import Footer, Static

from engine import Config, Snapshot
from engine.solutions import KNOWN_TOTALS
from tui.dashboard.widgets.engine_runner import EngineRunner
from tui.dashboard.widgets.solution_gallery import SolutionGallery

REACHABLE_N: Final = 12
"""The largest N whose solutions (14,200 at N = 12) a run can be expected to find them all."""
TIME_BUDGET: Final = 60.0
"""Seconds of computing a find-all run gets beyond :data:`REACHABLE_N`."""
FRAME_RATE: Final = 10
"""Repaints per second of the progress line."""
GALLERY_EVERY: Final = 5
"""The gallery is laid out again at most every this many frames (2 Hz)."""


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
    """What to expect of a find-all run at this N."""
    known = KNOWN_TOTALS.get(n)
    if n <= REACHABLE_N:
        total = known[0] if known is not None else 0
        return f"N = {n} has {total:,} solutions; the run stops when it has found them all."
    total_text = f"{known[0]:,} solutions" if known is not None else "more solutions than anyone"
    if known is None:
        total_text += " has counted"
    return (
        f"N = {n} has {total_text}: finding them all is out of reach. "
        f"The run stops after {TIME_BUDGET:.0f} s and shows what it found."
    )


class SolutionsScreen(Screen[None]):
    """Find-all progress, the fundamental classes found and a gallery of the solutions."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("space", "toggle_run", "Run/Pause", id="solutions-toggle-run"),
        Binding("escape", "back", "Back", id="solutions-back"),
    ]

    DEFAULT_CSS = """
    SolutionsScreen {
        layout: vertical;
    }
    SolutionsScreen #solutions-progress {
        height: 1;
        background: $panel;
        padding: 0 1;
    }
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
        border: round $panel-lighten-2;
        padding: 0 1;
    }
    """

    def __init__(self, config: Config) -> None:
        """Args:
        config: The form's config; the screen runs it in find-all mode.
        """
        super().__init__()
        self.config = config
        """The form's config (its find-all version once the screen is mounted)."""
        self.latest: Snapshot | None = None
        """The newest snapshot of the run."""
        self.run_state = "paused"
        """paused, running, done (all found), stopped (budget spent) or error."""
        self._frame = 0
        self._dirty = True

    def compose(self) -> ComposeResult:
        """Progress line, what to expect, the gallery, the footer."""
        yield Static("", id="solutions-progress")
        yield Static(reach_note(self.config.n), id="solutions-note")
        yield SolutionGallery(id="solutions-gallery")
        yield Footer(compact=True)
        yield EngineRunner()

    def on_mount(self) -> None:
        """Set the run up, paused at generation 0, and the repaint timer."""
        self.runner = self.query_one(EngineRunner)
        self.progress = self.query_one("#solutions-progress", Static)
        self.gallery = self.query_one(SolutionGallery)
        self.gallery.border_title = f"Solutions found at N = {self.config.n}"
        try:
            self.config = find_all_config(self.config)
            self.latest = self.runner.start(self.config, run=False).snapshot
        except Exception as error:
            self._failed(f"{type(error).__name__}: {error}")
        self._repaint(force=True)
        self.set_interval(1 / FRAME_RATE, self._repaint, name="solutions-repaint")

    # Messages from the runner stop here: they concern this screen's search alone.

    @on(EngineRunner.Stepped)
    def _stepped(self, message: EngineRunner.Stepped) -> None:
        message.stop()
        if message.run_id == self.runner.run_id:
            self.latest = message.snapshot
            self._dirty = True

    @on(EngineRunner.Finished)
    def _finished(self, message: EngineRunner.Finished) -> None:
        message.stop()
        if message.run_id != self.runner.run_id:
            return
        snapshot = message.snapshot
        self.latest = snapshot
        if snapshot.stop_reason == "all-found":
            self.run_state = "done"
            self.notify(f"N = {snapshot.n}: all {snapshot.solutions_text.removeprefix('found ')}.")
        else:
            self.run_state = "stopped"
            self.notify(
                f"Stopped ({snapshot.stop_reason}): {snapshot.solutions_text}.",
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
        snapshot = self.latest
        self._paint_progress()
        if snapshot is None or not (self._dirty or force):
            return
        if force or self._frame % GALLERY_EVERY == 0:
            self._dirty = False
            self.gallery.show(snapshot.solutions)

    def _paint_progress(self) -> None:
        snapshot = self.latest
        state = self.run_state
        for name in ("running", "done", "stopped", "error"):
            self.progress.set_class(state == name, f"-{name}")
        if snapshot is None:
            self.progress.update(f"N = {self.config.n}: {state}")
            return
        hint = {
            "paused": " · space runs",
            "running": " · space pauses",
        }.get(state, "")
        known = KNOWN_TOTALS.get(snapshot.n)
        classes = "" if known is not None else f" ({snapshot.fundamental_solutions:,} fundamental)"
        self.progress.update(
            f"{snapshot.solutions_text}{classes} · "
            f"gen {snapshot.generation:,} · {snapshot.evaluations:,} evals · "
            f"{snapshot.elapsed:.1f} s · {state}{hint}"
        )

    # Actions ------------------------------------------------------------------------------

    def action_toggle_run(self) -> None:
        """Run or pause the search."""
        if self.run_state in ("done", "stopped", "error"):
            self.notify("The search is over: escape, then s for another.", timeout=3)
            return
        if self.runner.running:
            self.runner.pause()
            self.run_state = "paused"
        else:
            self.runner.resume()
            self.run_state = "running"
        self._paint_progress()

    def action_back(self) -> None:
        """Stop the search and go back to the dashboard."""
        self.runner.stop()
        self.dismiss()
