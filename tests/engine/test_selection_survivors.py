"""Parent selection and survivor selection."""

from __future__ import annotations

import numpy as np
import pytest
from engine_reference import ScriptedRng
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.operators.selection import (
    SELECTIONS,
    best_two_of_five_select,
    rank_select,
    roulette_select,
    tournament_select,
    truncation_select,
    uniform_select,
)
from engine.operators.survivors import SURVIVORS, best_of_union_survivors, generational_survivors

# --- Parent selection. ---


def test_roulette_spins_land_on_the_cumulative_slices():
    # Slices 7, 6, 6, 5 of 24: [0, 7), [7, 13), [13, 19), [19, 24).
    fitness = np.array([7.0, 6.0, 6.0, 5.0])
    spins = np.array([0.0, 6.5, 7.5, 12.5, 13.5, 18.5, 19.5, 23.5]) / 24
    picks = roulette_select(fitness, 8, ScriptedRng(random=[spins]))
    assert picks.tolist() == [0, 0, 1, 1, 2, 2, 3, 3]


def test_roulette_frequencies_follow_fitness():
    fitness = np.array([7.0, 6.0, 6.0, 5.0])
    picks = roulette_select(fitness, 48_000, np.random.default_rng(0))
    shares = np.bincount(picks, minlength=4) / 48_000
    assert shares == pytest.approx([7 / 24, 6 / 24, 6 / 24, 5 / 24], abs=0.01)


def test_roulette_never_picks_a_zero_slice():
    fitness = np.array([0.0, 3.0, 0.0, 1.0, 0.0])
    picks = roulette_select(fitness, 2000, np.random.default_rng(1))
    assert set(picks.tolist()) == {1, 3}


def test_tournament_keeps_the_fittest_entrant():
    fitness = np.array([1.0, 5.0, 3.0, 4.0])
    rng = ScriptedRng(integers=[[[0, 2, 3], [2, 0, 0], [1, 1, 1]]])
    assert tournament_select(fitness, 3, rng, size=3).tolist() == [3, 2, 1]


def test_tournament_of_the_whole_population_mostly_finds_the_best():
    fitness = np.arange(10.0)
    picks = tournament_select(fitness, 500, np.random.default_rng(2), size=30)
    # 30 draws with replacement miss individual 9 with chance 0.9**30 ~ 4%.
    assert np.mean(picks == 9) > 0.9


def test_best_two_of_five_keeps_the_best_two_in_fitness_order():
    fitness = np.array([0.0, 9.0, 2.0, 7.0, 5.0, 1.0])
    rng = ScriptedRng(integers=[[[0, 2, 3, 4, 5], [1, 1, 0, 5, 2]]])
    # Couple 1: 7 (index 3), 5 (index 4). Couple 2: index 1 twice (ties go to the earlier draw).
    # Asking for 3 drops the second pick of the last couple.
    assert best_two_of_five_select(fitness, 3, rng).tolist() == [3, 4, 1]


def test_best_two_of_five_draws_five_whatever_the_tournament_size():
    # The run passes the config's tournament size (2 by default) to every selection; drawing
    # two and keeping both was no selection at all. The best of five uniform draws averages
    # 5/6 of the range, the best of two 2/3.
    fitness = np.arange(1000, dtype=np.float64)
    picks = best_two_of_five_select(fitness, 4000, np.random.default_rng(1), 2)
    assert fitness[picks[0::2]].mean() > 0.8 * 1000


def test_rank_selection_depends_on_order_only():
    rng_one, rng_two = np.random.default_rng(3), np.random.default_rng(3)
    picks_one = rank_select(np.array([1.0, 2.0, 3.0]), 3000, rng_one)
    picks_two = rank_select(np.array([-50.0, 0.0, 1e9]), 3000, rng_two)
    assert np.array_equal(picks_one, picks_two)
    # Weights 1, 2, 3 of 6.
    assert np.bincount(picks_one) / 3000 == pytest.approx([1 / 6, 2 / 6, 3 / 6], abs=0.03)


def test_rank_selection_gives_ties_equal_chances():
    picks = rank_select(np.array([5.0, 5.0, 1.0]), 6000, np.random.default_rng(4))
    # Ranks 2 and 3 averaged to 2.5 each, rank 1 for the worst: shares 2.5, 2.5, 1 of 6.
    shares = np.bincount(picks, minlength=3) / 6000
    assert shares == pytest.approx([2.5 / 6, 2.5 / 6, 1 / 6], abs=0.03)


def test_truncation_draws_from_the_best_half():
    fitness = np.array([3.0, 9.0, 1.0, 8.0, 2.0, 7.0, 0.0])
    picks = truncation_select(fitness, 1000, np.random.default_rng(5))
    # ceil(7 / 2) = 4 best: indices 1, 3, 5, 0.
    assert set(picks.tolist()) == {0, 1, 3, 5}


def test_uniform_couples_are_two_different_individuals():
    picks = uniform_select(np.zeros(3), 600, np.random.default_rng(6))
    couples = picks.reshape(-1, 2)
    assert (couples[:, 0] != couples[:, 1]).all()
    assert set(picks.tolist()) == {0, 1, 2}


