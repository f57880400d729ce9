"""Mutation operators: pinned hand cases, the exact conflict-directed move, and invariants."""

from __future__ import annotations

import numpy as np
import pytest
from engine_reference import (
    RecordingRng,
    ScriptedRng,
    brute_attacked,
    brute_conflicts,
    is_permutation_rows,
    squares_of,
)
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.genomes.conflicts import board_lines, count_conflicts
from engine.genomes.encodings import ENCODINGS, INTEGER, PERMUTATION, SQUARES, Encoding
from engine.operators.mutation import (
    FREE_MUTATIONS,
    MUTATIONS,
    PERMUTATION_MUTATIONS,
    MutationSettings,
    _conflict_change,
    conflict_mutation,
    conflict_mutation_counted,
    inversion_mutation,
    random_reset_mutation,
    reset_one_mutation,
    scramble_mutation,
    shuffle_indexes_mutation,
    swap_gene_mutation,
    swap_mutation,
)


def make_settings(
    n: int,
    rate: float = 1.0,
    encoding: Encoding = PERMUTATION,
    gene_rate: float = 0.5,
    candidates: int = 4,
) -> MutationSettings:
    return MutationSettings(
        rate=rate, n=n, encoding=encoding, gene_rate=gene_rate, candidates=candidates
    )


def one(genome: list[int]) -> np.ndarray:
    return np.array([genome], dtype=np.int64)


# --- Hand cases with pinned random choices. ---


def test_swap_mutation_swaps_the_two_drawn_positions():
    rng = ScriptedRng(random=[[0.0]], integers=[[1], [3]])
    child = swap_mutation(one([0, 1, 2, 3, 4]), rng, make_settings(5, rate=0.5))
    assert child.tolist() == [[0, 3, 2, 1, 4]]
    assert rng.exhausted()


def test_swap_mutation_leaves_an_unchosen_child_alone():
    rng = ScriptedRng(random=[[0.7]], integers=[[1], [3]])
    child = swap_mutation(one([0, 1, 2, 3, 4]), rng, make_settings(5, rate=0.5))
    assert child.tolist() == [[0, 1, 2, 3, 4]]


def test_inversion_reverses_the_segment():
    rng = ScriptedRng(random=[[0.0]], integers=[[[4, 1]]])
    child = inversion_mutation(one([0, 1, 2, 3, 4, 5]), rng, make_settings(6, rate=0.5))
    assert child.tolist() == [[0, 4, 3, 2, 1, 5]]


def test_scramble_reorders_only_the_segment():
    # Segment [1, 3]; sort keys 1 + r * 3 for r = 0.9, 0.1, 0.5 order positions 2, 3, 1.
    rng = ScriptedRng(
        random=[[0.0], [[0.0, 0.9, 0.1, 0.5, 0.0, 0.0]]],
        integers=[[[1, 3]]],
    )
    child = scramble_mutation(one([0, 1, 2, 3, 4, 5]), rng, make_settings(6, rate=0.5))
    assert child.tolist() == [[0, 2, 3, 1, 4, 5]]


def test_swap_gene_swaps_marked_genes_left_to_right():
    # Genes 0 and 2 are marked. Partner draws 0 and 1 skip the gene itself: 0 -> 1, 2 -> 1.
    # In gene order: swap(0, 1) gives 1 0 2 3, then swap(2, 1) gives 1 2 0 3.
    rng = ScriptedRng(random=[[[0.0, 0.9, 0.0, 0.9]]], integers=[[[0, 0, 1, 0]]])
    child = swap_gene_mutation(one([0, 1, 2, 3]), rng, make_settings(4, rate=0.5))
    assert child.tolist() == [[1, 2, 0, 3]]


def test_swap_gene_partner_is_never_the_gene_itself():
    # A draw of k >= position means position k + 1: gene 1 with draw 1 swaps with gene 2.
    rng = ScriptedRng(random=[[[0.9, 0.0, 0.9, 0.9]]], integers=[[[0, 1, 0, 0]]])
    child = swap_gene_mutation(one([0, 1, 2, 3]), rng, make_settings(4, rate=0.5))
    assert child.tolist() == [[0, 2, 1, 3]]


