"""The lessons as a slideshow, for the dashboard's lessons screen: which lesson, which step,
and the text each step shows. No Textual: the screen draws what this says.

Each lesson has three steps: what to look at and the formula; its runs (started on the step,
with their progress); the measured rows beside the theory (and a verdict where the lesson has
one). ``advance`` moves one step (the screen's ``space``), ``next_lesson`` to the next lesson's
first step (``n``), ``previous_lesson`` back (``b``). A lesson's document, once made, is kept:
coming back to it shows its rows without running it again.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from tui.lab.lessons.catalog import LESSONS
from tui.lab.lessons.lesson import Lesson
from tui.lab.lessons.table import size_line, table_lines

STEPS: Final = ("text", "runs", "rows")
"""A lesson's steps, in order."""

WALKED_N: Final = 10
"""The landscape's board walked on request, in the background (``t``)."""


@dataclass
class Slideshow:
    """Where the lessons screen is.

    Attributes:
        sizes: A population and seeds per lesson name, in place of the lesson's own (``None``
            for either: the lesson's).
        lesson_index: The lesson shown, in :data:`~tui.lab.lessons.catalog.LESSONS` order.
        step: The step shown, an index into :data:`STEPS`.
        documents: Each lesson's document, once its runs are done.
        progress: The runs done and planned of the lesson running, if one is.
        placed: The live run's population placed on its landscape
            (:func:`~tui.lab.lessons.landscape.population_on_landscape`) when it has been,
            ``{}`` while it is being placed; placed again each time the landscape is shown.
        walking: The boards walked and to walk of the landscape's N = 10 while it is walked
            in the background (``None``: it is not).
    """

    sizes: Mapping[str, tuple[int | None, int | None]] = field(default_factory=dict)
    lesson_index: int = 0
    step: int = 0
    documents: dict[str, dict[str, Any]] = field(default_factory=dict)
    progress: tuple[int, int] | None = None
    placed: dict[str, Any] | None = None
    walking: tuple[int, int] | None = None

    @property
    def names(self) -> Sequence[str]:
        """The lessons' names, in order."""
        return list(LESSONS)

    @property
    def lesson(self) -> Lesson:
        """The lesson shown."""
        return LESSONS[self.names[self.lesson_index]]

    @property
    def step_name(self) -> str:
        """``text``, ``runs`` or ``rows``."""
        return STEPS[self.step]

    def size(self) -> tuple[int | None, int | None]:
        """The population and seeds the lesson shown runs with."""
        return self.sizes.get(self.lesson.name, (None, None))

    def needs_runs(self) -> bool:
        """Whether the step shown wants the lesson's runs, and they are neither done nor
        under way."""
        return (
            self.step_name == "runs"
            and self.lesson.name not in self.documents
            and self.progress is None
        )

    def advance(self) -> None:
        """One step on: from the runs only once they are done; from the rows to the next
        lesson."""
        if self.step_name == "runs" and self.lesson.name not in self.documents:
            return
        if self.step + 1 < len(STEPS):
            self.step += 1
        else:
            self.next_lesson()

    def next_lesson(self) -> None:
        """The next lesson's first step (after the last: the first lesson)."""
        if self.progress is not None:
            return
        self.lesson_index = (self.lesson_index + 1) % len(self.names)
        self.step, self.placed = 0, None

    def previous_lesson(self) -> None:
        """The previous lesson's first step."""
        if self.progress is not None:
            return
        self.lesson_index = (self.lesson_index - 1) % len(self.names)
        self.step, self.placed = 0, None

    def started(self, planned: int) -> None:
        """The lesson shown has started its runs."""
        self.progress = (0, planned)

    def ran(self, done: int, planned: int) -> None:
        """Some of its runs are done."""
        self.progress = (done, planned)

    def finished(self, name: str, document: dict[str, Any]) -> None:
        """A lesson's runs are done: keep its document; show its rows if it is shown."""
        self.documents[name] = document
        self.progress = None
        if self.lesson.name == name and self.step_name == "runs":
            self.step = STEPS.index("rows")

    def title(self) -> str:
        """``Lesson 2 of 6: Drift: ...``."""
        return f"Lesson {self.lesson_index + 1} of {len(self.names)}: {self.lesson.title}"

    def lines(self) -> list[str]:
        """What the step shown says, line by line."""
        lesson = self.lesson
        lines = [lesson.text, "", f"Theory: {lesson.formula}"]
        if self.step_name == "text":
            return [*lines, "", "space: run it    n: next lesson    b: previous"]
        document = self.documents.get(lesson.name)
        if document is None:
            done, planned = self.progress or (0, 0)
            return [*lines, "", f"Running: {done:,} of {planned:,} runs done..."]
        size = size_line(document, lesson.seeds_meaning)
        lines += ["", f"Measured ({size}):" if size else "Measured:", ""]
        lines += table_lines(document["rows"])
        if lesson.name == "landscape" and self.placed:  # {}: being placed
            lines += ["", live_line(self.placed)]
        walk = self.walk_line() if lesson.name == "landscape" else ""
        if walk:
            lines += ["", walk]
        return [*lines, "", "space or n: next lesson"]

    def walk_line(self) -> str:
        """The landscape's N = 10: how far its walk is, or the key that starts it."""
        if self.walking is not None:
            done, total = self.walking
            return (
                f"N = {WALKED_N}: {done / total if total else 0:.0%} of "
                f"{total:,} boards walked (three passes; closing the screen stops it)"
            )
        if self.can_walk():
            return f"t: N = {WALKED_N} too, in the background (3,628,800 boards, a minute or more)"
        return ""

    def can_walk(self) -> bool:
        """Whether the landscape's rows are shown, without N = 10 and not walking it."""
        document = self.documents.get("landscape")
        return (
            self.lesson.name == "landscape"
            and self.step_name == "rows"
            and document is not None
            and self.walking is None
            and all(row.get("n") != WALKED_N for row in document["rows"])
        )

    def walk_started(self) -> None:
        """The landscape's N = 10 is being walked."""
        self.walking = (0, 0)

    def walked(self, done: int, total: int) -> None:
        """Some of its boards are walked."""
        self.walking = (done, total)

    def walk_finished(self, row: Mapping[str, Any] | None) -> None:
        """Its walk is over: its row joins the landscape's (``None``: it failed or stopped)."""
        self.walking = None
        document = self.documents.get("landscape")
        if row is not None and document is not None:
            document["rows"] = [*document["rows"], dict(row)]

    def wants_placing(self) -> bool:
        """Whether the step shown is the landscape's rows, with the live run not placed yet."""
        return self.lesson.name == "landscape" and self.step_name == "rows" and self.placed is None


def live_line(placed: Mapping[str, Any]) -> str:
    """The live run's population on the landscape, in a sentence."""
    fdc = placed["fdc_swap"]
    return (
        f"The live run's {placed['size']:,} boards (N = {placed['n']}): "
        f"{placed['solved']:.0%} solved, {placed['weak_minima']:.0%} in weak minima, "
        f"FDC with swaps {'-' if fdc is None else f'{fdc:.2f}'}."
    )
