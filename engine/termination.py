"""Stop rules, composable and kept outside the generation loop.

A rule looks at the run's :class:`RunProgress` after each generation and names itself when
it fires. The first rule that fires, in the order given, ends the run.

Rules are small value classes written out by hand rather than dataclasses: every ``queens``
command imports this module, and seven frozen dataclasses cost ~3 ms of each start-up.
Two rules are equal when they are of the same kind with the same limit.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar, Final, NamedTuple, Protocol

from engine.solutions.archive import KNOWN_TOTALS

if TYPE_CHECKING:
    from engine.config.config import Config

SOLVED: Final = "solved"
MAX_GENERATIONS: Final = "max-generations"
MAX_EVALUATIONS: Final = "max-evaluations"
TIME_LIMIT: Final = "time-limit"
STAGNATION: Final = "stagnation"
ALL_FOUND: Final = "all-found"


class RunProgress(NamedTuple):
    """How far the run has gone after a generation: what the stop rules look at.

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

    def __call__(self, progress: RunProgress) -> str | None: ...


class Solved:
    """Stop at the first individual with no conflicts."""

    __slots__ = ()

    def __call__(self, progress: RunProgress) -> str | None:
        return SOLVED if progress.best_conflicts == 0 else None

    def __eq__(self, other: object) -> bool:
        return type(other) is Solved

    def __hash__(self) -> int:
        return hash(SOLVED)

    def __repr__(self) -> str:
        return "Solved()"


class _Limit:
    """A rule that fires once one count of the progress reaches ``limit``."""

    __slots__ = ("limit",)
    reason: ClassVar[str]

    def __init__(self, limit: float) -> None:
        self.limit = limit

    def count(self, progress: RunProgress) -> float:
        """The count this rule watches."""
        raise NotImplementedError

    def __call__(self, progress: RunProgress) -> str | None:
        return self.reason if self.count(progress) >= self.limit else None

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and other.limit == self.limit

    def __hash__(self) -> int:
        return hash((self.reason, self.limit))

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.limit!r})"


class MaxGenerations(_Limit):
    """Stop after ``limit`` generations."""

    __slots__ = ()
    reason = MAX_GENERATIONS

    def count(self, progress: RunProgress) -> float:
        return progress.generation


class MaxEvaluations(_Limit):
    """Stop once ``limit`` fitness evaluations have been spent (the last generation may
    overshoot by less than one generation's children)."""

    __slots__ = ()
    reason = MAX_EVALUATIONS

    def count(self, progress: RunProgress) -> float:
        return progress.evaluations


class TimeLimit(_Limit):
    """Stop once ``limit`` seconds of computing have passed (pauses do not count)."""

    __slots__ = ()
    reason = TIME_LIMIT

    def count(self, progress: RunProgress) -> float:
        return progress.elapsed


class Stagnation(_Limit):
    """Stop when the best fitness has not improved for ``limit`` generations."""

    __slots__ = ()
    reason = STAGNATION

    def count(self, progress: RunProgress) -> float:
        return progress.stagnant


class AllFound(_Limit):
    """Stop once ``limit`` distinct solutions have been met."""

    __slots__ = ()
    reason = ALL_FOUND

    def count(self, progress: RunProgress) -> float:
        return progress.solutions


def first_reason(rules: tuple[StopRule, ...], progress: RunProgress) -> str | None:
    """The reason of the first rule that fires, or ``None``."""
    for rule in rules:
        reason = rule(progress)
        if reason is not None:
            return reason
    return None


def stop_rules(config: Config) -> tuple[StopRule, ...]:
    """The stop rules a config asks for, solved first."""
    rules: list[StopRule] = []
    if config.stop_when_solved:
        rules.append(Solved())
    if config.generations is not None:
        rules.append(MaxGenerations(config.generations))
    if config.max_evals is not None:
        rules.append(MaxEvaluations(config.max_evals))
    if config.time_limit is not None:
        rules.append(TimeLimit(config.time_limit))
    if config.stagnation is not None:
        rules.append(Stagnation(config.stagnation))
    if config.harvest and config.n in KNOWN_TOTALS:
        rules.append(AllFound(KNOWN_TOTALS[config.n][0]))
    return tuple(rules)
