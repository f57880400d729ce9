"""Fitness shapes on hand-checked boards and the published worked numbers."""

from __future__ import annotations

import numpy as np
import pytest
from engine_reference import SOLUTION_8, brute_conflicts, squares_of

from engine.genomes.encodings import ENCODINGS, INTEGER, PERMUTATION, SQUARES
from engine.genomes.fitness import FITNESS_SHAPES, STACKED_PENALTY, evaluate, max_pairs
from engine.operators.selection import roulette_probabilities


def score(shape: str, genome: list[int], n: int, encoding=PERMUTATION) -> tuple[float, int]:
    scored = evaluate(np.array([genome], dtype=np.int64), n, encoding, FITNESS_SHAPES[shape])
    return float(scored.fitness[0]), int(scored.conflicts[0])


# Towards AI (2021) prints chromosomes as 1-based rows per column; our genes are 0-based.
TOWARDS_AI = [
    ([5, 2, 4, 3, 5], 7),
    ([4, 3, 5, 1, 4], 6),
    ([2, 1, 3, 2, 4], 6),
    # The article prints fitness 5 for this one, an arithmetic slip: it has 6 attacking pairs
    # (rows 4,1,2,3,0: r - c = 0 three times, r + c = 4 three times), so M - e = 10 - 6 = 4.
    ([5, 2, 3, 4, 1], 4),
]


@pytest.mark.parametrize(("chromosome", "fitness"), TOWARDS_AI)
def test_towards_ai_pairs_fitness(chromosome, fitness):
    genome = [gene - 1 for gene in chromosome]
    value, conflicts = score("pairs", genome, 5, INTEGER)
    assert value == fitness
    assert conflicts == max_pairs(5) - fitness


def test_towards_ai_roulette_probabilities():
    fitness = np.array([7.0, 6.0, 6.0, 5.0])
    assert roulette_probabilities(fitness) == pytest.approx([7 / 24, 6 / 24, 6 / 24, 5 / 24])


def test_roulette_probabilities_are_uniform_when_all_zero_and_refuse_negatives():
    assert roulette_probabilities(np.zeros(4)).tolist() == [0.25] * 4
    with pytest.raises(ValueError, match="non-negative"):
        roulette_probabilities(np.array([1.0, -1.0]))


def test_codeproject_collisions_example():
    # 0|1|4|2|3|6|7|5: diagonals r - c = 0,0,2,-1,-1,1,1,-2 hold three pairs; the
    # anti-diagonals r + c = 0,2,6,5,7,11,13,12 are all distinct. 28 - 3 = 25.
    value, conflicts = score("collisions", [0, 1, 4, 2, 3, 6, 7, 5], 8)
    assert (value, conflicts) == (25.0, 3)
    assert FITNESS_SHAPES["collisions"].best(8) == 28.0


def test_collisions_worst_board_is_zero():
    # All 8 queens on the main diagonal: 28 pairs collide.
    assert score("collisions", list(range(8)), 8) == (0.0, 28)


@pytest.mark.parametrize(
    ("genome", "n", "encoding", "errors"),
    [
        ([4, 1, 3, 2, 4], 5, INTEGER, 3),
        ([3, 2, 4, 0, 3], 5, INTEGER, 4),
        (list(range(8)), 8, PERMUTATION, 28),
        ([1, 3, 0, 2], 4, PERMUTATION, 0),
    ],
)
def test_queens_ai_shapes(genome, n, encoding, errors):
    most = n * (n - 1) / 2
    assert score("linear", genome, n, encoding) == (pytest.approx(1 - errors / most), errors)
    assert score("parabolic", genome, n, encoding)[0] == pytest.approx(
        (errors - most) ** 2 / most**2
    )
    assert score("exponential", genome, n, encoding)[0] == pytest.approx(1 / (1 + errors))


def test_queens_ai_shapes_clip_conflicts_at_the_most_pairs():
    # Four queens on one square: 6 pairs x 4 lines = 24 conflicts, more than M = 6.
    value, conflicts = score("linear", [0, 0, 0, 0], 4, SQUARES)
    assert conflicts == 24
    assert value == 0.0
    assert score("parabolic", [0, 0, 0, 0], 4, SQUARES)[0] == 0.0
    assert score("exponential", [0, 0, 0, 0], 4, SQUARES)[0] == pytest.approx(1 / 25)


