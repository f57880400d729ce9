"""Selection pressure: the exact expectations against theory and hand work, the measure against
a slow reference from the engine's own picks, and the mark of an improbable generation."""

from __future__ import annotations

import itertools
import math
import statistics
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

import engine.large_n.tracked_generation as tracked_generation
import engine.operators.selection as selection_module
from engine import Config, GeneticAlgorithm, SelectionPressure, pressure_words
from engine.arrays import FloatArray, IntArray
from engine.operators.selection import SELECTIONS
from engine.operators.selection_expectation import (
    best_two_of_five,
    expected_selection,
    fitness_groups,
    rank_probabilities,
    tournament_probabilities,
)
from engine.operators.selection_pressure import measure_selection


def normal_population(size: int) -> FloatArray:
    """Distinct fitness values at the normal distribution's quantiles."""
    normal = statistics.NormalDist()
    return np.array([normal.inv_cdf((i + 0.5) / size) for i in range(size)])


def expected_intensity(fitness: FloatArray, selection: str, size: int = 0) -> float:
    expectation = expected_selection(fitness, selection, size)
    assert expectation is not None
    mean = expectation.unit_mean / expectation.picks_per_unit
    return (mean - fitness.mean()) / fitness.std()


@pytest.mark.parametrize(("size", "published"), [(2, 0.5642), (3, 0.8463), (4, 1.0294)])
def test_tournament_intensity_converges_to_the_published_values(
    size: int, published: float
) -> None:
    # Blickle & Thiele 1995, Table 1 (s = 2 is exactly 1 / sqrt(pi)).
    fitness = normal_population(40_000)
    assert expected_intensity(fitness, "tournament", size) == pytest.approx(published, abs=1e-3)
    assert expected_intensity(fitness[:200], "tournament", size) != pytest.approx(
        published, abs=1e-3
    )


def test_rank_and_truncation_intensity_on_a_normal_population() -> None:
    fitness = normal_population(40_000)
    # Linear ranking from weight 0 to 2: (eta+ - 1) / sqrt(pi); truncation to the best half:
    # phi(0) / (1/2).
    assert expected_intensity(fitness, "rank") == pytest.approx(1 / math.sqrt(math.pi), abs=1e-3)
    assert expected_intensity(fitness, "truncation") == pytest.approx(
        2 / math.sqrt(2 * math.pi), abs=1e-3
    )


def test_tournament_ties_share_their_group_by_hand() -> None:
    # [1, 1, 2], s = 2: the 2 wins every pair it is in (5 of 9); each 1 wins (i, i) and the
    # pair it opens with the other 1: 2 of 9.
    _, counts = fitness_groups(np.array([1.0, 2.0, 1.0]))
    assert tournament_probabilities(counts, 2) == pytest.approx([2 / 9, 5 / 9])
    # [0, 1, 1, 3], s = 3: F = 1/4, 3/4, 1: (1/64, (27 - 1)/64 / 2, (64 - 27)/64).
    _, counts = fitness_groups(np.array([1.0, 3.0, 0.0, 1.0]))
    assert tournament_probabilities(counts, 3) == pytest.approx([1 / 64, 13 / 64, 37 / 64])


def test_rank_ties_share_their_mean_rank_by_hand() -> None:
    # [1, 1, 2]: ranks 1.5, 1.5, 3 over 6.
    _, counts = fitness_groups(np.array([1.0, 1.0, 2.0]))
    assert rank_probabilities(counts) == pytest.approx([0.25, 0.5])


class EveryDraw:
    """A stand-in generator whose ``integers`` calls return the given arrays in turn: every
    possible draw once, so a selection's picks are its exact distribution."""

    def __init__(self, *draws: IntArray) -> None:
        self._draws: Iterator[IntArray] = iter(draws)

    def integers(self, low: int, high: int, size: Any = None) -> IntArray:
        return next(self._draws)


def exact_picks(fitness: FloatArray, name: str, draws: list[IntArray], count: int) -> IntArray:
    """Every outcome of a selection, made by the selection's own code."""
    return SELECTIONS[name](fitness, count, EveryDraw(*draws), 0)  # type: ignore[arg-type]


