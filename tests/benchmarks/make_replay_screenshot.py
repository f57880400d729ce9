"""``make screenshots``: the dashboard travelling back in a recorded run (``screenshots/``).

A seeded run is recorded into a temporary store, stepped forty generations, then taken back
twenty with ``{`` ``{``: the status line says ``REPLAY gen 20 / 40`` and the chart marks it.
Wall-clock figures are hidden, so re-running the script changes nothing.
"""

from __future__ import annotations

import asyncio
import sys
import tempfile
from functools import partial
from pathlib import Path
from typing import Final

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # the project's root: tests.waiting

from engine import Config
from tests.waiting import wait_until_pilot
from tui.dashboard.app import QueensApp

OUT: Final = Path(__file__).resolve().parents[2] / "screenshots"
NAME: Final = "dashboard-100x32-replay"
CONFIG: Final = Config(
    n=14, population=60, seed=4, mutation="swap", mutation_rate=0.3, crossover_rate=0.9
)


async def capture(store: Path) -> Path:
    """Record, step, rewind, save the screenshot."""
    app = QueensApp(CONFIG, frozen_clock=True, record=True, store=str(store))
    async with app.run_test(size=(100, 32)) as pilot:

        def shows_generation(generation: int) -> bool:
            latest = app.main_screen.run.latest
            return latest is not None and latest.generation == generation

        for target in range(1, 41):
            await pilot.press("n")
            await wait_until_pilot(
                pilot, partial(shows_generation, target), 60, f"generation {target}"
            )
        await pilot.press("left_curly_bracket", "left_curly_bracket")
        await wait_until_pilot(
            pilot,
            lambda: app.main_screen.travel.active and shows_generation(20),
            60,
            "generation 20, back in time",
        )
        await pilot.pause(0.3)
        app.main_screen.painter.repaint(force=True)
        await pilot.pause(0.3)
        return Path(app.save_screenshot(f"{NAME}.svg", path=str(OUT)))


def main() -> None:
    """Write the screenshot."""
    OUT.mkdir(exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="queens-replay-") as folder:
        path = asyncio.run(capture(Path(folder) / "runs.sqlite3"))
    print(f"wrote {path.relative_to(OUT.parent)}")


if __name__ == "__main__":
    main()
