"""Crossover operators: textbook examples with pinned random choices, a pure-Python reference
for each permutation operator, and the invariants every operator must keep."""

from __future__ import annotations

import numpy as np
import pytest
from engine_reference import RecordingRng, ScriptedRng, is_permutation_rows
from hypothesis import given, settings
from hypothesis import strategies as st

import engine.operators.crossover as crossover_module
from engine.operators.crossover import (
    CROSSOVERS,
    FREE_CROSSOVERS,
    PERMUTATION_CROSSOVERS,
    CrossoverDraws,
    cut_and_crossfill,
    cycle_crossover,
    one_gene_crossover,
    order_crossover,
    order_crossover_with,
    order_keeping_uniform_crossover,
    partially_mapped_crossover,
    single_point_crossover,
)


def one(genome: list[int]) -> np.ndarray:
    return np.array([genome], dtype=np.int64)


def minus_one(genome: list[int]) -> list[int]:
    """Textbooks count from 1; genes count from 0."""
    return [gene - 1 for gene in genome]


# Eiben & Smith, "Introduction to Evolutionary Computing", the running permutation example.
TEXTBOOK_FIRST = minus_one([1, 2, 3, 4, 5, 6, 7, 8, 9])
TEXTBOOK_SECOND = minus_one([9, 3, 7, 8, 2, 6, 5, 1, 4])


def cross(operator, first, second, rng):
    child_one, child_two = operator(one(first), one(second), rng)
    return child_one[0].tolist(), child_two[0].tolist()


# --- Towards AI's single point crossover, with the article's numbers (1-based rows). ---


@pytest.mark.parametrize(
    ("first", "second", "cut", "children"),
    [
        ([4, 3, 5, 1, 4], [5, 2, 4, 3, 5], 2, ([4, 3, 4, 3, 5], [5, 2, 5, 1, 4])),
        ([4, 3, 5, 1, 4], [2, 1, 3, 2, 4], 3, ([4, 3, 5, 2, 4], [2, 1, 3, 1, 4])),
    ],
)
def test_towards_ai_single_point(first, second, cut, children):
    rng = ScriptedRng(integers=[[cut]])
    got = cross(single_point_crossover, minus_one(first), minus_one(second), rng)
    assert got == (minus_one(children[0]), minus_one(children[1]))
    assert rng.exhausted()


def test_single_point_never_cuts_at_the_ends():
    first, second = np.zeros((400, 5), np.int64), np.ones((400, 5), np.int64)
    child, _ = single_point_crossover(first, second, np.random.default_rng(1))
    heads = (child == 0).sum(axis=1)
    # Every child has a head of 1..4 genes from the first parent, and every cut occurs.
    assert sorted(set(heads.tolist())) == [1, 2, 3, 4]


def test_one_gene_copies_exactly_one_position():
    first, second = [0, 1, 2, 3, 4], [9, 8, 7, 6, 5]
    rng = ScriptedRng(integers=[[3]])
    assert cross(one_gene_crossover, first, second, rng) == (
        [0, 1, 2, 6, 4],
        [9, 8, 7, 3, 5],
    )
    # Seeded, over many couples of all-different parents: exactly one gene comes across.
    many_first = np.arange(40 * 6).reshape(40, 6)
    many_second = many_first + 1000
    child_one, child_two = one_gene_crossover(many_first, many_second, np.random.default_rng(2))
    assert ((child_one != many_first).sum(axis=1) == 1).all()
    assert ((child_two != many_second).sum(axis=1) == 1).all()
    assert np.array_equal(child_one + child_two, many_first + many_second)


# --- Permutation operators on the textbook example. ---


def test_pmx_textbook_example():
    # Segment positions 3..6 (values 4 5 6 7 of the first parent).
    rng = ScriptedRng(integers=[[3], [6]])
    child_one, child_two = cross(partially_mapped_crossover, TEXTBOOK_FIRST, TEXTBOOK_SECOND, rng)
    assert child_one == minus_one([9, 3, 2, 4, 5, 6, 7, 1, 8])
    assert child_two == minus_one([1, 7, 3, 8, 2, 6, 5, 4, 9])


