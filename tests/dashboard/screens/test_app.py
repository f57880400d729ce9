"""Pilot tests of the dashboard: every binding, the form's validation, resizing, engine errors.

Runs are seeded and, where a run must keep going, never stop on their own (no solution stop,
no limits), so the tests do not depend on how fast the machine is.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import numpy as np
import pytest
from textual.widgets import Input, Select

from engine import Config, GeneticAlgorithm
from tui.dashboard.app import QueensApp
from tui.dashboard.screens import HelpScreen
from tui.dashboard.screens.too_small import TooSmallScreen
from tui.dashboard.widgets import (
    SPEED_LIMITS,
    Board,
    ConflictList,
    ParamForm,
    PopulationTable,
    PresetSelect,
)

WaitFor = Callable[..., Awaitable[None]]

ENDLESS = Config(n=24, population=50, seed=7, stop_when_solved=False)
"""Keeps running until paused: no stop rule at all."""


def make_app(config: Config = ENDLESS, **kwargs: object) -> QueensApp:
    return QueensApp(config, frozen_clock=True, **kwargs)  # type: ignore[arg-type]


def algorithm(app: QueensApp) -> GeneticAlgorithm:
    running = app.main_screen.runner.algorithm
    assert running is not None
    return running


def generation(app: QueensApp) -> int:
    assert app.main_screen.run.latest is not None
    return app.main_screen.run.latest.generation


async def test_opens_paused_at_generation_zero_with_the_form_prefilled() -> None:
    app = make_app()
    async with app.run_test(size=(100, 32)):
        assert app.main_screen.run.state == "paused"
        assert generation(app) == 0
        assert app.query_one("#field-n", Input).value == "24"
        assert app.query_one("#field-seed", Input).value == "7"
        assert app.main_screen.board.n == 24


async def test_the_app_without_flags_opens_on_the_showcase_at_its_speed() -> None:
    from tui.dashboard.runs.showcase import SHOWCASE, SHOWCASE_SPEED

    app = QueensApp()
    async with app.run_test(size=(100, 32)):
        assert app.query_one("#field-n", Input).value == str(SHOWCASE.n)
        assert app.query_one("#field-mutation", Select).value == SHOWCASE.mutation
        assert app.main_screen.runner.speed_limit == SHOWCASE_SPEED
        assert app.main_screen.board.n == SHOWCASE.n
        # Nothing was edited: the form names the showcase, a preset like the others.
        assert app.query_one(PresetSelect).value == "showcase"


async def test_the_showcase_can_be_chosen_again_after_an_edit() -> None:
    from tui.dashboard.runs.showcase import SHOWCASE
    from tui.dashboard.runs.stop_rule import with_stop_rule

    app = QueensApp()
    async with app.run_test(size=(100, 32)) as pilot:
        app.query_one("#field-population", Input).value = "60"
        await pilot.pause()
        assert app.query_one(PresetSelect).value != "showcase"
        app.query_one(PresetSelect).value = "showcase"
        await pilot.pause()
        chosen = app.query_one(ParamForm).config()
        # The dashboard's stop rule stays: the preset has no stagnation limit of its own.
        assert chosen is not None and chosen == with_stop_rule(SHOWCASE).replace(seed=chosen.seed)
        assert app.query_one("#field-population", Input).value == "100"


async def test_space_runs_and_pauses_without_losing_history(wait_for: WaitFor) -> None:
    app = make_app()
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.press("space")
        assert app.main_screen.run.state == "running"
        assert app.main_screen.status.has_class("-running")
        await wait_for(pilot, lambda: generation(app) >= 20, "the run to advance")
        await pilot.press("space")
        assert app.main_screen.run.state == "paused"
        assert app.main_screen.status.has_class("-paused")
        await wait_for(
            pilot,
            lambda: generation(app) == algorithm(app).snapshot.generation,
            "flush",
        )
        paused_at = generation(app)
        await pilot.pause(0.3)
        assert generation(app) == paused_at
        history = algorithm(app).history
        assert len(history) == paused_at + 1
        assert history.column("generation").tolist() == list(range(paused_at + 1))
        # The UI's own copy of the history skipped no generation either.
        await wait_for(
            pilot,
            lambda: len(app.main_screen.run.series) == paused_at + 1,
            "the series to catch up",
        )
        assert app.main_screen.run.series.columns["generation"] == list(range(paused_at + 1))


async def test_n_steps_exactly_one_generation(wait_for: WaitFor) -> None:
    app = make_app()
    async with app.run_test(size=(100, 32)) as pilot:
        for expected in (1, 2, 3):
            await pilot.press("n")
            await wait_for(pilot, lambda e=expected: generation(app) == e, f"generation {expected}")
        await pilot.pause(0.3)
        assert generation(app) == 3
        assert app.main_screen.run.state == "paused"


async def test_stepping_in_the_app_gives_the_headless_run(wait_for: WaitFor) -> None:
    app = make_app()
    async with app.run_test(size=(100, 32)) as pilot:
        for _ in range(4):
            await pilot.press("n")
        await wait_for(pilot, lambda: generation(app) == 4, "four steps")
        await pilot.press("space")
        await wait_for(pilot, lambda: generation(app) >= 30, "thirty generations")
        await pilot.press("space")
        await pilot.pause(0.2)
        driven = algorithm(app).snapshot
    headless = GeneticAlgorithm(ENDLESS)
    for _ in range(driven.generation):
        headless.step()
    assert np.array_equal(headless.snapshot.population, driven.population)
    assert np.array_equal(headless.snapshot.fitness, driven.fitness)


async def test_r_starts_a_new_run_from_the_form(wait_for: WaitFor) -> None:
    app = make_app()
    async with app.run_test(size=(100, 32)) as pilot:
        first = app.main_screen.runner.run_id
        form = app.query_one(ParamForm)
        form.set_value("n", 10)
        form.set_value("seed", 99)
        await pilot.press("r")
        assert app.main_screen.runner.run_id == first + 1
        assert app.main_screen.run.state == "running"
        assert algorithm(app).config.n == 10
        assert algorithm(app).seed == 99
        await wait_for(pilot, lambda: app.main_screen.board.n == 10, "the board to follow")


async def test_enter_in_a_form_field_starts_a_run() -> None:
    app = make_app()
    async with app.run_test(size=(100, 32)) as pilot:
        first = app.main_screen.runner.run_id
        await pilot.press("f")
        await pilot.pause()
        assert isinstance(app.focused, Input)
        await pilot.press("enter")
        assert app.main_screen.runner.run_id == first + 1


async def test_f_focuses_the_form_escape_and_t_the_table_at_80x24() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        form = app.query_one(ParamForm)
        assert app.query_one("#body").has_class("-compact")
        assert not form.display or form.region.width == 0
        await pilot.press("f")
        await pilot.pause()
        assert form.display and form.region.width > 0
        assert app.focused is not None and form in app.focused.ancestors
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.focused, PopulationTable)
        assert form.region.width == 0
        await pilot.press("f")
        await pilot.pause()
        app.set_focus(app.main_screen.board)
        await pilot.press("t")
        assert isinstance(app.focused, PopulationTable)


async def test_enter_inspects_a_row_and_b_goes_back_to_the_best(wait_for: WaitFor) -> None:
    app = make_app()
    async with app.run_test(size=(100, 32)) as pilot:
        for _ in range(3):
            await pilot.press("n")
        await wait_for(pilot, lambda: generation(app) == 3, "three steps")
        await pilot.pause(0.1)
        table = app.main_screen.table
        assert table.whole and table.row_count == ENDLESS.population
        await pilot.press("t", "down", "down", "enter")
        await pilot.pause()
        assert app.main_screen.run.inspected is not None
        snapshot, index = app.main_screen.run.inspected
        assert table.cursor_row == 2 and table.get_row_at(2)[1] == index
        assert app.main_screen.board.border_title == f"#{index} of gen 3"
        genome = snapshot.population[index]
        assert app.main_screen.board.position is not None
        assert app.main_screen.board.position.rows.tolist() == genome.tolist()
        assert app.query_one(ConflictList).display
        await pilot.press("b")
        await pilot.pause()
        assert app.main_screen.run.inspected is None
        assert app.main_screen.board.border_title == "best"
        assert not app.query_one(ConflictList).display


async def test_plus_and_minus_change_the_speed_limit() -> None:
    app = make_app()
    async with app.run_test(size=(100, 32)) as pilot:
        assert app.main_screen.runner.speed_limit is None
        await pilot.press("minus")
        assert app.main_screen.runner.speed_limit == SPEED_LIMITS[-2]
        for _ in range(10):
            await pilot.press("minus")
        assert app.main_screen.runner.speed_limit == SPEED_LIMITS[0] == 1.0
        await pilot.press("plus", "plus")
        assert app.main_screen.runner.speed_limit == SPEED_LIMITS[2]
        await pilot.pause()
        assert "(limit 20/s)" in str(app.query_one("#status").render())


async def test_slow_motion_holds_the_engine_back() -> None:
    app = make_app()
    async with app.run_test(size=(100, 32)) as pilot:
        for _ in range(10):
            await pilot.press("minus")
        await pilot.press("space")
        await pilot.pause(0.6)
        # 1 generation per second: a broken limiter would have run hundreds by now.
        assert algorithm(app).snapshot.generation <= 2
        await pilot.press("space")


async def test_question_mark_shows_every_binding_and_closes() -> None:
    app = make_app()
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        shown = {b.description for _, bindings in app.screen.sections for b in bindings}
        for description in ("Run/Pause", "Step", "New", "Form", "Table", "Best", "Inspect"):
            assert description in shown
        assert {"Fast", "Slow", "Help", "Quit", "Zoom", "Sort"} <= shown
        await pilot.press("escape")
        assert not isinstance(app.screen, HelpScreen)


async def test_q_quits() -> None:
    app = make_app()
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.press("space")
        await pilot.press("q")
        await pilot.pause()
        assert not app.is_running


@pytest.mark.parametrize(
    ("field", "value", "expected"),
    [
        ("n", "abc", "n: 'abc' is not allowed; a whole number is expected"),
        ("n", "3", "N = 2 and N = 3 have no solution"),
        ("population", "1", "population: 1 is not allowed; a whole number >= 2"),
        ("crossover-rate", "1.5", "a probability between 0 and 1"),
        ("tournament-size", "80", "between 1 and the population (50)"),
    ],
)
async def test_a_bad_value_is_named_kept_and_blocks_a_run(
    field: str, value: str, expected: str, wait_for: WaitFor
) -> None:
    app = make_app()
    async with app.run_test(size=(100, 32)) as pilot:
        first = app.main_screen.runner.run_id
        field_input = app.query_one(f"#field-{field.replace('-', '_')}", Input)
        field_input.value = value
        await pilot.pause()
        form = app.query_one(ParamForm)
        assert form.errors[0].name == field
        assert expected in str(form.errors[0])
        assert field_input.has_class("-invalid")
        # Whole, under the field itself.
        error_line = form.query_one(f"#error-{field.replace('-', '_')}")
        assert error_line.display and expected in str(error_line.render())
        await pilot.press("r")
        said = lambda: any(expected in n.message for n in app._notifications)  # noqa: E731
        await wait_for(pilot, said, "the refusal said in a notice")
        assert app.main_screen.runner.run_id == first
        assert field_input.value == value
        assert app.focused is field_input


async def test_cross_field_errors_follow_the_other_field() -> None:
    app = make_app()
    async with app.run_test(size=(100, 32)) as pilot:
        form = app.query_one(ParamForm)
        tournament = app.query_one("#field-tournament_size", Input)
        tournament.value = "40"
        form.set_value("population", "30")
        await pilot.pause()
        assert tournament.has_class("-invalid")
        assert {e.field for e in form.errors} == {"tournament_size"}
        form.set_value("population", "60")
        await pilot.pause()
        assert not tournament.has_class("-invalid")
        assert form.errors == []
        form.set_value("encoding", "integer")
        await pilot.pause()
        await pilot.press("r")
        assert algorithm(app).config.encoding == "integer"


async def test_resizing_while_running_never_crashes() -> None:
    app = make_app(Config(n=64, population=40, seed=2, stop_when_solved=False))
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.press("minus", "space")  # 100 generations/s: running, but not hogging CI
        for width, height in [(60, 20), (80, 24), (79, 30), (140, 45), (100, 32), (30, 8)]:
            await pilot.resize_terminal(width, height)
            await pilot.pause(0.05)
            small = width < 80 or height < 24
            assert isinstance(app.screen, TooSmallScreen) is small
            if small:
                assert "too small" in str(app.screen.query_one("#too-small").render())
            else:
                # The form's drawer stays closed while a run goes: the board needs the room.
                assert app.query_one(ParamForm).region.width == 0
                assert (
                    app.main_screen.board.region.height > 0
                    and app.main_screen.table.region.height > 0
                )
        assert app.is_running
        assert app.main_screen.run.state == "running"
        await pilot.press("space")


async def test_an_engine_error_is_notified_and_the_app_lives_on(
    wait_for: WaitFor,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    calls = 0
    real_step = GeneticAlgorithm.step

    def failing_step(self: GeneticAlgorithm) -> object:
        nonlocal calls
        calls += 1
        if calls > 3:
            raise FloatingPointError("overflow in the fitness")
        return real_step(self)

    monkeypatch.setattr(GeneticAlgorithm, "step", failing_step)
    app = make_app()
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.press("space")
        await wait_for(pilot, lambda: app.main_screen.run.state == "error", "the error")
        assert any("overflow in the fitness" in n.message for n in app._notifications)
        assert "ERROR" in str(app.query_one("#status").render())
        assert generation(app) == 3
        monkeypatch.setattr(GeneticAlgorithm, "step", real_step)
        await pilot.press("r")
        await wait_for(pilot, lambda: generation(app) > 5, "a new run after the error")
        assert app.is_running


async def test_a_failing_engine_setup_is_notified(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken_init(self: GeneticAlgorithm, config: Config, **options: object) -> None:
        raise MemoryError("no room")

    app = make_app()
    async with app.run_test(size=(100, 32)) as pilot:
        monkeypatch.setattr(GeneticAlgorithm, "__init__", broken_init)
        await pilot.press("r")
        await pilot.pause()
        assert app.main_screen.run.state == "error"
        assert any("no room" in n.message for n in app._notifications)
        assert app.is_running


async def test_a_solved_run_is_announced_and_highlighted(wait_for: WaitFor) -> None:
    app = make_app(Config(n=8, population=40, seed=1))
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.press("space")
        await wait_for(pilot, lambda: app.main_screen.run.state == "solved", "the solution")
        await pilot.pause()
        assert app.main_screen.status.has_class("-solved")
        assert app.main_screen.board.has_class("-solved")
        assert any(n.title == "Solved" for n in app._notifications)
        assert "SOLVED" in str(app.query_one("#status").render())
        await pilot.press("space")  # over: says so instead of failing
        assert any("press r" in n.message for n in app._notifications)
        await pilot.press("n", "n", "space")  # pressed again: the notice is not stacked
        await pilot.pause()
        assert sum("press r" in n.message for n in app._notifications) == 1


async def test_a_large_board_gets_an_overview_and_z_zooms_in() -> None:
    app = make_app(Config(n=300, population=20, seed=4))
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.pause()
        board = app.query_one(Board)
        assert board.overview and board.scale > 1
        assert f"{board.scale}x{2 * board.scale}" in str(board.border_subtitle)
        await pilot.press("z")
        await pilot.pause()
        assert board.zoomed and not board.overview
        assert board.virtual_size.width == board.label_width + 600
        assert app.focused is board
        row0 = board.visible_region()[0]
        await pilot.press("down", "down", "right")
        await pilot.pause()
        assert board.visible_region()[0] >= row0
        await pilot.press("z")
        await pilot.pause()
        assert board.overview


async def test_the_table_lists_everyone_ranked_while_running_and_when_paused(
    wait_for: WaitFor,
) -> None:
    app = make_app(Config(n=16, population=200, seed=5, stop_when_solved=False))
    async with app.run_test(size=(100, 32)) as pilot:
        table = app.main_screen.table
        assert table.whole and table.row_count == 200
        await pilot.press("space")
        await wait_for(pilot, lambda: generation(app) >= 3, "a few generations")
        await wait_for(
            pilot,
            lambda: table.snapshot is not None and table.snapshot.generation >= 3,
            "the table to follow the run",
        )
        assert table.row_count == 200
        fitness = [table.get_row_at(i)[2] for i in range(table.row_count)]
        assert fitness == sorted(fitness, reverse=True)
        await pilot.press("space")
        await wait_for(pilot, lambda: app.main_screen.run.state == "paused", "the pause")
        await pilot.press("t", "o")
        assert table.sort_by == "conflicts"
        conflicts = [table.get_row_at(i)[3] for i in range(table.row_count)]
        assert conflicts == sorted(conflicts)
