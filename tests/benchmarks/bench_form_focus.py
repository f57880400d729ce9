"""Benchmark (not a test): what moving the cursor through the form costs the dashboard.

Textual restyles a node and every node under it when one of its classes or pseudo-classes
changes. The form holds about 230 widgets, so anything that toggles a class on the form itself
(or a ``:focus-within`` rule on it) restyles all of them. Prints, at 100x32 with the form open:

1. the widgets in the form and on the screen;
2. moving the focus from one field to the next (what Tab does), median of 40 moves, and the
   share of it spent restyling;
3. for scale, one class toggled on the form and on the screen's body: what a move cost when
   the form's frame colour followed the focus through a class (median of 10).

Run: ``.venv/bin/python tests/benchmarks/bench_form_focus.py`` (about ten seconds).
"""

from __future__ import annotations

import asyncio
import statistics
import time
from collections.abc import Callable

from textual.css.stylesheet import Stylesheet

from engine import Config
from tui.dashboard.app import QueensApp

MOVES = 40
TOGGLES = 10


def milliseconds(seconds: list[float]) -> str:
    return f"{statistics.median(seconds) * 1000:.1f} ms (median of {len(seconds)})"


async def measure() -> None:
    app = QueensApp(Config(n=12, population=20, seed=5), frozen_clock=True)
    restyling: list[float] = []
    original = Stylesheet.update_nodes

    def timed_update(self: Stylesheet, *args: object, **kwargs: object) -> None:
        started = time.perf_counter()
        original(self, *args, **kwargs)  # type: ignore[arg-type]
        restyling.append(time.perf_counter() - started)

    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.press("f")
        await pilot.pause(0.3)
        screen = app.main_screen
        form = screen.form
        print(f"widgets: {len(list(form.walk_children(with_self=True)))} in the form, ", end="")
        print(f"{len(list(app.screen.walk_children(with_self=True)))} on the screen")
        fields = [form.field_widget(name) for name in ("n", "population", "crossover_rate")]
        moves, restyled = [], []
        Stylesheet.update_nodes = timed_update  # type: ignore[method-assign]
        try:
            for move in range(MOVES):
                restyling.clear()
                started = time.perf_counter()
                fields[move % len(fields)].focus()
                await pilot.pause()
                moves.append(time.perf_counter() - started)
                restyled.append(sum(restyling))
        finally:
            Stylesheet.update_nodes = original  # type: ignore[method-assign]
        print(f"a move of the cursor between fields: {milliseconds(moves)}, ", end="")
        print(f"of which restyling {milliseconds(restyled)}")
        for name, toggle in (
            ("the form", lambda on: form.set_class(on, "-probe")),
            ("the screen's body", lambda on: screen.body.set_class(on, "-probe")),
        ):
            print(f"one class toggled on {name}: {milliseconds(timed(toggle))}")


def timed(toggle: Callable[[bool], object]) -> list[float]:
    seconds = []
    for turn in range(TOGGLES):
        started = time.perf_counter()
        toggle(turn % 2 == 0)
        seconds.append(time.perf_counter() - started)
    return seconds


if __name__ == "__main__":
    asyncio.run(measure())
