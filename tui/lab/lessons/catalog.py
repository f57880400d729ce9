"""Every lesson by name, in the order they are taught."""

from __future__ import annotations

from typing import Final

from tui.lab.lessons import drift, founders, headless_chicken, hill_climbing, landscape, takeover
from tui.lab.lessons.lesson import Lesson

LESSONS: Final[dict[str, Lesson]] = {
    lesson.name: lesson
    for lesson in (
        takeover.LESSON,
        drift.LESSON,
        founders.LESSON,
        headless_chicken.LESSON,
        landscape.LESSON,
        hill_climbing.LESSON,
    )
}
"""The lessons, by their name on the command line."""

PRELOAD: Final = tuple(
    f"tui.lab.lessons.{module}"
    for module in (
        "takeover",
        "drift",
        "founders",
        "headless_chicken",
        "landscape",
        "hill_climbing",
    )
)
"""The modules of the lessons' job functions, for the workers to import once."""