def test_shuffle_indexes_needs_the_child_chosen_and_the_gene_drawn():
    genomes = np.array([[0, 1, 2, 3], [0, 1, 2, 3]])
    # Child 0 is chosen, child 1 is not; both have gene 0 drawn. Partner draw 2 -> gene 3.
    rng = ScriptedRng(
        random=[[0.1, 0.9], [[0.0, 0.9, 0.9, 0.9], [0.0, 0.9, 0.9, 0.9]]],
        integers=[[[2, 0, 0, 0], [2, 0, 0, 0]]],
    )
    child = shuffle_indexes_mutation(genomes, rng, make_settings(4, rate=0.5, gene_rate=0.5))
    assert child.tolist() == [[3, 1, 2, 0], [0, 1, 2, 3]]


def test_random_reset_replaces_the_drawn_genes():
    rng = ScriptedRng(random=[[[0.0, 0.9, 0.0]]], integers=[[[8, 7, 6]]])
    child = random_reset_mutation(one([1, 2, 3]), rng, make_settings(3, 0.5, SQUARES))
    assert child.tolist() == [[8, 2, 6]]


def test_random_reset_draws_from_the_encodings_range():
    genomes = np.zeros((200, 5), dtype=np.int64)
    for encoding in (INTEGER, SQUARES):
        child = random_reset_mutation(
            genomes, np.random.default_rng(3), make_settings(5, 1.0, encoding)
        )
        assert child.max() == encoding.gene_values(5) - 1
        assert child.min() == 0


@pytest.mark.parametrize("name", sorted(MUTATIONS))
def test_rate_zero_changes_nothing(name):
    encoding = INTEGER if name in FREE_MUTATIONS else PERMUTATION
    genomes = encoding.random_population(30, 8, np.random.default_rng(4))
    child = MUTATIONS[name](
        genomes, np.random.default_rng(5), make_settings(8, 0.0, encoding, gene_rate=1.0)
    )
    assert np.array_equal(child, genomes)


@pytest.mark.parametrize("name", sorted(MUTATIONS))
def test_rate_one_changes_some_children(name):
    encoding = INTEGER if name in FREE_MUTATIONS else PERMUTATION
    genomes = encoding.random_population(30, 8, np.random.default_rng(4))
    child = MUTATIONS[name](
        genomes, np.random.default_rng(5), make_settings(8, 1.0, encoding, gene_rate=0.5)
    )
    assert (child != genomes).any(axis=1).sum() >= 15


# --- The conflict-directed mutation's exact bookkeeping. ---


def recount(genome: np.ndarray, encoding: Encoding, n: int) -> int:
    return brute_conflicts(squares_of(genome.tolist(), encoding, n))


