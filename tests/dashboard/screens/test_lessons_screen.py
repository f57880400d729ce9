"""The lessons screen: opened with `L` or the palette, stepped like a slideshow (space, n, b),
a lesson's runs done in a thread and its measured rows shown beside the theory."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from textual.widgets import Static

from engine import Config
from tui.dashboard.app import QueensApp
from tui.dashboard.palette import palette_commands
from tui.dashboard.screens.lessons import LessonsScreen

WaitFor = Callable[..., Awaitable[None]]

CONFIG = Config(n=8, population=20, seed=3)

SMALL = {"drift": (20, 2), "founders": (8, 2)}
"""Small lessons, so that their runs take a moment."""


def lessons(app: QueensApp) -> LessonsScreen:
    screen = app.screen
    assert isinstance(screen, LessonsScreen)
    return screen


def body(app: QueensApp) -> str:
    return str(lessons(app).query_one("#lesson-body", Static).render())


async def test_l_opens_the_lessons_and_n_b_escape_step_through_them() -> None:
    app = QueensApp(CONFIG, frozen_clock=True)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("L")
        await pilot.pause()
        assert lessons(app).slideshow.title().startswith("Lesson 1 of 6: Takeover")
        assert "Q(t+1) = Q(t)^s" in body(app)
        await pilot.press("n")
        assert lessons(app).slideshow.lesson.name == "drift"
        assert "E[H(t)] = H0 (1 - 1/P)^t" in body(app)
        await pilot.press("b", "b")
        assert lessons(app).slideshow.lesson.name == "hill-climbing"
        await pilot.press("escape")
        await pilot.pause()
        assert not isinstance(app.screen, LessonsScreen)


async def test_the_palette_offers_the_lessons() -> None:
    app = QueensApp(CONFIG, frozen_clock=True)
    async with app.run_test(size=(120, 40)) as pilot:
        commands = {c.name: c for c in palette_commands(app.main_screen, app)}
        assert "Lessons" in commands
        await commands["Lessons"].run()  # type: ignore[misc]
        await pilot.pause()
        assert isinstance(app.screen, LessonsScreen)


async def test_space_runs_a_lesson_and_shows_its_rows_beside_the_theory(wait_for: WaitFor) -> None:
    app = QueensApp(CONFIG, frozen_clock=True)
    async with app.run_test(size=(120, 40)) as pilot:
        await app.push_screen(LessonsScreen(sizes=SMALL))
        await pilot.press("n")  # drift
        await pilot.press("space")  # its runs
        screen = lessons(app)
        await wait_for(pilot, lambda: screen.slideshow.step_name == "rows", "the drift's rows")
        text = body(app)
        assert "Measured (P = 20, 2 seeds):" in text
        for word in ("label", "measured", "theory", "t=0", "ox t=0"):
            assert word in text
        assert "drift" in screen.slideshow.documents
        await pilot.press("space")  # the rows' step leads to the next lesson
        assert screen.slideshow.lesson.name == "founders"
        assert screen.slideshow.step_name == "text"
        await pilot.press("b", "space")  # back to drift: its rows are kept, not run again
        assert screen.slideshow.step_name == "runs"
        assert screen.slideshow.progress is None
        await pilot.press("space")
        assert screen.slideshow.step_name == "rows"


async def test_the_landscape_places_the_live_population(wait_for: WaitFor) -> None:
    app = QueensApp(CONFIG, frozen_clock=True)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("n")  # one generation of the form's run: N = 8, 20 boards
        await wait_for(pilot, lambda: app.main_screen.run.latest is not None, "a generation")
        await pilot.press("L")
        screen = lessons(app)
        screen.slideshow.lesson_index = list(screen.slideshow.names).index("landscape")
        screen.slideshow.documents["landscape"] = {"population": None, "seeds": None, "rows": []}
        screen.slideshow.step = 2
        screen.show()
        await wait_for(pilot, lambda: bool(screen.slideshow.placed), "the live run placed")
        assert "The live run's 20 boards (N = 8)" in body(app)


async def test_t_walks_n_10_in_the_background_and_closing_the_screen_stops_it(
    wait_for: WaitFor,
) -> None:
    app = QueensApp(CONFIG, frozen_clock=True)
    async with app.run_test(size=(120, 40)) as pilot:
        await app.push_screen(LessonsScreen())
        screen = lessons(app)
        screen.slideshow.lesson_index = list(screen.slideshow.names).index("landscape")
        screen.slideshow.documents["landscape"] = {"population": None, "seeds": None, "rows": []}
        screen.slideshow.step = 2
        screen.show()
        assert "t: N = 10 too, in the background" in body(app)
        await pilot.press("t")
        await wait_for(
            pilot,
            lambda: (screen.slideshow.walking or (0, 0))[0] > 0,
            "the walk under way",
        )
        # The screen stays live while the thread walks: it steps and shows how far it is.
        assert "N = 10:" in body(app) and "boards walked" in body(app)
        (walker,) = [w for w in app.workers if w.group == "landscape-walk"]
        await pilot.press("escape")
        await wait_for(pilot, lambda: walker.is_finished, "the walk stopped")
        assert not isinstance(app.screen, LessonsScreen)
        assert "landscape" not in str(walker.error or "")
