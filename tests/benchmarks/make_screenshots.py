"""Regenerate the SVGs in ``screenshots/`` from seeded, paused runs (``make screenshots``).

Every state is reached by stepping a seeded run a fixed number of generations (or running it to
its solution), so the same code gives the same pictures. Wall-clock figures (elapsed, gen/s)
are hidden with ``frozen_clock`` so that re-running the script changes nothing.
"""

from __future__ import annotations

import asyncio
import os
import sys
import tempfile
from collections.abc import Awaitable, Callable
from functools import partial
from pathlib import Path
from typing import Any, Final

from textual.pilot import Pilot

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # the project's root: tests.waiting

from engine import Config
from tests.waiting import wait_until_pilot
from tui.dashboard.app import QueensApp
from tui.dashboard.files.settings import CONFIG_DIR_VARIABLE
from tui.dashboard.runs.showcase import SHOWCASE

OUT: Final = Path(__file__).resolve().parents[2] / "screenshots"

Script = Callable[[QueensApp, Pilot[None]], Awaitable[None]]


LIMIT = 30.0
"""Seconds the app may take to reach the state a picture is taken of."""


def shows_generation(app: QueensApp, generation: int) -> bool:
    """Whether the main screen shows generation ``generation``."""
    latest = app.main_screen.run.latest
    return latest is not None and latest.generation == generation


async def step(app: QueensApp, pilot: Pilot[None], generations: int) -> None:
    """Press ``n`` until the run has done ``generations`` generations, then settle."""
    for target in range(1, generations + 1):
        await pilot.press("n")
        await wait_until_pilot(
            pilot, partial(shows_generation, app, target), LIMIT, f"generation {target}"
        )
    await settle(app, pilot)


async def settle(app: QueensApp, pilot: Pilot[None]) -> None:
    """Paint everything from the final snapshot and let the screen catch up."""
    await pilot.pause(0.3)
    app.main_screen.painter.repaint(force=True)  # the throttled parts (table, chart) too
    await pilot.pause(0.3)


async def paused_and_inspecting(app: QueensApp, pilot: Pilot[None]) -> None:
    """Twenty-five generations, then the fourth-ranked individual on the board."""
    await step(app, pilot, 25)
    await pilot.press("t", "down", "down", "down", "enter")
    await settle(app, pilot)


async def inspecting_a_crossed_child(app: QueensApp, pilot: Pilot[None]) -> None:
    """Five generations, then #16 (crossed by pmx, two queens moved) on the board, its queens
    coloured by the parent they came from."""
    await step(app, pilot, 5)
    await pilot.press("t", "o", "o", "home", *["down"] * 16, "enter")
    await settle(app, pilot)


async def ancestry(app: QueensApp, pilot: Pilot[None]) -> None:
    """The same child's line back to generation 0, one step along it."""
    from tui.dashboard.screens.ancestry import AncestryScreen

    await inspecting_a_crossed_child(app, pilot)
    await pilot.press("w")
    await wait_until_pilot(
        pilot, lambda: isinstance(app.screen, AncestryScreen), LIMIT, "the ancestry"
    )
    await pilot.press("p")
    await pilot.pause(0.3)


async def solved(app: QueensApp, pilot: Pilot[None]) -> None:
    """Run flat out to the solution."""
    await pilot.press("space")
    await wait_until_pilot(pilot, lambda: app.main_screen.run.state == "solved", LIMIT, "the solve")
    await settle(app, pilot)


async def stepped(app: QueensApp, pilot: Pilot[None]) -> None:
    """Forty generations, paused, the board following the best."""
    await step(app, pilot, 40)


async def placement_map(app: QueensApp, pilot: Pilot[None]) -> None:
    """Forty generations, then the population's placement map in the board's place (``v``)."""
    await step(app, pilot, 40)
    await pilot.press("v")
    await settle(app, pilot)


async def selection_pressure(app: QueensApp, pilot: Pilot[None]) -> None:
    """Forty generations, then the chart's selection-pressure view (``i``)."""
    await step(app, pilot, 40)
    await pilot.press("i")
    await settle(app, pilot)


async def lessons(app: QueensApp, pilot: Pilot[None]) -> None:
    """The lessons screen (``L``) on its first lesson: the text and its formula."""
    await step(app, pilot, 10)
    await pilot.press("L")
    await settle(app, pilot)