def test_pmx_segment_ends_are_drawn_in_either_order():
    # The segment is [min, max] of two draws: drawing 6 then 3 is the same segment.
    forward = cross(
        partially_mapped_crossover, TEXTBOOK_FIRST, TEXTBOOK_SECOND, ScriptedRng([[3], [6]])
    )
    backward = cross(
        partially_mapped_crossover, TEXTBOOK_FIRST, TEXTBOOK_SECOND, ScriptedRng([[6], [3]])
    )
    assert forward == backward


def test_order_crossover_textbook_example():
    rng = ScriptedRng(integers=[[3], [6]])
    child_one, child_two = cross(order_crossover, TEXTBOOK_FIRST, TEXTBOOK_SECOND, rng)
    # After the segment 4 5 6 7, the second parent read from position 7 (1 4 9 3 7 8 2 6 5)
    # without the segment's genes fills positions 7, 8, 0, 1, 2.
    assert child_one == minus_one([3, 8, 2, 4, 5, 6, 7, 1, 9])
    assert child_two == minus_one([3, 4, 7, 8, 2, 6, 5, 9, 1])


def test_order_crossover_whole_segment_copies_the_parent():
    rng = ScriptedRng(integers=[[0], [8]])
    assert cross(order_crossover, TEXTBOOK_FIRST, TEXTBOOK_SECOND, rng) == (
        TEXTBOOK_FIRST,
        TEXTBOOK_SECOND,
    )


def test_cycle_crossover_textbook_example():
    # The cycles of positions are (0 8 3 7), (1 2 6 4) and (5). The first child takes the
    # first and third from the first parent, the second from the second parent.
    child_one, child_two = cross(cycle_crossover, TEXTBOOK_FIRST, TEXTBOOK_SECOND, None)
    assert child_one == minus_one([1, 3, 7, 4, 2, 6, 5, 8, 9])
    assert child_two == minus_one([9, 2, 3, 8, 5, 6, 7, 1, 4])


def test_cycle_crossover_on_one_long_cycle_copies_the_parents():
    # A single cycle through all positions: the first child is the first parent.
    first = list(range(8))
    second = [1, 2, 3, 4, 5, 6, 7, 0]
    assert cross(cycle_crossover, first, second, None) == (first, second)


def test_cycle_crossover_alternates_many_cycles():
    # Pairs of swapped neighbours: cycles {0,1}, {2,3}, {4,5}, {6,7} alternate parents.
    first = list(range(8))
    second = [1, 0, 3, 2, 5, 4, 7, 6]
    assert cross(cycle_crossover, first, second, None) == (
        [0, 1, 3, 2, 4, 5, 7, 6],
        [1, 0, 2, 3, 5, 4, 6, 7],
    )


def test_cut_and_crossfill():
    # queens_AI: head of one parent, then the other scanned from the cut, wrapping.
    first, second = [0, 1, 2, 3, 4, 5], [5, 3, 1, 4, 0, 2]
    rng = ScriptedRng(integers=[[2]])
    child_one, child_two = cross(cut_and_crossfill, first, second, rng)
    # Head 0 1; second from position 2: 1 4 0 2 5 3 -> without 0, 1: 4 2 5 3.
    assert child_one == [0, 1, 4, 2, 5, 3]
    # Head 5 3; first from position 2: 2 3 4 5 0 1 -> without 5, 3: 2 4 0 1.
    assert child_two == [5, 3, 2, 4, 0, 1]


def test_cut_and_crossfill_at_zero_copies_the_other_parent():
    first, second = [0, 1, 2, 3], [3, 1, 0, 2]
    rng = ScriptedRng(integers=[[0]])
    assert cross(cut_and_crossfill, first, second, rng) == (second, first)


def test_order_keeping_uniform_with_all_coins_on_the_first_parent():
    first, second = [2, 0, 3, 1], [1, 3, 0, 2]
    # random() < 0.5 chooses the first parent: all zeros means every coin says "first".
    rng = ScriptedRng(random=[np.zeros((1, 4))])
    assert cross(order_keeping_uniform_crossover, first, second, rng) == (first, second)


def test_order_keeping_uniform_mixed_coins():
    first, second = [0, 1, 2, 3], [3, 2, 1, 0]
    # Coins: first, second, first, second. Child one: 0 (first), 3 (second), 1 (first's first
    # unused), 2 (second's first unused). Child two takes the opposite coins: 3, 0, 2, 1.
    rng = ScriptedRng(random=[[[0.1, 0.9, 0.2, 0.8]]])
    assert cross(order_keeping_uniform_crossover, first, second, rng) == (
        [0, 3, 1, 2],
        [3, 0, 2, 1],
    )


