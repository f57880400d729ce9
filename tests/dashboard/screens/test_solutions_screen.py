"""Pilot tests of the solutions screen (`s`): the exact set at once, the gallery that fits and
draws only what is in view, counting above the listing limit, and the GA experiment's marks.

GA runs are seeded; nothing here depends on how fast the machine is beyond the wait limit.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable

import numpy as np
import numpy.typing as npt
import pytest
from textual.pilot import Pilot

from engine import Config
from engine.solutions.exact import list_solutions
from tui.dashboard.app import QueensApp
from tui.dashboard.pictures.solution_sets import NOT_FOUND
from tui.dashboard.screens import SolutionsScreen
from tui.dashboard.widgets import SolutionGallery

WaitFor = Callable[..., Awaitable[None]]


def make_app(n: int) -> QueensApp:
    return QueensApp(Config(n=n, seed=1), frozen_clock=True)


async def open_solutions(pilot: Pilot[None], app: QueensApp) -> SolutionsScreen:
    await pilot.press("s")
    await pilot.pause()
    screen = app.screen
    assert isinstance(screen, SolutionsScreen)
    return screen


def gallery_lines(gallery: SolutionGallery) -> list[str]:
    """The gallery's lines in view, as text, each checked to be exactly its width."""
    width = gallery.scrollable_content_region.width
    lines = []
    for y in range(gallery.scrollable_content_region.height):
        strip = gallery.render_line(y)
        assert strip.cell_length == width
        lines.append(strip.text)
    return lines


async def test_s_shows_the_92_solutions_of_n_8_and_the_12_fundamental_at_once(
    wait_for: WaitFor,
) -> None:
    app = make_app(8)
    async with app.run_test(size=(100, 32)) as pilot:
        screen = await open_solutions(pilot, app)
        await wait_for(pilot, lambda: screen.exact_state == "done", "the listing")
        await pilot.pause()
        assert "N = 8: 92 solutions, 12 fundamental" in str(screen.count_line.render())
        # No GA ran: the exact set is there at once.
        assert screen.run_state == "paused"
        assert screen.latest is not None and screen.latest.generation == 0
        gallery = screen.query_one(SolutionGallery)
        assert gallery.drawn == 92
        # The marks are those `queens solutions --n 8` prints.
        listing = list_solutions(8)
        assert screen.solutions is not None
        marks = screen.solutions.fundamental(0, 92)
        assert int(marks.sum()) == 12
        assert np.array_equal(marks, listing.canonical)
        first_row = gallery_lines(gallery)[0].split()
        per_row = gallery.board_layout.per_row if gallery.board_layout else 0
        expected = [f"#{i + 1}" + (" *" if listing.canonical[i] else "") for i in range(per_row)]
        assert " ".join(first_row) == " ".join(expected)


@pytest.mark.parametrize("size", [(100, 32), (80, 24)])
async def test_the_gallery_at_n_12_fits_the_width_without_wrapping(
    wait_for: WaitFor, size: tuple[int, int]
) -> None:
    app = make_app(12)
    async with app.run_test(size=size) as pilot:
        screen = await open_solutions(pilot, app)
        await wait_for(pilot, lambda: screen.exact_state == "done", "the listing")
        await pilot.pause()
        gallery = screen.query_one(SolutionGallery)
        layout = gallery.board_layout
        assert layout is not None and layout.picture == "squares"
        assert layout.per_row >= 3
        lines = gallery_lines(gallery)
        labels = lines[0].split()
        assert [label for label in labels if label.startswith("#")] == [
            f"#{i}" for i in range(1, layout.per_row + 1)
        ]
        # Each of the 12 lines below holds one row of every board: one queen a board.
        for line in lines[1:13]:
            assert line.count("♛") == layout.per_row
        assert "of 14,200" in str(gallery.border_subtitle)


async def test_the_gallery_reads_only_the_boards_in_view(wait_for: WaitFor) -> None:
    app = make_app(12)
    async with app.run_test(size=(100, 32)) as pilot:
        screen = await open_solutions(pilot, app)
        await wait_for(pilot, lambda: screen.exact_state == "done", "the listing")
        gallery = screen.query_one(SolutionGallery)
        source = screen.solutions
        assert source is not None
        read: list[tuple[int, int]] = []
        boards = source.boards

        def spy(start: int, stop: int) -> npt.NDArray[np.uint8]:
            read.append((start, stop))
            return boards(start, stop)

        source.boards = spy  # type: ignore[method-assign]
        await pilot.press("end")
        await wait_for(pilot, lambda: gallery.visible_boards()[1] == 14_200, "the last boards")
        await pilot.pause(0.3)  # the scroll's animation ends
        read.clear()
        gallery.source_changed()  # draw the lines in view again, from the source
        await pilot.pause()
        first, stop = gallery.visible_boards()
        assert stop == 14_200 and stop - first < 20
        assert read, "the lines in view were drawn again"
        assert all(first <= start and end <= stop for start, end in read)
        assert sum(end - start for start, end in read) <= stop - first


