"""The report's statistics in numpy against scipy's reference functions and hand-worked cases:
the bootstrap interval of a median, the Mann-Whitney U test on censored runs, Holm's
correction, the Vargha-Delaney A12, and each row against the best."""

from __future__ import annotations

import math

import numpy as np
import pytest

from tui.lab.statistics.against_best import against_best
from tui.lab.statistics.bootstrap import bootstrap_median_interval
from tui.lab.statistics.effect_size import effect_size_word, vargha_delaney_a12
from tui.lab.statistics.holm import holm_adjusted
from tui.lab.statistics.rank_test import mann_whitney_u
from tui.lab.statistics.run_lengths import censored_sample, distribution_steps, share_solved_by

stats = pytest.importorskip("scipy.stats")

INF = math.inf


def samples(seed: int, n1: int, n2: int, censored: float) -> tuple[np.ndarray, np.ndarray]:
    """Two samples of whole evaluations (many ties) with some runs censored."""
    rng = np.random.default_rng(seed)
    x = rng.integers(100, 140, n1).astype(np.float64) * 100
    y = rng.integers(105, 150, n2).astype(np.float64) * 100
    x[rng.random(n1) < censored] = INF
    y[rng.random(n2) < censored] = INF
    return x, y


@pytest.mark.parametrize("seed", range(12))
def test_mann_whitney_matches_scipy_asymptotic_with_ties_and_censoring(seed: int) -> None:
    x, y = samples(seed, 5 + seed * 3, 30 - seed, censored=0.05 * (seed % 5))
    ours = mann_whitney_u(x, y)
    # scipy ranks inf too; its tie correction and continuity correction are the reference.
    reference = stats.mannwhitneyu(x, y, alternative="two-sided", method="asymptotic")
    assert ours.u == pytest.approx(reference.statistic, abs=1e-9)
    assert ours.p == pytest.approx(reference.pvalue, rel=1e-9, abs=1e-15)


def test_mann_whitney_by_hand_with_ties() -> None:
    # x = 1, 2, 2; y = 2, 3. Pooled ranks: 1 -> 1, the three 2s -> 3, 3 -> 5.
    # U(x) = (1 + 3 + 3) - 3*4/2 = 1. Mean 3; tie term 3^3 - 3 = 24;
    # variance = 6/12 * (6 - 24/20) = 2.4; z = (5 - 3 - 0.5)/sqrt(2.4); p = 2 P(Z > z).
    result = mann_whitney_u(np.array([1.0, 2, 2]), np.array([2.0, 3]))
    assert result.u == 1.0
    z = 1.5 / math.sqrt(2.4)
    assert result.p == pytest.approx(math.erfc(z / math.sqrt(2)))


def test_all_runs_unsolved_on_both_sides_cannot_be_told_apart() -> None:
    result = mann_whitney_u(np.full(5, INF), np.full(7, INF))
    assert result.u == 17.5
    assert result.p == 1.0


def test_censored_runs_count_as_slower_than_every_solved_run() -> None:
    solved = np.array([9e5, 9.5e5, 1e6, 1.1e6, 1.2e6, 1.3e6, 1.4e6, 1.5e6])
    unsolved = np.full(8, INF)
    assert vargha_delaney_a12(unsolved, solved) == 1.0
    assert mann_whitney_u(unsolved, solved).p < 0.001
    # Dropped instead of censored, the unsolved row would have nothing to compare at all.
    assert mann_whitney_u(unsolved[np.isfinite(unsolved)], solved).p == 1.0


def test_one_run_each_is_never_significant() -> None:
    result = mann_whitney_u(np.array([10.0]), np.array([20.0]))
    assert result.p == 1.0
    assert result.p == pytest.approx(stats.mannwhitneyu([10.0], [20.0], method="asymptotic").pvalue)


@pytest.mark.parametrize("seed", range(6))
def test_a12_is_u_over_the_pairs_of_scipy(seed: int) -> None:
    x, y = samples(seed, 12, 9, censored=0.1)
    u = stats.mannwhitneyu(x, y, method="asymptotic").statistic
    assert vargha_delaney_a12(x, y) == pytest.approx(u / (12 * 9))


def test_a12_by_hand_and_its_words() -> None:
    # Pairs of (3, 1) against (2, 2): 3>2 twice, 1<2 twice -> 2/4.
    assert vargha_delaney_a12(np.array([3.0, 1]), np.array([2.0, 2])) == 0.5
    # (2, 3) against (2,): one tie (half), one win -> 1.5 / 2.
    assert vargha_delaney_a12(np.array([2.0, 3]), np.array([2.0])) == 0.75
    words = [effect_size_word(a) for a in (0.5, 0.555, 0.56, 0.63, 0.64, 0.70, 0.71, 0.2)]
    assert words == [
        "negligible", "negligible", "small", "small", "medium", "medium", "large", "large"
    ]  # fmt: skip
    assert effect_size_word(0.44) == "small"  # read on max(A, 1 - A)