# --- Pure-Python references, compared with the operators on random couples. ---


def reference_pmx(segment_parent: list[int], other: list[int], low: int, high: int) -> list[int]:
    child = list(other)
    child[low:high] = segment_parent[low:high]
    segment = set(segment_parent[low:high])
    for position in list(range(low)) + list(range(high, len(other))):
        gene = other[position]
        while gene in segment:
            gene = other[segment_parent.index(gene)]
        child[position] = gene
    return child


def reference_ox(keeper: list[int], donor: list[int], low: int, high: int) -> list[int]:
    n = len(keeper)
    child: list[int | None] = [None] * n
    child[low:high] = keeper[low:high]
    fill = [donor[(high + k) % n] for k in range(n)]
    fill = [gene for gene in fill if gene not in keeper[low:high]]
    slots = [(high + k) % n for k in range(n - (high - low))]
    for slot, gene in zip(slots, fill, strict=True):
        child[slot] = gene
    return [int(gene) for gene in child if gene is not None]


def reference_crossfill(head_parent: list[int], tail_parent: list[int], cut: int) -> list[int]:
    n = len(head_parent)
    child = head_parent[:cut]
    for k in range(n):
        gene = tail_parent[(cut + k) % n]
        if gene not in child:
            child.append(gene)
    return child


def reference_cycle(first: list[int], second: list[int]) -> tuple[list[int], list[int]]:
    n = len(first)
    cycle_of = [-1] * n
    cycles = 0
    for start in range(n):
        if cycle_of[start] >= 0:
            continue
        position = start
        while cycle_of[position] < 0:
            cycle_of[position] = cycles
            position = first.index(second[position])
        cycles += 1
    one = [first[j] if cycle_of[j] % 2 == 0 else second[j] for j in range(n)]
    two = [second[j] if cycle_of[j] % 2 == 0 else first[j] for j in range(n)]
    return one, two


def reference_order_keeping(first: list[int], second: list[int], coins: list[bool]) -> list[int]:
    child: list[int] = []
    for from_first in coins:
        parent = first if from_first else second
        child.append(next(gene for gene in parent if gene not in child))
    return child


