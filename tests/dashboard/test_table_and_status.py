"""The population table keeps the figures and the genome apart; the status line keeps the seed.

Seeded, paused runs (and a recorded run replayed): nothing here depends on the machine's speed.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import pytest
from rich.segment import Segment

from engine import Config
from tui.dashboard.app import QueensApp
from tui.dashboard.widgets import PopulationTable

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
            genome = [gene.rstrip("…") for gene in genes if gene.rstrip("…")]  # cut at the edge
            assert all(0 <= int(gene) < n for gene in genome)
            if n == 4:
                assert len(genes) == n  # 100 99 0 6 3 2 1 0 read as five genes


async def test_the_genome_has_a_colour_of_its_own() -> None:
    app = QueensApp(Config(n=8, population=40, seed=5), frozen_clock=True)
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.pause(0.3)
        table = app.main_screen.table
        line = table_lines(table)[3]  # a row the cursor is not on
        cells = [segment for segment in line if segment.text.strip()]
        conflicts, genome = cells[3], cells[5]
        assert genome.text[0].isdigit() and conflicts.text.strip().isdigit()
        assert genome.style is not None and conflicts.style is not None
        assert genome.style.color != conflicts.style.color
