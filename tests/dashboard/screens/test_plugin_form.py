"""Pilot tests of plug-in operators in the dashboard: the palette's ``Plug-in mutation from a
file`` loads one into the form (a file that cannot be used is said on the prompt), a run of it
is the engine's run bit for bit, and a config that names one fills the form with it."""

from __future__ import annotations

import shutil
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest
from textual.widgets import Input, Select

from engine import Config, GeneticAlgorithm
from tui.dashboard.app import QueensApp
from tui.dashboard.palette import palette_commands
from tui.dashboard.screens.plugin_prompt import PluginPrompt

WaitFor = Callable[..., Awaitable[None]]

EXAMPLES = Path(__file__).resolve().parents[3] / "docs" / "examples" / "plugin_ops.py"
START = Config(n=10, population=16, seed=4, stop_when_solved=False)


@pytest.fixture
def ops(tmp_path: Path) -> Path:
    path = tmp_path / "ops.py"
    shutil.copyfile(EXAMPLES, path)
    return path


def _generation(app: QueensApp) -> int:
    latest = app.main_screen.run.latest
    return -1 if latest is None else latest.generation


async def test_the_palette_loads_a_plug_in_and_its_run_is_the_engines(
    ops: Path, tmp_path: Path, wait_for: WaitFor
) -> None:
    app = QueensApp(START, frozen_clock=True)
    async with app.run_test(size=(110, 36)) as pilot:
        await pilot.pause()
        names = [command.name for command in palette_commands(app.main_screen, app)]
        assert "Plug-in mutation from a file" in names
        app.main_screen.ask_plugin("mutation")
        await wait_for(pilot, lambda: isinstance(app.screen, PluginPrompt), "the prompt")
        await pilot.pause()
        app.screen.query_one(Input).value = f"{tmp_path / 'gone.py'}:swap_two_queens"
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, PluginPrompt)
        error = str(app.screen.query_one("#plugin-error").render())
        assert "gone.py:swap_two_queens" in error and "check 'file' failed" in error
        app.screen.query_one(Input).value = f"{ops}:swap_two_queens"
        await pilot.press("enter")
        await wait_for(pilot, lambda: not isinstance(app.screen, PluginPrompt), "the prompt")
        chosen = app.main_screen.form.field_widget("mutation")
        assert isinstance(chosen, Select)
        assert str(chosen.value).startswith(f"{ops}:swap_two_queens@")
        config = app.main_screen.form.config()
        assert config is not None and config.mutation == chosen.value
        assert app.main_screen.start_run(config, run=False)  # as r does, paused
        app.main_screen.table.focus()
        await wait_for(pilot, lambda: _generation(app) == 0, "the new run")
        await pilot.press("n", "n", "n")
        await wait_for(pilot, lambda: _generation(app) == 3, "three steps")
        shown = app.main_screen.run.latest
        assert shown is not None
    engine = GeneticAlgorithm(config)
    for _ in range(3):
        engine.step()
    assert engine.snapshot.population.tobytes() == shown.population.tobytes()


async def test_a_config_naming_a_plug_in_fills_the_form_with_it(
    ops: Path, wait_for: WaitFor
) -> None:
    config = START.replace(crossover=f"{ops}:head_and_rest", crossover_rate=0.5)
    app = QueensApp(config, frozen_clock=True)
    async with app.run_test(size=(110, 36)) as pilot:
        await pilot.pause()
        chosen = app.main_screen.form.field_widget("crossover")
        assert isinstance(chosen, Select) and chosen.value == config.crossover
        assert app.main_screen.form.errors == []
        await pilot.press("n", "n")
        await wait_for(pilot, lambda: _generation(app) == 2, "two steps")
        shown = app.main_screen.run.latest
        assert shown is not None
    engine = GeneticAlgorithm(config)
    engine.step()
    engine.step()
    assert engine.snapshot.population.tobytes() == shown.population.tobytes()
