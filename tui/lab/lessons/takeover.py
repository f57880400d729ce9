"""Takeover: how fast selection alone fills the population with its best (Goldberg & Deb 1991).

One copy of a best board among ``P - 1`` equal worse ones (the engine's ``one_best`` start),
no crossover, no mutation, generational survivors. With elitism 1 the best cannot be lost, and
the lesson counts the generations until every individual is a best; beside it the difference
equation's value and the asymptotic ``t*``. With elitism 0 it counts how often the lone best
is lost before it takes over, against a branching process's chance of dying out.
"""

from __future__ import annotations

import statistics
from collections.abc import Mapping
from typing import Any, Final

from tui.lab.lessons import theory
from tui.lab.lessons.lesson import Lesson, LessonJob, Results, Row, job_key, recording_of
from tui.lab.lessons.runs import Recording, lesson_run, selection_only
from tui.lab.sweep.job import Job

ARMS: Final[tuple[tuple[str, dict[str, Any]], ...]] = (
    ("tournament 2", {"selection": "tournament", "tournament_size": 2}),
    ("tournament 4", {"selection": "tournament", "tournament_size": 4}),
    ("tournament 8", {"selection": "tournament", "tournament_size": 8}),
    ("rank", {"selection": "rank"}),
    ("truncation 1/2", {"selection": "truncation"}),
)
"""The selections compared, by label."""

KEEPING: Final = " kept"
"""Suffix of an arm's label for its runs with elitism 1 (the others have elitism 0)."""


def takeover_fields(population: int, selection: Mapping[str, Any], elitism: int) -> dict[str, Any]:
    """A takeover run's fields: one best among equals, selection alone; with elitism ``e``,
    ``P - e`` children so that every other place is a pick."""
    return selection_only(
        population,
        one_best=True,
        elitism=elitism,
        offspring=population - elitism,
        **selection,
    )


def measure_takeover(
    fields: Mapping[str, Any], seed: int, recording: Recording | None = None
) -> dict[str, Any]:
    """Step a takeover run until the best fills the population or is lost.

    Returns:
        ``generations`` (at the end), ``lost`` (whether the best left the population) and
        ``copies`` (the best's copies in each generation, from generation 0).
    """
    with lesson_run(fields, seed, recording) as run:
        fitness = run.snapshot.fitness
        best = float(fitness.max())
        copies = [int((fitness == best).sum())]
        size = fitness.shape[0]
        limit = 100 * size
        while 0 < copies[-1] < size and len(copies) <= limit:
            copies.append(int((run.step().fitness == best).sum()))
    return {"generations": len(copies) - 1, "lost": copies[-1] == 0, "copies": copies}


def jobs(population: int, seeds: int, recording: Recording | None = None) -> list[LessonJob]:
    """Each selection's runs, with elitism 1 and 0, on every seed."""
    made = []
    for label, selection in ARMS:
        for elitism, suffix in ((1, KEEPING), (0, "")):
            fields = takeover_fields(population, selection, elitism)
            for seed in range(seeds):
                arm = label + suffix
                where = recording_of(recording, "takeover", arm)
                job = Job(job_key("takeover", arm, seed), measure_takeover, (fields, seed, where))
                made.append(LessonJob(arm, seed, job))
    return made


def rows(population: int, seeds: int, results: Results) -> list[Row]:
    """Per selection: the mean takeover time with elitism 1 beside the difference equation and
    ``t*``; the share of runs without elitism that lost the best beside its theory."""
    made: list[Row] = []
    for label, selection in ARMS:
        name, size = str(selection["selection"]), int(selection.get("tournament_size", 2))
        kept = results.by_arm[label + KEEPING]
        loose = results.by_arm[label]
        lost = sum(1 for result in loose if result["lost"])
        copies = theory.lone_best_copies(population, name, size)
        made.append(
            {
                "label": label,
                "measured": statistics.fmean(r["generations"] for r in kept),
                "theory": theory.takeover_generations(population, name, size, elitism=1),
                "asymptotic": theory.goldberg_deb_takeover(population, name, size),
                "spread": statistics.pstdev(r["generations"] for r in kept),
                "lost": lost / len(loose),
                "lost_theory": theory.extinction_probability(copies),
                "curve": [
                    statistics.fmean(_padded(r["copies"], step) for r in kept) / population
                    for step in range(max(len(r["copies"]) for r in kept))
                ],
                "curve_theory": [
                    c / population for c in theory.takeover_curve(population, name, size, 1)
                ],
            }
        )
    return made


def _padded(copies: list[int], step: int) -> int:
    """The copies at ``step``, the last value holding after the run ended."""
    return copies[step] if step < len(copies) else copies[-1]


LESSON: Final = Lesson(
    name="takeover",
    title="Takeover: selection alone fills the population with its best",
    text="One best board among P - 1 equal worse ones; no crossover, no mutation, so only "
    "selection acts. Count the generations until every individual is the best: stronger "
    "selection (bigger tournaments, truncation) takes over faster. Without elitism, watch how "
    "often the lone best is lost to chance before it spreads.",
    formula="Q(t+1) = Q(t)^s (Q: share not yet best); t* = (ln P + ln ln P) / ln s; "
    "lost with q = exp(m (q - 1))",
    population=1000,
    seeds=30,
    seeds_meaning="seeds",
    jobs=jobs,
    rows=rows,
)