def check_against_every_draw(
    fitness: FloatArray, name: str, picks: IntArray, units: int, per_unit: int
) -> None:
    """The expectation's chances and fitness sums match the code's outcomes, draw by draw."""
    expectation = expected_selection(fitness, name, 0)
    assert expectation is not None
    assert expectation.picks_per_unit == per_unit
    rows = picks.reshape(units, per_unit)
    values, counts, chances, misses = (np.asarray(column) for column in expectation.classes)
    for value in np.unique(fitness):
        # A group's members as the code treats them, against its classes (truncation splits
        # the group at its cut into classes of their own).
        members = np.flatnonzero(fitness == value)
        ours = values == value
        assert counts[ours].sum() == len(members)
        picked = sum((rows == member).sum() / units for member in members)
        missing = sum((~(rows == member).any(axis=1)).mean() for member in members)
        assert float(counts[ours] @ chances[ours]) == pytest.approx(picked)
        assert float(counts[ours] @ misses[ours]) == pytest.approx(missing)
    sums = fitness[rows].sum(axis=1)
    assert expectation.unit_mean == pytest.approx(sums.mean())
    assert expectation.unit_variance == pytest.approx(sums.var())


@pytest.mark.parametrize("fitness", [[1.0, 3.0, 0.0, 1.0], [2.0, 2.0, 2.0, 5.0], [4.0, 1, 2, 3]])
def test_best_two_of_five_by_every_draw(fitness: list[float]) -> None:
    population = np.array(fitness)
    everything = np.array(list(itertools.product(range(4), repeat=5)))
    picks = exact_picks(population, "best-2-of-5", [everything], 2 * len(everything))
    check_against_every_draw(population, "best-2-of-5", picks, len(everything), 2)


def test_uniform_couples_by_every_draw() -> None:
    population = np.array([1.0, 3.0, 0.0, 1.0, 7.0])
    pairs = [(a, shift) for a in range(5) for shift in range(1, 5)]
    first, shifts = (np.array(column) for column in zip(*pairs, strict=True))
    picks = exact_picks(population, "uniform", [first, shifts], 2 * len(pairs))
    check_against_every_draw(population, "uniform", picks, len(pairs), 2)


def test_truncation_splits_the_group_at_its_cut() -> None:
    # Best half of 5 is 3 rows: the 9, and the first two of the three 4s by the stable sort.
    population = np.array([4.0, 1.0, 4.0, 9.0, 4.0])
    every = np.arange(3)
    picks = exact_picks(population, "truncation", [every], 3)
    assert sorted(picks.tolist()) == [0, 2, 3]
    check_against_every_draw(population, "truncation", picks, 3, 1)
    expectation = expected_selection(population, "truncation", 0)
    assert expectation is not None
    assert expectation.best_picks == pytest.approx(1 / 3)


@pytest.mark.parametrize("name", sorted(SELECTIONS))
def test_every_unit_picks_what_it_says(name: str) -> None:
    population = np.random.default_rng(3).integers(0, 6, 50).astype(np.float64)
    expectation = expected_selection(population, name, 3)
    assert expectation is not None
    values, counts, chances, _ = (np.asarray(column) for column in expectation.classes)
    assert counts.sum() == 50
    assert float(counts @ chances) == pytest.approx(expectation.picks_per_unit)
    # The sum's mean from the order statistics is the members' chances', weighed by fitness.
    assert float((counts * chances) @ values) == pytest.approx(expectation.unit_mean)


def test_best_two_of_five_orders_statistics_by_simulation() -> None:
    population = np.array([0.0, 1.0, 1.0, 2.0, 5.0, 5.0, 9.0])
    values, counts = fitness_groups(population)
    expectation = best_two_of_five(values, counts)
    picks = SELECTIONS["best-2-of-5"](population, 400_000, np.random.default_rng(5), 0)
    sums = population[picks.reshape(-1, 2)].sum(axis=1)
    assert expectation.unit_mean == pytest.approx(sums.mean(), abs=0.02)
    assert expectation.unit_variance == pytest.approx(sums.var(), rel=0.01)


def slow_reference(fitness: FloatArray, picks: IntArray, size: int) -> dict[str, float]:
    """The tournament's measure, one Python number at a time."""
    values = fitness.tolist()
    population, count = len(values), len(picks)
    mean, spread = statistics.fmean(values), statistics.pstdev(values)
    chosen = [values[i] for i in picks.tolist()]
    chances = []
    for value in values:
        at_or_below = sum(v <= value for v in values) / population
        below = sum(v < value for v in values) / population
        chances.append((at_or_below**size - below**size) / values.count(value))
    expected_mean = sum(c * v for c, v in zip(chances, values, strict=True))
    variance = sum(c * (v - expected_mean) ** 2 for c, v in zip(chances, values, strict=True))
    best = max(values)
    best_members = values.count(best)
    return {
        "intensity": (statistics.fmean(chosen) - mean) / spread,
        "expected_intensity": (expected_mean - mean) / spread,
        "intensity_spread": math.sqrt(variance / count) / spread,
        "unselected": sum(i not in set(picks.tolist()) for i in range(population)) / population,
        "expected_unselected": statistics.fmean((1 - c) ** count for c in chances),
        "best_ratio": chances[values.index(best)] * population,
        "measured_best_ratio": chosen.count(best) / best_members / (count / population),
    }


