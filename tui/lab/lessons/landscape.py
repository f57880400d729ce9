"""The landscape lesson: every permutation of N = 4..9 queens under the swap neighbourhood
(N = 10 on request: the dashboard's ``t``, ``queens lesson landscape --n 10``), and the live
population placed on its landscape.

The boards and their neighbours are :mod:`tui.lab.lessons.landscape_boards`; the measures,
walked a chunk of boards at a time, :mod:`tui.lab.lessons.landscape_walk`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

import numpy.typing as npt

from tui.lab.lessons.landscape_boards import (
    LARGEST_HELD_N,
    Landscape,
    attacking_pairs,
    landscape,
    neighbour_rows,
    permutations,
    ranks_of,
    swap_rank_weights,
    swaps,
)
from tui.lab.lessons.landscape_walk import (
    LARGEST_N,
    correlation,
    measure_landscape,
    swaps_to_solutions,
)
from tui.lab.lessons.lesson import Lesson, LessonJob, Results, Row, job_key
from tui.lab.lessons.runs import Recording
from tui.lab.sweep.job import Job

__all__ = [
    "LARGEST_HELD_N",
    "LARGEST_N",
    "LESSON",
    "SIZES",
    "Landscape",
    "landscape",
    "lesson_up_to",
    "measure_landscape",
    "population_on_landscape",
    "ranks_of",
    "swaps",
]

SIZES: Final = tuple(range(4, LARGEST_HELD_N + 1))
"""The boards the lesson shows by default (N = 10 only when asked: a minute or more)."""

PLACED_N: Final = LARGEST_HELD_N
"""The largest board a live population is placed on."""


def population_on_landscape(population: npt.NDArray[Any]) -> dict[str, Any]:
    """A population of permutations placed on its landscape: the share of its boards that are
    solutions, the share in non-global weak minima (no swap improves them), and the FDC of its
    own boards (cost against the swap distance to the nearest solution).

    Raises:
        ValueError: For boards of more than :data:`PLACED_N` queens.
    """
    n = population.shape[1]
    if not 1 <= n <= PLACED_N:
        raise ValueError(f"n: a population is placed on N = 1..{PLACED_N}, not {n}")
    boards = permutations(n)
    cost = attacking_pairs(boards)
    weights = swap_rank_weights(n)
    rows = ranks_of(population)
    own = cost[rows]
    around = cost[neighbour_rows(boards[rows], weights)]
    trapped = (own > 0) & (around >= own[:, None]).all(axis=1)
    return {
        "n": n,
        "size": int(rows.shape[0]),
        "solved": float((own == 0).mean()),
        "weak_minima": float(trapped.mean()),
        "fdc_swap": correlation(own, swaps_to_solutions(boards, cost, weights)[rows]),
    }


def jobs_of(sizes: tuple[int, ...]) -> Callable[[int, int, Recording | None], list[LessonJob]]:
    """The jobs of a landscape of ``sizes``: one per board size (no engine run: nothing to
    record)."""

    def jobs(population: int, seeds: int, recording: Recording | None = None) -> list[LessonJob]:
        return [
            LessonJob(f"n={n}", n, Job(job_key("landscape", f"n={n}", n), measure_landscape, (n,)))
            for n in sizes
        ]

    return jobs


def rows_of(sizes: tuple[int, ...]) -> Callable[[int, int, Results], list[Row]]:
    """The rows of a landscape of ``sizes``: one per board size, as measured."""

    def rows(population: int, seeds: int, results: Results) -> list[Row]:
        return [dict(results.by_arm[f"n={n}"][0]) for n in sizes]

    return rows


LESSON: Final = Lesson(
    name="landscape",
    title="The landscape: every board of N <= 9 queens under the swap neighbourhood",
    text="Every permutation, its cost (attacking pairs) and its swaps. Count the solutions, "
    "the traps (boards no swap improves), how often plain descent reaches a solution, and "
    "whether the cost tells the distance to a solution (fitness-distance correlation).",
    formula="FDC = cov(cost, distance) / (sd(cost) sd(distance)) (Jones & Forrest 1995)",
    population=None,
    seeds=None,
    seeds_meaning="",
    jobs=jobs_of(SIZES),
    rows=rows_of(SIZES),
)


def lesson_up_to(largest: int) -> Lesson:
    """The lesson with the boards from 4 up to ``largest`` as jobs, at most
    :data:`LARGEST_HELD_N` (a larger board is walked by the caller, with its progress)."""
    sizes = tuple(n for n in SIZES if n <= largest)
    return LESSON._replace(jobs=jobs_of(sizes), rows=rows_of(sizes))
