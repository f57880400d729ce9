"""The memetic preset at large N: the same run in less memory and time.

The compiled column entropy is numpy's float, bit for bit; a memetic run's statistics are
those of its populations; the solution archive's class keys are tested in test_solutions.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import GeneticAlgorithm
from engine.diversity import column_entropy
from engine.encodings import ENCODINGS, PERMUTATION
from engine.entropy_kernel import MOST_INDIVIDUALS, compiled_column_entropy
from engine.presets import PRESETS


def near_copies(size: int, n: int, copies: int, seed: int) -> np.ndarray:
    """Random permutations, the first ``copies`` rows a few swaps away from row 0."""
    rng = np.random.default_rng(seed)
    rows = np.stack([rng.permutation(n) for _ in range(size)])
    for row in range(1, min(copies, size)):
        rows[row] = rows[0]
        swapped = rng.integers(0, n, 6)
        rows[row, swapped] = rows[row, swapped[::-1]]
    return rows


@settings(max_examples=80, deadline=None)
@given(
    size=st.integers(2, 12),
    n=st.integers(2, 3000),
    copies=st.integers(0, 12),
    seed=st.integers(0, 2**32 - 1),
    narrow=st.booleans(),
)
def test_the_compiled_entropy_is_numpys_float(
    size: int, n: int, copies: int, seed: int, narrow: bool
) -> None:
    rows = near_copies(size, n, copies, seed)
    expected = column_entropy(rows, n, PERMUTATION)
    if narrow:
        rows = rows.astype(np.int32)
    assert compiled_column_entropy(rows, n, PERMUTATION) == expected


@pytest.mark.parametrize(("size", "n"), [(4, 100_003), (4, 1_000_000), (3, 262_147)])
def test_the_compiled_entropy_is_numpys_float_on_large_boards(size: int, n: int) -> None:
    # Hundreds of thousands of terms: many levels of numpy's pairwise halving.
    rows = near_copies(size, n, 3, n)
    assert compiled_column_entropy(rows, n, PERMUTATION) == column_entropy(rows, n, PERMUTATION)


@pytest.mark.parametrize(
    ("size", "n", "encoding"),
    [(MOST_INDIVIDUALS + 1, 5000, "permutation"), (40, 8, "permutation"), (4, 64, "squares")],
)
def test_other_shapes_take_numpys_entropy(size: int, n: int, encoding: str) -> None:
    rng = np.random.default_rng(size)
    rows = ENCODINGS[encoding].random_population(size, n, rng)
    expected = column_entropy(rows, n, ENCODINGS[encoding])
    assert compiled_column_entropy(rows, n, ENCODINGS[encoding]) == expected


def test_a_memetic_runs_history_holds_its_populations_entropy() -> None:
    config = PRESETS["memetic"].config(3000, seed=4, stop_when_solved=False, generations=4)
    algorithm = GeneticAlgorithm(config)
    snapshots = [algorithm.snapshot, *algorithm.step_many(10)]
    for snapshot in snapshots:
        expected = column_entropy(snapshot.population, config.n, PERMUTATION)
        assert snapshot.stats.entropy == expected
