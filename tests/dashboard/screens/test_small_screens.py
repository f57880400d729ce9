"""The inspection views at the smallest supported terminal, 80x24: nothing cut, every key said.

Each test reads what the screen shows (the compositor's lines, as the terminal gets them), at
80x24, the size where the views have least room; the plain terminal's ASCII mode too where its
glyphs differ.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import pytest
from textual.widgets import DataTable
from textual.widgets._footer import FooterKey

from engine.lineage.lineage import CROSSED
from tests.dashboard.crossing import CROSSING
from tui.dashboard.app import QueensApp
from tui.dashboard.screens.ancestry import AncestryScreen
from tui.dashboard.widgets.population_view import PopulationView

WaitFor = Callable[..., Awaitable[None]]

SHOWCASE_SIZE = CROSSING.replace(n=28)
"""The showcase's board (half blocks at 80x24), with crossed children in its first generations."""


def screen_lines(app: QueensApp) -> list[str]:
    """The screen as the terminal gets it, line by line."""
    return [strip.text for strip in app.screen._compositor.render_strips()]


async def step_to(
    app: QueensApp, pilot: object, wait_for: WaitFor, last: int, first: int = 1
) -> None:
    """Step with ``n`` from generation ``first`` to ``last``, one generation at a time."""
    for generation in range(first, last + 1):
        await pilot.press("n")  # type: ignore[attr-defined]
        await wait_for(
            pilot, lambda g=generation: app.main_screen.run.latest.generation == g, "a step"
        )


async def open_ancestry(app: QueensApp, pilot: object, wait_for: WaitFor) -> AncestryScreen:
    await pilot.press("w")  # type: ignore[attr-defined]
    await wait_for(pilot, lambda: isinstance(app.screen, AncestryScreen), "the ancestry")
    await pilot.pause()  # type: ignore[attr-defined]
    await pilot.pause(0.1)  # type: ignore[attr-defined]
    screen = app.screen
    assert isinstance(screen, AncestryScreen)
    return screen


# The ancestry's table -----------------------------------------------------------------------


