"""Moving through the form: Tab passes by the dimmed fields (those the chosen operators ignore),
``/`` and a field's name jump to that field; the form's frame says whether the cursor is in it
and whether a field is bad, in the theme's colours."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from textual.color import Color
from textual.widgets import Input

from engine import Config
from tui.dashboard.app import QueensApp
from tui.dashboard.pictures.contrast import FRAME
from tui.dashboard.widgets import ParamForm
from tui.dashboard.widgets.field_finder import FieldFinder

WaitFor = Callable[..., Awaitable[None]]

CONFIG = Config(n=12, seed=3, mutation="conflict", survivor="plus")
"""Conflict mutation: ``gene-rate`` means nothing; (mu + lambda) survivors: nor does
``elitism``."""


def focused_field(app: QueensApp) -> str:
    focused = app.focused
    assert focused is not None and focused.id is not None
    return focused.id.removeprefix("field-")


async def test_tab_passes_by_dimmed_fields_both_ways() -> None:
    app = QueensApp(CONFIG, frozen_clock=True)
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.press("f")
        form = app.query_one(ParamForm)
        assert form.dimmed(form.field_widget("gene_rate"))
        assert form.dimmed(form.field_widget("elitism"))
        assert not form.dimmed(form.field_widget("candidates"))
        form.put_cursor_in(form.field_widget("mutation_rate"))
        await pilot.press("tab")
        assert focused_field(app) == "candidates"  # not gene_rate
        await pilot.press("shift+tab")
        assert focused_field(app) == "mutation_rate"
        form.put_cursor_in(form.field_widget("survivor"))
        await pilot.press("tab")
        assert focused_field(app) == "offspring"  # not elitism
        # A field that comes to mean something is stopped at again.
        form.set_value("mutation", "shuffle-indexes")
        await pilot.pause()
        form.put_cursor_in(form.field_widget("mutation_rate"))
        await pilot.press("tab")
        assert focused_field(app) == "gene_rate"


async def test_slash_and_a_name_jump_to_the_field(wait_for: WaitFor) -> None:
    app = QueensApp(CONFIG, frozen_clock=True)
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.press("f")
        n_field = app.main_screen.form.field_widget("n")
        await wait_for(pilot, lambda: app.focused is n_field, "the cursor in N")
        await pilot.press("slash")
        await wait_for(pilot, lambda: isinstance(app.focused, FieldFinder), "the finder")
        assert isinstance(n_field, Input) and n_field.value == "12"  # no '/' typed into N
        await pilot.press(*"mutation-r")
        assert "enter: mutation-rate" in str(app.query_one("#form-help").render())
        await pilot.press("enter")
        await wait_for(pilot, lambda: focused_field(app) == "mutation_rate", "mutation-rate")
        # A dimmed field can still be reached by its name; a select too, and from a select.
        await pilot.press("slash", *"elit", "enter")
        await wait_for(pilot, lambda: focused_field(app) == "elitism", "elitism")
        await pilot.press("slash", *"mutation", "enter")
        await wait_for(pilot, lambda: focused_field(app) == "mutation", "the mutation select")
        await pilot.press("slash", *"seed", "enter")
        await wait_for(pilot, lambda: focused_field(app) == "seed", "seed")
        # escape leaves the cursor where it was, the form open, and no run started.
        await pilot.press("slash", *"pop", "escape")
        await wait_for(pilot, lambda: not isinstance(app.focused, FieldFinder), "the form")
        assert focused_field(app) == "seed"
        assert not app.query_one(FieldFinder).display
        assert app.main_screen.in_form() and app.main_screen.run.state == "paused"


async def test_the_forms_frame_says_where_the_cursor_is_and_whether_a_field_is_bad(
    wait_for: WaitFor,
) -> None:
    app = QueensApp(CONFIG, frozen_clock=True)

    def frame() -> str:
        return app.query_one(ParamForm).styles.border_top[1].hex.lower()

    def variable(name: str) -> str:
        return Color.parse(app.theme_variables[name]).hex.lower()

    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.press("f")
        await wait_for(pilot, lambda: frame() == variable("accent"), "the accent, cursor in it")
        app.main_screen.table.focus()
        await wait_for(pilot, lambda: frame() == variable(FRAME), "the frame, cursor out")
        form = app.query_one(ParamForm)
        form.set_value("n", "3")  # N = 3 has no solution: refused
        await wait_for(pilot, lambda: frame() == variable("error"), "red, a field bad")
        form.set_value("n", "12")
        await wait_for(pilot, lambda: frame() == variable(FRAME), "the frame again")
        before = frame()
        for theme in app.offered_themes:  # one whose frame is another colour
            app.theme = theme
            await pilot.pause()
            if variable(FRAME) != before:
                break
        assert variable(FRAME) != before
        await wait_for(pilot, lambda: frame() == variable(FRAME), "the new theme's frame")
