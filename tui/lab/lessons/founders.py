"""Founders: how long until everyone descends from one individual of generation 0.

The drift setting (every board equally fit, copies of uniformly chosen parents, no elitism).
From each snapshot's lineage (every individual's parent in the generation before) the lesson
follows each individual's founder in generation 0, and notes the generation at which a single
founder is left. Generational survivors make the Wright-Fisher model: ``2P (1 - 1/P)``
generations on average (Kingman). GENITOR's steady state (``survivor="genitor"``: a couple's
two children replace two members drawn at random, every board being equally bad) makes
Moran's model: ``P - 1`` generations of ``P`` births, each of ``P / 2`` engine generations.
(Two births at a time rather than one make it ``2 (P - 1)^2 / (2P - 3)``: 99.5 at P = 100.)
A steady-state run steps ``P / 2`` times as many generations as a generational one, so the
lesson runs one for every fifty generational runs (at least one), and starts them first.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Mapping
from typing import Any, Final

import numpy as np

from tui.lab.lessons import theory
from tui.lab.lessons.lesson import Lesson, LessonJob, Results, Row, job_key, recording_of
from tui.lab.lessons.runs import Recording, lesson_run, neutral
from tui.lab.sweep.job import Job

GENERATIONS_PER_INDIVIDUAL: Final = 40
"""A run gives up after this many generations of ``P`` births per individual (the mean is 2
generational, 1 steady state)."""

ARMS: Final[tuple[tuple[str, dict[str, Any]], ...]] = (
    ("generational", {}),
    ("steady state", {"survivor": "genitor"}),
)
"""Wright-Fisher (generational survivors) and Moran (GENITOR's steady state)."""

STEADY_STATE_SHARE: Final = 50
"""The steady state runs one seed for every this many of the generational arm's."""


def steady_state_seeds(seeds: int) -> int:
    """How many seeds the steady-state arm runs beside ``seeds`` generational ones."""
    return max(1, math.ceil(seeds / STEADY_STATE_SHARE))


def measure_founders(
    fields: Mapping[str, Any], seed: int, recording: Recording | None = None
) -> dict[str, Any]:
    """Step a drift run with its lineage until one founder is left.

    Returns:
        ``generations``: the first generation whose individuals all descend from one of
        generation 0, counted in generations of ``P`` births (``None`` if the run gave up);
        ``steps``: the engine generations that took; and ``founders``: how many founders
        each engine generation still had.
    """
    with lesson_run(fields, seed, recording, lineage=True) as run:
        size = run.snapshot.population.shape[0]
        births = run.algorithm.config.children_per_generation
        most = GENERATIONS_PER_INDIVIDUAL * size * math.ceil(size / births)
        founder = np.arange(size)
        left = [size]
        while left[-1] > 1 and len(left) <= most:
            lineage = run.step().lineage
            if lineage is None:  # every stepped generation has one when the run keeps them
                raise RuntimeError("founders: the run kept no lineage")
            founder = founder[lineage.first_parents]
            # Founders still held: a count of P small integers, not a sort (np.unique).
            left.append(int(np.count_nonzero(np.bincount(founder, minlength=size))))
    steps = len(left) - 1 if left[-1] == 1 else None
    generations = None if steps is None else steps * births / size
    return {"generations": generations, "steps": steps, "founders": left}


def jobs(population: int, seeds: int, recording: Recording | None = None) -> list[LessonJob]:
    """The drift setting, with its lineage: generational on every seed, the steady state on
    one in fifty (at least one), its long runs first."""
    made = []
    # The steady state's long runs first: the generational arm's short ones fill the workers
    # in around them, rather than one worker running the last long run alone.
    for label, changes in reversed(ARMS):
        fields = neutral(population, **changes)
        where = recording_of(recording, "founders", label)
        count = seeds if label == "generational" else steady_state_seeds(seeds)
        for seed in range(count):
            job = Job(job_key("founders", label, seed), measure_founders, (fields, seed, where))
            made.append(LessonJob(label, seed, job))
    return made


def rows(population: int, seeds: int, results: Results) -> list[Row]:
    """Per arm: the mean generation of a single founder beside ``2P (1 - 1/P)`` or ``P - 1``."""
    made: list[Row] = []
    for label, _ in ARMS:
        runs = results.by_arm[label]
        done = [r["generations"] for r in runs if r["generations"] is not None]
        made.append(
            {
                "label": label,
                "measured": statistics.fmean(done) if done else None,
                "theory": theory.founder_generations(
                    population, steady_state=label == "steady state"
                ),
                "spread": statistics.pstdev(done) if len(done) > 1 else None,
                "runs": len(runs),
                "gave_up": len(runs) - len(done),
            }
        )
    return made


LESSON: Final = Lesson(
    name="founders",
    title="Founders: everyone soon descends from one individual",
    text="In the drift setting, follow every individual's line back to generation 0. Lines "
    "merge at random until one founder is left: the whole population descends from a single "
    "individual after about 2P generations, whatever its fitness was; in a steady state "
    "(GENITOR: children replace members drawn at random) after about P generations of P "
    "births. The steady state runs one seed in fifty: each run steps P/2 times as often.",
    formula="E[T] = 2P (1 - 1/P) generational (Kingman); P - 1 steady state (Moran)",
    population=100,
    seeds=100,
    seeds_meaning="seeds",
    jobs=jobs,
    rows=rows,
)
