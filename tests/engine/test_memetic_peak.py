"""The memetic preset's generation at large N holds no more copies of the genes than it must.

The survivors are written over the children's rows (engine.large_n.survivor_rows), a few large
boards are told apart without the hashes' weights (engine.genomes.uniqueness.distinct_rows), and the
children
are searched on int16 line counts where they hold them (engine.large_n.memetic_children): the same
populations and statistics, in less memory.
"""

from __future__ import annotations

import tracemalloc
from collections.abc import Callable
from typing import Any, TypeVar

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import engine.large_n.memetic_children as memetic_children
from engine import GeneticAlgorithm
from engine.compiled.cycle_kernel import compiled_cycle_crossover, cycle_crossover_in_place
from engine.config.presets import PRESETS
from engine.genomes.conflicts import count_conflicts
from engine.genomes.encodings import LARGE_BOARD, PERMUTATION
from engine.genomes.uniqueness import (
    CACHED_WEIGHTS_UP_TO,
    WEIGHT_BLOCK,
    distinct_rows,
    hash_weights,
    row_hashes,
    unique_fraction,
    weight_blocks,
)
from engine.large_n.memetic_children import improve_children_compiled
from engine.large_n.survivor_rows import BLOCK_COLUMNS, gathered_over_children
from engine.operators.local_search import LocalSearchSettings
from engine.operators.mutation import MutationSettings
from engine.snapshot import read_only
from engine.solutions.archive import SHARED_ROW_BYTES, SolutionArchive, class_keys, symmetry_images

T = TypeVar("T")


def traced(call: Callable[[], T]) -> tuple[T, int, int]:
    """``call()``'s result, the memory it left allocated and its peak (tracemalloc, bytes)."""
    tracemalloc.start()
    try:
        result = call()
        held, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return result, held, peak


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
    made, _, peak = traced(lambda: algorithm._rows.survivors(parents, children, survivors))
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

    monkeypatch.setattr("engine.genomes.uniqueness._weights", no_weights)
    assert unique_fraction(rows) == 0.75


def _crowded_board(n: int, run: int) -> np.ndarray:
    """A permutation with two diagonals of ``run`` queens each, the other rows shuffled."""
    rows = np.full(n, -1, dtype=np.int64)
    rows[:run] = np.arange(run)  # diagonal 0
    rows[run : 2 * run] = np.arange(2 * run, 3 * run)  # diagonal run
    left = np.setdiff1d(np.arange(n), rows[: 2 * run])
    rows[2 * run :] = np.random.default_rng(run).permutation(left)
    return rows


def _wide_only(monkeypatch: Any) -> None:
    """int32 counts for every board, as before the narrow ones."""
    monkeypatch.setattr(memetic_children, "NARROW_COUNTS", np.int32)
    monkeypatch.setattr(memetic_children, "MOST_NARROW", memetic_children.NO_LIMIT)
    monkeypatch.setattr(memetic_children, "MOST_NARROW_PAIRS", memetic_children.NO_LIMIT)


@pytest.mark.parametrize(
    ("n", "run"),
    [
        (100_000, 33_000),  # a line over what int16 holds
        (100_000, 31_000),  # lines that fit, and more pairs than the bound
        (3_000, 1_000),  # narrow throughout
    ],
)
def test_children_too_crowded_for_narrow_counts_are_searched_the_same(
    n: int, run: int, monkeypatch: Any
) -> None:
    board = _crowded_board(n, run)
    children = np.stack([board, np.random.default_rng(n).permutation(n)]).astype(np.int32)
    mutation = MutationSettings(1.0, n, PERMUTATION, 0.0, 8)
    search = LocalSearchSettings(300, 16)
    made, made_rng = children.copy(), np.random.default_rng(7)
    conflicts = improve_children_compiled(made, made_rng, mutation, search)
    _wide_only(monkeypatch)
    wide, wide_rng = children.copy(), np.random.default_rng(7)
    wide_conflicts = improve_children_compiled(wide, wide_rng, mutation, search)
    assert np.array_equal(made, wide)
    assert np.array_equal(conflicts, wide_conflicts)
    assert np.array_equal(conflicts, count_conflicts(made, n, PERMUTATION))
    assert made_rng.bit_generator.state == wide_rng.bit_generator.state


def test_narrow_counts_hold_a_board_of_long_lines_in_int32(monkeypatch: Any) -> None:
    board = np.arange(40_000, dtype=np.int32)  # every queen on one diagonal
    lines = memetic_children.LineCounts(board.shape[0])
    assert lines.narrow[0].dtype == np.int16
    assert lines.conflicts(board) == 40_000 * 39_999 // 2
    assert lines.wide[0].dtype == np.int32


def test_a_memetic_runs_line_counts_take_8_bytes_a_queen() -> None:
    n = 1 << 20
    lines = memetic_children.LineCounts(n)
    assert sum(counts.nbytes for counts in lines.narrow) <= 8 * n


def test_large_boards_hash_weights_are_let_go_after_their_solutions_are_recorded() -> None:
    n = CACHED_WEIGHTS_UP_TO + 5
    boards = np.stack([np.random.default_rng(row).permutation(n) for row in range(3)])
    narrow = boards.astype(np.int32)
    archive = SolutionArchive(n)
    added, held, _ = traced(lambda: archive.record(narrow, rows=np.array([2, 0])))
    assert added == 2
    assert np.array_equal(archive.boards, narrow[[2, 0]])
    expected = class_keys(boards)  # with weights drawn afresh: the same keys
    assert archive.fundamental_count == len(set(expected[[2, 0]].tolist()))
    # The archive's buffer (room for 4 boards), not the weights (8 bytes a gene) besides.
    assert held < 4 * narrow[0].nbytes + n
    assert np.array_equal(row_hashes(narrow, hash_weights(n)), row_hashes(boards))


