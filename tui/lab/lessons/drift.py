"""Drift: with every board equally fit, chance alone wears the population's diversity away.

Blind selection (the ``neutral`` fitness), no crossover, no mutation, generational survivors
without elitism: each child is a copy of a uniformly chosen parent, the Wright-Fisher model.
The per-column Gini-Simpson diversity ``H`` (one minus the sum of squared row shares, averaged
over the columns) then falls as ``H0 (1 - 1/P) ** t`` on average. The second arm turns order
crossover on at rate 1: a child of OX keeps a segment of one parent in place and fills the other
columns in the other parent's order, shifted, so the rows move between columns and the columns'
diversity is refreshed as fast as drift wears it away: H stays flat, and nearly every board
stays distinct, though no child is fitter than another.
"""

from __future__ import annotations

import statistics
from collections.abc import Mapping
from typing import Any, Final

from tui.lab.lessons import theory
from tui.lab.lessons.lesson import Lesson, LessonJob, Results, Row, job_key, recording_of
from tui.lab.lessons.runs import Recording, column_diversity, lesson_run, neutral
from tui.lab.sweep.job import Job

ARMS: Final[tuple[tuple[str, dict[str, Any]], ...]] = (
    ("no crossover", {}),
    ("ox", {"crossover": "ox", "crossover_rate": 1.0}),
)
"""Drift alone, and drift with order crossover on every couple."""

ROWS_PER_ARM: Final = 8
"""Generations shown per arm, evenly spaced up to the horizon."""


def measure_drift(
    fields: Mapping[str, Any], seed: int, generations: int, recording: Recording | None = None
) -> dict[str, Any]:
    """The column diversity of a drift run, generation 0 to ``generations``.

    Returns:
        ``diversity``: one value per generation, and ``unique``: the share of distinct boards.
    """
    with lesson_run(fields, seed, recording) as run:
        snapshot = run.snapshot
        n = snapshot.n
        diversity = [column_diversity(snapshot.population, n)]
        unique = [snapshot.stats.unique_fraction]
        for _ in range(generations):
            snapshot = run.step()
            diversity.append(column_diversity(snapshot.population, n))
            unique.append(snapshot.stats.unique_fraction)
    return {"diversity": diversity, "unique": unique}


def jobs(population: int, seeds: int, recording: Recording | None = None) -> list[LessonJob]:
    """Each arm on every seed, up to the generation where theory falls to 0.2 H0."""
    horizon = theory.drift_horizon(population)
    made = []
    for label, changes in ARMS:
        fields = neutral(population, **changes)
        where = recording_of(recording, "drift", label)
        for seed in range(seeds):
            arguments = (fields, seed, horizon, where)
            job = Job(job_key("drift", label, seed), measure_drift, arguments)
            made.append(LessonJob(label, seed, job))
    return made


def shown_generations(population: int) -> list[int]:
    """The generations a row is shown for: evenly spaced from 0 to the horizon."""
    horizon = theory.drift_horizon(population)
    return sorted({round(horizon * k / (ROWS_PER_ARM - 1)) for k in range(ROWS_PER_ARM)})


def rows(population: int, seeds: int, results: Results) -> list[Row]:
    """Per arm and shown generation: the mean H over seeds, beside ``H0 (1 - 1/P) ** t``."""
    made: list[Row] = []
    for label, _ in ARMS:
        runs = results.by_arm[label]
        start = statistics.fmean(r["diversity"][0] for r in runs)
        for generation in shown_generations(population):
            measured = statistics.fmean(r["diversity"][generation] for r in runs)
            prefix = "" if label == "no crossover" else f"{label} "
            made.append(
                {
                    "label": f"{prefix}t={generation}",
                    "arm": label,
                    "generation": generation,
                    "measured": measured,
                    "theory": theory.wright_fisher_diversity(start, population, generation),
                    "unique": statistics.fmean(r["unique"][generation] for r in runs),
                }
            )
    return made


LESSON: Final = Lesson(
    name="drift",
    title="Drift: chance alone wears diversity away",
    text="Every board equally fit, no crossover, no mutation: each child copies a parent "
    "picked at random. The column diversity H falls as the Wright-Fisher model says, on "
    "average: late on one run's H spreads wider than its mean, so 30 runs' mean strays up "
    "to a quarter from theory (300 runs': 7%). Then order crossover on every couple: "
    "it moves rows between columns, so H stays flat: crossover without selection is a "
    "shuffle, not a search.",
    formula="E[H(t)] = H0 (1 - 1/P)^t",
    population=100,
    seeds=30,
    seeds_meaning="seeds",
    jobs=jobs,
    rows=rows,
)
