"""What a lesson is: its text, its formula, its runs as jobs, and the rows it makes of them.

A lesson's runs are jobs (:class:`~tui.lab.sweep.job.Job`): a function importable by its module
and name, called with plain values, returning a plain mapping; so the local pool and a Dask
cluster run them as they run a sweep's. Each job stands beside the arm it belongs to (its
label) and, where it has one, its seed; the lesson makes its rows from the results by arm.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, NamedTuple

from tui.lab.lessons.runs import Recording
from tui.lab.sweep.job import Job

Row = dict[str, Any]
"""One row of a lesson: a ``label``, and ``measured`` beside ``theory`` where a theory applies."""


class LessonJob(NamedTuple):
    """One run of a lesson: its arm, its seed (or chunk), and the job that runs it."""

    arm: str
    seed: int
    job: Job


class Results(NamedTuple):
    """A lesson's results, by arm: each arm's results in seed order."""

    by_arm: Mapping[str, Sequence[Mapping[str, Any]]]


class Lesson(NamedTuple):
    """A lesson.

    Attributes:
        name: Its name on the command line.
        title: One line: what it shows.
        text: What to look at, in a few sentences.
        formula: The theory it is checked against, as text.
        population: Its default population (``None``: it has none).
        seeds: Its default seeds (``None``: it has none).
        seeds_meaning: What ``--seeds`` counts (``seeds``, ``starts``).
        jobs: Its runs for a population and a number of seeds, recorded where asked.
        rows: Its rows from the results.
    """

    name: str
    title: str
    text: str
    formula: str
    population: int | None
    seeds: int | None
    seeds_meaning: str
    jobs: Callable[[int, int, Recording | None], list[LessonJob]]
    rows: Callable[[int, int, Results], list[Row]]


def recording_of(recording: Recording | None, lesson: str, arm: str) -> Recording | None:
    """Where an arm's runs are recorded: the store asked for, the label naming the lesson and
    the arm (``lesson drift: ox``) unless one was given."""
    if recording is None:
        return None
    return Recording(recording.store, recording.label or f"lesson {lesson}: {arm}")


def job_key(lesson: str, arm: str, seed: int) -> str:
    """The key of a lesson's job: the same work has the same key (a Dask cluster's task)."""
    return f"queens-lesson-{lesson}-{arm.replace(' ', '_')}-{seed}"
