"""Pilot tests of the dashboard's guides: the too-small screen, the seed and the command
that reruns a run, a status line that never wraps, presets shown in the form, the guiding
form, the command palette and themes that persist.

Seeded configs and paused runs only: nothing here depends on the machine's speed.
"""

from __future__ import annotations

import json
import shlex
from collections.abc import Awaitable, Callable
from pathlib import Path

import numpy as np
import pytest
from textual.command import CommandPalette
from textual.widgets import Input, Select

from engine import Config, GeneticAlgorithm
from engine.config.presets import PRESETS
from tui.cli.command_line import main as queens_main
from tui.dashboard.app import QueensApp
from tui.dashboard.files.settings import load_settings
from tui.dashboard.palette import palette_commands, save_screenshot_here
from tui.dashboard.pictures.form_guide import fitting_choices
from tui.dashboard.screens import HelpScreen
from tui.dashboard.screens.export import ExportScreen
from tui.dashboard.screens.too_small import TooSmallScreen
from tui.dashboard.widgets import ParamForm, PresetSelect

WaitFor = Callable[..., Awaitable[None]]

ENDLESS = Config(n=24, population=50, seed=7, stop_when_solved=False)


def make_app(config: Config | None = ENDLESS) -> QueensApp:
    return QueensApp(config, frozen_clock=True)


# Defect 4: below 80x24 only q (and a resize) act --------------------------------------------


async def test_a_too_small_terminal_takes_no_key_but_q() -> None:
    app = make_app()
    async with app.run_test(size=(60, 18)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, TooSmallScreen)
        run_id = app.main_screen.runner.run_id
        await pilot.press("f", "9", "r", "space", "n", "s", "x", "question_mark", "ctrl+p")
        await pilot.pause(0.2)
        assert isinstance(app.screen, TooSmallScreen)
        assert app.main_screen.form.values()["n"] == "24"
        assert app.main_screen.runner.run_id == run_id
        assert app.main_screen.run.state == "paused" and app.main_screen.run.latest is not None
        assert app.main_screen.run.latest.generation == 0
        await pilot.resize_terminal(100, 32)
        await pilot.pause()
        assert not isinstance(app.screen, TooSmallScreen)
        await pilot.resize_terminal(70, 30)
        await pilot.pause()
        assert "70x30" in str(app.screen.query_one("#too-small").render())
        await pilot.press("q")
        await pilot.pause()
        assert not app.is_running


# Defect 7: the seed and the command that reruns the run ------------------------------------


async def test_a_random_seed_is_shown_and_the_command_reruns_the_run(
    wait_for: WaitFor, capsys: pytest.CaptureFixture[str]
) -> None:
    app = make_app(Config(n=12, population=30, generations=15, stop_when_solved=False))
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.pause()
        algorithm = app.main_screen.runner.algorithm
        assert algorithm is not None
        seed = algorithm.seed
        assert f"seed {seed}" in str(app.main_screen.status.render())
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        command = app.main_screen.run_command()
        assert command is not None and f"--seed {seed}" in command
        assert any(command in note for _, note in app.screen.notes)
        await pilot.press("escape")
        await pilot.pause()
        await pilot.press("space")
        await wait_for(
            pilot, lambda: app.main_screen.run.state in ("stopped", "solved"), "15 generations"
        )
        shown = app.main_screen.run.latest
    words = shlex.split(command)
    assert words[:2] == ["queens", "solve"]
    assert queens_main([*words[1:], "--json"]) in (0, 1)
    printed = json.loads(capsys.readouterr().out)
    rerun = GeneticAlgorithm(
        Config(n=12, population=30, generations=15, seed=seed, stop_when_solved=False)
    )
    while rerun.has_next():
        rerun.step()
    assert shown is not None and printed["generations"] == shown.generation == 15
    assert printed["seed"] == seed and printed["evaluations"] == shown.evaluations
    assert printed["fitness"] == shown.stats.best_fitness
    assert printed["genome"] == shown.population[shown.best_index].tolist()
    assert np.array_equal(rerun.snapshot.population, shown.population)


# Defect 8: the status line fits and notifications leave the table alone ---------------------


@pytest.mark.parametrize("size", [(80, 24), (100, 32)])
async def test_the_status_line_is_one_line_that_keeps_the_seed(
    size: tuple[int, int], wait_for: WaitFor
) -> None:
    app = QueensApp(Config(n=200, population=5000, seed=1234567890, stop_when_solved=False))
    async with app.run_test(size=size) as pilot:
        await pilot.press("space")
        await wait_for(
            pilot,
            lambda: (
                app.main_screen.run.latest is not None
                and app.main_screen.run.latest.generation >= 2
            ),
            "gens",
        )
        await pilot.pause(0.3)
        text = str(app.main_screen.status.render())
        await pilot.press("space")
        assert app.main_screen.status.region.height == 1
        assert len(text) <= app.main_screen.status.content_region.width
        assert "seed 1234567890" in text
        assert "RUNNING" in text


async def test_notifications_do_not_cover_the_table() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        app.notify("a fairly long notification that takes a few lines", timeout=30)
        await pilot.pause(0.3)
        toasts = list(app.screen.query("Toast"))
        assert toasts
        for toast in toasts:
            assert not toast.region.overlaps(app.main_screen.table.region)


# Defect 9: --preset NAME shows in the form, and names are not cut ---------------------------


@pytest.mark.parametrize("name", list(PRESETS))
async def test_the_form_shows_the_preset_it_was_opened_with(name: str) -> None:
    app = make_app(PRESETS[name].config(seed=5))
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.press("f")  # the form's drawer may be closed to leave the board room
        await pilot.pause()
        select = app.query_one(PresetSelect)
        assert select.value == name
        label = select.query_one("SelectCurrent #label")
        assert name in str(label.render())
        assert label.region.width >= len(name)  # shown whole, not cut
        app.main_screen.form.set_value("population", 123)
        await pilot.pause()
        assert select.is_blank()


