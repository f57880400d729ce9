"""The shortcuts a generation takes give exactly what the plain computations give.

Reused count arrays, mutation in place, conflicts known from the parents, both OX children in
one pass and the entropy's table of terms must change no number and no draw: a seed fixes a
run bit for bit, before and after.
"""

from __future__ import annotations

import numpy as np
import pytest
from engine_reference import brute_entropy

from engine.arrays import Genomes
from engine.genomes.conflicts import board_lines, conflicts_from_sums, own_line_sums
from engine.genomes.diversity import column_entropy
from engine.genomes.encodings import ENCODINGS, INTEGER, PERMUTATION
from engine.operators.crossover import order_crossover
from engine.operators.mutation import MutationSettings, conflict_mutation_counted


def population(encoding_name: str, size: int, n: int, seed: int) -> Genomes:
    return ENCODINGS[encoding_name].random_population(size, n, np.random.default_rng(seed))


@pytest.mark.parametrize("encoding_name", ["permutation", "integer", "squares"])
@pytest.mark.parametrize("n", [4, 9, 33])
def test_reused_counts_equal_fresh_counts(encoding_name, n):
    encoding = ENCODINGS[encoding_name]
    old = board_lines(population(encoding_name, 30, n, 1), n, encoding)
    genomes = population(encoding_name, 30, n, 2)
    fresh = board_lines(genomes, n, encoding)
    reused = board_lines(genomes, n, encoding, reuse=old)
    for mine, theirs in zip(reused.cells, fresh.cells, strict=True):
        np.testing.assert_array_equal(mine, theirs)
    for mine, theirs in zip(reused.occupancy, fresh.occupancy, strict=True):
        np.testing.assert_array_equal(mine, theirs)
    np.testing.assert_array_equal(reused.conflicts, fresh.conflicts)
    if encoding_name != "squares":
        assert reused.cells[0] is old.cells[0]  # the arrays were overwritten, not new


def test_counts_of_another_shape_are_not_reused():
    old = board_lines(population("permutation", 30, 8, 1), 8, PERMUTATION)
    genomes = population("permutation", 31, 8, 2)
    reused = board_lines(genomes, 8, PERMUTATION, reuse=old)
    assert reused.cells[0] is not old.cells[0]
    np.testing.assert_array_equal(reused.conflicts, board_lines(genomes, 8, PERMUTATION).conflicts)


@pytest.mark.parametrize("encoding_name", ["permutation", "integer", "squares"])
def test_conflicts_of_some_rows_equal_those_of_all(encoding_name):
    encoding = ENCODINGS[encoding_name]
    lines = board_lines(population(encoding_name, 50, 12, 3), 12, encoding)
    rows = np.array([0, 7, 7, 49, 20], dtype=np.int64)
    sums = own_line_sums(lines)
    kinds = len(lines.sizes)
    np.testing.assert_array_equal(conflicts_from_sums(sums[rows], kinds), lines.conflicts[rows])
    assert conflicts_from_sums(sums[np.empty(0, dtype=np.int64)], kinds).shape == (0,)


@pytest.mark.parametrize("encoding_name", ["permutation", "integer", "squares"])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_mutation_in_place_with_reused_counts_and_known_conflicts_is_the_same(encoding_name, seed):
    encoding = ENCODINGS[encoding_name]
    n = 10
    settings = MutationSettings(rate=0.7, n=n, encoding=encoding, gene_rate=0.2, candidates=8)
    genomes = population(encoding_name, 40, n, seed)
    before = genomes.copy()
    plain_rng, fast_rng = np.random.default_rng(seed), np.random.default_rng(seed)
    plain, plain_lines = conflict_mutation_counted(genomes, plain_rng, settings)
    np.testing.assert_array_equal(genomes, before)  # not in place: the input is untouched

    known = board_lines(genomes, n, encoding).conflicts.copy()
    known[::3] = -1  # some unknown, as crossed children are
    spare = board_lines(population(encoding_name, 40, n, seed + 10), n, encoding)
    working = genomes.copy()
    fast, fast_lines = conflict_mutation_counted(
        working, fast_rng, settings, in_place=True, reuse=spare, known=known
    )
    assert fast is working
    np.testing.assert_array_equal(fast, plain)
    np.testing.assert_array_equal(fast_lines.conflicts, plain_lines.conflicts)
    np.testing.assert_array_equal(fast_lines.conflicts, board_lines(fast, n, encoding).conflicts)
    assert fast_rng.bit_generator.state == plain_rng.bit_generator.state


