"""Founders: how long until everyone descends from one individual of generation 0.

The drift setting (every board equally fit, copies of uniformly chosen parents, generational,
no elitism). From each snapshot's lineage (every individual's parent in the generation before)
the lesson follows each individual's founder in generation 0, and notes the generation at
which a single founder is left: the Wright-Fisher coalescence time, ``2P (1 - 1/P)`` on average
(Kingman). A steady state replacing one individual at a time (Moran) takes ``P - 1``
generations of ``P`` births; the engine's steady state keeps parents on ties, so with every
board equally fit no child ever gets in, and that arm is theory only.
"""

from __future__ import annotations

import statistics
from collections.abc import Mapping
from typing import Any, Final

import numpy as np

from tui.lab.lessons import theory
from tui.lab.lessons.lesson import Lesson, LessonJob, Results, Row, job_key, recording_of
from tui.lab.lessons.runs import Recording, lesson_run, neutral
from tui.lab.sweep.job import Job

GENERATIONS_PER_INDIVIDUAL: Final = 40
"""A run gives up after this many generations per individual (the mean is 2)."""


def measure_founders(
    fields: Mapping[str, Any], seed: int, recording: Recording | None = None
) -> dict[str, Any]:
    """Step a drift run with its lineage until one founder is left.

    Returns:
        ``generations``: the first generation whose individuals all descend from one of
        generation 0 (``None`` if the run gave up), and ``founders``: how many founders each
        generation still had.
    """
    with lesson_run(fields, seed, recording, lineage=True) as run:
        size = run.snapshot.population.shape[0]
        founder = np.arange(size)
        left = [size]
        while left[-1] > 1 and len(left) <= GENERATIONS_PER_INDIVIDUAL * size:
            lineage = run.step().lineage
            if lineage is None:  # every stepped generation has one when the run keeps them
                raise RuntimeError("founders: the run kept no lineage")
            founder = founder[lineage.first_parents]
            left.append(int(np.unique(founder).size))
    return {"generations": len(left) - 1 if left[-1] == 1 else None, "founders": left}


def jobs(population: int, seeds: int, recording: Recording | None = None) -> list[LessonJob]:
    """The drift setting, with its lineage, on every seed."""
    fields = neutral(population)
    where = recording_of(recording, "founders", "generational")
    return [
        LessonJob(
            "generational",
            seed,
            Job(
                job_key("founders", "generational", seed),
                measure_founders,
                (fields, seed, where),
            ),
        )
        for seed in range(seeds)
    ]


def rows(population: int, seeds: int, results: Results) -> list[Row]:
    """The mean generation of a single founder beside ``2P (1 - 1/P)``; the steady state's
    theory."""
    runs = results.by_arm["generational"]
    done = [r["generations"] for r in runs if r["generations"] is not None]
    return [
        {
            "label": "generational",
            "measured": statistics.fmean(done) if done else None,
            "theory": theory.founder_generations(population),
            "spread": statistics.pstdev(done) if done else None,
            "gave_up": len(runs) - len(done),
        },
        {
            "label": "steady state",
            "theory": theory.founder_generations(population, steady_state=True),
            "note": "theory only: the engine's steady state keeps parents on ties",
        },
    ]


LESSON: Final = Lesson(
    name="founders",
    title="Founders: everyone soon descends from one individual",
    text="In the drift setting, follow every individual's line back to generation 0. Lines "
    "merge at random until one founder is left: the whole population descends from a single "
    "individual after about 2P generations, whatever its fitness was.",
    formula="E[T] = 2P (1 - 1/P) generational (Kingman); P - 1 steady state (Moran)",
    population=100,
    seeds=100,
    seeds_meaning="seeds",
    jobs=jobs,
    rows=rows,
)
