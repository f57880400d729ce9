"""Memetic mode: the local search, the greedy start, their config fields and the preset."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest
from engine_reference import brute_conflicts, is_permutation_rows, squares_of
from hypothesis import given, settings
from hypothesis import strategies as st
from memetic_reference import below, greedy_permutation, min_conflicts, next_random

from engine import Config, ConfigError, GeneticAlgorithm
from engine.config.presets import PRESETS
from engine.genomes.conflicts import board_lines, count_conflicts, swap_change
from engine.genomes.encodings import PERMUTATION
from engine.operators.greedy_start import TRIES, greedy_population, random_keys
from engine.operators.local_search import STALL_PASSES, Improved, LocalSearchSettings, local_search
from engine.operators.mutation import MutationSettings, _conflict_change, conflict_mutation_counted


def random_permutations(count: int, n: int, seed: int) -> np.ndarray:
    return PERMUTATION.random_population(count, n, np.random.default_rng(seed))


def assert_counts_match_a_recount(improved: Improved, n: int) -> None:
    fresh = board_lines(improved.genomes, n, PERMUTATION)
    for tracked, counted in zip(improved.lines.occupancy, fresh.occupancy, strict=True):
        assert np.array_equal(tracked, counted)
    for tracked, counted in zip(improved.lines.cells, fresh.cells, strict=True):
        assert np.array_equal(tracked, counted)
    assert np.array_equal(improved.conflicts, fresh.conflicts)
    assert np.array_equal(improved.lines.conflicts, fresh.conflicts)


@settings(max_examples=60, deadline=None)
@given(
    count=st.integers(1, 5),
    n=st.integers(4, 40),
    moves=st.integers(0, 60),
    candidates=st.integers(1, 8),
    seed=st.integers(0, 2**32 - 1),
)
def test_local_search_keeps_permutations_and_exact_counts(
    count: int, n: int, moves: int, candidates: int, seed: int
) -> None:
    genomes = random_permutations(count, n, seed)
    before = genomes.copy()
    improved = local_search(
        genomes, np.random.default_rng(seed), LocalSearchSettings(moves, candidates)
    )
    assert np.array_equal(genomes, before), "the input must not be modified"
    assert is_permutation_rows(improved.genomes)
    assert_counts_match_a_recount(improved, n)
    # Only improving swaps are made, within the budget.
    assert (improved.conflicts <= count_conflicts(before, n, PERMUTATION)).all()
    assert (improved.moves <= moves).all()
    # A child that made swaps ended strictly better, by at least one pair per swap.
    gained = count_conflicts(before, n, PERMUTATION) - improved.conflicts
    assert (gained >= improved.moves).all()


@settings(max_examples=30, deadline=None)
@given(n=st.integers(4, 30), seed=st.integers(0, 2**32 - 1))
def test_counts_handed_over_by_the_conflict_mutation_stay_exact(n: int, seed: int) -> None:
    rng = np.random.default_rng(seed)
    genomes = random_permutations(4, n, seed)
    mutation = MutationSettings(rate=1.0, n=n, encoding=PERMUTATION, gene_rate=0.1, candidates=4)
    children, lines = conflict_mutation_counted(genomes, rng, mutation)
    improved = local_search(children, rng, LocalSearchSettings(n, 8), lines)
    assert_counts_match_a_recount(improved, n)
    for genome, conflicts in zip(improved.genomes, improved.conflicts, strict=True):
        assert brute_conflicts(squares_of(genome, PERMUTATION, n)) == conflicts


@settings(max_examples=60, deadline=None)
@given(n=st.integers(2, 30), seed=st.integers(0, 2**32 - 1))
def test_the_swap_formula_equals_the_generic_move_change_and_a_recount(n: int, seed: int) -> None:
    rng = np.random.default_rng(seed)
    genomes = random_permutations(3, n, seed)
    lines = board_lines(genomes, n, PERMUTATION)
    individual = np.arange(3)[:, None]
    i = rng.integers(0, n, (3, 1))
    j = (i + 1 + rng.integers(0, n - 1, (3, 5))) % n
    a, b = genomes[individual, i], genomes[individual, j]
    change = swap_change(lines, individual, i, np.broadcast_to(a, j.shape), j, b)
    column = np.broadcast_to(i, j.shape)
    moved = (
        (np.broadcast_to(a, j.shape), column, b, column),
        (b, j, np.broadcast_to(a, j.shape), j),
    )
    assert np.array_equal(change, _conflict_change(lines, moved, n, PERMUTATION))
    before = count_conflicts(genomes, n, PERMUTATION)
    for k in range(3):
        for c in range(5):
            swapped = genomes[k].copy()
            swapped[[i[k, 0], j[k, c]]] = swapped[[j[k, c], i[k, 0]]]
            after = count_conflicts(swapped[None, :], n, PERMUTATION)[0]
            assert change[k, c] == after - before[k]


def test_a_budget_of_one_swap_makes_at_most_one_per_child() -> None:
    genomes = random_permutations(6, 60, 3)
    improved = local_search(genomes, np.random.default_rng(3), LocalSearchSettings(1, 16))
    assert improved.moves.max() == 1
    assert (count_conflicts(genomes, 60, PERMUTATION) - improved.conflicts >= 1).all()


def test_a_zero_budget_changes_nothing() -> None:
    genomes = random_permutations(3, 20, 5)
    improved = local_search(genomes, np.random.default_rng(5), LocalSearchSettings(0, 16))
    assert np.array_equal(improved.genomes, genomes)
    assert not improved.moves.any()


def test_the_local_search_solves_a_moderate_board() -> None:
    n = 2000
    improved = local_search(
        random_permutations(1, n, 11), np.random.default_rng(11), LocalSearchSettings(n, 16)
    )
    # From about 2N/3 attacking pairs to a handful: only improving swaps are made, so the
    # search can stop in a local minimum (the GA's mutation and selection take it further).
    assert count_conflicts(random_permutations(1, n, 11), n, PERMUTATION)[0] > 1000
    assert count_conflicts(improved.genomes, n, PERMUTATION)[0] <= 5


def test_same_generator_state_same_search() -> None:
    genomes = random_permutations(4, 300, 9)
    first = local_search(genomes, np.random.default_rng(2), LocalSearchSettings(100, 8))
    second = local_search(genomes, np.random.default_rng(2), LocalSearchSettings(100, 8))
    assert np.array_equal(first.genomes, second.genomes)
    assert np.array_equal(first.moves, second.moves)


# --- Greedy start. ---


@settings(max_examples=40, deadline=None)
@given(size=st.integers(1, 4), n=st.integers(1, 60), seed=st.integers(0, 2**32 - 1))
def test_greedy_start_makes_permutations(size: int, n: int, seed: int) -> None:
    genomes = greedy_population(size, n, np.random.default_rng(seed))
    assert genomes.shape == (size, n)
    assert is_permutation_rows(genomes)


def test_greedy_start_leaves_far_fewer_conflicts_than_random() -> None:
    n = 5000
    greedy = greedy_population(2, n, np.random.default_rng(0))
    randomly = random_permutations(2, n, 0)
    assert count_conflicts(greedy, n, PERMUTATION).max() < 50
    assert count_conflicts(randomly, n, PERMUTATION).min() > 1000


def test_greedy_start_is_deterministic() -> None:
    first = greedy_population(3, 500, np.random.default_rng(4))
    assert np.array_equal(first, greedy_population(3, 500, np.random.default_rng(4)))


def test_greedy_start_draws_one_key_per_individual_from_the_run_generator() -> None:
    rng, twin = np.random.default_rng(8), np.random.default_rng(8)
    genomes = greedy_population(3, 40, rng)
    keys = random_keys(twin, 3)
    assert rng.bit_generator.state == twin.bit_generator.state
    for genome, key in zip(genomes, keys, strict=True):
        assert genome.tolist() == greedy_permutation(40, int(key), TRIES)


# --- The compiled kernels against their plain-Python references. ---


@settings(max_examples=50, deadline=None)
@given(state=st.integers(0, 2**64 - 1), bound=st.integers(1, 2**32))
def test_the_kernels_random_numbers_are_splitmix64_and_multiply_shift(
    state: int, bound: int
) -> None:
    from engine.compiled.memetic_kernels import below as compiled_below
    from engine.compiled.memetic_kernels import next_random as compiled_next

    after, draw = compiled_next(np.uint64(state))
    assert (int(after), int(draw)) == next_random(state)
    assert int(compiled_below(np.uint64(int(draw)), bound)) == below(int(draw), bound)
    assert 0 <= below(int(draw), bound) < bound


def test_splitmix64_gives_its_published_first_outputs() -> None:
    # The first outputs of SplitMix64 seeded with 1234567 (Rosetta Code, Splitmix64 task).
    state, outputs = 1234567, []
    for _ in range(3):
        state, draw = next_random(state)
        outputs.append(draw)
    assert outputs == [6457827717110365317, 3203168211198807973, 9817491932198370423]


@settings(max_examples=60, deadline=None)
@given(n=st.integers(1, 80), key=st.integers(0, 2**64 - 1), tries=st.integers(1, 70))
def test_the_greedy_kernel_makes_the_reference_board(n: int, key: int, tries: int) -> None:
    from engine.compiled.memetic_kernels import greedy_fill

    genome = np.empty(n, dtype=np.int64)
    left_open = greedy_fill(genome, np.uint64(key), tries)
    reference = greedy_permutation(n, key, tries)
    assert genome.tolist() == reference
    assert sorted(reference) == list(range(n))
    assert 0 <= left_open <= n


@settings(max_examples=60, deadline=None)
@given(
    n=st.integers(2, 24),
    budget=st.integers(1, 40),
    candidates=st.integers(1, 6),
    stall=st.integers(1, 4),
    key=st.integers(0, 2**64 - 1),
    seed=st.integers(0, 2**32 - 1),
)
def test_the_search_kernel_makes_the_reference_moves(
    n: int, budget: int, candidates: int, stall: int, key: int, seed: int
) -> None:
    from engine.compiled.memetic_kernels import min_conflicts as compiled_search

    genome = random_permutations(1, n, seed)
    lines = board_lines(genome, n, PERMUTATION)
    start = genome[0].tolist()
    conflicts, moves = compiled_search(
        genome[0],
        lines.occupancy[0],
        lines.occupancy[1],
        lines.cells[0][0],
        lines.cells[1][0],
        0,
        int(lines.conflicts[0]),
        budget,
        candidates,
        stall,
        np.uint64(key),
    )
    board, left, made = min_conflicts(start, budget, candidates, stall, key)
    assert genome[0].tolist() == board
    assert (conflicts, moves) == (left, made)
    fresh = board_lines(genome, n, PERMUTATION)
    tracked = lines.occupancy + lines.cells
    for kept, counted in zip(tracked, fresh.occupancy + fresh.cells, strict=True):
        assert np.array_equal(kept, counted)


def test_the_local_search_draws_one_key_per_child_and_runs_the_reference_on_each() -> None:
    n, candidates, moves = 20, 5, 30
    genomes = random_permutations(4, n, 21)
    rng, twin = np.random.default_rng(5), np.random.default_rng(5)
    improved = local_search(genomes, rng, LocalSearchSettings(moves, candidates))
    keys = random_keys(twin, 4)
    assert rng.bit_generator.state == twin.bit_generator.state
    for k in range(4):
        board, left, made = min_conflicts(
            genomes[k].tolist(), moves, candidates, STALL_PASSES, int(keys[k])
        )
        assert improved.genomes[k].tolist() == board
        assert (improved.conflicts[k], improved.moves[k]) == (left, made)


def test_a_local_search_in_place_changes_the_children_it_is_given() -> None:
    genomes = random_permutations(3, 50, 4)
    copy = local_search(genomes, np.random.default_rng(1), LocalSearchSettings(50, 8))
    improved = local_search(
        genomes, np.random.default_rng(1), LocalSearchSettings(50, 8), in_place=True
    )
    assert improved.genomes is genomes
    assert np.array_equal(genomes, copy.genomes)


def test_the_kernel_cache_stays_numbas_where_the_source_is_writable_or_a_dir_is_set(
    tmp_path: Path,
) -> None:
    from engine.compiled.jit import choose_cache_dir

    assert choose_cache_dir(tmp_path, {}) is None
    assert (tmp_path / "__pycache__").is_dir()
    blocked = tmp_path / "a-file"
    blocked.write_text("")
    assert choose_cache_dir(blocked / "engine", {"NUMBA_CACHE_DIR": "/elsewhere"}) is None


def test_the_kernel_cache_goes_to_the_users_cache_or_the_temporary_dir_from_a_read_only_tree(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import tempfile

    from engine.compiled.jit import choose_cache_dir

    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "temporary"))

    blocked = tmp_path / "a-file"  # nothing can be made under a file: a read-only source
    blocked.write_text("")
    source = blocked / "engine"
    user_cache = tmp_path / "cache"
    chosen = choose_cache_dir(source, {"XDG_CACHE_HOME": str(user_cache)})
    assert chosen == str(user_cache / "queens-ga" / "numba")
    unwritable_home = choose_cache_dir(source, {"XDG_CACHE_HOME": str(blocked / "cache")})
    assert unwritable_home is not None
    assert unwritable_home.startswith(str(tmp_path / "temporary" / "queens-ga-numba-"))


# --- Config, algorithm and preset. ---


def test_the_memetic_fields_parse_from_text() -> None:
    config = Config.from_mapping(
        {"n": "16", "local-search": "100", "local-search-candidates": "4", "greedy-start": "yes"}
    )
    assert (config.local_search, config.local_search_candidates, config.greedy_start) == (
        100,
        4,
        True,
    )


@pytest.mark.parametrize(
    ("values", "field"),
    [
        ({"local_search": -1}, "local-search"),
        ({"local_search_candidates": 0}, "local-search-candidates"),
        ({"encoding": "integer", "crossover": "single-point", "local_search": 5}, "local-search"),
        (
            {"encoding": "squares", "crossover": "one-gene", "greedy_start": True},
            "greedy-start",
        ),
        ({"local_search": "many"}, "local-search"),
    ],
)
def test_bad_memetic_values_name_the_field(values: dict[str, Any], field: str) -> None:
    with pytest.raises(ConfigError) as error:
        Config.from_mapping(values)
    assert error.value.name == field
    assert field in str(error.value)


@pytest.mark.parametrize("n", [8, 200, 3000])
def test_the_memetic_preset_solves_moderate_boards(n: int) -> None:
    final = GeneticAlgorithm(PRESETS["memetic"].config(n, seed=n, generations=30)).run()
    assert final.stop_reason == "solved"
    assert final.best_conflicts == 0


def test_a_memetic_run_is_the_same_run_for_the_same_seed() -> None:
    config = PRESETS["memetic"].config(400, seed=7, local_search=20, generations=6)
    first = GeneticAlgorithm(config)
    second = GeneticAlgorithm(config)
    for _ in range(6):
        if not first.has_next():
            break
        a, b = first.step(), second.step()
        assert np.array_equal(a.population, b.population)
        assert np.array_equal(a.fitness, b.fitness)


def test_a_resumed_memetic_run_continues_exactly() -> None:
    config = Config(n=300, population=6, local_search=5, greedy_start=False, seed=3)
    original = GeneticAlgorithm(config)
    original.step_many(2)
    resumed = GeneticAlgorithm.from_state(original.state())
    for _ in range(3):
        if not original.has_next():
            break
        a, b = original.step(), resumed.step()
        assert np.array_equal(a.population, b.population)
        assert np.array_equal(a.fitness, b.fitness)
        assert a.generation == b.generation


def test_local_search_lowers_conflicts_against_the_same_ga_without_it() -> None:
    plain = GeneticAlgorithm(Config(n=500, population=6, seed=1, generations=3)).run()
    memetic = GeneticAlgorithm(
        Config(n=500, population=6, seed=1, generations=3, local_search=500)
    ).run()
    assert memetic.best_conflicts < plain.best_conflicts
