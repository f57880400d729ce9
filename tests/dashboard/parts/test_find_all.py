"""Finding every solution: the limits it lifts, its budget at large N, and where it is out of
reach."""

from __future__ import annotations

from engine import Config
from engine.config.presets import PRESETS
from tui.dashboard.screens.solutions import find_all_config, reach_note


def test_find_all_lifts_the_stop_limits_and_budgets_large_n() -> None:
    small = find_all_config(PRESETS["codeproject-2011"].config(seed=1))
    assert small.harvest and not small.stop_when_solved
    assert small.generations is None and small.time_limit is None
    large = find_all_config(Config(n=14, seed=1))
    assert large.time_limit is not None
    assert "out of reach" in reach_note(14)
    assert "out of reach" not in reach_note(8)
