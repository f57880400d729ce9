"""Stop rules, composable and kept outside the generation loop.

A rule looks at the run's :class:`Progress` after each generation and names itself when it
fires. The first rule that fires, in the order given, ends the run.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, Protocol

SOLVED: Final = "solved"
MAX_GENERATIONS: Final = "max-generations"
MAX_EVALUATIONS: Final = "max-evaluations"
TIME_LIMIT: Final = "time-limit"
STAGNATION: Final = "stagnation"
ALL_FOUND: Final = "all-found"


@dataclass(frozen=True)
class Progress:
    """What the stop rules look at.

    Attributes:
        generation: Generations done (0 after the initial population).
        evaluations: Fitness evaluations so far, the initial population included.
        elapsed: Seconds spent computing the run.
        best_conflicts: The fewest conflicts in the population.
        stagnant: Generations since the best fitness last improved.
        solutions: Distinct solutions met so far.
    """

    generation: int
    evaluations: int
    elapsed: float
    best_conflicts: int
    stagnant: int
    solutions: int = 0


class StopRule(Protocol):
    """Returns its reason when the run should stop, else ``None``."""

    def __call__(self, progress: Progress) -> str | None: ...


@dataclass(frozen=True)
class Solved:
    """Stop at the first individual with no conflicts."""

    def __call__(self, progress: Progress) -> str | None:
        return SOLVED if progress.best_conflicts == 0 else None


@dataclass(frozen=True)
class MaxGenerations:
    """Stop after ``limit`` generations."""

    limit: int

    def __call__(self, progress: Progress) -> str | None:
        return MAX_GENERATIONS if progress.generation >= self.limit else None


@dataclass(frozen=True)
class MaxEvaluations:
    """Stop once ``limit`` fitness evaluations have been spent (the last generation may
    overshoot by less than one generation's children)."""

    limit: int

    def __call__(self, progress: Progress) -> str | None:
        return MAX_EVALUATIONS if progress.evaluations >= self.limit else None


@dataclass(frozen=True)
class TimeLimit:
    """Stop once ``seconds`` of computing have passed (pauses do not count)."""

    seconds: float

    def __call__(self, progress: Progress) -> str | None:
        return TIME_LIMIT if progress.elapsed >= self.seconds else None


@dataclass(frozen=True)
class Stagnation:
    """Stop when the best fitness has not improved for ``generations`` generations."""

    generations: int

    def __call__(self, progress: Progress) -> str | None:
        return STAGNATION if progress.stagnant >= self.generations else None


@dataclass(frozen=True)
class AllFound:
    """Stop once ``total`` distinct solutions have been met."""

    total: int

    def __call__(self, progress: Progress) -> str | None:
        return ALL_FOUND if progress.solutions >= self.total else None


def first_reason(rules: tuple[StopRule, ...], progress: Progress) -> str | None:
    """The reason of the first rule that fires, or ``None``."""
    for rule in rules:
        reason = rule(progress)
        if reason is not None:
            return reason
    return None
