"""The memetic preset's generation at large N holds no more copies of the genes than it must.

The survivors are written over the children's rows (engine.survivor_rows), and a few large
boards are told apart without the hashes' weights (engine.uniqueness.distinct_rows): the same
populations and statistics, in less memory.
"""

from __future__ import annotations

import tracemalloc
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import GeneticAlgorithm
from engine.algorithm import LARGE_BOARD
from engine.presets import PRESETS
from engine.survivor_rows import BLOCK_COLUMNS, gathered_over_children
from engine.uniqueness import distinct_rows, row_hashes, unique_fraction


@settings(max_examples=80, deadline=None)
@given(
    parents=st.integers(1, 6),
    children=st.integers(1, 6),
    n=st.sampled_from([1, 7, BLOCK_COLUMNS - 1, BLOCK_COLUMNS + 5]),
    seed=st.integers(0, 2**32 - 1),
)
def test_survivors_written_over_the_children_are_the_gathered_rows(
    parents: int, children: int, n: int, seed: int
) -> None:
    rng = np.random.default_rng(seed)
    older = rng.integers(0, 1000, size=(parents, n)).astype(np.int32)
    younger = rng.integers(0, 1000, size=(children, n)).astype(np.int32)
    # Any rows, in any order, each at most once (a survivor selection never repeats one).
    survivors = rng.permutation(parents + children)[:children].astype(np.int64)
    expected = np.concatenate([older, younger]).take(survivors, axis=0)
    kept = older.copy()
    made = gathered_over_children(older, younger, survivors)
    assert np.shares_memory(made, younger)
    assert np.array_equal(made, expected)
    assert np.array_equal(older, kept)  # the parents are only read


def test_more_survivors_than_children_rows_are_refused() -> None:
    rows = np.zeros((2, 5), dtype=np.int32)
    with pytest.raises(ValueError, match="3 survivors do not fit in 2 children's rows"):
        gathered_over_children(rows, rows.copy(), np.arange(3))


def test_a_large_boards_survivors_take_no_third_population() -> None:
    n = 16 * LARGE_BOARD + 3
    algorithm = GeneticAlgorithm(PRESETS["memetic"].config(n, seed=0))
    rng = np.random.default_rng(1)
    parents = np.stack([rng.permutation(n) for _ in range(4)]).astype(np.int32)
    children = np.stack([rng.permutation(n) for _ in range(4)]).astype(np.int32)
    survivors = np.array([5, 0, 7, 2])
    expected = np.concatenate([parents, children]).take(survivors, axis=0)
    tracemalloc.start()
    try:
        made = algorithm._survivors(parents, children, survivors)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert np.array_equal(made, expected)
    assert peak < parents.nbytes / 8  # a new array of the survivors was parents.nbytes


@settings(max_examples=60, deadline=None)
@given(
    size=st.integers(1, 16),
    n=st.integers(1, 3 * 2**16),
    copies=st.integers(0, 16),
    seed=st.integers(0, 2**32 - 1),
)
def test_compared_rows_count_what_the_hashes_count(
    size: int, n: int, copies: int, seed: int
) -> None:
    rng = np.random.default_rng(seed)
    rows = rng.integers(0, n, size=(size, n))
    for row in range(1, min(copies, size)):
        rows[row] = rows[rng.integers(0, row)]
        if rng.random() < 0.5:  # one gene changed, anywhere, perhaps in the last block
            rows[row, rng.integers(0, n)] += 1
    hashes = np.sort(row_hashes(rows))
    assert distinct_rows(rows) == 1 + int(np.count_nonzero(hashes[1:] != hashes[:-1]))


def test_a_few_large_boards_are_told_apart_without_the_hash_weights(monkeypatch: Any) -> None:
    rng = np.random.default_rng(3)
    rows = np.stack([rng.permutation(1 << 20) for _ in range(3)]).astype(np.int32)
    rows = np.concatenate([rows, rows[1:2]])

    def no_weights(n: int) -> None:
        raise AssertionError(f"the hash weights of {n} genes were drawn")

    monkeypatch.setattr("engine.uniqueness._weights", no_weights)
    assert unique_fraction(rows) == 0.75
