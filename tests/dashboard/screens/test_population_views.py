"""The population's views on the board panel, in the app: ``v`` steps through the placement map
and the conflict histogram, which follow the run."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from engine import Config
from tui.dashboard.app import QueensApp
from tui.dashboard.pictures.population_pictures import (
    conflict_histogram,
    placement_shares,
    share_levels,
)
from tui.dashboard.widgets import Board, PopulationView

WaitFor = Callable[..., Awaitable[None]]


async def test_v_steps_the_board_panel_through_the_placement_map_and_the_histogram(
    wait_for: WaitFor,
) -> None:
    app = QueensApp(Config(n=8, population=300, seed=5), frozen_clock=True)
    async with app.run_test(size=(100, 32)) as pilot:
        screen = app.main_screen
        await wait_for(pilot, lambda: screen.run.latest is not None, "the first generation")
        view = screen.query_one(PopulationView)
        board = screen.query_one(Board)
        assert board.display and not view.display
        await pilot.press("v")
        await pilot.pause()
        assert view.display and not board.display
        assert view.view == "placement" and view.snapshot is screen.run.latest
        assert str(view.border_title).startswith("Placement")
        # Drawn square by square: 8 lines of 16 cells, shaded by share.
        lines = str(view.render()).split("\n")
        assert len(lines) == 8 and {len(line) for line in lines} == {16}
        latest = screen.run.latest
        assert latest is not None
        expected = share_levels(placement_shares(latest.population, 8, latest.encoding))
        shades = " ░▒▓█"
        assert [[shades.index(line[2 * c]) for c in range(8)] for line in lines] == (
            expected.tolist()
        )
        await pilot.press("v")
        await pilot.pause()
        assert view.view == "conflicts" and str(view.border_title).startswith("Conflicts")
        histogram = conflict_histogram(latest.conflicts, view.size.height)
        text = str(view.render())
        low, high = int(histogram.lows[0]), int(histogram.highs[0])
        first = text.split("\n")[0].split()
        assert first[0] == (str(low) if low == high else f"{low}-{high}")
        share = 100 * int(histogram.counts[0]) / histogram.size
        assert first[-1] == ("<1%" if 0 < share < 1 else f"{share:.0f}%")
        assert len(text.split("\n")) == len(histogram.counts)
        await pilot.press("v")
        await pilot.pause()
        assert board.display and not view.display


async def test_the_placement_map_follows_the_run_at_the_painters_rate(wait_for: WaitFor) -> None:
    app = QueensApp(Config(n=8, population=200, seed=2), frozen_clock=True)
    async with app.run_test(size=(100, 32)) as pilot:
        screen = app.main_screen
        await wait_for(pilot, lambda: screen.run.latest is not None, "the first generation")
        await pilot.press("v", "n")
        await wait_for(
            pilot,
            lambda: (
                screen.query_one(PopulationView).snapshot is screen.run.latest
                and screen.run.latest is not None
                and screen.run.latest.generation == 1
            ),
            "the map of generation 1",
        )
        assert "gen 1" in str(screen.query_one(PopulationView).border_title)