def spied_run(
    monkeypatch: pytest.MonkeyPatch, config: Config, generations: int
) -> list[tuple[FloatArray, IntArray, SelectionPressure | None]]:
    """Each generation's population fitness, the picks its selection returned, and the
    snapshot's measure."""
    seen: list[tuple[FloatArray, IntArray]] = []
    real = SELECTIONS[config.selection]

    def spy(fitness: FloatArray, count: int, rng: np.random.Generator, size: int) -> IntArray:
        picks = real(fitness, count, rng, size)
        seen.append((fitness.copy(), picks.copy()))
        return picks

    monkeypatch.setitem(selection_module.SELECTIONS, config.selection, spy)
    algorithm = GeneticAlgorithm(config)
    measures = [algorithm.step().selection for _ in range(generations)]
    return [(*pair, measure) for pair, measure in zip(seen, measures, strict=True)]


@pytest.mark.parametrize("kept", [False, True])
def test_the_measure_matches_a_slow_reference_from_the_engines_picks(
    monkeypatch: pytest.MonkeyPatch, kept: bool
) -> None:
    if kept:  # the kept-counts road through the same generation
        monkeypatch.setattr(tracked_generation, "SMALLEST_N", 64)
    config = Config(n=64, population=60, seed=4, tournament_size=3, stop_when_solved=False)
    runs = spied_run(monkeypatch, config, 6)
    assert len(runs) == 6
    for fitness, picks, measure in runs:
        assert measure is not None and measure.selection == "tournament"
        assert measure.picks == picks.shape[0]
        reference = slow_reference(fitness, picks, 3)
        for name, value in reference.items():
            assert getattr(measure, name) == pytest.approx(value, rel=1e-9, abs=1e-12), name


def test_the_measure_changes_nothing_of_the_run() -> None:
    config = Config(n=24, population=40, seed=9, selection="rank", stop_when_solved=False)
    first, second = GeneticAlgorithm(config), GeneticAlgorithm(config)
    for _ in range(5):
        one, other = first.step(), second.step()
        assert np.array_equal(one.population, other.population)
        assert one.selection == other.selection
    assert first.rng.bit_generator.state == second.rng.bit_generator.state


def test_restored_and_first_generations_have_no_measure() -> None:
    algorithm = GeneticAlgorithm(Config(n=16, population=30, seed=2, stop_when_solved=False))
    assert algorithm.snapshot.selection is None
    algorithm.step()
    restored = GeneticAlgorithm.from_state(algorithm.state())
    assert restored.snapshot.selection is None
    assert restored.step().selection == algorithm.step().selection


def test_an_improbable_generation_is_marked() -> None:
    fitness = np.arange(100, dtype=np.float64)
    likely = SELECTIONS["tournament"](fitness, 100, np.random.default_rng(1), 2)
    measure = measure_selection(fitness, likely, "tournament", 2)
    assert measure is not None and not measure.marked
    assert abs(measure.deviation) < 4
    # Picks that a tournament of 2 would make once in a lifetime: the worst quarter only.
    worst = np.arange(100) % 25
    marked = measure_selection(fitness, worst, "tournament", 2)
    assert marked is not None and marked.marked
    assert marked.deviation < -4
    assert marked.unselected == 0.75


def test_equal_fitness_leaves_intensity_undefined() -> None:
    fitness = np.full(10, 3.0)
    measure = measure_selection(fitness, np.arange(10), "tournament", 2)
    assert measure is not None
    assert math.isnan(measure.intensity) and math.isnan(measure.expected_intensity)
    assert not measure.marked
    assert measure.best_ratio == pytest.approx(1.0)
    assert "undefined" in pressure_words(measure)


def test_words_say_how_much_more_the_best_is_picked() -> None:
    fitness = np.array([0.0, 1.0, 2.0, 3.0])
    measure = measure_selection(fitness, np.array([3, 3, 2, 1]), "tournament", 2)
    assert measure is not None
    # P(best wins) = 1 - (3/4)^2 = 7/16; times P = 1.75.
    assert pressure_words(measure) == (
        "the best is picked 1.75 times as often as an average individual (this generation 2.00)"
    )
