"""Selection pressure, measured each generation beside its exact expectation.

The selection intensity of one generation's parent selection is

    I = (mean fitness of the selected parents - mean fitness of the population) / std,

with the population's standard deviation (``ddof = 0``); every pick counts, a parent picked
twice counted twice. When every individual has the same fitness the std is 0 and ``I`` is
undefined: the measure is ``nan`` and :func:`pressure_words` says so.

Beside it, for the selection in use *on that population*
(:func:`~engine.operators.selection_expectation.expected_selection`):

- the expected intensity, and its standard deviation for this many picks: the ``C`` units of
  draws are independent, so the picks' mean fitness has variance ``C v / K^2`` with ``v`` one
  unit's variance and ``K`` the picks; a generation more than :data:`MARK_SPREADS` of those from
  its expectation is *marked*;
- the share of the population nobody picked, and its expectation ``mean_i m_i^C`` (``m_i`` the
  chance that one unit leaves ``i`` out: ``1 - p_i`` for one draw);
- how many times as often as an average individual a best individual is picked, expected and
  measured.

The measure reads the population's fitness and the picks only: it draws nothing from the
run's generator, so a run is the same with it, bit for bit. Its cost is a sort of ``P`` values
and a few passes over ``P`` and the picks (``tests/benchmarks/bench_selection_pressure.py``).
"""

from __future__ import annotations

import math
from typing import Final, NamedTuple

import numpy as np

from engine.arrays import FloatArray, IntArray
from engine.operators.selection_expectation import expected_selection

MARK_SPREADS: Final = 4.0
"""A generation whose intensity is further than this many standard deviations from its
expectation is marked."""


class SelectionPressure(NamedTuple):
    """One generation's parent selection, measured and expected.

    A named tuple: one is made every generation. Values that are undefined on a population
    of equal fitness are ``nan``.

    Attributes:
        selection: The selection's name.
        picks: Parents picked (``K``).
        intensity: The measured selection intensity.
        expected_intensity: Its exact expectation on this population.
        intensity_spread: The standard deviation of the measured intensity (0: it cannot vary).
        unselected: The share of the population picked by no one.
        expected_unselected: Its expectation.
        best_ratio: How many times as often as an average individual a best one is expected to
            be picked.
        measured_best_ratio: The same, as picked this generation.
    """

    selection: str
    picks: int
    intensity: float
    expected_intensity: float
    intensity_spread: float
    unselected: float
    expected_unselected: float
    best_ratio: float
    measured_best_ratio: float

    @property
    def deviation(self) -> float:
        """How many standard deviations the measure is from its expectation (``nan``: none)."""
        if not self.intensity_spread > 0:
            return math.nan
        return (self.intensity - self.expected_intensity) / self.intensity_spread

    @property
    def marked(self) -> bool:
        """Whether the measure is more than :data:`MARK_SPREADS` deviations off."""
        return abs(self.deviation) > MARK_SPREADS


def measure_selection(
    fitness: FloatArray, picks: IntArray, selection: str, tournament_size: int
) -> SelectionPressure | None:
    """The selection intensity of ``picks`` drawn from ``fitness``, beside its expectation.

    Args:
        fitness: ``(P,)`` fitness of the population the parents were picked from.
        picks: ``(K,)`` the rows picked, as the selection returned them.
        selection: The selection's name (:data:`engine.operators.selection.SELECTIONS`).
        tournament_size: The tournament's size (read by tournament selection only).

    Returns:
        The measure, or ``None`` when nothing was picked or the selection is not known.
    """
    population, count = fitness.shape[0], picks.shape[0]
    expected = expected_selection(fitness, selection, tournament_size) if count else None
    if expected is None:
        return None
    classes = expected.classes
    units = count / expected.picks_per_unit
    # The population's mean and std (about its first value), its best and the share expected
    # to be picked by no one, in one pass over the classes (few: fitness counts conflicts).
    shift, best = classes.values[0], max(classes.values)
    first = second = expected_missed = 0.0
    best_members = 0
    for value, members, missed in zip(classes.values, classes.counts, classes.missed, strict=True):
        offset = value - shift
        first += members * offset
        second += members * offset * offset
        expected_missed += members * missed**units
        if value == best:
            best_members += members
    first, second = first / population, second / population
    mean, spread = first + shift, math.sqrt(max(0.0, second - first * first))
    chosen = fitness.take(picks)
    if spread > 0:
        intensity = (float(chosen.sum()) / count - mean) / spread
        expected_intensity = (expected.unit_mean / expected.picks_per_unit - mean) / spread
        intensity_spread = math.sqrt(units * expected.unit_variance) / count / spread
    else:
        intensity = expected_intensity = intensity_spread = math.nan
    return SelectionPressure(
        selection=selection,
        picks=count,
        intensity=intensity,
        expected_intensity=expected_intensity,
        intensity_spread=intensity_spread,
        unselected=(population - int(np.count_nonzero(np.bincount(picks)))) / population,
        expected_unselected=expected_missed / population,
        best_ratio=expected.best_picks * units / count * population,
        measured_best_ratio=(
            int(np.count_nonzero(chosen == best)) / best_members / (count / population)
        ),
    )


def pressure_words(pressure: SelectionPressure) -> str:
    """The generation's pressure in a sentence: how much more a best individual is picked
    than an average one (expected, then measured), or why the intensity is undefined."""
    if math.isnan(pressure.intensity):
        return (
            "every individual has the same fitness: selection intensity is undefined "
            f"(the best is picked {pressure.best_ratio:.2f} times as often as an average one)"
        )
    return (
        f"the best is picked {pressure.best_ratio:.2f} times as often as an average "
        f"individual (this generation {pressure.measured_best_ratio:.2f})"
    )