def test_large_boards_weights_drawn_block_by_block_are_the_weights_drawn_at_once() -> None:
    n = CACHED_WEIGHTS_UP_TO + 5
    blocks = list(weight_blocks(n))
    assert len(blocks) > 1 and max(block.shape[0] for _, block in blocks) == WEIGHT_BLOCK
    assert np.array_equal(np.concatenate([block for _, block in blocks]), hash_weights(n))
    assert [start for start, _ in blocks] == list(range(0, n, WEIGHT_BLOCK))


def test_large_boards_class_keys_from_weight_blocks_are_the_smallest_image_hash() -> None:
    n = CACHED_WEIGHTS_UP_TO + 5
    board = np.random.default_rng(3).permutation(n).astype(np.int32)[None, :]
    images = symmetry_images(board.astype(np.int64)).reshape(8, n)
    assert class_keys(board)[0] == row_hashes(images, hash_weights(n)).min()


def test_solutions_of_a_published_population_are_kept_where_they_are() -> None:
    n = CACHED_WEIGHTS_UP_TO + 5  # weights drawn, not cached: what the archive holds is its own
    assert 4 * n >= SHARED_ROW_BYTES
    population = np.stack([np.random.default_rng(row).permutation(n) for row in range(4)])
    population = read_only(population.astype(np.int32))
    archive = SolutionArchive(n)
    added, held, peak = traced(lambda: archive.record(population, rows=np.array([1, 3])))
    assert added == 2
    assert np.shares_memory(archive.boards, population)
    assert np.array_equal(archive.boards, population[[1, 3]])
    # Neither a copy of the two solutions (8 bytes a queen) nor the weights (8 more) besides:
    # the one board's inverse (4) at most, while its class key is summed.
    assert held < n and peak < 6 * n
    # A later solution moves them into the archive's own buffer, unchanged.
    assert archive.record(population, rows=np.array([0])) == 1
    assert not np.shares_memory(archive.boards, population)
    assert np.array_equal(archive.boards, population[[1, 3, 0]])


def test_solutions_of_rows_that_may_change_are_copied() -> None:
    n = SHARED_ROW_BYTES // 4 + 3
    population = np.stack([np.random.default_rng(row).permutation(n) for row in range(3)])
    writable = population.astype(np.int32)
    archive = SolutionArchive(n)
    assert archive.record(writable, rows=np.array([0, 2])) == 2
    assert not np.shares_memory(archive.boards, writable)
    scattered = read_only(writable.copy())
    other = SolutionArchive(n)
    assert other.record(scattered, rows=np.array([2, 0])) == 2  # not in order: not one slice
    assert not np.shares_memory(other.boards, scattered)
    assert np.array_equal(other.boards, scattered[[2, 0]])


@settings(max_examples=80, deadline=None)
@given(
    couples=st.integers(1, 4),
    n=st.integers(1, 300),
    same=st.booleans(),
    seed=st.integers(0, 2**32 - 1),
    narrow=st.booleans(),
)
def test_couples_crossed_in_place_are_the_compiled_cycle_children(
    couples: int, n: int, same: bool, seed: int, narrow: bool
) -> None:
    rng = np.random.default_rng(seed)
    first = PERMUTATION.random_population(couples, n, rng)
    second = first.copy() if same else PERMUTATION.random_population(couples, n, rng)
    if narrow:
        first, second = first.astype(np.int32), second.astype(np.int32)
    crossing = np.flatnonzero(rng.random(couples) < 0.7)
    one, two = compiled_cycle_crossover(first[crossing], second[crossing])
    together = np.stack([first, second], axis=1)
    cycle_crossover_in_place(together, crossing)
    assert np.array_equal(together[crossing, 0], one)
    assert np.array_equal(together[crossing, 1], two)
    kept = np.setdiff1d(np.arange(couples), crossing)
    assert np.array_equal(together[kept, 0], first[kept])
    assert np.array_equal(together[kept, 1], second[kept])


def test_a_large_couple_crosses_in_place_in_5_bytes_a_position() -> None:
    n = 4 * LARGE_BOARD
    rng = np.random.default_rng(2)
    together = np.stack([rng.permutation(n), rng.permutation(n)]).astype(np.int32)[None]
    _, _, peak = traced(lambda: cycle_crossover_in_place(together, np.array([0])))
    assert peak <= 5 * n + 2**12  # copies in and out were 4 x 4 bytes a position, besides


def _lineages(config: Any) -> list[Any]:
    algorithm = GeneticAlgorithm(config)
    return [(snapshot.population, snapshot.lineage) for snapshot in algorithm.step_many(3)]


def test_children_crossed_in_place_have_the_lineage_of_kept_copies(monkeypatch: Any) -> None:
    n = LARGE_BOARD + 7
    config = PRESETS["memetic"].config(n, seed=0, stop_when_solved=False, generations=3)
    config = config.replace(crossover_rate=1.0)
    in_place = _lineages(config)
    assert all(lineage.births.crossed_in_place for _, lineage in in_place)
    monkeypatch.setattr("engine.algorithm.COMPILED_CYCLE_FROM", 2**40)
    kept = _lineages(config)
    assert not any(lineage.births.crossed_in_place for _, lineage in kept)
    for (population, replayed), (kept_population, copied) in zip(in_place, kept, strict=True):
        assert np.array_equal(population, kept_population)
        assert np.array_equal(replayed.unmutated, copied.unmutated)
        assert np.array_equal(replayed.flags, copied.flags)
        made, noted = replayed.made_by_crossover, copied.made_by_crossover
        assert len(made) == len(noted) == 2
        assert all(np.array_equal(a, b) for a, b in zip(made, noted, strict=True))
