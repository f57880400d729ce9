"""The `L` screen: the lessons as a slideshow, each measured beside its textbook formula.

``space`` steps (the text and formula, the runs, the measured rows beside the theory), ``n``
goes to the next lesson and ``b`` back; escape closes. A lesson's runs are the same jobs
``queens lesson`` runs, here one after another in a thread, so the screen stays live and shows
how many are done. On the landscape's rows ``t`` walks N = 10 too, in a thread, its progress
shown; closing the screen stops it. What the screen says comes from
:class:`tui.lab.lessons.slideshow.Slideshow`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from tui.lab.lessons.landscape import measure_landscape, population_on_landscape
from tui.lab.lessons.runner import InProcess, lesson_document
from tui.lab.lessons.slideshow import WALKED_N, Slideshow


class LessonClosed(Exception):
    """Raised in the runs' thread once the screen has closed, to stop between runs."""


class LessonsScreen(ModalScreen[None]):
    """The lessons, one step at a time."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("space", "advance", "Step", id="lesson-step", tooltip="text, runs, results"),
        Binding("n", "next_lesson", "Next", id="next-lesson", tooltip="the next lesson"),
        Binding("b", "previous_lesson", "Back", id="previous-lesson", tooltip="the lesson before"),
        Binding(
            "t", "walk_landscape", "N = 10", id="walk-landscape", tooltip="the landscape of N = 10"
        ),
        Binding("escape,q", "dismiss", "Close", id="close-lessons"),
    ]

    DEFAULT_CSS = """
    LessonsScreen {
        align: center middle;
    }
    LessonsScreen > VerticalScroll {
        width: 110;
        max-width: 98%;
        height: auto;
        max-height: 95%;
        border: round $accent;
        border-title-align: center;
        background: $surface;
        padding: 0 1;
    }
    """

    def __init__(
        self,
        sizes: Mapping[str, tuple[int | None, int | None]] | None = None,
        live: Callable[[], Any] | None = None,
    ) -> None:
        """Args:
        sizes: A population and seeds per lesson, in place of each lesson's own.
        live: The live run's population when the landscape can hold it (permutations of
            at most 9 queens), else ``None``: placed on the landscape beside its rows.
        """
        super().__init__()
        self.slideshow = Slideshow(sizes=dict(sizes or {}))
        self._live = live
        self._closed = False

    def compose(self) -> ComposeResult:
        """The lesson's title in the border, the step's text inside."""
        with VerticalScroll() as scroll:
            scroll.border_title = self.slideshow.title()
            yield Static(id="lesson-body")

    def on_mount(self) -> None:
        self.show()

    def show(self) -> None:
        """Draw the step shown, and start the runs it wants."""
        self.query_one(VerticalScroll).border_title = self.slideshow.title()
        self.query_one("#lesson-body", Static).update(Text("\n".join(self.slideshow.lines())))
        if self.slideshow.needs_runs():
            self._start_runs()
        population = self._live() if self._live is not None else None
        if population is not None and self.slideshow.wants_placing():
            self.slideshow.placed = {}  # under way
            self.run_worker(lambda: self._place(population), thread=True, exit_on_error=False)

    def _place(self, population: Any) -> None:
        """Place the live population on its landscape (in a thread: N = 9 takes seconds)."""
        placed = population_on_landscape(population)
        if not self._closed:
            self.app.call_from_thread(self._placed, placed)

    def _placed(self, placed: dict[str, Any]) -> None:
        self.slideshow.placed = placed
        self.show()

    def _start_runs(self) -> None:
        lesson = self.slideshow.lesson
        population, seeds = self.slideshow.size()
        planned = len(
            lesson.jobs(population or lesson.population or 0, seeds or lesson.seeds or 0, None)
        )
        self.slideshow.started(planned)

        def progress(done: int, total: int) -> None:
            if self._closed:
                raise LessonClosed
            self.app.call_from_thread(self._ran, done, total)

        def compute() -> None:
            try:
                document = lesson_document(lesson, population, seeds, InProcess(), progress)
            except LessonClosed:
                return
            if not self._closed:
                self.app.call_from_thread(self._finished, lesson.name, document)

        self.run_worker(compute, thread=True, group="lesson", exit_on_error=False)

    def _ran(self, done: int, planned: int) -> None:
        self.slideshow.ran(done, planned)
        self.show()

    def _finished(self, name: str, document: dict[str, object]) -> None:
        self.slideshow.finished(name, dict(document))
        self.show()

    def action_advance(self) -> None:
        """One step on (``space``)."""
        self.slideshow.advance()
        self.show()

    def action_next_lesson(self) -> None:
        """The next lesson (``n``)."""
        self.slideshow.next_lesson()
        self.show()

    def action_previous_lesson(self) -> None:
        """The lesson before (``b``)."""
        self.slideshow.previous_lesson()
        self.show()

    def action_walk_landscape(self) -> None:
        """Walk the landscape's N = 10 in a thread (``t``, on the landscape's rows)."""
        if not self.slideshow.can_walk():
            return
        self.slideshow.walk_started()
        self.show()

        shown = [-1]  # the percent last shown: the screen is told at each new one

        def progress(done: int, total: int) -> None:
            if self._closed:
                raise LessonClosed
            if done * 100 // total != shown[0]:
                shown[0] = done * 100 // total
                self.app.call_from_thread(self._walked, done, total)

        def walk() -> None:
            row: dict[str, Any] | None = None
            try:
                row = measure_landscape(WALKED_N, progress)
            except LessonClosed:
                return
            except MemoryError:
                if not self._closed:
                    self.app.call_from_thread(self._walk_failed, "not enough memory")
                return
            if not self._closed:
                self.app.call_from_thread(self._walk_finished, row)

        self.run_worker(walk, thread=True, group="landscape-walk", exit_on_error=False)

    def _walked(self, done: int, total: int) -> None:
        if self.slideshow.walking is not None:
            self.slideshow.walked(done, total)
            self.show()

    def _walk_finished(self, row: dict[str, Any]) -> None:
        self.slideshow.walk_finished(row)
        self.show()

    def _walk_failed(self, why: str) -> None:
        self.slideshow.walk_finished(None)
        self.notify(f"The landscape of N = {WALKED_N} was not walked: {why}", severity="error")
        self.show()

    def on_unmount(self) -> None:
        """Closed: runs under way stop before their next job."""
        self._closed = True
