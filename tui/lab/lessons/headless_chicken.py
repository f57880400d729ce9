"""Headless chicken (Jones 1995): does crossover use what the population knows?

Three arms of Eiben & Smith's 8-queens GA (the ``eiben-smith`` preset, at the lesson's
population): as configured; the same with each crossover's second parent replaced by a fresh
uniformly random genome (the engine's ``headless_chicken``), so that crossover keeps its shape
but not its information; and the same with crossover off. Each arm's success (a solution
within the preset's 10,000 evaluations) with its 95% Wilson interval, and its evaluations to a
solution. When real crossover does no better than random crossover, it is acting as a
macromutation, not combining building blocks.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Mapping, Sequence
from typing import Any, Final

from engine.config.presets import PRESETS
from tui.lab.lessons.lesson import Lesson, LessonJob, Results, Row, job_key, recording_of
from tui.lab.lessons.runs import Recording
from tui.lab.sweep.job import Job
from tui.lab.sweep.report import wilson_interval
from tui.lab.sweep.task import run_task

PRESET: Final = "eiben-smith"
"""The configured GA the arms change."""

ARMS: Final[tuple[tuple[str, dict[str, Any]], ...]] = (
    ("crossover", {}),
    ("headless chicken", {"headless_chicken": True}),
    ("no crossover", {"crossover_rate": 0.0}),
)
"""The arms, by label: the changes to the preset."""


def arm_fields(population: int, changes: Mapping[str, Any]) -> dict[str, Any]:
    """An arm's config fields: the preset at the lesson's population, with the arm's changes."""
    return {**PRESETS[PRESET].values(), "population": population, **changes}


def jobs(population: int, seeds: int, recording: Recording | None = None) -> list[LessonJob]:
    """Each arm on every seed, as a sweep runs them (:func:`~tui.lab.sweep.task.run_task`)."""
    made = []
    for label, changes in ARMS:
        fields = arm_fields(population, changes)
        where = recording_of(recording, "headless-chicken", label)
        store, name = (where.store, where.label) if where is not None else (None, None)
        for seed in range(seeds):
            arguments = (fields, seed, store, name)
            job = Job(job_key("headless-chicken", label, seed), run_task, arguments)
            made.append(LessonJob(label, seed, job))
    return made


def _evaluations(runs: Sequence[Mapping[str, Any]]) -> list[int]:
    """Evaluations to a solution of the runs that found one."""
    return [int(r["evaluations"]) for r in runs if r["solved"]]


def rows(population: int, seeds: int, results: Results) -> list[Row]:
    """Each arm's success with its Wilson interval and its evaluations to a solution; then the
    verdict."""
    made: list[Row] = []
    for label, _ in ARMS:
        runs = results.by_arm[label]
        solved = sum(1 for r in runs if r["solved"])
        low, high = wilson_interval(solved, len(runs))
        spent = _evaluations(runs)
        made.append(
            {
                "label": label,
                "measured": solved / len(runs),
                "solved": solved / len(runs),
                "low": low,
                "high": high,
                "median_evaluations": statistics.median(spent) if spent else None,
                "mean_evaluations": statistics.fmean(spent) if spent else None,
            }
        )
    made.append({"label": "verdict", "text": verdict(results)})
    return made


def _cost(runs: Sequence[Mapping[str, Any]]) -> tuple[float, float]:
    """The mean evaluations spent per run (a failed run counts its whole budget) and its
    standard error."""
    spent = [float(r["evaluations"]) for r in runs]
    if len(spent) < 2:
        return (spent[0] if spent else 0.0, math.inf)
    return statistics.fmean(spent), statistics.stdev(spent) / math.sqrt(len(spent))


def verdict(results: Results) -> str:
    """One sentence: does crossover use information in the population here?

    Success first: disjoint Wilson intervals decide. Otherwise the evaluations spent per run
    (a failure counting its budget): a difference of more than two standard errors decides.
    """
    real, chicken = results.by_arm["crossover"], results.by_arm["headless chicken"]
    real_low, real_high = wilson_interval(sum(r["solved"] for r in real), len(real))
    hen_low, hen_high = wilson_interval(sum(r["solved"] for r in chicken), len(chicken))
    if real_low > hen_high:
        return (
            "Crossover uses information in the population here: it solves more often than "
            "the same crossover with random mates (Wilson intervals apart)."
        )
    if hen_low > real_high:
        return (
            "Crossover acts as a macromutation here, and a poor one: random mates solve more "
            "often than mates from the population (Wilson intervals apart)."
        )
    (real_mean, real_error), (hen_mean, hen_error) = _cost(real), _cost(chicken)
    margin = 2.0 * math.hypot(real_error, hen_error)
    if hen_mean - real_mean > margin:
        return (
            f"Crossover uses information in the population here: it needs {real_mean:,.0f} "
            f"evaluations a run against {hen_mean:,.0f} with random mates (more than two "
            "standard errors apart)."
        )
    if real_mean - hen_mean > margin:
        return (
            f"Crossover acts as a macromutation here: random mates need {hen_mean:,.0f} "
            f"evaluations a run against {real_mean:,.0f} with mates from the population."
        )
    return (
        f"Crossover acts as a macromutation here: random mates do as well ({hen_mean:,.0f} "
        f"evaluations a run against {real_mean:,.0f}, within two standard errors), so the "
        "population's information adds nothing measurable."
    )


LESSON: Final = Lesson(
    name="headless-chicken",
    title="Headless chicken: does crossover use what the population knows?",
    text="Eiben & Smith's 8-queens GA three ways: as it is, with each crossover's second "
    "parent a fresh random board (Jones's headless chicken: the same operator, no "
    "information from the population), and without crossover. If random mates do as well, "
    "crossover is only a big mutation here.",
    formula="success with 95% Wilson intervals; evaluations to a solution",
    population=100,
    seeds=30,
    seeds_meaning="seeds",
    jobs=jobs,
    rows=rows,
)
