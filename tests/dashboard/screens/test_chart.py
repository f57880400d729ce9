"""Pilot tests of the chart: readable ticks at large N and in narrow panels, the race chart at
generation 0, and the diversity-explained view."""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable

from textual.app import App, ComposeResult

from engine import Config
from tui.dashboard.app import QueensApp
from tui.dashboard.runs.variation_series import COLUMNS
from tui.dashboard.screens import RaceScreen
from tui.dashboard.widgets import FitnessPlot

WaitFor = Callable[..., Awaitable[None]]

BEST = 4_999_950_000.0
"""Pairs fitness of a solution at N = 100,000."""


class PlotHost(App[None]):
    """A chart alone, as wide as asked."""

    def __init__(self, width: int, height: int = 14) -> None:
        super().__init__()
        self.css = f"FitnessPlot {{ width: {width}; height: {height}; }}"

    def compose(self) -> ComposeResult:
        yield FitnessPlot()

    def on_mount(self) -> None:
        self.stylesheet.add_source(self.css)


def memetic_history(generations: int = 40) -> dict[str, list[float]]:
    """What a memetic run at N = 100,000 plots: fitness within a few dozen of five billion."""
    best = [max(0, 24 - g) for g in range(generations)]
    mean = [b + 7 / 3 + (g % 3) for g, b in enumerate(best)]
    worst = [b + 9 for b in best]
    return {
        "x": [float(g) for g in range(generations)],
        "best": [BEST - c for c in best],
        "mean": [BEST - c for c in mean],
        "worst": [BEST - c for c in worst],
        "best conflicts": [float(c) for c in best],
        "mean conflicts": mean,
    }


def show(plot: FitnessPlot, history: dict[str, list[float]], x_label: str = "generations") -> None:
    plot.show(
        history["x"],
        {name: history[name] for name in ("best", "mean", "worst")},
        [0.5] * len(history["x"]),
        x_label=x_label,
        conflicts={"best": history["best conflicts"], "mean": history["mean conflicts"]},
    )


def labels_of(lines: list[str]) -> list[str]:
    return [line.split("┤")[0].strip() for line in lines[1:-1] if "┤" in line]


async def test_pairs_fitness_at_n_100000_opens_on_whole_conflicts_and_fitness_reads_apart() -> None:
    app = PlotHost(60)
    async with app.run_test(size=(70, 16)) as pilot:
        plot = app.query_one(FitnessPlot)
        show(plot, memetic_history())
        await pilot.pause()
        # Fitness cannot be told apart at this size: the chart opens on conflicts.
        assert plot.metric == "conflicts"
        lines = [plot.render_line(y).text for y in range(14)]
        labels = labels_of(lines)
        assert labels == ["30", "20", "10", "0"], labels
        plot.toggle_metric()
        plot.toggle_metric()  # conflicts, diversity explained, fitness
        await pilot.pause()
        lines = [plot.render_line(y).text for y in range(14)]
        assert lines[0].startswith("fitness (0 = 4,999,949,960)"), lines[0]
        labels = labels_of(lines)
        assert len(labels) >= 3 and len(set(labels)) == len(labels), labels
        assert labels[-1] == "0" and all(re.fullmatch(r"\+\d+", label) for label in labels[:-1])
        # The user's choice holds for the next run, even one that would open on conflicts.
        plot.new_run()
        show(plot, memetic_history(3))
        assert plot.metric == "fitness"


async def test_a_narrow_chart_keeps_its_right_axis_and_its_last_x() -> None:
    for width in (16, 22, 30, 40):
        app = PlotHost(width)
        async with app.run_test(size=(60, 16)) as pilot:
            plot = app.query_one(FitnessPlot)
            history = memetic_history()
            history["x"] = [100 + 100 * g for g in range(40)]
            show(plot, history, x_label="evaluations")
            await pilot.pause()
            lines = [plot.render_line(y).text for y in range(14)]
            assert lines[1].endswith(" 1") and lines[-2].endswith(" 0"), (
                width,
                lines,
            )
            axis = lines[-1].split()
            assert axis[0] == "100" and axis[-1] == "4k", (width, lines[-1])


async def test_the_race_chart_at_generation_0_starts_at_0_conflicts() -> None:
    app = QueensApp(Config(n=24, population=50, seed=7, stop_when_solved=False), frozen_clock=True)
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.press("x")
        await pilot.pause(0.3)
        screen = app.screen
        assert isinstance(screen, RaceScreen)
        screen._repaint(force=True)
        await pilot.pause()
        text = screen.plot.render().plain  # type: ignore[union-attr]
        assert "-1" not in text and "1.00" not in text, text
        rows = [line for line in text.splitlines() if "┤" in line]
        labels = [row.split("┤")[0].strip() for row in rows]
        assert labels and labels[-1] == "0" and all(label.isdigit() for label in labels), text


