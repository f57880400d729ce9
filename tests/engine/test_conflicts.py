"""The one conflict counter, checked by hand and against a pair-by-pair brute force."""

from __future__ import annotations

import numpy as np
import pytest
from engine_reference import (
    SOLUTION_8,
    brute_attacked,
    brute_conflicts,
    brute_directions,
    squares_of,
)

from engine.genomes.conflicts import (
    attacked_directions,
    board_lines,
    count_conflicts,
    distinct_squares,
)
from engine.genomes.encodings import ENCODINGS, INTEGER, PERMUTATION, SQUARES, queens_of


def genomes(*rows: list[int]) -> np.ndarray:
    return np.array(rows, dtype=np.int64)


@pytest.mark.parametrize(
    ("encoding", "genome", "n", "expected"),
    [
        # The main diagonal: 4 queens on one diagonal are 6 pairs.
        (PERMUTATION, [0, 1, 2, 3], 4, 6),
        # The anti-diagonal r + c = 3 holds all 4 queens.
        (PERMUTATION, [3, 2, 1, 0], 4, 6),
        (PERMUTATION, [1, 3, 0, 2], 4, 0),
        (PERMUTATION, list(SOLUTION_8), 8, 0),
        # Rows 0,0,0: 3 row pairs; diagonals r - c = 0,-1,-2 and r + c = 0,1,2 are all distinct.
        (INTEGER, [0, 0, 0], 3, 3),
        # Towards AI [5 2 4 3 5], 0-based: a row pair, a diagonal pair, an anti-diagonal pair.
        (INTEGER, [4, 1, 3, 2, 4], 5, 3),
        # Two queens on square 0 share all four lines.
        (SQUARES, [0, 0], 4, 4),
        # (0,0) and (0,3): a row; (3,0): a column with (0,0) and an anti-diagonal with (0,3).
        (SQUARES, [0, 3, 12], 4, 3),
        # (0,0), (1,1), (3,3) on one diagonal, (0,2) alone but for the row with (0,0)
        # and the anti-diagonal with (1,1).
        (SQUARES, [0, 5, 15, 2], 4, 5),
    ],
)
def test_hand_checked_conflicts(encoding, genome, n, expected):
    assert count_conflicts(genomes(genome), n, encoding).tolist() == [expected]
    assert brute_conflicts(squares_of(genome, encoding, n)) == expected


def random_population(encoding, size, n, seed):
    return encoding.random_population(size, n, np.random.default_rng(seed))


@pytest.mark.parametrize("encoding", list(ENCODINGS.values()), ids=list(ENCODINGS))
@pytest.mark.parametrize("n", [1, 2, 3, 4, 5, 7])
def test_conflicts_match_brute_force(encoding, n):
    population = random_population(encoding, 60, n, seed=n)
    if encoding is SQUARES and n > 1:
        # Make sure stacked queens occur: copy a queen onto another's square in half the rows.
        population[::2, 0] = population[::2, 1]
    counted = count_conflicts(population, n, encoding)
    expected = [brute_conflicts(squares_of(row, encoding, n)) for row in population]
    assert counted.tolist() == expected


@pytest.mark.parametrize("encoding", list(ENCODINGS.values()), ids=list(ENCODINGS))
@pytest.mark.parametrize("n", [1, 4, 6])
def test_attacked_mask_matches_brute_force(encoding, n):
    population = random_population(encoding, 60, n, seed=100 + n)
    mask = board_lines(population, n, encoding).attacked()
    expected = [brute_attacked(squares_of(row, encoding, n)) for row in population]
    assert mask.tolist() == expected


def test_attacked_mask_on_a_hand_board():
    # (0,0) and (0,3) share a row; (3,1) shares no line with either.
    mask = board_lines(genomes([0, 3, 13]), 4, SQUARES).attacked()
    assert mask.tolist() == [[True, True, False]]


@pytest.mark.parametrize("n", [1, 3, 4, 6])
def test_sheppard_directions_match_a_ray_walk(n):
    population = random_population(SQUARES, 80, n, seed=200 + n)
    if n > 1:
        population[::3, 0] = population[::3, 1]
    directions = attacked_directions(population, n, SQUARES)
    expected = [brute_directions(squares_of(row, SQUARES, n), n) for row in population]
    assert directions.tolist() == expected
    distinct = distinct_squares(population, n, SQUARES)
    assert distinct.tolist() == [len(set(squares_of(row, SQUARES, n))) for row in population]


@pytest.mark.parametrize("encoding", [PERMUTATION, INTEGER], ids=["permutation", "integer"])
def test_directions_on_column_encodings_match_a_ray_walk(encoding):
    population = random_population(encoding, 50, 6, seed=7)
    directions = attacked_directions(population, 6, encoding)
    expected = [brute_directions(squares_of(row, encoding, 6), 6) for row in population]
    assert directions.tolist() == expected


def test_sheppard_directions_by_hand():
    # Stacked (0,0) twice, (3,3) on its diagonal, (1,2) seeing nobody: (0,0) sees south-east
    # and (3,3) north-west; a queen further along the ray is seen through (2,2) being empty.
    board = genomes([0, 0, 15, 6])
    assert attacked_directions(board, 4, SQUARES).tolist() == [2]
    assert distinct_squares(board, 4, SQUARES).tolist() == [3]
    # Three in a row: the middle one sees both ways, the ends one way each; rays are not blocked.
    row = genomes([0, 1, 3])
    assert attacked_directions(row, 4, SQUARES).tolist() == [4]


def test_queens_of_decodes_each_encoding():
    assert queens_of([2, 0, 1], PERMUTATION, 3) == [(2, 0), (0, 1), (1, 2)]
    assert queens_of([1, 1], INTEGER, 2) == [(1, 0), (1, 1)]
    assert queens_of([0, 5, 7], SQUARES, 3) == [(0, 0), (1, 2), (2, 1)]


@pytest.mark.parametrize("encoding", list(ENCODINGS.values()), ids=list(ENCODINGS))
def test_random_population_has_the_encodings_shape(encoding):
    population = random_population(encoding, 30, 6, seed=3)
    assert population.shape == (30, 6)
    assert population.min() >= 0
    assert population.max() < encoding.gene_values(6)
    if encoding.is_permutation:
        assert np.all(np.sort(population, axis=1) == np.arange(6))
    else:
        # 30 random rows of 6 genes: some row repeats a value (a permutation-only sampler fails).
        assert any(len(set(row)) < 6 for row in population.tolist())