@pytest.mark.parametrize("ascii", [False, True])
async def test_at_80x24_the_ancestry_table_shows_every_column_without_scrolling_sideways(
    wait_for: WaitFor, ascii: bool
) -> None:
    app = QueensApp(SHOWCASE_SIZE, frozen_clock=True, ascii=ascii)
    async with app.run_test(size=(80, 24)) as pilot:
        await step_to(app, pilot, wait_for, 6)
        screen = await open_ancestry(app, pilot, wait_for)
        table = screen.query_one(DataTable)
        assert table.max_scroll_x == 0, "the table scrolls sideways"
        region = table.content_region
        shown = [line[region.x : region.right] for line in screen_lines(app)]
        header = shown[region.y]
        assert header.split() == ["gen", "#", "fitness", "conf", "operator", "parent"], header
        body = "\n".join(shown[region.y + 1 : region.bottom])
        rows = [[str(cell) for cell in table.get_row_at(row)] for row in range(table.row_count)]
        assert any("(+#" in cells[-1] for cells in rows), "no crossed child: nothing to show"
        # Every cell of the rows in view, whole (a wrapped cell's words each on a line).
        for cells in rows[: region.height // 2]:
            for cell in cells:
                for word in cell.split():
                    assert word in body, (word, body)


async def test_the_ancestry_footer_says_what_enter_does_in_words(wait_for: WaitFor) -> None:
    app = QueensApp(SHOWCASE_SIZE, frozen_clock=True, ascii=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await step_to(app, pilot, wait_for, 2)
        screen = await open_ancestry(app, pilot, wait_for)
        keys = {key.description: key.key_display for key in screen.query(FooterKey)}
        assert keys.get("Inspect") == "enter", keys
        assert "enter Inspect" in screen_lines(app)[-1]


async def test_enter_inspects_the_rows_ancestor_on_the_main_screen(wait_for: WaitFor) -> None:
    app = QueensApp(SHOWCASE_SIZE, frozen_clock=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await step_to(app, pilot, wait_for, 3)
        screen = await open_ancestry(app, pilot, wait_for)
        await pilot.press("p")
        await pilot.pause()
        first, _ = screen.rows[1]
        ancestor = screen.line.ancestors[first]
        await pilot.press("enter")
        await wait_for(pilot, lambda: app.screen is app.main_screen, "the main screen")
        await wait_for(pilot, lambda: app.main_screen.run.inspected is not None, "inspected")
        snapshot, index = app.main_screen.run.inspected
        assert (snapshot.generation, index) == (ancestor.generation, ancestor.individual)


# The board panel's population views ---------------------------------------------------------


async def test_each_population_view_says_its_own_legend_while_paused(wait_for: WaitFor) -> None:
    app = QueensApp(SHOWCASE_SIZE, frozen_clock=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await step_to(app, pilot, wait_for, 2)
        view = app.main_screen.query_one(PopulationView)

        def bottom_border() -> str:
            region = view.region
            return screen_lines(app)[region.bottom - 1][region.x : region.right]

        await pilot.press("v")
        await pilot.pause(0.2)
        assert "1 char = " in bottom_border() or "share: " in bottom_border(), bottom_border()
        await pilot.press("v")
        await pilot.pause(0.2)
        assert f"conflicts of {SHOWCASE_SIZE.population}" in bottom_border(), bottom_border()
        await pilot.press("v", "v")  # the board, then the placement map again
        await pilot.pause(0.2)
        assert "conflicts of" not in bottom_border(), bottom_border()
        assert "1 char = " in bottom_border() or "share: " in bottom_border(), bottom_border()


# The inspected individual's panel -----------------------------------------------------------


@pytest.mark.parametrize("ascii", [False, True])
async def test_at_80x24_the_inspected_individuals_family_keys_are_said(
    wait_for: WaitFor, ascii: bool
) -> None:
    """The panel has no row for them there: the chart panel's border says them while an
    individual is inspected, and the chart's key again once none is."""
    config = SHOWCASE_SIZE
    app = QueensApp(config, frozen_clock=True, ascii=ascii)
    async with app.run_test(size=(80, 24)) as pilot:
        await step_to(app, pilot, wait_for, 5)
        charts = app.main_screen.charts

        def bottom_border() -> str:
            region = charts.region
            return screen_lines(app)[region.bottom - 1][region.x : region.right]

        crossed = next(
            index
            for index, kind in enumerate(app.main_screen.run.latest.lineage.flags.tolist())
            if kind & CROSSED
            and len(set(app.main_screen.run.latest.lineage.parents[index].tolist())) == 2
        )
        await pilot.press("t", "o", "o", "home", *["down"] * crossed, "enter")
        await wait_for(pilot, lambda: app.main_screen.run.inspected is not None, "inspected")
        await pilot.pause(0.2)
        assert "p parent P other d child w ancestry" in bottom_border(), bottom_border()
        await pilot.press("p")  # the main parent, a child of its own parents or a survivor
        await wait_for(
            pilot, lambda: app.main_screen.run.inspected[0].generation == 4, "the parent"
        )
        await pilot.pause(0.2)
        assert "p parent" in bottom_border() and "w ancestry" in bottom_border()
        await pilot.press("b")
        await wait_for(pilot, lambda: app.main_screen.run.inspected is None, "the best again")
        await pilot.pause(0.2)
        assert "c: fitness/conflicts/diversity" in bottom_border(), bottom_border()


# The chart's diversity-explained view -------------------------------------------------------


async def test_at_80x24_diversity_explained_is_whole_and_names_only_lines_it_draws(
    wait_for: WaitFor,
) -> None:
    app = QueensApp(SHOWCASE_SIZE, frozen_clock=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await step_to(app, pilot, wait_for, 1)
        plot = app.main_screen.plot

        def chart() -> list[str]:
            region = plot.region
            return [line[region.x : region.right] for line in screen_lines(app)][
                region.y : region.bottom
            ]

        await pilot.press("c", "c")
        await pilot.pause(0.2)
        assert plot.metric == "explained"
        said = " ".join(" ".join(chart()).split())
        assert "measured while shown, from the run's next generation (space or n)" in said, said
        await step_to(app, pilot, wait_for, 4, first=2)
        await pilot.pause(0.2)
        lines = chart()
        assert any("sel " in line for line in lines), lines  # the diversity's figures
        # The operators' shares, named as the figures above name them (not by one letter).
        assert any(" ↑" in line and "cross " in line and "mut " in line for line in lines), lines
        shares_drawn = any("%┤" in line for line in lines)
        if not shares_drawn:
            assert not any("━cross" in line for line in lines), lines
        assert sum("┤" in line for line in lines) >= 3, lines  # the diversity's chart


async def test_in_ascii_each_line_of_the_charts_legend_has_its_own_mark(
    wait_for: WaitFor,
) -> None:
    """``·`` (dotted) and ``╍`` (dashed) both became ``-``: ``-mean`` and ``-diversity``."""
    app = QueensApp(SHOWCASE_SIZE, frozen_clock=True, ascii=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await step_to(app, pilot, wait_for, 3)
        plot = app.main_screen.plot
        await pilot.pause(0.2)
        legend = screen_lines(app)[plot.region.y][plot.region.x : plot.region.right]
        lines = [word for word in legend.split()[1:] if not word.startswith("(")]
        assert len(lines) == 4, legend  # best, mean, worst, diversity
        assert len({line[0] for line in lines}) == 4, legend
        await pilot.press("c", "c")
        await step_to(app, pilot, wait_for, 5, first=4)
        await pilot.pause(0.2)
        legend = screen_lines(app)[plot.region.y][plot.region.x : plot.region.right]
        stages = legend.split()[1:]  # g-1, picked, crossed, g
        assert len({stage[0] for stage in stages}) == len(stages) == 4, legend
