"""Diversity measures and Sheppard's pool of seen genomes."""

from __future__ import annotations

import numpy as np
import pytest
from engine_reference import brute_entropy

from engine.genomes.diversity import column_entropy, unique_fraction
from engine.genomes.encodings import INTEGER, PERMUTATION, SQUARES
from engine.genomes.uniqueness import remember, row_hashes, unseen


def cyclic_shifts(n: int) -> np.ndarray:
    return np.array([np.roll(np.arange(n), shift) for shift in range(n)], dtype=np.int64)


def uses_bincount(size: int, n: int) -> bool:
    """Which branch column_entropy takes (copied from its cost rule, to cover both)."""
    return n <= size * max(1.0, np.log2(size))


@pytest.mark.parametrize("size", [1, 2, 5, 17])
def test_unique_fraction_of_identical_rows(size):
    genomes = np.tile(np.array([3, 1, 0, 2]), (size, 1))
    assert unique_fraction(genomes) == 1 / size


def test_unique_fraction_counts_distinct_rows():
    genomes = np.array([[0, 1, 2], [0, 1, 2], [2, 1, 0], [1, 0, 2]])
    assert unique_fraction(genomes) == 3 / 4
    assert unique_fraction(cyclic_shifts(9)) == 1.0
    assert unique_fraction(np.empty((0, 4), dtype=np.int64)) == 0.0


@pytest.mark.parametrize(("size", "n"), [(30, 8), (2, 12), (6, 6), (3, 40)])
def test_entropy_of_identical_rows_is_zero(size, n):
    genomes = np.tile(np.random.default_rng(n).permutation(n), (size, 1))
    assert column_entropy(genomes, n, PERMUTATION) == 0.0


@pytest.mark.parametrize("n", [4, 8, 13])
def test_entropy_of_all_cyclic_shifts_is_one(n):
    # Each position holds every row exactly once: as spread as it can be.
    assert column_entropy(cyclic_shifts(n), n, PERMUTATION) == pytest.approx(1.0)


def test_entropy_of_two_distinct_rows_is_one_with_the_sort_branch():
    # Two individuals that differ everywhere: each column is a fair coin, ceiling log(2).
    genomes = np.array([np.arange(10), np.roll(np.arange(10), 1)])
    assert not uses_bincount(2, 10)
    assert column_entropy(genomes, 10, PERMUTATION) == pytest.approx(1.0)


@pytest.mark.parametrize(
    ("size", "n"),
    [(40, 8), (10, 30), (2, 5), (3, 20), (7, 7), (16, 64), (64, 16)],
)
@pytest.mark.parametrize("encoding", [PERMUTATION, INTEGER, SQUARES], ids=lambda e: e.name)
def test_entropy_matches_a_brute_force_count_on_both_branches(size, n, encoding):
    rng = np.random.default_rng(size * 100 + n)
    genomes = encoding.random_population(size, n, rng)
    # Duplicate some rows so that columns have repeated values of varied counts.
    genomes[: size // 2] = genomes[size // 2 : 2 * (size // 2)]
    rows, _ = encoding.decode(genomes, n)
    assert column_entropy(genomes, n, encoding) == pytest.approx(brute_entropy(np.asarray(rows)))


def test_the_cases_above_cover_both_branches():
    cases = [(40, 8), (10, 30), (2, 5), (3, 20), (7, 7), (16, 64), (64, 16)]
    assert {uses_bincount(size, n) for size, n in cases} == {True, False}


def test_both_branches_agree_on_one_population():
    # A population stacked on itself keeps every share of every column while P doubles: the
    # branch flips (sort for P = 4, bincount for P = 8) and the raw entropy must not move.
    rng = np.random.default_rng(5)
    n = 12
    genomes = INTEGER.random_population(4, n, rng)
    doubled = np.concatenate([genomes, genomes])
    assert not uses_bincount(4, n) and uses_bincount(8, n)
    # Duplicating rows keeps every share; only the ceiling log(min(P, N)) changes.
    scale = np.log(min(8, n)) / np.log(min(4, n))
    assert column_entropy(doubled, n, INTEGER) * scale == pytest.approx(
        column_entropy(genomes, n, INTEGER)
    )


def test_entropy_of_a_single_individual_or_queen_is_zero():
    assert column_entropy(np.array([[0, 1, 2, 3]]), 4, PERMUTATION) == 0.0
    assert column_entropy(np.zeros((5, 1), dtype=np.int64), 1, PERMUTATION) == 0.0


def test_squares_entropy_uses_the_row_of_each_square():
    # Squares 0 and 1 are both in row 0 of a 4 x 4 board: no spread at all.
    genomes = np.array([[0, 5, 10, 15], [1, 6, 11, 14]])
    assert column_entropy(genomes, 4, SQUARES) == 0.0


# --- Sheppard's pool. ---


def test_equal_rows_hash_equal_and_different_rows_differ():
    genomes = np.concatenate([cyclic_shifts(8), cyclic_shifts(8)[:3]])
    hashes = row_hashes(genomes)
    assert hashes.dtype == np.uint64
    assert len(set(hashes[:8].tolist())) == 8
    assert hashes[8:].tolist() == hashes[:3].tolist()
    # The same genes in another order, and a genome with a gene off by one, hash differently.
    assert row_hashes(np.array([[0, 1]]))[0] != row_hashes(np.array([[1, 0]]))[0]
    assert row_hashes(np.array([[0, 0, 0]]))[0] != row_hashes(np.array([[0, 0, 1]]))[0]


def test_hashes_do_not_collide_on_many_random_genomes():
    genomes = SQUARES.random_population(20_000, 6, np.random.default_rng(3))
    distinct_rows = np.unique(genomes, axis=0).shape[0]
    assert np.unique(row_hashes(genomes)).shape[0] == distinct_rows


def test_unseen_drops_known_and_repeated_hashes():
    seen = remember(np.empty(0, dtype=np.uint64), np.array([5, 9, 1], dtype=np.uint64))
    assert seen.tolist() == [1, 5, 9]
    hashes = np.array([9, 2, 2, 7, 1, 12], dtype=np.uint64)
    assert unseen(hashes, seen).tolist() == [False, True, False, True, False, True]
    assert remember(seen, hashes).tolist() == [1, 2, 5, 7, 9, 12]


@pytest.mark.parametrize("shape", [(3, 5), (200, 64), (40, 300)])
def test_row_hashes_are_the_weighted_sums_modulo_2_to_the_64(shape):
    from engine.genomes.uniqueness import _weights

    genomes = np.random.default_rng(shape[0]).integers(0, shape[1], shape)
    weights = [int(w) for w in _weights(shape[1])]
    expected = [
        sum(int(g) * w for g, w in zip(row, weights, strict=True)) % 2**64 for row in genomes
    ]
    assert row_hashes(genomes).tolist() == expected