CLASSIC: Final[dict[str, Any]] = {"mutation": "swap", "mutation_rate": 0.3, "crossover_rate": 0.9}
"""A textbook GA (swap mutation, frequent crossover): slower than the default, so the pictures
show a run in progress rather than one solved in two generations."""
CROSSING: Final = Config(
    n=10,
    population=40,
    seed=5,
    crossover="pmx",
    crossover_rate=0.9,
    mutation="swap",
    mutation_rate=0.5,
    stop_when_solved=False,
)
"""A run whose generation 5 has a crossed child made of both parents, two queens moved."""

SHOWCASE_SEEDED: Final = SHOWCASE.replace(seed=1)
"""What ``queens`` opens on, with a seed so the picture is the same each time."""

SHOTS: Final[list[tuple[str, Config, tuple[int, int], Script]]] = [
    ("dashboard-80x24-showcase", SHOWCASE_SEEDED, (80, 24), stepped),
    ("dashboard-100x32-showcase", SHOWCASE_SEEDED, (100, 32), stepped),
    (
        "dashboard-100x32-inspect",
        Config(n=20, population=60, seed=3, **CLASSIC),
        (100, 32),
        paused_and_inspecting,
    ),
    (
        "dashboard-100x32-solved",
        Config(n=16, population=80, seed=5, **CLASSIC),
        (100, 32),
        solved,
    ),
    ("dashboard-80x24-solved", Config(n=8, population=40, seed=2, **CLASSIC), (80, 24), solved),
    (
        # Exact Braille with row and column numbers: 64 queens at 100x32.
        "dashboard-100x32-n64",
        Config(n=64, population=40, seed=1, stop_when_solved=False),
        (100, 32),
        stepped,
    ),
    (
        "dashboard-100x32-large-board",
        Config(n=200, population=40, seed=1, stop_when_solved=False),
        (100, 32),
        stepped,
    ),
    (
        # Exact Braille: one dot per square, 150 queens in 75 x 38 characters.
        "dashboard-200x60-n150",
        Config(n=150, population=40, seed=1, stop_when_solved=False),
        (200, 60),
        stepped,
    ),
    ("dashboard-80x24-ascii", SHOWCASE_SEEDED, (80, 24), stepped),
    (
        "dashboard-100x32-placement-map",
        Config(n=20, population=200, seed=3, **CLASSIC),
        (100, 32),
        placement_map,
    ),
    ("dashboard-100x32-origin", CROSSING, (100, 32), inspecting_a_crossed_child),
    ("dashboard-100x32-ancestry", CROSSING, (100, 32), ancestry),
    ("dashboard-100x32-selection-pressure", SHOWCASE_SEEDED, (100, 32), selection_pressure),
    ("dashboard-100x32-lessons", SHOWCASE_SEEDED, (100, 32), lessons),
]
"""Name, seeded config, terminal size and how to reach the state to capture."""


async def capture(name: str, config: Config, size: tuple[int, int], script: Script) -> Path:
    """Open the app on ``config``, run ``script``, save ``screenshots/<name>.svg``."""
    # The ASCII picture is the one a non-UTF-8 terminal (LANG=C) gets.
    app = QueensApp(config, frozen_clock=True, ascii=name.endswith("-ascii"))
    async with app.run_test(size=size) as pilot:
        await pilot.pause(0.2)
        await script(app, pilot)
        path = Path(app.save_screenshot(f"{name}.svg", path=str(OUT)))
    return path


def main() -> None:
    """Write every screenshot, or those named on the command line (in the default theme:
    never the user's saved one)."""
    wanted = set(sys.argv[1:])
    unknown = wanted - {shot[0] for shot in SHOTS}
    if unknown:
        sys.exit(f"make_screenshots: no screenshot named {', '.join(sorted(unknown))}")
    os.environ[CONFIG_DIR_VARIABLE] = tempfile.mkdtemp(prefix="queens-screenshots-")
    OUT.mkdir(exist_ok=True)
    for name, config, size, script in SHOTS:
        if wanted and name not in wanted:
            continue
        path = asyncio.run(capture(name, config, size, script))
        print(f"wrote {path.relative_to(OUT.parent)}")


if __name__ == "__main__":
    main()
