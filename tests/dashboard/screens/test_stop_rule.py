"""A dashboard run that no longer improves ends: the stop rule shows in the form, with its value,
can be changed or emptied there, and says in the status line why it stopped. The form's
record-budget bounds the next run's record; a dashboard run's history in memory is bounded."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path

from textual.widgets import Input, Static

from engine import Config
from tui.dashboard.app import QueensApp
from tui.dashboard.runs.stop_rule import DEFAULT_STAGNATION
from tui.dashboard.widgets.engine_runner import DASHBOARD_HISTORY

WaitFor = Callable[..., Awaitable[None]]
STALLED = Config(n=8, mutation_rate=0.0, seed=1, stop_when_solved=False)
"""A run that stops improving at once: no mutation, and a solution does not end it."""


def status_text(app: QueensApp) -> str:
    return str(app.main_screen.status.render()).replace("\xa0", " ")


async def test_the_dashboard_opens_with_its_stop_rule_in_the_form() -> None:
    app = QueensApp(frozen_clock=True)
    async with app.run_test(size=(100, 32)) as pilot:
        screen = app.main_screen
        field = screen.form.field_widget("stagnation")
        assert isinstance(field, Input) and field.value == str(DEFAULT_STAGNATION)
        assert screen.runner.algorithm is not None
        assert screen.runner.algorithm.config.stagnation == DEFAULT_STAGNATION
        # The preset is still the showcase: a stop rule says when to stop, not which GA.
        assert str(screen.form.query_one("#field-preset").value) == "showcase"
        screen.form.put_cursor_in(field)
        await pilot.pause(0.1)
        help_line = str(screen.form.query_one("#form-help", Static).content)
        assert f"the dashboard's stop rule, {DEFAULT_STAGNATION:,}" in help_line
        # A run keeps a bounded history in memory, however long it goes.
        assert screen.runner.algorithm.history.limit == DASHBOARD_HISTORY


async def test_a_stalled_run_stops_by_the_form_s_stagnation_and_says_why(
    wait_for: WaitFor,
) -> None:
    app = QueensApp(STALLED, frozen_clock=True)
    async with app.run_test(size=(100, 32)) as pilot:
        screen = app.main_screen
        await pilot.press("f")
        field = screen.form.field_widget("stagnation")
        screen.form.put_cursor_in(field)
        await pilot.pause(0.05)
        assert isinstance(field, Input)
        field.value = ""
        await pilot.press(*"30", "enter")  # enter in a field starts a run from the form
        await wait_for(pilot, lambda: screen.run.state == "stopped", "the stop rule")
        assert screen.run.latest is not None
        assert screen.run.latest.stop_reason == "stagnation"
        assert screen.run.latest.generation < 100
        await pilot.pause(0.2)
        assert "STOPPED: stagnation: no better in 30 generations" in status_text(app)


async def test_an_emptied_stagnation_field_runs_without_the_stop_rule(wait_for: WaitFor) -> None:
    app = QueensApp(STALLED.replace(stagnation=DEFAULT_STAGNATION), frozen_clock=True)
    async with app.run_test(size=(100, 32)) as pilot:
        screen = app.main_screen
        screen.form.set_value("stagnation", None)
        screen.action_new_run()
        await wait_for(pilot, lambda: screen.run.state == "running", "the run")
        assert screen.runner.algorithm is not None
        assert screen.runner.algorithm.config.stagnation is None


async def test_the_form_s_record_budget_bounds_the_next_record(
    tmp_path: Path, wait_for: WaitFor
) -> None:
    store = tmp_path / "runs.sqlite3"
    app = QueensApp(STALLED, frozen_clock=True, record=True, store=str(store))
    async with app.run_test(size=(100, 32)) as pilot:
        screen = app.main_screen
        budget = screen.form.query_one("#field-record_budget", Input)
        assert budget.value == "64MB"
        budget.value = "64XB"
        await pilot.pause(0.05)
        screen.action_new_run()
        await pilot.pause(0.1)
        error = str(screen.form.query_one("#error-record_budget", Static).content)
        assert "record-budget: '64XB' is not allowed; a size from 64KB" in error
        assert screen.form.first_invalid() is budget
        budget.value = "256KB"
        await pilot.pause(0.05)
        screen.action_new_run()
        # The opening run never stepped, so it left no record: the new run's is the first.
        await wait_for(pilot, lambda: screen.recording.run_id is not None, "the new record")
        recorder = screen.recording._recorder
        assert recorder is not None and recorder.record_budget == 256 * 2**10