def test_holm_by_hand() -> None:
    # Sorted 0.01, 0.02, 0.04 x 3, 2, 1 = 0.03, 0.04, 0.04 (stepped up), in the given order.
    assert holm_adjusted([0.04, 0.01, 0.02]) == pytest.approx([0.04, 0.03, 0.04])
    # Stepping down keeps the order: 0.02 x 2 = 0.04 stays above 0.001 x 3.
    assert holm_adjusted([0.02, 0.001]) == pytest.approx([0.02, 0.002])
    assert holm_adjusted([0.5, 0.9]) == [1.0, 1.0]
    assert holm_adjusted([]) == []
    assert holm_adjusted([0.3]) == [0.3]


def test_holm_matches_the_textbook_step_down() -> None:
    rng = np.random.default_rng(7)
    raw = list(rng.random(9) ** 3)
    order = sorted(range(9), key=lambda i: raw[i])
    expected = [0.0] * 9
    running = 0.0
    for position, index in enumerate(order):
        running = max(running, min(1.0, (9 - position) * raw[index]))
        expected[index] = running
    assert holm_adjusted(raw) == pytest.approx(expected)


@pytest.mark.parametrize("size", [2, 7, 30])
def test_bootstrap_interval_matches_scipy_percentile_bootstrap(size: int) -> None:
    values = np.random.default_rng(size).integers(1000, 90000, size).astype(np.float64)
    ours = bootstrap_median_interval(values, resamples=2000, seed=3)
    reference = stats.bootstrap(
        (values,),
        np.median,
        n_resamples=2000,
        method="percentile",
        rng=np.random.default_rng(3),
        vectorized=True,
    ).confidence_interval
    assert ours is not None
    assert (ours.low, ours.high) == pytest.approx((reference.low, reference.high))


def test_bootstrap_hand_worked_cases() -> None:
    assert bootstrap_median_interval([]) is None
    one = bootstrap_median_interval([42.0])
    assert one is not None and (one.low, one.high) == (42.0, 42.0)
    interval = bootstrap_median_interval([1.0, 2, 3, 4, 100])
    assert interval is not None and 1.0 <= interval.low <= 3.0 <= interval.high <= 100.0
    assert bootstrap_median_interval([1.0, 2, 3]) == bootstrap_median_interval([1.0, 2, 3])
    with pytest.raises(ValueError, match="resamples"):
        bootstrap_median_interval([1.0], resamples=0)


def test_censored_sample_and_run_length_distribution() -> None:
    runs = [
        {"solved": True, "evaluations": 300},
        {"solved": False, "evaluations": 1000},
        {"solved": True, "evaluations": 100},
        {"solved": True, "evaluations": 300},
    ]
    sample = censored_sample(runs, "evaluations")
    assert list(sample) == [300.0, INF, 100.0, 300.0]
    values, shares = distribution_steps(sample)
    assert list(values) == [100.0, 300.0]
    assert list(shares) == [0.25, 0.75]  # the unsolved run keeps it below 1
    assert list(share_solved_by(sample, [50, 100, 299, 5000])) == [0.0, 0.25, 0.25, 0.75]
    assert distribution_steps(censored_sample([runs[1]], "evaluations"))[0].size == 0


def test_rows_that_cannot_be_told_apart_share_the_best_rank() -> None:
    rng = np.random.default_rng(1)
    best = rng.normal(10000, 500, 30)
    same = rng.normal(10050, 500, 30)
    slower = np.r_[rng.normal(20000, 500, 25), np.full(5, INF)]
    compared = against_best([best, same, slower])
    assert compared[0] is None
    assert compared[1] is not None and compared[1].rank == 1 and compared[1].tied_with_best
    assert compared[2] is not None and compared[2].rank == 3 and not compared[2].tied_with_best
    assert compared[2].a12 == 1.0 and compared[2].size == "large"
    raw = [mann_whitney_u(same, best).p, mann_whitney_u(slower, best).p]
    assert [compared[1].p_holm, compared[2].p_holm] == pytest.approx(holm_adjusted(raw))
    assert against_best([best]) == [None]


def test_a_large_row_is_resampled_in_batches_as_scipy_does_with_batch(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from tui.lab.statistics import bootstrap

    values = np.random.default_rng(5).integers(1000, 90000, 30).astype(np.float64)
    whole = bootstrap_median_interval(values, resamples=500, seed=2)
    monkeypatch.setattr(bootstrap, "BATCH_ELEMENTS", 1000)  # 33 resamples of 30 at a time
    assert bootstrap.resampling_batch(30, 500) == 33
    batched = bootstrap_median_interval(values, resamples=500, seed=2)
    reference = stats.bootstrap(
        (values,),
        np.median,
        n_resamples=500,
        batch=33,
        method="percentile",
        rng=np.random.default_rng(2),
        vectorized=True,
    ).confidence_interval
    assert batched is not None and whole is not None
    assert (batched.low, batched.high) == pytest.approx((reference.low, reference.high))
