"""Speed limits: parsed from a flag, and stepped between the limits of the + and - keys."""

from __future__ import annotations

import pytest

from tui.dashboard.runs.speed import SpeedError, faster, parse_speed, slower


def test_speeds_parse_and_step_between_the_keys_limits() -> None:
    assert parse_speed("5") == 5.0
    assert parse_speed(" 0.5 ") == 0.5
    assert parse_speed("Unlimited") is None
    with pytest.raises(SpeedError):
        parse_speed("1e999")
    # A limit between two steps goes on from the nearest step above or below it.
    assert (faster(10.0), slower(10.0)) == (20.0, 5.0)
    assert (faster(0.5), slower(0.5)) == (1.0, 0.5)
    assert (faster(100.0), slower(None)) == (None, 100.0)
