"""The status line's text: the measured speed against its limit, and the seed the last to go."""

from __future__ import annotations

import re

import pytest

from engine import GeneticAlgorithm, Snapshot
from tests.dashboard.largest_seed import LARGEST_SEED, RECORDED
from tui.dashboard.widgets import StatusLine


def status_line(**attributes: object) -> tuple[StatusLine, Snapshot]:
    line = StatusLine()
    for name, value in attributes.items():
        setattr(line, name, value)
    return line, GeneticAlgorithm(RECORDED).snapshot


def test_the_measured_speed_reads_as_under_its_limit() -> None:
    line, snapshot = status_line()
    text = line.line(snapshot, rate=6.0, speed=5.0, state="running", seed=7, width=0).plain
    assert "5 gen/s (limit 5/s)" in text and "6 gen/s" not in text
    text = line.line(snapshot, rate=3.0, speed=5.0, state="running", seed=7, width=0).plain
    assert "3 gen/s (limit 5/s)" in text
    text = line.line(snapshot, rate=1234.0, speed=None, state="running", seed=7, width=0).plain
    assert "1,234 gen/s (no limit)" in text


@pytest.mark.parametrize("width", range(36, 130, 3))
@pytest.mark.parametrize("note", [None, "REPLAY gen 100,000 / 100,000"])
def test_the_seed_is_the_last_to_go(width: int, note: str | None) -> None:
    line, snapshot = status_line(note=note, run_label="run 123456")
    text = line.line(
        snapshot, rate=6.0, speed=5.0, state="running", seed=LARGEST_SEED, width=width
    ).plain
    assert f"seed {LARGEST_SEED}" in text and len(text) <= width, text
    # The run's record goes before the best fitness.
    assert re.search(r"\b(?:b|best) \d", text) or "run 123456" not in text, text
