"""The population's pictures: placement shares and their map, column blocks, the conflict
histogram."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import ENCODINGS
from engine.genomes.conflicts import board_lines
from tui.dashboard.pictures.population_pictures import (
    SHARE_LEVELS,
    block_shares,
    column_counts,
    conflict_histogram,
    map_scale,
    placement_shares,
    share_levels,
)


def test_placement_shares_count_each_individuals_queen_per_column() -> None:
    # Three individuals of N = 3, genes are rows by column.
    population = np.array([[0, 1, 2], [0, 2, 1], [1, 1, 2]], dtype=np.int64)
    shares = placement_shares(population, 3, "permutation")
    assert shares[0, 0] == 2 / 3 and shares[1, 0] == 1 / 3 and shares[2, 0] == 0
    assert shares[1, 1] == 2 / 3 and shares[2, 1] == 1 / 3
    assert shares[2, 2] == 2 / 3 and shares[1, 2] == 1 / 3
    # One queen per column per individual: every column's shares add up to 1.
    assert np.allclose(shares.sum(axis=0), 1.0)


def test_placement_shares_of_the_squares_encoding_use_the_square_index() -> None:
    population = np.array([[0, 4, 8], [2, 4, 6]], dtype=np.int64)
    shares = placement_shares(population, 3, "squares")
    assert shares[1, 1] == 1.0
    assert shares[0, 0] == 0.5 and shares[0, 2] == 0.5 and shares[2, 0] == 0.5
    assert shares.sum() == 3.0


@settings(max_examples=50, deadline=None)
@given(
    n=st.integers(4, 40),
    size=st.integers(1, 60),
    encoding=st.sampled_from(["permutation", "squares"]),
    seed=st.integers(0, 1000),
)
def test_placement_shares_match_a_decode_of_every_individual(
    n: int, size: int, encoding: str, seed: int
) -> None:
    kind = ENCODINGS[encoding]
    population = kind.random_population(size, n, np.random.default_rng(seed))
    rows, columns = kind.decode(population, n)
    expected = np.zeros((n, n))
    for row, column in zip(np.ravel(rows), np.ravel(columns), strict=True):
        expected[row, column] += 1 / size
    assert np.allclose(placement_shares(population, n, encoding), expected)


@pytest.mark.parametrize("n", [1, 2, 3, 7, 32, 33, 40, 41, 64])
@pytest.mark.parametrize("size", [1, 5, 10_000])
def test_column_counts_in_pairs_and_blocks_equal_a_count_per_column(n: int, size: int) -> None:
    # Two columns to an index up to N = 40 (an odd N leaves one column alone), one column to
    # an index beyond; 10,000 individuals span several blocks.
    genes = ENCODINGS["integer"].random_population(size, n, np.random.default_rng(n + size))
    expected = np.stack([np.bincount(genes[:, c], minlength=n) for c in range(n)], axis=1)
    assert np.array_equal(column_counts(genes, n), expected)


def test_blocks_of_a_converged_population_are_full_on_its_line_only() -> None:
    n = 12
    shares = np.zeros((n, n))
    shares[np.arange(n), np.arange(n)] = 1.0  # everyone has queen c on row c
    scale = map_scale(n, 8, 4)
    assert scale == 2 and np.ceil(n / scale) <= 8 and np.ceil(n / (2 * scale)) <= 4
    blocks = block_shares(shares, scale)
    assert blocks.shape == (3, 6)
    # Block (i, j) covers rows 4i..4i+3 and columns 2j..2j+1: full where the diagonal passes.
    assert blocks.tolist() == [
        [1, 1, 0, 0, 0, 0],
        [0, 0, 1, 1, 0, 0],
        [0, 0, 0, 0, 1, 1],
    ]


def test_map_scale_is_zero_exactly_when_every_square_fits() -> None:
    assert map_scale(8, 16, 8) == 0
    assert map_scale(8, 15, 8) == 1
    assert map_scale(100, 40, 20) == 3


def test_any_share_shows_and_a_full_square_is_the_darkest_shade() -> None:
    levels = share_levels(np.array([0.0, 1e-9, 0.125, 0.126, 0.25, 0.5, 0.51, 1.0]))
    assert levels.tolist() == [0, 1, 1, 2, 2, 3, SHARE_LEVELS, SHARE_LEVELS]


def test_the_histogram_has_one_bar_per_value_when_they_fit_and_counts_everyone() -> None:
    conflicts = np.array([2, 2, 3, 5, 5, 5], dtype=np.int64)
    histogram = conflict_histogram(conflicts, 10)
    assert histogram.lows.tolist() == [2, 3, 4, 5]
    assert histogram.highs.tolist() == [2, 3, 4, 5]
    assert histogram.counts.tolist() == [2, 1, 0, 3]
    squeezed = conflict_histogram(np.arange(100, dtype=np.int64), 7)
    assert len(squeezed.counts) <= 7
    assert int(squeezed.counts.sum()) == squeezed.size == 100
    assert squeezed.lows[0] == 0 and squeezed.highs[-1] == 99


def test_a_converged_population_has_full_squares_where_it_converged() -> None:
    # Every individual is the same solution: its squares are full, every other square empty.
    solution = np.array([0, 4, 7, 5, 2, 6, 1, 3], dtype=np.int64)
    population = np.tile(solution, (50, 1))
    assert not board_lines(population[:1], 8, ENCODINGS["permutation"]).attacked().any()
    levels = share_levels(placement_shares(population, 8, "permutation"))
    assert (levels[solution, np.arange(8)] == SHARE_LEVELS).all()
    assert int((levels > 0).sum()) == 8