@pytest.mark.parametrize(
    ("genome", "n", "encoding", "excess"),
    [
        # 4 queens on the main diagonal cost 3.
        (list(range(4)), 4, PERMUTATION, 3),
        # Rows 0,0,0 (cost 2); all diagonals distinct.
        ([0, 0, 0], 3, INTEGER, 2),
        # Towards AI [5 2 4 3 5]: one row, one diagonal and one anti-diagonal with 2 queens each.
        ([4, 1, 3, 2, 4], 5, INTEGER, 3),
        # [5 2 3 4 1]: a diagonal and an anti-diagonal with 3 queens each: 2 + 2.
        ([4, 1, 2, 3, 0], 5, INTEGER, 4),
        # Two queens stacked on a square: one extra on each of its four lines.
        ([5, 5], 4, SQUARES, 4),
    ],
)
def test_deap_excess(genome, n, encoding, excess):
    assert score("excess", genome, n, encoding)[0] == -excess


def test_sheppard_attacked_by_hand():
    # (0,0) twice, (3,3), (1,2): directions 2 (the diagonal seen both ways), one stacked queen.
    value, _ = score("attacked", [0, 0, 15, 6], 4, SQUARES)
    assert value == -(2 + STACKED_PENALTY)
    # The four corners: each sees along its row, its column and its diagonal: 4 x 3.
    assert score("attacked", [0, 3, 12, 15], 4, SQUARES)[0] == -12


FITTING = [
    pytest.param(name, encoding, id=f"{name}-{encoding.name}")
    for name, shape in FITNESS_SHAPES.items()
    for encoding in ENCODINGS.values()
    if encoding.is_permutation or not shape.permutation_only
]


@pytest.mark.parametrize(("name", "encoding"), FITTING)
def test_a_solution_scores_best_and_has_no_conflicts(name, encoding):
    shape = FITNESS_SHAPES[name]
    genome = list(SOLUTION_8)
    if encoding is SQUARES:
        genome = [row * 8 + column for column, row in enumerate(SOLUTION_8)]
    value, conflicts = score(name, genome, 8, encoding)
    assert conflicts == 0
    assert value == shape.best(8)


@pytest.mark.parametrize("name", [name for name in FITNESS_SHAPES if name != "neutral"])
def test_every_shape_ranks_a_conflict_below_a_solution(name):
    # All but ``neutral``, which ranks nothing on purpose (the drift lessons' blind selection).
    shape = FITNESS_SHAPES[name]
    broken = list(SOLUTION_8)
    broken[0], broken[2] = broken[2], broken[0]
    value, conflicts = score(name, broken, 8)
    assert conflicts == brute_conflicts(squares_of(broken, PERMUTATION, 8)) > 0
    assert value < shape.best(8)
    if shape.nonnegative:
        assert value >= 0


def test_shapes_on_one_queen():
    for name, shape in FITNESS_SHAPES.items():
        assert score(name, [0], 1) == (shape.best(1), 0), name


@pytest.mark.parametrize(
    ("name", "encoding"), [p for p in FITTING if FITNESS_SHAPES[p.values[0]].nonnegative]
)
def test_shapes_declared_nonnegative_never_go_below_zero(name, encoding):
    # The config lets a roulette wheel use any shape declared non-negative, with any encoding it
    # fits; stacked queens (squares) are where conflicts can exceed M.
    population = encoding.random_population(200, 4, np.random.default_rng(1))
    population[:50] = population[:50, :1]  # all four queens on one square (squares)
    fitness = evaluate(population, 4, encoding, FITNESS_SHAPES[name]).fitness
    assert fitness.min() >= 0
    assert roulette_probabilities(fitness).sum() == pytest.approx(1.0)


def test_pairs_on_stacked_queens_is_zero_not_negative():
    # Four queens on one square: 6 pairs, each sharing 4 lines, 24 > M = 6 conflicts.
    assert score("pairs", [5, 5, 5, 5], 4, SQUARES) == (0.0, 24)
    # One stacked pair among otherwise calm queens still counts M - e.
    # (0,0) twice is 4; (1,2) and (2,3) share a diagonal: e = 5, so 6 - 5.
    assert score("pairs", [0, 0, 6, 11], 4, SQUARES) == (1.0, 5)
