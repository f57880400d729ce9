"""Keys typed straight after the key that opens a field go into that field, as a terminal
sends them: all at once, before the dashboard has answered the first (a pilot's ``press``
waits for each key to be handled, so these tests hand the keys to the driver instead)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest
from textual import events
from textual.widgets import Input

from engine import Config
from tui.dashboard.app import QueensApp
from tui.dashboard.screens.generation_prompt import GenerationPrompt

WaitFor = Callable[..., Awaitable[None]]

SIX = Config(n=8, population=20, seed=1, generations=6, stop_when_solved=False)


def type_at_once(app: QueensApp, *keys: str) -> None:
    """The keys as a terminal driver hands them to the app, one after another, at once."""
    driver = app._driver
    assert driver is not None
    for key in keys:
        character = {"enter": "\r"}.get(key, key)
        event = events.Key(key, character)
        event.set_sender(app)
        driver.send_message(event)


def shown_generation(app: QueensApp) -> int:
    latest = app.main_screen.run.latest
    return -1 if latest is None else latest.generation


async def recorded_run_at_its_end(app: QueensApp, pilot: object, wait_for: WaitFor) -> None:
    for generation in range(1, 7):
        await pilot.press("n")  # type: ignore[attr-defined]
        await wait_for(pilot, lambda g=generation: shown_generation(app) == g, "a step")


async def test_g_and_a_generation_typed_at_once_go_there(tmp_path: Path, wait_for: WaitFor) -> None:
    # The digits went to the population table, and the enter asked for generation ''.
    app = QueensApp(SIX, frozen_clock=True, record=True, store=str(tmp_path / "r.sqlite3"))
    async with app.run_test(size=(100, 32)) as pilot:
        await recorded_run_at_its_end(app, pilot, wait_for)
        type_at_once(app, "g", "2", "enter")
        await wait_for(pilot, lambda: shown_generation(app) == 2, "generation 2")
        assert app.screen is app.main_screen
        type_at_once(app, "g", "1", "x", "enter")
        await wait_for(pilot, lambda: isinstance(app.screen, GenerationPrompt), "the prompt")
        await pilot.pause(0.2)
        error = str(app.screen.query_one("#prompt-error").render())
        assert error.startswith("generation: '1x' is not allowed"), error


async def test_f_and_a_number_typed_at_once_replace_the_field_as_typed_slowly(
    wait_for: WaitFor,
) -> None:
    app = QueensApp(SIX, frozen_clock=True)
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.press("f", "3", "0", "escape")  # slowly: the field selects what it holds
        field = app.query_one("#field-n", Input)
        assert field.value == "30"
        await pilot.press("f", "1", "0", "escape")
        assert field.value == "10"
        type_at_once(app, "f", "2", "4")
        await wait_for(pilot, lambda: field.value == "24", "24 in the field")
        await pilot.pause(0.2)
        assert field.value == "24" and app.focused is field


async def test_e_and_a_folder_typed_at_once_go_into_the_folder_field(
    tmp_path: Path, wait_for: WaitFor, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The q of the folder came back up to the app as a key, and quit.
    from tui.dashboard.screens.export import ExportScreen

    monkeypatch.chdir(tmp_path)
    app = QueensApp(SIX, frozen_clock=True)
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.press("n")
        await wait_for(pilot, lambda: shown_generation(app) == 1, "a step")
        await pilot.press("e", "q", "s")  # slowly: the field selects what it holds
        slowly = app.screen.query_one("#export-folder", Input).value
        await pilot.press("escape")
        type_at_once(app, "e", "q", "s")
        await wait_for(pilot, lambda: isinstance(app.screen, ExportScreen), "the export screen")
        field = app.screen.query_one("#export-folder", Input)
        await wait_for(pilot, lambda: field.value == slowly, f"{slowly!r} in the field")
        await pilot.pause(0.2)
        assert app.is_running and field.value == slowly == "qs"
