"""Each row of a ranked report against the best one: rank test, Holm's correction, A12.

The measure is evaluations to solution with unsolved runs censored at the budget
(:mod:`~tui.lab.statistics.run_lengths`). Each other row is tested against the best row with the
two-sided Mann-Whitney U test (:mod:`~tui.lab.statistics.rank_test`); the p-values of the
m = rows - 1 tests are Holm-corrected together (:mod:`~tui.lab.statistics.holm`); a row whose
corrected p-value is not below :data:`ALPHA` cannot be told apart from the best and shares its
rank. A12 (:mod:`~tui.lab.statistics.effect_size`) is the probability that a run of the row
needs more evaluations than a run of the best row (an unsolved run needing more than any solved
one): above 0.5 the best row is faster.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from tui.lab.statistics.effect_size import effect_size_word, vargha_delaney_a12
from tui.lab.statistics.holm import holm_adjusted
from tui.lab.statistics.rank_test import mann_whitney_u

FloatArray = npt.NDArray[np.float64]

ALPHA: Final = 0.05
"""The level at which a row is told apart from the best."""

TEST_NAME: Final = (
    "two-sided Mann-Whitney U (normal approximation, tie- and continuity-corrected) on "
    "evaluations to solution, unsolved runs censored at the budget (slower than any solved "
    "run, tied with each other), Holm-corrected over the rows; effect size Vargha-Delaney A12"
)
"""The method, as the report names it."""


@dataclass(frozen=True)
class AgainstBest:
    """One row compared with the best row.

    Attributes:
        p: The test's raw two-sided p-value.
        p_holm: Holm-corrected over the rows.
        a12: P(a run of this row needs more evaluations than one of the best row), ties half.
        size: ``negligible``, ``small``, ``medium`` or ``large``.
        rank: The row's rank: 1 when it cannot be told apart from the best, else its place.
    """

    p: float
    p_holm: float
    a12: float
    size: str
    rank: int

    @property
    def tied_with_best(self) -> bool:
        """Whether the row cannot be told apart from the best at :data:`ALPHA`."""
        return self.p_holm >= ALPHA

    def to_dict(self) -> dict[str, Any]:
        """Plain values, for JSON."""
        return {
            "p_mann_whitney": round(self.p, 6),
            "p_holm": round(self.p_holm, 6),
            "a12": round(self.a12, 6),
            "a12_size": self.size,
            "tied_with_best": self.tied_with_best,
            "rank": self.rank,
        }


def against_best(samples: Sequence[FloatArray]) -> list[AgainstBest | None]:
    """Compare each censored sample with the first (the best row's); ``None`` for the first.

    Args:
        samples: Evaluations to solution per row, ranked best first, unsolved runs ``inf``.

    Returns:
        One entry per row: ``None`` for the best row, else its comparison.
    """
    if not samples:
        return []
    best = samples[0]
    tests = [mann_whitney_u(sample, best) for sample in samples[1:]]
    adjusted = holm_adjusted([test.p for test in tests])
    compared: list[AgainstBest | None] = [None]
    for place, (sample, test, p_holm) in enumerate(
        zip(samples[1:], tests, adjusted, strict=True), 2
    ):
        a12 = vargha_delaney_a12(sample, best)
        rank = 1 if p_holm >= ALPHA else place
        compared.append(AgainstBest(test.p, p_holm, a12, effect_size_word(a12), rank))
    return compared