@settings(max_examples=60, deadline=None)
@given(
    name=st.sampled_from(sorted(SELECTIONS)),
    size=st.integers(min_value=2, max_value=20),
    count=st.integers(min_value=0, max_value=41),
    tournament=st.integers(min_value=1, max_value=5),
    seed=st.integers(min_value=0, max_value=2**32 - 1),
)
def test_selection_returns_valid_indices_of_the_requested_count(
    name, size, count, tournament, seed
):
    rng = np.random.default_rng(seed)
    fitness = rng.integers(0, 5, size=size).astype(np.float64)
    original = fitness.copy()
    picks = SELECTIONS[name](fitness, count, rng, tournament)
    assert picks.shape == (count,)
    assert picks.dtype == np.int64
    assert ((picks >= 0) & (picks < size)).all()
    assert np.array_equal(fitness, original)


@pytest.mark.parametrize("name", sorted(SELECTIONS))
def test_every_selection_is_reproducible_from_the_seed(name):
    fitness = np.random.default_rng(7).random(15)
    one = SELECTIONS[name](fitness, 30, np.random.default_rng(8), 3)
    two = SELECTIONS[name](fitness, 30, np.random.default_rng(8), 3)
    three = SELECTIONS[name](fitness, 30, np.random.default_rng(9), 3)
    assert np.array_equal(one, two)
    assert not np.array_equal(one, three)


# --- Survivors. ---


def test_generational_without_elitism_takes_the_first_children():
    survivors = generational_survivors(np.array([9.0, 9.0, 9.0]), np.array([1.0, 2.0, 3.0, 4.0]), 0)
    assert survivors.tolist() == [3, 4, 5]


def test_generational_elitism_keeps_the_elite_and_drops_the_worst_children():
    parents = np.array([1.0, 8.0, 3.0, 9.0])
    children = np.array([5.0, 0.0, 6.0, 2.0])
    survivors = generational_survivors(parents, children, 2)
    # Elite: parents 3 and 1. Best two children, in generation order: 0 and 2 (at 4 and 6).
    assert survivors.tolist() == [3, 1, 4, 6]


def test_plus_keeps_the_best_of_the_union_and_parents_win_ties():
    parents = np.array([1.0, 5.0, 3.0])
    children = np.array([5.0, 4.0, 0.0])
    assert best_of_union_survivors(parents, children, 0).tolist() == [1, 3, 4]


def test_plus_keeps_parents_on_ties_in_a_large_population():
    # Long enough for numpy's default (unstable) sort to reorder ties: the order must be stable.
    parents = np.random.default_rng(0).integers(0, 3, size=100).astype(np.float64)
    children = parents[::-1].copy()
    survivors = best_of_union_survivors(parents, children, 0)
    union = np.concatenate([parents, children])
    assert union[survivors].min() >= np.delete(union, survivors).max()
    # A child is kept at a fitness level only if every parent at that level is kept.
    for level in np.unique(union[survivors[survivors >= 100]]):
        parents_at_level = set(np.flatnonzero(parents == level).tolist())
        assert parents_at_level <= set(survivors.tolist())
    # Parents are listed before children of equal fitness.
    kept = union[survivors]
    assert all(
        not (kept[i] == kept[i + 1] and survivors[i] >= 100 > survivors[i + 1]) for i in range(99)
    )


@settings(max_examples=60, deadline=None)
@given(
    name=st.sampled_from(sorted(SURVIVORS)),
    size=st.integers(min_value=2, max_value=20),
    extra=st.integers(min_value=0, max_value=25),
    elitism_share=st.floats(min_value=0.0, max_value=0.99),
    seed=st.integers(min_value=0, max_value=2**32 - 1),
)
def test_survivors_are_distinct_and_keep_the_best(name, size, extra, elitism_share, seed):
    rng = np.random.default_rng(seed)
    elitism = int(elitism_share * size) if name == "generational" else 0
    # Generational needs P - elitism children; plus and steady-state take any number.
    children_count = size - elitism + extra if name == "generational" else extra
    parents = rng.integers(0, 6, size=size).astype(np.float64)
    children = rng.integers(0, 6, size=children_count).astype(np.float64)
    survivors = SURVIVORS[name](parents, children, elitism)
    union = np.concatenate([parents, children])
    assert survivors.shape == (size,)
    assert len(set(survivors.tolist())) == size
    assert ((survivors >= 0) & (survivors < union.shape[0])).all()
    if name == "generational":
        # The elite are the best parents, first; the rest are children.
        elite = survivors[:elitism]
        assert (elite < size).all()
        if elitism:
            assert parents[elite].min() >= np.delete(parents, elite).max(initial=-np.inf)
        assert (survivors[elitism:] >= size).all()
    else:
        # Nobody left out is better than anybody kept.
        left_out = np.delete(union, survivors)
        assert union[survivors].min() >= left_out.max(initial=-np.inf)
