"""The textbook's curves, as functions: what each lesson's measurement is checked against.

- Takeover (Goldberg & Deb 1991): with selection alone, the share of the best grows by a
  difference equation (tournament of ``s``: the share ``Q`` not yet best becomes ``Q ** s``), and
  the generations until the best fills a population of ``P`` approach
  ``t* = (ln P + ln ln P) / ln s``. A single best without elitism can be lost: its copies form a
  branching process with a Poisson number of children, lost with the probability ``q`` that
  solves ``q = exp(m (q - 1))`` (``m`` the copies a lone best expects).
- Drift (Wright-Fisher): blind selection keeps the expected Gini-Simpson diversity at
  ``H0 (1 - 1/P) ** t``; every individual descends from one of generation 0 after
  ``2P (1 - 1/P)`` generations on average (Kingman's coalescent), ``P - 1`` in a steady state
  that replaces one individual at a time (Moran), counted in generations of ``P`` births.
- Hill climbing on 8 queens (Russell & Norvig): 14% of starts solved by steepest ascent, 94% with
  up to 100 sideways moves.
"""

from __future__ import annotations

import math
from typing import Final

TRUNCATION_SHARE: Final = 0.5
"""The share truncation selection draws from (``engine.operators.selection``)."""

RUSSELL_NORVIG_SOLVED: Final = {0: 0.14, 100: 0.94}
"""Russell & Norvig's shares of 8-queens starts solved by steepest ascent, by sideways moves
allowed (AIMA, 3rd ed., section 4.1.1)."""

RUSSELL_NORVIG_STEPS: Final = {0: (4.0, 3.0), 100: (21.0, 64.0)}
"""Their steps taken on average: (when solved, when stuck), by sideways moves allowed."""


def best_share_after(share: float, population: int, selection: str, size: int = 2) -> float:
    """The expected share of the best among the picks of one generation's selection.

    Args:
        share: The share of the population that is best now (the rest all equal and worse).
        population: ``P``.
        selection: ``tournament``, ``rank`` or ``truncation``.
        size: The tournament's size.

    Raises:
        ValueError: For a selection without a takeover equation here.
    """
    if selection == "tournament":
        return 1.0 - (1.0 - share) ** size
    best = share * population
    if selection == "truncation":
        kept = max(1, math.ceil(population * TRUNCATION_SHARE))
        return min(1.0, best / kept)
    if selection == "rank":
        # Linear ranking, ties sharing their mean rank: the best hold ranks P-k+1..P.
        return best * (2 * population - best + 1) / (population * (population + 1))
    raise ValueError(f"selection: no takeover equation for {selection!r}")


def takeover_curve(
    population: int, selection: str, size: int = 2, elitism: int = 1, limit: int = 10_000
) -> list[float]:
    """The expected copies of the best, generation by generation, from one copy, until fewer
    than one individual is expected not to be best (the difference equation's takeover).

    With ``elitism`` ``e``, the ``e`` best are kept and ``P - e`` children are picked."""
    copies = [1.0]
    while population - copies[-1] >= 1.0 and len(copies) <= limit:
        share = best_share_after(copies[-1] / population, population, selection, size)
        kept = min(elitism, population)
        copies.append(min(float(population), kept + (population - kept) * share))
    return copies


def takeover_generations(
    population: int, selection: str, size: int = 2, elitism: int = 1, limit: int = 10_000
) -> float:
    """The expected generations until every place holds the best, by the difference equation.

    Each of the ``P - e`` picked places holds the best with the equation's share ``1 - Q(t)``;
    the population is taken over at generation ``t`` with chance ``(1 - Q(t)) ** (P - e)``, and
    the expected takeover time is the sum over ``t`` of the chance it has not happened yet. (The
    equation's continuous solution, ``Q(t) = 1/P``, is a fraction of a generation early: a run
    is taken over at a whole generation.)
    """
    kept = min(elitism, population)
    picked = population - kept
    if picked == 0 or population == 1:
        return 0.0
    copies, expected = 1.0, 1.0  # generation 0 holds one best: not taken over
    for _ in range(limit):
        after = best_share_after(copies / population, population, selection, size)
        not_yet = 1.0 - after**picked
        if not_yet < 1e-12:
            break
        expected += not_yet
        copies = min(float(population), kept + picked * after)
    return expected


def goldberg_deb_takeover(population: int, selection: str, size: int = 2) -> float:
    """Goldberg & Deb's asymptotic takeover time ``t*``.

    Tournament of ``s``: ``(ln P + ln ln P) / ln s``; linear ranking (the best picked twice as
    often as the median, as a tournament of 2): the same with ``s = 2``; truncation to a share
    ``T``: ``ln P / ln (1 / T)``.
    """
    log_p = math.log(population)
    if selection == "truncation":
        return log_p / math.log(1.0 / TRUNCATION_SHARE)
    base = 2 if selection == "rank" else size
    return (log_p + math.log(log_p)) / math.log(base)


def lone_best_copies(population: int, selection: str, size: int = 2) -> float:
    """The copies a lone best expects among ``P`` picks (about ``s`` for a tournament, 2 for
    rank and truncation to half)."""
    return population * best_share_after(1.0 / population, population, selection, size)


def extinction_probability(mean_copies: float) -> float:
    """The chance that a branching process with Poisson(``m``) children per individual, started
    from one, dies out: the smallest root of ``q = exp(m (q - 1))`` (1 when ``m <= 1``)."""
    if mean_copies <= 1.0:
        return 1.0
    root = 0.0
    for _ in range(10_000):
        following = math.exp(mean_copies * (root - 1.0))
        if abs(following - root) < 1e-15:
            break
        root = following
    return root


def wright_fisher_diversity(start: float, population: int, generation: int) -> float:
    """The expected Gini-Simpson diversity after ``t`` generations of drift:
    ``H0 (1 - 1/P) ** t``."""
    return start * (1.0 - 1.0 / population) ** generation


def drift_horizon(population: int, floor: float = 0.2) -> int:
    """The generation at which ``(1 - 1/P) ** t`` falls to ``floor``."""
    return math.ceil(math.log(floor) / math.log(1.0 - 1.0 / population))


def founder_generations(population: int, steady_state: bool = False) -> float:
    """Expected generations until everyone descends from one individual of generation 0:
    ``2P (1 - 1/P)`` (Wright-Fisher), or ``P - 1`` generations of ``P`` births (Moran)."""
    if steady_state:
        return float(population - 1)
    return 2.0 * population * (1.0 - 1.0 / population)
