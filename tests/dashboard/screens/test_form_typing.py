"""Every key typed in the form lands, in the order it was typed, paused or while a run goes.

A terminal delivers keys as fast as they are typed (or sent by a script), while the dashboard
may be busy: the form checks itself on each change, a run repaints ten times a second. The keys
are posted here the way the terminal driver posts them, without waiting for the app to settle
between them, so a key handled later than the ones after it shows up as a wrong value.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

import pytest
from textual import events
from textual.widgets import Input

from engine import Config
from tui.dashboard.app import QueensApp

WaitFor = Callable[..., Awaitable[None]]

ENDLESS = Config(n=28, population=100, seed=7, stop_when_solved=False)
"""A run that never stops by itself, with N = 28 in the form to be edited."""

CHARACTERS = {"backspace": "\x7f", "delete": None, "end": None, "home": None, "left": None}
"""What the terminal sends with each named key (digits send themselves)."""


def post_keys(app: QueensApp, keys: list[str]) -> None:
    """Post key events as the terminal driver does: all at once, none waiting for another."""
    for key in keys:
        app.post_message(events.Key(key, CHARACTERS.get(key, key)))


async def open_field_n(app: QueensApp, pilot: object, wait_for: WaitFor) -> Input:
    """Press ``f`` and wait until the cursor is in the field of N."""
    field = app.main_screen.form.field_widget("n")
    assert isinstance(field, Input)
    post_keys(app, ["f"])
    await wait_for(pilot, lambda: app.focused is field, "the cursor in the field of N")
    return field


EDITS: list[tuple[list[str], str]] = [
    (["end", "backspace", "backspace", "backspace", "backspace", "1", "5", "0"], "150"),
    (["end", "backspace", "backspace", "3", "2"], "32"),
    (["home", "delete", "3"], "38"),
    (["end", "left", "left", "backspace", "9"], "928"),
]
"""Keys typed in the field of N (which holds ``28``) and what it must then hold."""


@pytest.mark.parametrize("running", [False, True], ids=["paused", "running"])
async def test_keys_typed_fast_land_in_order(running: bool, wait_for: WaitFor) -> None:
    app = QueensApp(ENDLESS, frozen_clock=True)
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.pause()
        if running:
            post_keys(app, ["space"])
            await wait_for(pilot, lambda: app.main_screen.run.state == "running", "the run")
        field = await open_field_n(app, pilot, wait_for)
        for keys, expected in EDITS:
            app.main_screen.form.set_value("n", 28)
            post_keys(app, keys)
            await wait_for(
                pilot, lambda wanted=expected: field.value == wanted, f"{expected!r} from {keys}"
            )
            # Nothing arrives late and changes it again.
            await pilot.pause(0.2)
            assert field.value == expected, keys
        assert app.main_screen.form.values()["n"] == "928"
        if running:
            assert app.main_screen.run.state == "running"


async def test_keys_typed_a_few_milliseconds_apart_during_a_run_all_land(
    wait_for: WaitFor,
) -> None:
    """The rhythm of a fast typist, while the run repaints."""
    app = QueensApp(ENDLESS, frozen_clock=True)
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.pause()
        post_keys(app, ["space"])
        await wait_for(pilot, lambda: app.main_screen.run.state == "running", "the run")
        field = await open_field_n(app, pilot, wait_for)
        for typed in ("150", "64", "1000"):
            for key in ["end", "backspace", "backspace", "backspace", "backspace", *typed]:
                post_keys(app, [key])
                await asyncio.sleep(0.005)
            await wait_for(pilot, lambda wanted=typed: field.value == wanted, f"{typed!r} typed")
        await pilot.pause(0.2)
        assert field.value == "1000"


@pytest.mark.parametrize("size", [(80, 24), (100, 32)])
async def test_keys_typed_as_soon_as_the_form_opens_land_in_it(
    size: tuple[int, int], wait_for: WaitFor
) -> None:
    """The keys after ``f`` go to the field of N, not to the table the cursor was in."""
    app = QueensApp(ENDLESS, frozen_clock=True)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        screen = app.main_screen
        screen.open_form(False)  # closed, as while a run goes (it may open at the start)
        await pilot.pause()
        post_keys(app, ["f"])
        while not screen.form.display:
            await asyncio.sleep(0)  # one turn of the event loop: no refresh in between
        post_keys(app, ["end", "backspace", "backspace", "1", "5", "0"])
        await wait_for(pilot, lambda: screen.form.values()["n"] == "150", "150 in the field")
        await pilot.pause(0.2)
        assert screen.form.values()["n"] == "150"
        assert app.focused is screen.form.field_widget("n")
        assert screen.table.cursor_row == 0  # `end` did not reach the table


async def test_the_form_opens_on_its_first_invalid_field_in_view() -> None:
    app = QueensApp(ENDLESS, frozen_clock=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        form = app.main_screen.form
        form.set_value("seed", "x")
        await pilot.press("f")
        await pilot.pause()
        seed = form.field_widget("seed")
        assert app.focused is seed
        assert app.screen.can_view_entire(seed)
