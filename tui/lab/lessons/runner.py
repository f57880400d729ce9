"""Running a lesson: its jobs on a backend (local workers, a Dask cluster, or this process),
its results gathered by arm, and its document.

The document is what ``queens lesson NAME --json`` prints: ``lesson``, ``population``,
``seeds`` and ``rows``. A backend is anything with the ``run_jobs`` of
:class:`~tui.lab.sweep.local_pool.LocalPool` and :class:`~tui.lab.sweep.dask_cluster.DaskCluster`;
:class:`InProcess` runs the jobs here, one after another (tests, the dashboard's small runs).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any, Protocol, TypeVar

from tui.lab.lessons.lesson import Lesson, LessonJob, Results
from tui.lab.lessons.runs import Recording
from tui.lab.sweep.job import Job

WorkT = TypeVar("WorkT")


class Backend(Protocol):
    """Where jobs run."""

    def run_jobs(
        self,
        jobs: Iterable[tuple[Any, Job]],
        on_result: Callable[[Any, dict[str, Any]], None],
    ) -> None: ...


class InProcess:
    """Runs each job in this process, in order."""

    def run_jobs(
        self,
        jobs: Iterable[tuple[WorkT, Job]],
        on_result: Callable[[WorkT, dict[str, Any]], None],
    ) -> None:
        """Call each job's function; ``on_result(work, result)`` after each."""
        for work, job in jobs:
            on_result(work, job.function(*job.arguments))


def lesson_results(
    lesson: Lesson,
    population: int,
    seeds: int,
    backend: Backend,
    on_progress: Callable[[int, int], None] | None = None,
    recording: Recording | None = None,
) -> Results:
    """Run a lesson's jobs; their results by arm, in seed order whatever order they came in.
    With ``recording``, each engine run is recorded in that store as it goes."""
    planned = lesson.jobs(population, seeds, recording)
    arrived: dict[tuple[str, int], Mapping[str, Any]] = {}

    def keep(work: LessonJob, result: dict[str, Any]) -> None:
        arrived[(work.arm, work.seed)] = result
        if on_progress is not None:
            on_progress(len(arrived), len(planned))

    backend.run_jobs(((work, work.job) for work in planned), keep)
    by_arm: dict[str, list[Mapping[str, Any]]] = {}
    for work in planned:
        by_arm.setdefault(work.arm, []).append(arrived[(work.arm, work.seed)])
    return Results(by_arm)


def lesson_document(
    lesson: Lesson,
    population: int | None,
    seeds: int | None,
    backend: Backend,
    on_progress: Callable[[int, int], None] | None = None,
    recording: Recording | None = None,
) -> dict[str, Any]:
    """Run a lesson and make its document (its defaults where ``None`` is given)."""
    size = population if population is not None else lesson.population
    count = seeds if seeds is not None else lesson.seeds
    results = lesson_results(lesson, size or 0, count or 0, backend, on_progress, recording)
    return {
        "lesson": lesson.name,
        "population": size,
        "seeds": count,
        "rows": lesson.rows(size or 0, count or 0, results),
    }