# The form guides -------------------------------------------------------------------------


async def test_fields_are_grouped_as_a_ga_is_taught() -> None:
    app = make_app()
    async with app.run_test(size=(100, 32)):
        titles = [str(s.render()) for s in app.main_screen.form.query(".section")]
        assert titles[:7] == [
            "Problem",
            "Population",
            "Selection",
            "Variation",
            "Survivors",
            "Stop rules",
            "Seed",
        ]


@pytest.mark.parametrize(
    ("field", "other", "applying", "not_applying"),
    [
        ("tournament_size", "selection", "tournament", "roulette"),
        ("gene_rate", "mutation", "shuffle-indexes", "swap"),
        ("candidates", "mutation", "conflict", "swap"),
        ("elitism", "survivor", "generational", "plus"),
    ],
)
async def test_a_field_that_does_not_apply_is_dimmed(
    field: str, other: str, applying: str, not_applying: str
) -> None:
    app = make_app()
    async with app.run_test(size=(100, 32)) as pilot:
        row = app.main_screen.form.query_one(f"#row-{field}")
        app.main_screen.form.set_value(other, not_applying)
        await pilot.pause()
        assert row.has_class("-inapplicable")
        app.main_screen.form.set_value(other, applying)
        await pilot.pause()
        assert not row.has_class("-inapplicable")


async def test_operators_offered_fit_the_encoding_and_switch_with_it() -> None:
    app = make_app()
    async with app.run_test(size=(100, 32)) as pilot:
        crossover = app.query_one("#field-crossover", Select)
        offered = {value for _, value in crossover._options}
        assert offered == set(fitting_choices("crossover", "permutation"))
        app.main_screen.form.set_value("encoding", "integer")
        await pilot.pause()
        offered = {value for _, value in crossover._options}
        assert offered == set(fitting_choices("crossover", "integer"))
        assert "ox" not in offered and crossover.value in offered
        assert app.main_screen.form.errors == []
        assert any(n.title == "Operators switched" for n in app._notifications)
        mutation = app.query_one("#field-mutation", Select)
        mutation.value = "random-reset"
        await pilot.pause()
        app.main_screen.form.set_value("encoding", "permutation")
        await pilot.pause()
        assert mutation.value != "random-reset"
        assert app.main_screen.form.errors == []


async def test_errors_are_whole_under_their_field_and_help_is_visible() -> None:
    app = make_app()
    async with app.run_test(size=(100, 32)) as pilot:
        field = app.query_one("#field-tournament_size", Input)
        field.value = "80"
        await pilot.pause()
        error = app.main_screen.form.query_one("#error-tournament_size")
        message = str(app.main_screen.form.errors[0])
        assert error.display and message in str(error.render()).replace("\n", " ")
        await pilot.press("f")
        await pilot.pause()
        help_line = app.main_screen.form.query_one("#form-help")
        assert help_line.region.height > 0
        assert "tournament" in str(help_line.render())


async def test_new_engine_fields_show_up_in_the_form() -> None:
    app = make_app()
    async with app.run_test(size=(100, 32)):
        from engine import FIELDS

        for name in FIELDS:
            assert app.main_screen.form.field_widget(name) is not None


# Command palette and themes ------------------------------------------------------------------


async def test_the_palette_offers_actions_presets_themes_and_a_screenshot(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = make_app()
    async with app.run_test(size=(100, 32)) as pilot:
        names = {command.name for command in palette_commands(app.main_screen, app)}
        for expected in ("Run/Pause", "Step", "New", "Help", "Save screenshot", "Label this run"):
            assert expected in names
        for preset in PRESETS:
            assert f"Preset {preset}" in names and f"New run with preset {preset}" in names
        assert "Theme nord" in names
        await pilot.press("ctrl+p")
        await pilot.pause()
        assert isinstance(app.screen, CommandPalette)
        await pilot.press(*"new run with preset sheppard")
        await pilot.pause(0.5)
        await pilot.press("enter")
        await pilot.pause(0.3)
        algorithm = app.main_screen.runner.algorithm
        assert algorithm is not None and algorithm.config == PRESETS["sheppard"].config(24, seed=7)
        # Sheppard's GA on the form's 24 queens: not the preset itself (8 queens), so custom.
        assert app.query_one(PresetSelect).is_blank()
        monkeypatch.chdir(tmp_path)
        save_screenshot_here(app)
        await pilot.pause()
        assert isinstance(app.screen, ExportScreen)  # asks where: the downloads folder first
        await pilot.press("enter")
        await pilot.pause()
        assert list((Path.home() / "Downloads").glob("queens-screen-*.svg"))
        assert not list(tmp_path.glob("queens-screen-*.svg"))  # not the current directory


async def test_a_theme_switches_and_is_kept(private_settings: Path) -> None:
    app = make_app()
    async with app.run_test(size=(100, 32)) as pilot:
        app.theme = "nord"
        await pilot.pause()
    assert load_settings() == {"theme": "nord"}
    assert (private_settings / "settings.json").exists()
    again = make_app()
    async with again.run_test(size=(100, 32)) as pilot:
        await pilot.pause()
        assert again.theme == "nord"


async def test_a_broken_settings_file_is_ignored(private_settings: Path) -> None:
    private_settings.mkdir(parents=True)
    (private_settings / "settings.json").write_text("[not json", encoding="utf-8")
    app = make_app()
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.pause()
        assert app.theme == "textual-dark"
        assert isinstance(app.main_screen.form, ParamForm)
