"""The dashboard's run states: one writer, and only the moves the state machine allows."""

from __future__ import annotations

import itertools
import re
from pathlib import Path

import pytest

from tui.dashboard.runs.current_run import (
    RUN_STATE_MOVES,
    RUN_STATES,
    CurrentRun,
    RunState,
    RunStateError,
)

DASHBOARD = Path(__file__).resolve().parents[3] / "tui" / "dashboard"

FORBIDDEN: frozenset[tuple[RunState, RunState]] = frozenset(
    {
        # Nothing goes back to idle, and idle is left only by a run starting (or failing to).
        *((state, "idle") for state in RUN_STATES),
        ("idle", "solved"),
        ("idle", "stopped"),
        # An ended run does not end again another way; a failed one never ends by its rule.
        ("solved", "stopped"),
        ("stopped", "solved"),
        ("error", "solved"),
        ("error", "stopped"),
    }
)


def run_in(state: RunState) -> CurrentRun:
    """A run brought to ``state`` by allowed moves."""
    run = CurrentRun()
    road: dict[RunState, list[RunState]] = {
        "idle": [],
        "running": ["running"],
        "paused": ["paused"],
        "solved": ["running", "solved"],
        "stopped": ["running", "stopped"],
        "error": ["error"],
    }
    for step in road[state]:
        run.move_to(step)
    assert run.state == state
    return run


def test_every_state_has_its_moves() -> None:
    assert set(RUN_STATE_MOVES) == set(RUN_STATES)
    assert CurrentRun().state == "idle"


@pytest.mark.parametrize(("before", "after"), list(itertools.product(RUN_STATES, RUN_STATES)))
def test_a_move_is_made_exactly_when_it_is_allowed(before: RunState, after: RunState) -> None:
    run = run_in(before)
    if (before, after) in FORBIDDEN:
        with pytest.raises(RunStateError, match=f"from {before} to {after}"):
            run.move_to(after)
        assert run.state == before
    else:
        run.move_to(after)
        assert run.state == after


def test_the_state_is_read_only_outside_its_one_writer() -> None:
    run = CurrentRun()
    with pytest.raises(AttributeError):
        run.state = "running"  # type: ignore[misc]


def test_no_module_of_the_dashboard_sets_the_state_but_the_run_itself() -> None:
    assignment = re.compile(r"\brun\.(_?state)\s*=[^=]")
    setters = [
        f"{path.relative_to(DASHBOARD)}:{number}"
        for path in DASHBOARD.rglob("*.py")
        if path.name != "current_run.py"
        for number, line in enumerate(path.read_text().splitlines(), 1)
        if assignment.search(line)
    ]
    assert setters == []
