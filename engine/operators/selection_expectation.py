"""What each parent selection is expected to do to one population, exactly.

Every selection of :mod:`engine.operators.selection` draws its parents in independent *units*:
one pick each for roulette, rank, truncation and tournament (with replacement, so the draws
are independent), one couple of two picks for ``uniform`` and ``best-2-of-5``. Given the
population's fitness, :func:`expected_selection` works out, for each individual, how many
times one unit is expected to pick it and the probability that one unit leaves it out, and the
mean and variance of the fitness one unit's picks add up to. From those follow, for any number
of units, the expected selection intensity, its standard deviation, and the expected share of
the population nobody picks (see :mod:`engine.operators.selection_pressure`).

Individuals of equal fitness are one *group*: every selection here treats them alike but
truncation, whose stable sort keeps the earlier rows of the group at its cut, so a group may be
split into *classes* of individuals with the same chances.

- Tournament of size ``s`` (Blickle & Thiele 1995, Theorem 3.1): with the groups in ascending
  order and ``F_g`` the share of the population at or below group ``g``, the winner is in group
  ``g`` with probability ``F_g^s - F_{g-1}^s``, shared evenly by its members (the winner among
  tied entrants is the first drawn, and each is drawn alike).
- Rank: weights are the ranks ``1..P``, ties given their mean rank; probabilities are the
  weights over their sum ``P(P + 1) / 2``.
- Roulette: ``f_i / sum(f)`` (uniform when every fitness is 0).
- Truncation: ``1 / keep`` for each of the best ``keep = ceil(P / 2)`` rows, 0 for the others.
- Uniform couples: two different individuals, every ordered pair alike.
- Best 2 of 5: five draws with replacement, the best two kept (ties to the earlier draw).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Final, NamedTuple

import numpy as np

from engine.arrays import FloatArray
from engine.operators.selection import BEST_OF, TRUNCATION_FRACTION


class Classes(NamedTuple):
    """Individuals with the same chances under one selection, one entry per class, as plain
    numbers (a population has few distinct fitness values: they count conflicts).

    Attributes:
        values: Fitness of the class's members.
        counts: How many members.
        picks: Times one unit is expected to pick each member.
        missed: Probability that one unit picks a given member not at all.
    """

    values: list[float]
    counts: list[int]
    picks: list[float]
    missed: list[float]


class Expectation(NamedTuple):
    """One selection's expected behaviour on one population, per unit of draws.

    Attributes:
        classes: Each class's fitness, size and chances.
        picks_per_unit: Picks one unit makes (1, or 2 for a couple).
        unit_mean: Expected sum of the fitness of one unit's picks.
        unit_variance: Variance of that sum.
    """

    classes: Classes
    picks_per_unit: int
    unit_mean: float
    unit_variance: float

    @property
    def best_picks(self) -> float:
        """Times one unit is expected to pick a member of the best group (the mean over the
        group's members, which truncation may split)."""
        classes = self.classes
        best = max(classes.values)
        members = expected = 0.0
        for value, count, picks in zip(classes.values, classes.counts, classes.picks, strict=True):
            if value == best:
                members += count
                expected += count * picks
        return expected / members


def fitness_groups(fitness: FloatArray) -> tuple[list[float], list[int]]:
    """The distinct fitness values in ascending order, and how many individuals have each.

    A few numpy calls, the rest over the groups in plain Python: this runs every generation,
    where each numpy call's fixed cost counts more than the work.
    """
    ordered = np.sort(fitness)
    ends = (ordered[1:] != ordered[:-1]).nonzero()[0].tolist()  # each group's last row
    ends.append(ordered.shape[0] - 1)
    values = ordered.take(ends).tolist()
    counts = []
    before = -1
    for end in ends:
        counts.append(end - before)
        before = end
    return values, counts


def tournament_probabilities(counts: Sequence[int], size: int) -> list[float]:
    """Per member of each group (ascending fitness), the chance to win one tournament.

    Blickle & Thiele 1995, Theorem 3.1, ties shared evenly: ``(F_g^s - F_{g-1}^s) / n_g``.
    """
    population = sum(counts)
    chances = []
    at_or_below = below = 0.0
    passed = 0
    for count in counts:
        passed += count
        at_or_below = passed / population
        chances.append((at_or_below**size - below**size) / count)
        below = at_or_below
    return chances


def rank_probabilities(counts: Sequence[int]) -> list[float]:
    """Per member of each group (ascending fitness), the chance of one rank-selection draw:
    the group's mean rank over the ranks' sum."""
    population = sum(counts)
    ranks_sum = population * (population + 1) / 2.0
    chances = []
    before = 0
    for count in counts:
        chances.append((before + (count + 1) / 2.0) / ranks_sum)
        before += count
    return chances


def roulette_group_probabilities(values: Sequence[float], counts: Sequence[int]) -> list[float]:
    """Per member of each group, ``f / sum(f)`` (uniform when every fitness is 0)."""
    total = sum(value * count for value, count in zip(values, counts, strict=True))
    if total <= 0:
        return [1.0 / sum(counts)] * len(counts)
    return [value / total for value in values]


def truncation_classes(values: Sequence[float], counts: Sequence[int]) -> Classes:
    """The best ``keep`` rows drawn from alike, the others never: the group at the cut is
    split into its kept rows and the rest."""
    keep = max(1, math.ceil(sum(counts) * TRUNCATION_FRACTION))
    classes = Classes([], [], [], [])
    left = keep  # rows still to keep, fittest groups first
    for value, count in zip(reversed(values), reversed(counts), strict=True):
        kept = min(count, left)
        left -= kept
        for members, chance in ((kept, 1.0 / keep), (count - kept, 0.0)):
            if members:
                classes.values.append(value)
                classes.counts.append(members)
                classes.picks.append(chance)
                classes.missed.append(1.0 - chance)
    return classes


def _single_draw(values: list[float], counts: list[int], chances: list[float]) -> Expectation:
    """One pick per unit, member ``i`` with probability ``chances``."""
    return _single_draw_classes(Classes(values, counts, chances, [1.0 - p for p in chances]))


def _single_draw_classes(classes: Classes) -> Expectation:
    # Moments about the first value, in one pass: no cancellation where the values are large
    # and close together (pairs fitness near N(N - 1) / 2).
    shift = classes.values[0]
    first = second = 0.0
    for value, count, chance in zip(classes.values, classes.counts, classes.picks, strict=True):
        mass, offset = count * chance, value - shift
        first += mass * offset
        second += mass * offset * offset
    return Expectation(classes, 1, first + shift, max(0.0, second - first * first))


def uniform_couples(values: list[float], counts: list[int]) -> Expectation:
    """Two different individuals per couple, every ordered pair alike.

    Each pick is uniform, so the sum's mean is ``2 * mean``; the two are drawn without
    replacement, so its variance is ``2 var (P - 2) / (P - 1)``.
    """
    population = sum(counts)
    mean = sum(value * count for value, count in zip(values, counts, strict=True)) / population
    variance = (
        sum(count * (value - mean) ** 2 for value, count in zip(values, counts, strict=True))
        / population
    )
    unit_variance = 0.0 if population < 2 else 2 * variance * (population - 2) / (population - 1)
    groups = len(values)
    picks = [2.0 / population] * groups
    missed = [max(0.0, (population - 2) / population)] * groups
    return Expectation(Classes(values, counts, picks, missed), 2, 2 * mean, unit_variance)


def _kept_member(fitter: float, member: float, equal: float) -> tuple[float, float]:
    """Times one couple of best-2-of-5 keeps a given member, expected, and the chance it keeps
    it not at all: ``fitter``, ``member`` and ``equal`` are one draw's chances to be fitter,
    the member itself, or another of its group.

    The two kept are the fitter draws first, then the member's and its equals' draws in draw
    order. With ``k`` fitter draws, the other ``5 - k`` are iid: each is the member's or an
    equal's with chance ``r``, and then the member's with chance ``q``. Two fitter draws leave
    nothing; one leaves a place for the first such draw; none, for the first two.
    """
    rest = 1.0 - fitter
    reach = (member + equal) / rest  # r
    own = member / (member + equal)  # q
    none_fitter, one_fitter = rest**BEST_OF, BEST_OF * fitter * rest ** (BEST_OF - 1)
    any_of_four = 1.0 - (1.0 - reach) ** (BEST_OF - 1)
    nothing = (1.0 - reach) ** BEST_OF  # of five draws, none the member's or an equal's
    just_one = BEST_OF * reach * (1.0 - reach) ** (BEST_OF - 1)
    two_or_more = 1.0 - nothing - just_one
    picks = one_fitter * any_of_four * own + none_fitter * own * (just_one + 2 * two_or_more)
    kept = one_fitter * any_of_four * own + none_fitter * (
        1.0 - nothing - just_one * (1.0 - own) - two_or_more * (1.0 - own) ** 2
    )
    return picks, 1.0 - kept


def best_two_of_five(values: list[float], counts: list[int]) -> Expectation:
    """Five draws with replacement per couple, the best two kept, ties to the earlier draw.

    A member's chances are :func:`_kept_member`'s; the fitness sum's mean and variance come
    from the two highest order statistics of five draws (about the population's mean, without
    cancellation): with ``F`` the share at or below a level and ``F-`` below it, the highest is
    at a level with chance ``F^5 - F-^5``, the second with ``H(F) - H(F-)``,
    ``H(x) = x^5 + 5 (1 - x) x^4``, and both with ``F^5 - F-^5 - 5 s F-^4`` (``s`` the
    level's share) or, one level above the other, ``5 s_a (F_b^4 - F-_b^4)``.
    """
    population = sum(counts)
    centre = sum(v * c for v, c in zip(values, counts, strict=True)) / population
    picks, missed = [], []
    mean = square = cross = lower = 0.0
    below = 0.0
    passed = 0
    for value, count in zip(values, counts, strict=True):
        passed += count
        at_or_below, share, level = passed / population, count / population, value - centre
        chances = _kept_member(1.0 - at_or_below, 1.0 / population, (count - 1) / population)
        picks.append(chances[0])
        missed.append(chances[1])
        top = at_or_below**BEST_OF - below**BEST_OF
        second = _at_most_one_above(at_or_below) - _at_most_one_above(below)
        both_top = top - BEST_OF * share * below ** (BEST_OF - 1)
        mean += level * (top + second)
        square += level * level * (top + second)
        cross += level * level * both_top + BEST_OF * level * share * lower
        lower += level * (at_or_below ** (BEST_OF - 1) - below ** (BEST_OF - 1))
        below = at_or_below
    variance = max(0.0, square + 2 * cross - mean * mean)
    classes = Classes(values, counts, picks, missed)
    return Expectation(classes, 2, mean + 2 * centre, variance)


def _at_most_one_above(share: float) -> float:
    """The chance that at most one of five draws is above a level with ``share`` at or below."""
    return share**BEST_OF + BEST_OF * (1.0 - share) * share ** (BEST_OF - 1)


SINGLE_DRAW: Final = frozenset({"roulette", "tournament", "rank", "truncation"})
"""Selections that pick one parent per independent draw."""


def expected_selection(
    fitness: FloatArray, selection: str, tournament_size: int
) -> Expectation | None:
    """What ``selection`` is expected to do on a population of this ``fitness``.

    Args:
        fitness: ``(P,)`` the population's fitness.
        selection: A name of :data:`engine.operators.selection.SELECTIONS`.
        tournament_size: The tournament's size (read by tournament selection only).

    Returns:
        The expectation per unit of draws, or ``None`` for a selection not known here.
    """
    values, counts = fitness_groups(fitness)
    if selection == "tournament":
        return _single_draw(values, counts, tournament_probabilities(counts, tournament_size))
    if selection == "rank":
        return _single_draw(values, counts, rank_probabilities(counts))
    if selection == "roulette":
        return _single_draw(values, counts, roulette_group_probabilities(values, counts))
    if selection == "truncation":
        return _single_draw_classes(truncation_classes(values, counts))
    if selection == "uniform":
        return uniform_couples(values, counts)
    if selection == "best-2-of-5":
        return best_two_of_five(values, counts)
    return None