def two_pass_order_crossover(
    first: Genomes, second: Genomes, rng: np.random.Generator
) -> tuple[Genomes, Genomes]:
    """OX as it was first written: one child at a time, along-axis helpers."""
    count, n = first.shape
    ends_one = np.asarray(rng.integers(0, n, size=count), dtype=np.int64)
    ends_two = np.asarray(rng.integers(0, n, size=count), dtype=np.int64)
    high = np.maximum(ends_one, ends_two) + 1
    low = np.minimum(ends_one, ends_two)
    positions = np.arange(n)[None, :]
    inside = (positions >= low[:, None]) & (positions < high[:, None])
    rows = np.arange(count, dtype=np.int64)[:, None]
    start = (positions + high[:, None]) % n

    def child(keeper: Genomes, donor: Genomes) -> Genomes:
        taken = np.zeros(keeper.shape, dtype=bool)
        np.put_along_axis(taken, keeper, inside, axis=1)
        read = np.take_along_axis(donor, start, axis=1)
        keep = ~np.take_along_axis(taken, read, axis=1)
        place = (np.cumsum(keep, axis=1) - 1 + high[:, None]) % n
        result = np.where(inside, keeper, 0)
        result[np.broadcast_to(rows, keep.shape)[keep], place[keep]] = read[keep]
        return result

    return child(first, second), child(second, first)


@pytest.mark.parametrize("n", [1, 2, 5, 16, 64, 256, 257, 700])
@pytest.mark.parametrize("count", [1, 7, 50])
def test_one_pass_order_crossover_equals_the_two_pass_one(n, count):
    first = population("permutation", count, n, n)
    second = population("permutation", count, n, n + 1)
    rng_one, rng_two = np.random.default_rng(count), np.random.default_rng(count)
    one, two = order_crossover(first, second, rng_one)
    expected_one, expected_two = two_pass_order_crossover(first, second, rng_two)
    np.testing.assert_array_equal(one, expected_one)
    np.testing.assert_array_equal(two, expected_two)
    assert rng_one.bit_generator.state == rng_two.bit_generator.state


def plain_entropy(rows: Genomes, n: int) -> float:
    """The bincount branch of column_entropy as it was: every term computed on its own."""
    size = rows.shape[0]
    cells = np.bincount((rows + (np.arange(n) * n)[None, :]).ravel(), minlength=n * n)
    share = cells[cells > 0].astype(np.float64) / size
    return float(-(share * np.log(share)).sum() / (n * np.log(min(size, n))))