@pytest.mark.parametrize("encoding", list(ENCODINGS.values()), ids=list(ENCODINGS))
@pytest.mark.parametrize("n", [2, 4, 5, 7])
def test_conflict_change_of_one_move_matches_a_recount(encoding, n):
    rng = np.random.default_rng(n)
    count, tries = 30, 6
    genomes = encoding.random_population(count, n, rng)
    if encoding is SQUARES:
        genomes[::2, 0] = genomes[::2, 1]
    lines = board_lines(genomes, n, encoding)
    rows, columns = encoding.decode(genomes, n)
    queen = rng.integers(0, n, size=count)
    at = np.arange(count)
    shape = (count, tries)
    old_rows = np.broadcast_to(rows[at, queen][:, None], shape)
    old_columns = np.broadcast_to(columns[at, queen][:, None], shape)
    if encoding.is_permutation:
        # Swap the queen's row with another column's (or its own: a no-op must count 0).
        partner = rng.integers(0, n, size=shape)
        partner_rows = np.take_along_axis(genomes, partner, axis=1)
        moved = (
            (old_rows, old_columns, partner_rows, old_columns),
            (partner_rows, partner, old_rows, partner),
        )
    else:
        # Any new gene, the current one included.
        gene = rng.integers(0, encoding.gene_values(n), size=shape)
        if encoding is SQUARES:
            moved = ((old_rows, old_columns, gene // n, gene % n),)
        else:
            moved = ((old_rows, old_columns, gene, old_columns),)
    change = _conflict_change(lines, moved, n, encoding)
    before = count_conflicts(genomes, n, encoding)
    for k in range(count):
        for t in range(tries):
            child = genomes[k].copy()
            if encoding.is_permutation:
                q, p = queen[k], partner[k, t]
                child[q], child[p] = child[p], child[q]
            else:
                child[queen[k]] = gene[k, t]
            assert change[k, t] == recount(child, encoding, n) - before[k], (k, t)


@pytest.mark.parametrize("n", [2, 3, 5])
def test_conflict_change_of_two_free_moves_matches_a_recount(n):
    # Two queens moving at once anywhere, onto each other's squares or the same square.
    rng = np.random.default_rng(40 + n)
    count, tries = 40, 5
    genomes = SQUARES.random_population(count, n, rng)
    lines = board_lines(genomes, n, SQUARES)
    rows, columns = SQUARES.decode(genomes, n)
    at = np.arange(count)
    first = rng.integers(0, n, size=count)
    second = (first + rng.integers(1, n, size=count)) % n
    targets = rng.integers(0, n * n, size=(2, count, tries))
    targets[1, ::3] = targets[0, ::3]
    shape = (count, tries)
    moved = tuple(
        (
            np.broadcast_to(rows[at, which][:, None], shape),
            np.broadcast_to(columns[at, which][:, None], shape),
            target // n,
            target % n,
        )
        for which, target in ((first, targets[0]), (second, targets[1]))
    )
    change = _conflict_change(lines, moved, n, SQUARES)
    before = count_conflicts(genomes, n, SQUARES)
    for k in range(count):
        for t in range(tries):
            child = genomes[k].copy()
            child[first[k]], child[second[k]] = targets[0, k, t], targets[1, k, t]
            assert change[k, t] == recount(child, SQUARES, n) - before[k], (k, t)


@pytest.mark.parametrize("encoding", list(ENCODINGS.values()), ids=list(ENCODINGS))
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_conflict_mutation_makes_the_best_candidate_move(encoding, seed):
    """Each chosen child moves an attacked queen to the best of the candidates it drew.

    The candidates are read back from a recording generator, in the order the operator draws
    them: the chosen coins, one draw per child that picks among its attacked queens (the
    ``r``-th attacked queen in column order, for ``r = floor(draw * attacked count)``), then
    the candidate moves.
    """
    n, count, candidates = 6, 40, 5
    genomes = encoding.random_population(count, n, np.random.default_rng(100 + seed))
    rng = RecordingRng(seed)
    settings_ = make_settings(n, 0.7, encoding, candidates=candidates)
    result = conflict_mutation(genomes, rng, settings_)
    chosen_draw, queen_draw = rng.drawn("random")
    (draws,) = rng.drawn("integers")
    chosen = chosen_draw < 0.7
    assert 0 < chosen.sum() < count
    for k in range(count):
        if not chosen[k]:
            assert np.array_equal(result[k], genomes[k])
            continue
        attacked = np.array(brute_attacked(squares_of(genomes[k].tolist(), encoding, n)))
        under_attack = np.flatnonzero(attacked)
        if under_attack.size:
            queen = int(under_attack[int(queen_draw[k] * under_attack.size)])
        else:
            queen = int(queen_draw[k] * n)
        assert attacked[queen] or not attacked.any()
        options = []
        for draw in draws[k]:
            child = genomes[k].copy()
            if encoding.is_permutation:
                partner = draw + (draw >= queen)
                child[queen], child[partner] = child[partner], child[queen]
            else:
                child[queen] = draw + (draw >= genomes[k, queen])
            options.append(child)
        scores = [recount(option, encoding, n) for option in options]
        # argmin: the first of the best candidates, even when it is worse than no move.
        assert result[k].tolist() == options[int(np.argmin(scores))].tolist()
        assert not np.array_equal(result[k], genomes[k])


@pytest.mark.parametrize("encoding", list(ENCODINGS.values()), ids=list(ENCODINGS))
@pytest.mark.parametrize(("count", "n"), [(40, 6), (7, 13), (3, 1), (0, 5)])
def test_counted_conflict_mutation_hands_over_exact_line_counts(encoding, count, n):
    genomes = encoding.random_population(count, n, np.random.default_rng(n))
    settings_ = make_settings(n, 0.6, encoding, candidates=3)
    result, lines = conflict_mutation_counted(genomes, np.random.default_rng(1), settings_)
    plain = conflict_mutation(genomes, np.random.default_rng(1), settings_)
    assert np.array_equal(result, plain)
    fresh = board_lines(result, n, encoding)
    assert lines.sizes == fresh.sizes
    for kind in range(len(fresh.sizes)):
        assert np.array_equal(lines.cells[kind], fresh.cells[kind])
        assert np.array_equal(lines.occupancy[kind], fresh.occupancy[kind])
    assert np.array_equal(lines.conflicts, fresh.conflicts)
    assert np.array_equal(lines.attacked(), fresh.attacked())


def test_reset_one_sets_one_gene_of_a_chosen_child():
    rng = ScriptedRng(random=[[0.0, 0.9]], integers=[[2, 1], [7, 5]])
    genomes = np.array([[1, 2, 3], [4, 5, 6]])
    child = reset_one_mutation(genomes, rng, make_settings(3, 0.5, SQUARES))
    assert child.tolist() == [[1, 2, 7], [4, 5, 6]]


def test_conflict_mutation_never_worse_than_its_first_candidate_alone():
    # More candidates can only help: per child, the best of 8 beats or ties the best of 1
    # drawn first. Compared on the mean over many children of an unsolved population.
    n = 10
    genomes = PERMUTATION.random_population(300, n, np.random.default_rng(9))
    before = count_conflicts(genomes, n, PERMUTATION)
    assert (before > 0).all()
    means = []
    for candidates in (1, 8):
        result = conflict_mutation(
            genomes, np.random.default_rng(10), make_settings(n, 1.0, candidates=candidates)
        )
        assert is_permutation_rows(result)
        means.append(count_conflicts(result, n, PERMUTATION).mean())
    assert means[1] < means[0]
    assert means[1] < before.mean()


# --- Invariants, for any population. ---

populations = st.tuples(
    st.integers(min_value=1, max_value=20),
    st.integers(min_value=1, max_value=30),
    st.integers(min_value=0, max_value=2**32 - 1),
)
rates = st.floats(min_value=0.0, max_value=1.0)


@settings(max_examples=50, deadline=None)
@given(
    shape=populations,
    name=st.sampled_from(sorted([*PERMUTATION_MUTATIONS, "conflict"])),
    rate=rates,
    gene_rate=rates,
    candidates=st.integers(min_value=1, max_value=6),
)
def test_permutation_mutations_keep_permutations(shape, name, rate, gene_rate, candidates):
    count, n, seed = shape
    genomes = PERMUTATION.random_population(count, n, np.random.default_rng(seed))
    original = genomes.copy()
    child = MUTATIONS[name](
        genomes,
        np.random.default_rng(seed + 1),
        make_settings(n, rate, PERMUTATION, gene_rate, candidates),
    )
    assert child.shape == genomes.shape
    assert is_permutation_rows(child)
    assert np.array_equal(genomes, original)


@settings(max_examples=40, deadline=None)
@given(
    shape=populations,
    name=st.sampled_from(sorted(MUTATIONS)),
    encoding=st.sampled_from([INTEGER, SQUARES]),
    rate=rates,
)
def test_mutations_keep_genes_in_range_on_free_encodings(shape, name, encoding, rate):
    count, n, seed = shape
    genomes = encoding.random_population(count, n, np.random.default_rng(seed))
    original = genomes.copy()
    child = MUTATIONS[name](
        genomes, np.random.default_rng(seed + 1), make_settings(n, rate, encoding, 0.5, 3)
    )
    assert child.shape == genomes.shape
    assert child.min(initial=0) >= 0
    assert child.max(initial=0) < encoding.gene_values(n)
    assert np.array_equal(genomes, original)
