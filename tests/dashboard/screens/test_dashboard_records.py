"""Pilot tests of the dashboard's records: a run is recorded from its first step (a dashboard
opened and closed leaves no empty record), with ``queens tui --label``'s label, and the
palette's ``Label this run`` names the run shown."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path

from textual.pilot import Pilot
from textual.widgets import Input

from engine import Config
from tui.dashboard.app import QueensApp
from tui.dashboard.screens.label_prompt import LabelPrompt
from tui.lab.store import RunStore

WaitFor = Callable[..., Awaitable[None]]

ENDLESS = Config(n=10, population=16, seed=4, stop_when_solved=False)


def _runs(path: Path) -> list[tuple[int, int, str | None]]:
    """``(id, last generation, label)`` of every run in the store (none when it is missing)."""
    if not path.exists():
        return []
    with RunStore.open(path) as store:
        return [(info.id, info.generations, info.label) for info in store.runs()]


def _generation(app: QueensApp) -> int:
    latest = app.main_screen.run.latest
    return -1 if latest is None else latest.generation


async def test_a_dashboard_opened_and_closed_without_a_step_records_nothing(
    tmp_path: Path,
) -> None:
    path = tmp_path / "runs.sqlite3"
    app = QueensApp(ENDLESS, frozen_clock=True, record=True, store=str(path))
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.pause()
        await pilot.press("left_square_bracket")  # nothing to go back to: said so
        await pilot.pause()
        assert app.main_screen.recording.run_id is None
        assert app.main_screen.recording.expecting
    assert _runs(path) == []


async def test_the_first_step_records_the_run_from_generation_0_with_the_label(
    tmp_path: Path, wait_for: WaitFor
) -> None:
    path = tmp_path / "runs.sqlite3"
    app = QueensApp(ENDLESS, frozen_clock=True, record=True, store=str(path), label="warm-up")
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.press("n", "n")
        await wait_for(pilot, lambda: _generation(app) == 2, "two steps")
        assert app.main_screen.status.run_label == "run 1"
        await pilot.press("left_square_bracket", "left_square_bracket")  # generation 0: recorded
        await wait_for(pilot, lambda: _generation(app) == 0, "generation 0")
    [(run_id, generations, label)] = _runs(path)
    assert (run_id, generations, label) == (1, 2, "warm-up")


async def test_space_records_the_run_too(tmp_path: Path, wait_for: WaitFor) -> None:
    path = tmp_path / "runs.sqlite3"
    app = QueensApp(ENDLESS, frozen_clock=True, record=True, store=str(path))
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.pause()
        assert _runs(path) == []  # not before it runs
        await pilot.press("space")
        await wait_for(pilot, lambda: _generation(app) >= 3, "a few generations")
        await pilot.press("space")
    [(run_id, generations, label)] = _runs(path)
    assert run_id == 1 and generations >= 3 and label is None


async def _label_from_palette(
    app: QueensApp, pilot: Pilot[None], wait_for: WaitFor, text: str
) -> None:
    await pilot.press("ctrl+p")
    await pilot.pause()
    await pilot.press(*"Label this run")
    await pilot.pause(0.3)
    await pilot.press("enter")
    await wait_for(pilot, lambda: isinstance(app.screen, LabelPrompt), "the label prompt")
    await pilot.pause()
    app.screen.query_one(Input).value = ""
    await pilot.press(*text, "enter")
    await wait_for(pilot, lambda: not isinstance(app.screen, LabelPrompt), "the prompt to close")


async def test_the_palette_labels_the_run_being_recorded(tmp_path: Path, wait_for: WaitFor) -> None:
    path = tmp_path / "runs.sqlite3"
    app = QueensApp(ENDLESS, frozen_clock=True, record=True, store=str(path), label="old name")
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.press("n")
        await wait_for(pilot, lambda: _generation(app) == 1, "a step")
        await _label_from_palette(app, pilot, wait_for, "mutation at 0.3")
        assert [label for _, _, label in _runs(path)] == ["mutation at 0.3"]
    assert _runs(path) == [(1, 1, "mutation at 0.3")]


async def test_the_palette_labels_a_run_before_its_first_step(
    tmp_path: Path, wait_for: WaitFor
) -> None:
    path = tmp_path / "runs.sqlite3"
    app = QueensApp(ENDLESS, frozen_clock=True, record=True, store=str(path))
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.pause()
        await _label_from_palette(app, pilot, wait_for, "first look")
        assert _runs(path) == []  # still nothing recorded
        await pilot.press("n")
        await wait_for(pilot, lambda: _generation(app) == 1, "a step")
    assert _runs(path) == [(1, 1, "first look")]


async def test_a_label_that_is_not_allowed_is_said_on_the_prompt(
    tmp_path: Path, wait_for: WaitFor
) -> None:
    path = tmp_path / "runs.sqlite3"
    app = QueensApp(ENDLESS, frozen_clock=True, record=True, store=str(path), label="kept")
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.press("n")
        await wait_for(pilot, lambda: _generation(app) == 1, "a step")
        app.main_screen.record_keys.ask_label()
        await wait_for(pilot, lambda: isinstance(app.screen, LabelPrompt), "the label prompt")
        await pilot.pause()
        assert app.screen.query_one(Input).value == "kept"  # it starts from the label it has
        app.screen.query_one(Input).value = "x" * 61
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, LabelPrompt)
        error = str(app.screen.query_one("#label-error").render())
        assert error.startswith("label: ") and "61 characters" in error
        await pilot.press("escape")
    assert _runs(path) == [(1, 1, "kept")]
