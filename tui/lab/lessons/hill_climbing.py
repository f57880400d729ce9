"""Hill climbing on 8 queens, as Russell & Norvig ran it (AIMA, section 4.1.1).

Their encoding, not the GA's: one queen per column, anywhere in it (rows may repeat); a move
puts one queen elsewhere in its column (56 moves); the cost ``h`` counts attacking pairs, rows
included. Steepest descent takes a move of least ``h``, chosen at random among equal ones, while
it lowers ``h``; with sideways moves allowed, it also takes a move of equal ``h``, at most 100
in a row. The book: 14% of starts solved (4 steps on average when solved, 3 when stuck), 94%
with sideways moves (21 and 64 steps). Starts are uniformly random boards, a chunk of them per
seed, all chunks vectorized (numpy over the boards, not a loop over them).
"""

from __future__ import annotations

from typing import Any, Final

import numpy as np
import numpy.typing as npt

from tui.lab.lessons import theory
from tui.lab.lessons.lesson import Lesson, LessonJob, Results, Row, job_key
from tui.lab.lessons.runs import Recording
from tui.lab.sweep.job import Job

QUEENS: Final = 8
"""The board."""

SIDEWAYS: Final = (0, 100)
"""Sideways moves allowed in a row, by arm."""

CHUNK: Final = 1000
"""Starts per seed."""

Boards = npt.NDArray[np.int64]


def attacks(rows: Boards) -> npt.NDArray[np.int64]:
    """Attacking pairs (rows and diagonals) of each board of a ``(K, N)`` batch, row per column."""
    columns = np.arange(rows.shape[1])
    same_row = rows[:, :, None] == rows[:, None, :]
    diagonal = np.abs(rows[:, :, None] - rows[:, None, :]) == np.abs(columns[:, None] - columns)
    pairs = np.triu(np.ones((rows.shape[1], rows.shape[1]), dtype=bool), k=1)
    return np.asarray(((same_row | diagonal) & pairs).sum(axis=(1, 2)), dtype=np.int64)


def move_costs(rows: Boards) -> npt.NDArray[np.int64]:
    """``(K, N, N)``: the cost after putting column ``c``'s queen in row ``r`` (the queen's
    own square included: the board unchanged)."""
    n = rows.shape[1]
    columns = np.arange(n)
    # Attacks on a queen placed at (c, r) by the other columns' queens: [column c, row r, other].
    target_rows = np.arange(n)[None, None, :, None]
    theirs = rows[:, None, None, :]
    apart = np.abs(columns[:, None] - columns[None, :])[None, :, None, :]
    hit = (theirs == target_rows) | (np.abs(theirs - target_rows) == apart)
    hit &= (columns[:, None] != columns[None, :])[None, :, None, :]
    placed = hit.sum(axis=3)
    current = np.take_along_axis(placed, rows[:, :, None], axis=2)
    return np.asarray(attacks(rows)[:, None, None] - current + placed, dtype=np.int64)


def climb(starts: Boards, sideways: int, rng: np.random.Generator) -> dict[str, Any]:
    """Steepest descent from every start at once.

    Returns:
        ``starts``, ``solved`` (how many reached ``h = 0``), ``steps_solved`` and
        ``steps_stuck`` (the moves taken, summed over the solved and the stuck starts).
    """
    rows = starts.copy()
    size, n = rows.shape
    cost = attacks(rows)
    steps = np.zeros(size, dtype=np.int64)
    flat = np.zeros(size, dtype=np.int64)
    active = cost > 0
    while active.any():
        live = np.flatnonzero(active)
        costs = move_costs(rows[live]).astype(np.float64)
        own = rows[live][:, :, None] == np.arange(n)[None, None, :]
        costs[own] = np.inf  # staying put is no move
        keyed = (costs + 0.5 * rng.random(costs.shape)).reshape(live.size, -1)
        choice = keyed.argmin(axis=1)
        best = costs.reshape(live.size, -1)[np.arange(live.size), choice]
        better = best < cost[live]
        level = (best == cost[live]) & (flat[live] < sideways)
        moving = better | level
        chosen = live[moving]
        column, row = np.divmod(choice[moving], n)
        rows[chosen, column] = row
        cost[chosen] = best[moving].astype(np.int64)
        steps[chosen] += 1
        flat[chosen] = np.where(level[moving], flat[chosen] + 1, 0)
        active[live[~moving]] = False
        active[chosen] = cost[chosen] > 0
    solved = cost == 0
    return {
        "starts": size,
        "solved": int(solved.sum()),
        "steps_solved": int(steps[solved].sum()),
        "steps_stuck": int(steps[~solved].sum()),
    }


def measure_hill_climbing(seed: int, starts: int, sideways: int) -> dict[str, Any]:
    """``starts`` uniformly random boards drawn from ``seed``, climbed with ``sideways``."""
    rng = np.random.default_rng(seed)
    boards = rng.integers(0, QUEENS, size=(starts, QUEENS))
    return climb(boards, sideways, rng)


def jobs(population: int, seeds: int, recording: Recording | None = None) -> list[LessonJob]:
    """``seeds`` starts in chunks of :data:`CHUNK`, one seed a chunk, for each arm (the same
    starts in both arms; its own climber, not an engine run: nothing to record)."""
    made = []
    for sideways in SIDEWAYS:
        arm = f"sideways {sideways}"
        for chunk, first in enumerate(range(0, seeds, CHUNK)):
            count = min(CHUNK, seeds - first)
            job = Job(
                job_key("hill-climbing", arm, chunk),
                measure_hill_climbing,
                (chunk, count, sideways),
            )
            made.append(LessonJob(arm, chunk, job))
    return made


def rows(population: int, seeds: int, results: Results) -> list[Row]:
    """Each arm's share solved beside the book's, and its mean steps."""
    made: list[Row] = []
    for sideways in SIDEWAYS:
        runs = results.by_arm[f"sideways {sideways}"]
        starts = sum(r["starts"] for r in runs)
        solved = sum(r["solved"] for r in runs)
        stuck = starts - solved
        book_solved, book_stuck = theory.RUSSELL_NORVIG_STEPS[sideways]
        made.append(
            {
                "label": f"sideways {sideways}",
                "sideways": sideways,
                "measured": solved / starts,
                "theory": theory.RUSSELL_NORVIG_SOLVED[sideways],
                "solved": solved / starts,
                "steps_solved": sum(r["steps_solved"] for r in runs) / solved if solved else None,
                "steps_stuck": sum(r["steps_stuck"] for r in runs) / stuck if stuck else None,
                "steps_solved_book": book_solved,
                "steps_stuck_book": book_stuck,
            }
        )
    return made


LESSON: Final = Lesson(
    name="hill-climbing",
    title="Hill climbing: Russell & Norvig's 8-queens experiment",
    text="One queen per column; a move puts a queen elsewhere in its column; take the best "
    "move while it helps. Most starts get stuck on a plateau or in a local minimum. Allowing "
    "up to 100 sideways moves in a row crosses the plateaus: most starts are solved, at the "
    "price of more steps.",
    formula="14% solved (4 steps; stuck after 3); with 100 sideways moves 94% (21; 64)",
    population=None,
    seeds=10_000,
    seeds_meaning="starts",
    jobs=jobs,
    rows=rows,
)