async def test_the_diversity_explained_view_plots_each_stage_and_the_shares(
    wait_for: WaitFor,
) -> None:
    app = QueensApp(Config(n=16, population=60, seed=5, stop_when_solved=False), frozen_clock=True)
    async with app.run_test(size=(100, 32)) as pilot:
        plot = app.main_screen.plot
        await pilot.press("c", "c")
        assert plot.metric == "explained"
        await pilot.pause(0.2)  # the next frame turns the measuring on
        assert app.main_screen.run.variation.enabled
        for generation in range(1, 6):
            await pilot.press("n")
            await wait_for(
                pilot,
                lambda g=generation: len(app.main_screen.run.series) == g + 1,
                f"step {generation}",
            )
        app.main_screen.painter.repaint(force=True)
        await pilot.pause()
        columns = app.main_screen.run.variation.columns()
        assert columns["generation"] == [1.0, 2.0, 3.0, 4.0, 5.0]
        lines = [plot.render_line(y).text for y in range(plot.size.height)]
        text = "\n".join(lines)
        assert lines[0].startswith("div") and "picked" in lines[0] and "crossed" in lines[0]
        assert "sel " in lines[1] or "selection " in lines[1]
        assert "100%┤" in text and "0%┤" in text
        assert re.search(r"(c|m|cross|mut|crossover|mutation) ↑\d+%? =\d+%? ↓\d+%", text), text
        assert lines[-1].split()[0] == "1" and lines[-1].split()[-1] == "5"
        # Off the view, the engine thread measures nothing more.
        await pilot.press("c")
        await pilot.pause(0.2)
        assert not app.main_screen.run.variation.enabled
        await pilot.press("n")
        await wait_for(pilot, lambda: len(app.main_screen.run.series) == 7, "one more step")
        assert len(app.main_screen.run.variation) == 5


async def test_the_chart_redrawn_for_a_new_width_keeps_its_right_axis(wait_for: WaitFor) -> None:
    # The placement map (`v`) narrows the chart, as zooming a large board (`z`) does.
    app = QueensApp(Config(n=12, population=200, seed=3, stop_when_solved=False), frozen_clock=True)
    async with app.run_test(size=(100, 32)) as pilot:
        for generation in range(1, 5):
            await pilot.press("n")
            await wait_for(
                pilot, lambda g=generation: len(app.main_screen.run.series) == g + 1, "a step"
            )
        app.main_screen.painter.repaint(force=True)
        await pilot.pause()
        await pilot.press("v")
        await pilot.pause(0.3)
        # What the screen shows, not what the widget would draw now: lines drawn for the old
        # width lost their right-hand axis.
        assert right_axis_shown(app)


def right_axis_shown(app: QueensApp) -> bool:
    """Whether the screen shows the chart's right-hand axis: 1 and 0 against the panel's edge
    (lines drawn for an old width lose them)."""
    lines = [strip.text for strip in app.screen._compositor.render_strips()]
    return all(any(line.endswith(f" {label}│") for line in lines) for label in "10")


async def test_zooming_a_large_board_leaves_the_chart_whole(wait_for: WaitFor) -> None:
    app = QueensApp(Config(n=400, population=20, seed=3, stop_when_solved=False), frozen_clock=True)
    async with app.run_test(size=(100, 32)) as pilot:
        for generation in range(1, 4):
            await pilot.press("n")
            await wait_for(
                pilot, lambda g=generation: len(app.main_screen.run.series) == g + 1, "a step"
            )
        app.main_screen.painter.repaint(force=True)
        await pilot.pause()
        await pilot.press("z")  # the zoomed board takes a column from the chart
        await pilot.pause(0.3)
        assert app.main_screen.board.zoomed
        assert right_axis_shown(app)
        last_line = app.main_screen.plot.render_line(app.main_screen.plot.size.height - 1).text
        assert last_line.split() == ["0", "generations", "3"]


async def test_diversity_explained_draws_no_line_across_generations_not_measured() -> None:
    measured = [*range(1, 11), *range(60, 71)]
    columns = {name: [0.5] * len(measured) for name in COLUMNS}
    columns["generation"] = [float(g) for g in measured]
    app = PlotHost(width=60, height=24)
    async with app.run_test(size=(60, 24)) as pilot:
        plot = app.query_one(FitnessPlot)
        plot.metric = "explained"
        plot.show_explained(columns)
        await pilot.pause()
        lines = [plot.render_line(y).text for y in range(plot.size.height)]
    drawn = [index for line in lines for index, char in enumerate(line) if "⠁" <= char <= "⣿"]
    # Generations 1-10 and 60-70 across the plot: nothing drawn in the middle.
    middle = range(60 * 3 // 10, 60 * 6 // 10)
    assert drawn and not any(column in middle for column in drawn), "\n".join(lines)
