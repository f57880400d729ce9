"""The dashboard refuses a run file from a newer engine version: it says so and keeps its run.

The file is a run of the test corpus whose recorded engine version is bumped past this one
(``tests/cli/test_newer_engine_records.py`` checks the commands).
"""

from __future__ import annotations

import shutil
import sqlite3
from collections.abc import Awaitable, Callable
from pathlib import Path

from engine import Config
from tui.dashboard.app import QueensApp
from tui.lab.record_version import engine_version, release

WaitFor = Callable[..., Awaitable[None]]
CORPUS = Path(__file__).resolve().parents[2] / "corpus"


async def test_replaying_a_file_from_a_newer_engine_says_so_and_keeps_the_run(
    tmp_path: Path, wait_for: WaitFor
) -> None:
    folders = sorted(p for p in CORPUS.iterdir() if p.is_dir() and release(p.name))
    path = Path(shutil.copyfile(folders[-1] / "preset-default.queens", tmp_path / "run.queens"))
    major = (release(engine_version()) or (0,))[0]
    newer = f"{major + 1}.0.0"
    with sqlite3.connect(path) as connection:
        connection.execute("UPDATE runs SET engine_version = ?", (newer,))
    connection.close()
    before = path.read_bytes()
    app = QueensApp(
        Config(n=9, population=14, seed=77), frozen_clock=True, record=False, replay=str(path)
    )
    async with app.run_test(size=(100, 32)) as pilot:

        def refused() -> bool:
            return any("newer than this one" in n.message for n in app._notifications)

        await wait_for(pilot, refused, "the refusal")
        message = next(n.message for n in app._notifications if "newer" in n.message)
        assert f"recorded by engine version {newer}" in message
        assert "upgrade queens-ga to read it" in message
        assert app.main_screen.travel.timeline is None
    assert path.read_bytes() == before