@pytest.mark.parametrize(("size", "n"), [(2, 2), (40, 8), (1000, 64), (300, 256), (5000, 16)])
@pytest.mark.parametrize("converged", [False, True])
def test_entropy_is_bit_for_bit_the_plain_sum(size, n, converged):
    rng = np.random.default_rng(size + n)
    genomes = population("permutation", size, n, size)
    if converged:
        genomes = genomes[rng.integers(0, max(1, size // 10), size)]
    assert column_entropy(genomes, n, PERMUTATION) == plain_entropy(genomes, n)
    assert column_entropy(genomes, n, PERMUTATION) == pytest.approx(brute_entropy(genomes))


def test_entropy_of_integer_genomes_is_bit_for_bit_the_plain_sum():
    genomes = population("integer", 500, 20, 4)
    assert column_entropy(genomes, 20, INTEGER) == plain_entropy(genomes, 20)


@pytest.mark.parametrize("encoding_name", ["permutation", "integer", "squares"])
@pytest.mark.parametrize("n", [2, 7, 40])
def test_attacked_from_summed_counts_equals_the_counts_test(encoding_name, n):
    lines = board_lines(population(encoding_name, 60, n, n), n, ENCODINGS[encoding_name])
    np.testing.assert_array_equal(own_line_sums(lines) > len(lines.sizes), lines.attacked())


@pytest.mark.parametrize("fitness", ["pairs", "excess", "exponential"])
def test_best_index_is_what_a_stable_sort_by_fitness_then_conflicts_puts_first(fitness):
    from engine import Config, GeneticAlgorithm

    algorithm = GeneticAlgorithm(
        Config(n=10, population=60, seed=5, fitness=fitness, stop_when_solved=False)
    )
    for _ in range(30):
        snapshot = algorithm.step()
        order = np.lexsort((snapshot.conflicts, -snapshot.fitness))
        assert snapshot.best_index == order[0]


def masked_random_attacked_queen(attacked: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """The attacked-queen draw as it was first written (a bincount, then masked updates)."""
    count, n = attacked.shape
    flat = np.flatnonzero(attacked)
    per_row = np.bincount(flat // n, minlength=count)
    first = np.cumsum(per_row) - per_row
    draw = rng.random(count)
    queen = np.floor(draw * n).astype(np.int64)
    some = per_row > 0
    chosen = first[some] + np.floor(draw[some] * per_row[some]).astype(np.int64)
    queen[some] = flat[chosen] % n
    return queen


@pytest.mark.parametrize("density", [0.0, 0.02, 0.3, 1.0])
@pytest.mark.parametrize("n", [1, 5, 64])
def test_attacked_queen_draw_equals_the_masked_one(density, n):
    from engine.operators.conflict_draws import attacked_queens

    attacked = np.random.default_rng(n).random((200, n)) < density
    attacked[-3:] = False  # rows without an attacked queen at the end, where the clip matters
    mine, theirs = np.random.default_rng(7), np.random.default_rng(7)
    np.testing.assert_array_equal(
        attacked_queens(attacked, mine.random(200)), masked_random_attacked_queen(attacked, theirs)
    )


@pytest.mark.parametrize("n", [2, 5, 33])
def test_swap_change_from_gathered_sharing_equals_the_counts_read_again(n):
    from engine.genomes.conflicts import swap_change

    genomes = population("permutation", 40, n, n)
    lines = board_lines(genomes, n, PERMUTATION)
    rng = np.random.default_rng(n)
    rows = np.arange(40)
    queen = rng.integers(0, n, 40)
    partner = rng.integers(0, n - 1, (40, 6))
    partner += partner >= queen[:, None]
    queen_at, partner_at = rows * n + queen, partner + (rows * n)[:, None]
    on_lines = own_line_sums(lines).reshape(-1)
    arguments = (
        lines,
        rows[:, None],
        queen[:, None],
        genomes.reshape(-1)[queen_at][:, None],
        partner,
        genomes.reshape(-1)[partner_at],
    )
    gathered = swap_change(*arguments, sharing=(on_lines[partner_at], on_lines[queen_at][:, None]))
    np.testing.assert_array_equal(gathered, swap_change(*arguments))
    assert gathered.dtype == np.int64


@pytest.mark.parametrize(
    "values",
    [
        [3.0, 1.0, 3.0, 2.0, 1.0],  # whole numbers: radix on 16-bit keys
        [0.5, 0.25, 0.5, 1.0],  # fractions: the float sort
        [40000.0, 0.0, 40000.0, 1.0],  # too wide a range for 16 bits
        [-0.0, 0.0, -1.0, 0.0],  # signed zeros tie
        [0.0, 1e-20, 1.0],  # 1 - 1e-20 rounds to a whole 1: keys alone would tie them
        [1e20, 1e20 + 16384.0, 1e20],  # large, but exact distances
        [2.0, float("nan"), 1.0],  # NaN: whatever numpy's float sort says
        [7.0],
        [],
    ],
)
def test_best_first_is_a_stable_sort_of_the_negated_values(values):
    from engine.operators.survivors import best_first

    array = np.array(values, dtype=np.float64)
    expected = np.argsort(-array, kind="stable")
    np.testing.assert_array_equal(best_first(array), expected)
    assert best_first(array).dtype == np.int64


def test_best_first_equals_the_float_sort_on_random_fitness():
    from engine.operators.survivors import best_first

    rng = np.random.default_rng(11)
    for high in (5, 2016, 32766, 32767, 70000):
        whole = rng.integers(0, high, 3000).astype(np.float64) - high // 3
        np.testing.assert_array_equal(best_first(whole), np.argsort(-whole, kind="stable"))


def test_order_crossover_keeps_no_rotation_table_for_a_large_board():
    """The table has N + 1 rows of N: at N = 100,000 it would be 80 GB."""
    from engine.operators.crossover import _rotations

    n = 100_000
    first = population("permutation", 2, n, 1)
    second = population("permutation", 2, n, 2)
    before = _rotations.cache_info().currsize
    one, two = order_crossover(first, second, np.random.default_rng(3))
    assert _rotations.cache_info().currsize == before
    for child in (one, two):
        np.testing.assert_array_equal(np.sort(child, axis=1), np.sort(first, axis=1))


def test_scratch_above_the_cap_is_let_go_and_the_run_is_the_same(monkeypatch):
    """Large boards keep no union or line counts between generations (they would raise the
    peak of a 10^6-queen run by a fifth); the run must not change."""
    import engine.large_n.generation_rows as generation_rows
    from engine import Config, GeneticAlgorithm

    config = Config(n=40, population=60, seed=4, stop_when_solved=False)
    kept = GeneticAlgorithm(config)
    kept.step_many(15)
    assert kept._spare_lines is not None and kept._rows.union.size > 0
    monkeypatch.setattr(generation_rows, "KEPT_SCRATCH_BYTES", 1000)
    let_go = GeneticAlgorithm(config)
    for _ in range(15):
        let_go.step()
        assert let_go._spare_lines is None and let_go._rows.union.size == 0
    np.testing.assert_array_equal(let_go.snapshot.population, kept.snapshot.population)
    assert let_go.rng.bit_generator.state == kept.rng.bit_generator.state