async def test_n_17_is_counted_in_a_worker_and_escape_stops_the_count(wait_for: WaitFor) -> None:
    app = make_app(17)
    async with app.run_test(size=(100, 32)) as pilot:
        screen = await open_solutions(pilot, app)
        assert "Too many to list" in str(screen.query_one("#solutions-note").render())
        await wait_for(
            pilot,
            lambda: re.search(r"[\d,]+ of [\d,]+ prefixes", str(screen.count_line.render())),
            "the count's progress",
        )
        assert screen.exact.running
        worker = screen.exact.worker
        assert worker is not None
        await pilot.press("escape")
        await wait_for(pilot, lambda: screen.exact_state == "stopped", "the stopped count")
        assert worker.is_cancelled
        assert app.screen is screen
        assert "count stopped after" in str(screen.count_line.render())
        await pilot.press("escape")
        await pilot.pause()
        assert not isinstance(app.screen, SolutionsScreen)


async def test_n_64_gives_no_count_says_why_and_draws_the_ga_s_finds_to_fit(
    wait_for: WaitFor,
) -> None:
    app = make_app(64)
    async with app.run_test(size=(100, 32)) as pilot:
        screen = await open_solutions(pilot, app)
        assert screen.exact.worker is None  # nothing to list or count
        assert "nobody has counted" in str(screen.count_line.render())
        assert "Too many to list" in str(screen.query_one("#solutions-note").render())
        gallery = screen.query_one(SolutionGallery)
        assert gallery.drawn == 0
        await pilot.press("space")
        await wait_for(pilot, lambda: gallery.drawn > 0, "a solution found by the GA")
        await pilot.press("space")
        await pilot.pause(0.2)
        layout = gallery.board_layout
        assert layout is not None and layout.picture == "braille"
        lines = gallery_lines(gallery)
        assert "✓ gen" in lines[0]
        # 64 rows of 4 dots per character: 16 lines of Braille below the label.
        assert all(any("\u2800" <= c <= "\u28ff" for c in line) for line in lines[1:17])
        await pilot.press("escape")
        await pilot.pause()
        assert not isinstance(app.screen, SolutionsScreen)


async def test_the_ga_experiment_marks_what_it_found_in_the_exact_set(
    wait_for: WaitFor,
) -> None:
    app = make_app(8)
    async with app.run_test(size=(100, 32)) as pilot:
        screen = await open_solutions(pilot, app)
        await wait_for(pilot, lambda: screen.exact_state == "done", "the listing")
        solutions = screen.solutions
        assert solutions is not None and solutions.found == 0
        await pilot.press("space")
        await wait_for(pilot, lambda: screen.run_state == "done", "every solution by GA")
        await wait_for(pilot, lambda: solutions.found == 92, "the marks")
        assert solutions.found_fundamental == 12 and solutions.unmatched == 0
        generations = solutions.found_generations(0, 92)
        assert screen.latest is not None
        assert (generations != NOT_FOUND).all()
        assert (generations <= screen.latest.generation).all()
        assert "GA: all 92 found (12 of 12 fundamental)" in str(screen.progress.render())
        await pilot.pause(0.3)
        gallery = screen.query_one(SolutionGallery)
        label_line = gallery_lines(gallery)[0]
        assert label_line.count("✓") == gallery.board_layout.per_row  # type: ignore[union-attr]


async def test_the_ga_s_count_is_of_the_exact_set_while_it_runs(wait_for: WaitFor) -> None:
    app = make_app(12)
    async with app.run_test(size=(100, 32)) as pilot:
        screen = await open_solutions(pilot, app)
        await wait_for(pilot, lambda: screen.exact_state == "done", "the listing")
        await pilot.press("space")
        await wait_for(
            pilot,
            lambda: screen.latest is not None and screen.latest.solutions.shape[0] >= 100,
            "a hundred finds",
        )
        await pilot.press("space")
        solutions = screen.solutions
        assert solutions is not None
        await wait_for(
            pilot,
            lambda: (
                screen.latest is not None and solutions.found == screen.latest.solutions.shape[0]
            ),
            "the finds marked",
        )
        assert solutions.unmatched == 0
        assert 100 <= solutions.found < 14_200
        # The line is repainted a moment after the finds (a turn may still end after the
        # pause): it must come to say the count marked.
        await wait_for(
            pilot,
            lambda: f"GA: {solutions.found:,} of 14,200 found" in str(screen.progress.render()),
            "the line saying the count",
        )


async def test_v_cycles_the_pictures_and_page_down_moves_whole_rows(wait_for: WaitFor) -> None:
    app = make_app(12)
    async with app.run_test(size=(100, 32)) as pilot:
        screen = await open_solutions(pilot, app)
        await wait_for(pilot, lambda: screen.exact_state == "done", "the listing")
        gallery = screen.query_one(SolutionGallery)
        seen = []
        for _ in range(4):
            assert gallery.board_layout is not None
            seen.append(gallery.board_layout.picture)
            await pilot.press("v")
            await pilot.pause()
        assert seen == ["squares", "halves", "braille", "genomes"]
        assert gallery.board_layout is not None and gallery.board_layout.picture == "squares"
        layout = gallery.board_layout
        rows_in_view = gallery.scrollable_content_region.height // layout.row_height
        await pilot.press("pagedown")
        await pilot.pause(0.3)
        assert gallery.visible_boards()[0] == rows_in_view * layout.per_row
        await pilot.press("down")
        await pilot.pause(0.3)
        assert gallery.visible_boards()[0] == (rows_in_view + 1) * layout.per_row
        assert str(gallery.border_subtitle).startswith(
            f"{(rows_in_view + 1) * layout.per_row + 1:,}-"
        )
