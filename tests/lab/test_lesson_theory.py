"""The lessons' theory against published values and against itself worked out by hand."""

from __future__ import annotations

import math

import pytest

from tui.lab.lessons import theory


@pytest.mark.parametrize(
    ("size", "expected"),
    [
        # Goldberg & Deb 1991: t* = (ln P + ln ln P) / ln s; P = 1000.
        (2, 12.754),
        (4, 6.377),
        (8, 4.251),
    ],
)
def test_goldberg_deb_takeover_time(size: int, expected: float) -> None:
    assert theory.goldberg_deb_takeover(1000, "tournament", size) == pytest.approx(
        expected, abs=1e-3
    )


def test_truncation_and_rank_takeover_times() -> None:
    assert theory.goldberg_deb_takeover(1024, "truncation") == pytest.approx(10.0)
    assert theory.goldberg_deb_takeover(1000, "rank") == theory.goldberg_deb_takeover(
        1000, "tournament", 2
    )


def test_the_tournament_difference_equation_squares_the_share_not_yet_best() -> None:
    for share in (0.001, 0.3, 0.9):
        assert 1 - theory.best_share_after(share, 100, "tournament", 2) == pytest.approx(
            (1 - share) ** 2
        )
        assert 1 - theory.best_share_after(share, 100, "tournament", 8) == pytest.approx(
            (1 - share) ** 8
        )


def test_truncation_to_half_doubles_the_best_until_it_fills_the_half() -> None:
    assert theory.best_share_after(0.1, 100, "truncation") == pytest.approx(0.2)
    assert theory.best_share_after(0.6, 100, "truncation") == 1.0


def test_linear_ranking_picks_a_lone_best_with_its_rank_share() -> None:
    # One best of P = 10: rank 10 of a total 55 (the others share ranks 1..9).
    assert theory.best_share_after(0.1, 10, "rank") == pytest.approx(10 / 55)


def test_the_expected_takeover_time_of_a_deterministic_doubling() -> None:
    # Truncation of P = 4 with elitism 1: 1 copy, whose picks are best with chance 1/2 (the
    # best half holds 2), then 1 + 3 * (1/2) = 2.5 copies, whose picks are all best. Not taken
    # over at t = 0 (surely) nor at t = 1 (unless all 3 picks are best: chance 1/8).
    expected = 1.0 + (1.0 - 0.5**3)
    assert theory.takeover_generations(4, "truncation", elitism=1) == pytest.approx(expected)


def test_a_lone_best_is_lost_as_a_poisson_branching_process_dies_out() -> None:
    # q = exp(2 (q - 1)): 0.2031878... (a classic value of the Galton-Watson process).
    assert theory.extinction_probability(2.0) == pytest.approx(0.2031878, abs=1e-6)
    assert theory.extinction_probability(1.0) == 1.0
    q = theory.extinction_probability(4.0)
    assert q == pytest.approx(math.exp(4.0 * (q - 1.0)))


def test_drift_and_coalescence() -> None:
    assert theory.wright_fisher_diversity(0.875, 100, 0) == 0.875
    assert theory.wright_fisher_diversity(0.875, 100, 50) == pytest.approx(0.875 * 0.99**50)
    assert theory.drift_horizon(100) == math.ceil(math.log(0.2) / math.log(0.99)) == 161
    assert theory.founder_generations(100) == pytest.approx(198.0)
    assert theory.founder_generations(100, steady_state=True) == 99.0
