"""The population table keeps the figures and the genome apart; the status line keeps the seed.

Seeded, paused runs (and a recorded run replayed): nothing here depends on the machine's speed.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest
from rich.segment import Segment

from engine import Config
from tests.dashboard.largest_seed import LARGEST_SEED, RECORDED
from tui.dashboard.app import QueensApp
from tui.dashboard.widgets import PopulationTable
from tui.lab.store import RunStore

WaitFor = Callable[..., Awaitable[None]]


def table_lines(table: PopulationTable) -> list[list[Segment]]:
    """The segments of each line the table shows, header first."""
    return [list(table.render_line(y)) for y in range(table.scrollable_content_region.height)]


def text_of(segments: list[Segment]) -> str:
    return "".join(segment.text for segment in segments)


# The population table ---------------------------------------------------------------------


@pytest.mark.parametrize(("ascii", "rule"), [(False, "│"), (True, "|")])
@pytest.mark.parametrize("n", [4, 28])
async def test_the_genome_is_a_column_of_its_own_behind_a_rule(
    n: int, ascii: bool, rule: str
) -> None:
    app = QueensApp(Config(n=n, population=100, seed=5), ascii=ascii, frozen_clock=True)
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.press("n")  # a generation with conflicts of one and two digits
        await pilot.pause(0.3)
        table = app.main_screen.table
        header, *rows = [text_of(line) for line in table_lines(table)]
        assert header.split()[-3:] == ["Conf", rule, "Genome"]
        genome_at = header.index(rule)
        shown = [row for row in rows if row.strip()]
        assert len(shown) >= 5
        for row in shown:
            # The rule is under the header's, between the four figures and the genes.
            assert row[genome_at] == rule, row
            figures, genes = row[:genome_at].split(), row[genome_at + 1 :].split()
            rank, index, _fitness, conflicts = figures
            assert int(rank) >= 1 and 0 <= int(index) < 100 and int(conflicts) >= 0
            genome = [gene.rstrip("….") for gene in genes if gene.rstrip("….")]  # cut at the edge
            assert all(0 <= int(gene) < n for gene in genome)
            if n == 4:
                assert len(genes) == n  # 100 99 0 6 3 2 1 0 read as five genes


async def test_the_genome_has_a_colour_of_its_own() -> None:
    app = QueensApp(Config(n=8, population=40, seed=5), frozen_clock=True)
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.pause(0.3)
        table = app.main_screen.table
        for line in table_lines(table)[2:4]:  # an odd and an even row, off the cursor
            cells = [segment for segment in line if segment.text.strip()]
            conflicts, genome = cells[3], cells[5]
            assert genome.text[0].isdigit() and conflicts.text.strip().isdigit()
            assert genome.style is not None and conflicts.style is not None
            assert genome.style.color != conflicts.style.color
            # On the row's own background: the odd rows' stripe runs under the genome too.
            assert genome.style.bgcolor == conflicts.style.bgcolor


# The status line ------------------------------------------------------------------------


def status_text(app: QueensApp) -> str:
    return str(app.main_screen.status.render()).replace("\xa0", " ")


def record_run(path: Path) -> None:
    from tui.lab.engine_state import new_algorithm
    from tui.lab.recorder import Recorder

    with RunStore.open(path) as store:
        algorithm = new_algorithm(RECORDED)
        recorder = Recorder(store, algorithm)
        while algorithm.has_next():
            recorder.record(algorithm.step())
        recorder.close()


@pytest.mark.parametrize("form_open", [False, True], ids=["form-closed", "form-open"])
@pytest.mark.parametrize("size", [(80, 24), (100, 32), (200, 60)], ids=str)
async def test_a_live_run_shows_its_seed_whole(
    size: tuple[int, int], form_open: bool, wait_for: WaitFor
) -> None:
    config = Config(n=24, population=50, seed=LARGEST_SEED, stop_when_solved=False)
    app = QueensApp(config, frozen_clock=True)
    async with app.run_test(size=size) as pilot:
        screen = app.main_screen
        await pilot.press("space")
        await wait_for(
            pilot, lambda: screen.run.latest is not None and screen.run.latest.generation >= 2, "2"
        )
        if form_open:
            await pilot.press("f")
        await pilot.pause(0.3)
        if form_open:
            assert screen.form.region.width > 0
        text = status_text(app)
        assert f"seed {LARGEST_SEED}" in text, text
        assert text.startswith(" RUNNING ")
        assert screen.status.region.height == 1
        assert len(text) <= screen.status.content_region.width


@pytest.mark.parametrize("form_open", [False, True], ids=["form-closed", "form-open"])
@pytest.mark.parametrize("size", [(80, 24), (100, 32), (200, 60)], ids=str)
async def test_a_replay_shows_its_seed_whole_and_its_generation_once(
    size: tuple[int, int], form_open: bool, tmp_path: Path, wait_for: WaitFor
) -> None:
    path = tmp_path / "r.sqlite3"
    record_run(path)
    app = QueensApp(RECORDED, frozen_clock=True, record=True, store=str(path), replay=1)
    async with app.run_test(size=size) as pilot:
        screen = app.main_screen

        def shown() -> int:
            latest = screen.run.latest
            return -1 if latest is None or not screen.travel.active else latest.generation

        await wait_for(pilot, lambda: shown() == 12, "the replay's last generation")
        await pilot.press("left_square_bracket")
        await wait_for(pilot, lambda: shown() == 11, "one generation back")
        if form_open:
            await pilot.press("f")
        await pilot.pause(0.3)
        text = status_text(app)
        assert f"seed {LARGEST_SEED}" in text, text
        assert text.startswith(" REPLAY")
        assert len(re.findall(r"\b(?:gen|Gen|G) 11\b", text)) == 1, text
        assert len(text) <= screen.status.content_region.width
