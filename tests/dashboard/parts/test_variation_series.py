"""Diversity explained as the dashboard collects it: only while shown, bounded, one run."""

from __future__ import annotations

import pytest

from engine import Config, GeneticAlgorithm
from tui.dashboard.runs import variation_series
from tui.dashboard.runs.variation_series import VariationSeries

CONFIG = Config(n=10, population=30, seed=8, stop_when_solved=False)


def test_nothing_is_measured_unless_enabled_and_only_for_the_run_followed() -> None:
    algorithm, other = GeneticAlgorithm(CONFIG), GeneticAlgorithm(CONFIG)
    series = VariationSeries()
    series.reset(algorithm)
    series.observe(algorithm, algorithm.step())
    assert len(series) == 0
    series.enabled = True
    series.observe(other, other.step())
    assert len(series) == 0
    for _ in range(3):
        series.observe(algorithm, algorithm.step())
    columns = series.columns()
    assert columns["generation"] == [2.0, 3.0, 4.0]
    entropy = algorithm.history.column("entropy")
    # The diversity before and after each generation is the history's own.
    assert columns["previous"] == entropy[1:4].tolist()
    assert columns["current"] == entropy[2:5].tolist()


def test_a_long_run_keeps_a_bounded_series_ending_at_its_newest_generation(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(variation_series, "LIMIT", 16)
    algorithm = GeneticAlgorithm(CONFIG)
    series = VariationSeries()
    series.reset(algorithm)
    series.enabled = True
    for _ in range(100):
        series.observe(algorithm, algorithm.step())
    generations = series.columns()["generation"]
    assert len(generations) <= 16 and generations[-1] == 100.0
    assert generations == sorted(generations) and series.measured == 100