def random_couples(count: int, n: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    base = np.tile(np.arange(n, dtype=np.int64), (count, 1))
    return rng.permuted(base, axis=1), rng.permuted(base, axis=1)


@pytest.mark.parametrize("n", [1, 2, 5, 9, 16])
def test_pmx_and_ox_match_the_references(n):
    first, second = random_couples(40, n, seed=n)
    for operator, reference in (
        (partially_mapped_crossover, reference_pmx),
        (order_crossover, reference_ox),
    ):
        rng = RecordingRng(seed=n)
        child_one, child_two = operator(first, second, rng)
        ends = rng.drawn("integers")
        low, high = np.minimum(*ends), np.maximum(*ends) + 1
        for k in range(first.shape[0]):
            a, b = first[k].tolist(), second[k].tolist()
            assert child_one[k].tolist() == reference(a, b, low[k], high[k]), operator.__name__
            assert child_two[k].tolist() == reference(b, a, low[k], high[k]), operator.__name__


@pytest.mark.parametrize("n", [512, 700])
def test_long_boards_are_crossed_as_the_flat_pass_crosses_them(n, monkeypatch):
    first, second = random_couples(9, n, seed=n)
    ends = np.array([(0, n), (0, 1), (n - 1, n), (0, n - 1), (1, n)])  # at the edges
    drawn = np.sort(np.random.default_rng(n).integers(0, n, (4, 2)), axis=1)
    drawn[:, 1] += 1
    low, high = np.concatenate([ends, drawn]).T.astype(np.int64)
    draws = CrossoverDraws(low, high, np.zeros((9, 0), dtype=bool))
    long_children = order_crossover_with(first, second, draws)
    monkeypatch.setattr(crossover_module, "LONG_ROWS_FROM", n + 1)
    flat_children = order_crossover_with(first, second, draws)
    for mine, theirs in zip(long_children, flat_children, strict=True):
        np.testing.assert_array_equal(mine, theirs)
    for k in (0, 1, 2, 6):
        a, b = first[k].tolist(), second[k].tolist()
        assert long_children[0][k].tolist() == reference_ox(a, b, low[k], high[k])
        assert long_children[1][k].tolist() == reference_ox(b, a, low[k], high[k])


@pytest.mark.parametrize("n", [1, 2, 5, 9, 33])
def test_cycle_crossover_matches_the_reference(n):
    first, second = random_couples(40, n, seed=10 + n)
    child_one, child_two = cycle_crossover(first, second, np.random.default_rng(0))
    for k in range(first.shape[0]):
        expected = reference_cycle(first[k].tolist(), second[k].tolist())
        assert (child_one[k].tolist(), child_two[k].tolist()) == expected


@pytest.mark.parametrize("n", [1, 2, 5, 9, 16])
def test_cut_and_crossfill_matches_the_reference(n):
    first, second = random_couples(40, n, seed=20 + n)
    rng = RecordingRng(seed=n)
    child_one, child_two = cut_and_crossfill(first, second, rng)
    (cut,) = rng.drawn("integers")
    for k in range(first.shape[0]):
        a, b = first[k].tolist(), second[k].tolist()
        assert child_one[k].tolist() == reference_crossfill(a, b, int(cut[k]))
        assert child_two[k].tolist() == reference_crossfill(b, a, int(cut[k]))


@pytest.mark.parametrize("n", [1, 2, 5, 9, 16])
def test_order_keeping_uniform_matches_the_reference(n):
    first, second = random_couples(40, n, seed=30 + n)
    rng = RecordingRng(seed=n)
    child_one, child_two = order_keeping_uniform_crossover(first, second, rng)
    (draws,) = rng.drawn("random")
    coins = draws < 0.5
    for k in range(first.shape[0]):
        a, b, c = first[k].tolist(), second[k].tolist(), coins[k].tolist()
        assert child_one[k].tolist() == reference_order_keeping(a, b, c)
        assert child_two[k].tolist() == reference_order_keeping(a, b, [not x for x in c])


# --- Invariants, for any population. ---

populations = st.tuples(
    st.integers(min_value=1, max_value=20),
    st.integers(min_value=1, max_value=30),
    st.integers(min_value=0, max_value=2**32 - 1),
)


@settings(max_examples=40, deadline=None)
@given(shape=populations, name=st.sampled_from(sorted(PERMUTATION_CROSSOVERS)))
def test_permutation_crossovers_keep_permutations(shape, name):
    count, n, seed = shape
    first, second = random_couples(count, n, seed)
    first_copy, second_copy = first.copy(), second.copy()
    child_one, child_two = PERMUTATION_CROSSOVERS[name](first, second, np.random.default_rng(seed))
    assert child_one.shape == child_two.shape == (count, n)
    assert is_permutation_rows(child_one)
    assert is_permutation_rows(child_two)
    assert np.array_equal(first, first_copy)
    assert np.array_equal(second, second_copy)


@settings(max_examples=30, deadline=None)
@given(shape=populations, name=st.sampled_from(sorted(FREE_CROSSOVERS)))
def test_free_crossovers_take_each_gene_from_a_parent(shape, name):
    count, n, seed = shape
    rng = np.random.default_rng(seed)
    first = rng.integers(0, n * n, size=(count, n))
    second = rng.integers(0, n * n, size=(count, n))
    first_copy, second_copy = first.copy(), second.copy()
    child_one, child_two = FREE_CROSSOVERS[name](first, second, rng)
    assert child_one.shape == child_two.shape == (count, n)
    # Position by position, the two children hold the two parents' genes, one each.
    kept = (child_one == first) & (child_two == second)
    swapped = (child_one == second) & (child_two == first)
    assert np.all(kept | swapped)
    assert np.array_equal(first, first_copy)
    assert np.array_equal(second, second_copy)


def test_identical_parents_give_identical_children():
    genome = np.array([[3, 1, 4, 0, 2]] * 6, dtype=np.int64)
    for name, operator in CROSSOVERS.items():
        child_one, child_two = operator(genome, genome.copy(), np.random.default_rng(5))
        assert np.array_equal(child_one, genome), name
        assert np.array_equal(child_two, genome), name
