"""Where an inspected individual came from: its origin, the parent keys, the ancestry screen."""

from __future__ import annotations

import threading
from collections.abc import Awaitable, Callable
from pathlib import Path

import numpy as np
import pytest

from engine import Config
from engine.lineage.lineage import CROSSED
from tests.dashboard.crossing import CHILD, CROSSING, generations
from tui.dashboard.actions import origin_keys
from tui.dashboard.app import QueensApp
from tui.dashboard.pictures.origin import FROM_BOTH, MOVED, origin_of
from tui.dashboard.runs.ancestry import Line, RecordedRun
from tui.dashboard.screens.ancestry import AncestryScreen
from tui.lab.lineage import trace
from tui.lab.recorded_lineage import RecordedSource
from tui.lab.store import RunStore
from tui.lab.timeline import Timeline

WaitFor = Callable[..., Awaitable[None]]


def inspected(app: QueensApp) -> tuple[int, int, np.ndarray] | None:
    shown = app.main_screen.run.inspected
    if shown is None:
        return None
    snapshot, index = shown
    return snapshot.generation, index, np.asarray(snapshot.population[index])


async def step_to(app: QueensApp, pilot: object, wait_for: WaitFor, last: int) -> None:
    """Step the run with ``n`` up to generation ``last``, one generation at a time."""
    for generation in range(1, last + 1):
        await pilot.press("n")  # type: ignore[attr-defined]
        await wait_for(
            pilot, lambda g=generation: app.main_screen.run.latest.generation == g, "a step"
        )


async def inspect_by_index(pilot: object, index: int) -> None:
    """Sort the table by index and press enter on row ``index``."""
    await pilot.press("t", "o", "o", "home", *["down"] * index, "enter")  # type: ignore[attr-defined]


async def test_p_shows_the_parent_in_the_generation_before_and_d_comes_back(
    wait_for: WaitFor,
) -> None:
    live = generations(CROSSING, 5)
    lineage = live[5].lineage
    assert lineage is not None
    app = QueensApp(CROSSING, frozen_clock=True)
    async with app.run_test(size=(100, 32)) as pilot:
        await step_to(app, pilot, wait_for, 5)
        await inspect_by_index(pilot, CHILD)
        await wait_for(pilot, lambda: inspected(app) is not None, "the child inspected")
        child = app.main_screen.run.inspected
        assert inspected(app)[:2] == (5, CHILD)  # type: ignore[index]
        assert "crossed (pmx), mutated: 2 queens moved" in conflict_text(app)
        await pilot.press("p")
        generation, index, genome = inspected(app)  # type: ignore[misc]
        assert (generation, index) == (4, 10)
        assert np.array_equal(genome, live[4].population[10])
        assert app.main_screen.board.border_title == "#10 of gen 4"
        await pilot.press("d")
        assert app.main_screen.run.inspected is child
        await pilot.press("P")
        generation, index, genome = inspected(app)  # type: ignore[misc]
        assert (generation, index) == (4, 36)
        assert np.array_equal(genome, live[4].population[36])
        await pilot.press("p")  # on up: the main parent of #36 of gen 4
        parent = live[4].lineage.main_parent(36)  # type: ignore[union-attr]
        generation, index, genome = inspected(app)  # type: ignore[misc]
        assert (generation, index) == (3, parent)
        assert np.array_equal(genome, live[3].population[parent])
        await pilot.press("d", "d")
        assert app.main_screen.run.inspected is child
        await pilot.press("d")  # nothing further down: said, and the child stays
        assert app.main_screen.run.inspected is child


def conflict_text(app: QueensApp) -> str:
    from textual.widgets import Static

    return str(app.main_screen.query_one("#conflict-text", Static).render())


async def test_p_in_a_replayed_run_reads_the_parent_from_the_record(
    tmp_path: Path, wait_for: WaitFor
) -> None:
    path = tmp_path / "r.sqlite3"
    config = CROSSING.replace(generations=12)
    record(path, config)
    live = generations(config, 12)
    app = QueensApp(config, frozen_clock=True, store=str(path), replay=1)
    async with app.run_test(size=(100, 32)) as pilot:
        await wait_for(
            pilot,
            lambda: (
                app.main_screen.run.latest is not None
                and app.main_screen.run.latest.generation == 12
            ),
            "the replay at its end",
        )
        # Its last generation is restored from a keyframe, without lineage: inspecting an
        # individual there reads the generation again, with it.
        assert app.main_screen.run.latest.lineage is None  # type: ignore[union-attr]
        await inspect_by_index(pilot, CHILD)
        await wait_for(
            pilot,
            lambda: (
                app.main_screen.run.inspected is not None
                and app.main_screen.run.inspected[0].lineage is not None
            ),
            "the lineage read from the record",
        )
        operator = origin_of(*app.main_screen.run.inspected).operator  # type: ignore[misc]
        assert operator.split(",")[0] in conflict_text(app)
        await pilot.press("g", "5", "enter")
        await wait_for(
            pilot,
            lambda: (
                app.main_screen.run.latest is not None
                and app.main_screen.run.latest.generation == 5
            ),
            "generation 5",
        )
        await inspect_by_index(pilot, CHILD)
        await wait_for(pilot, lambda: inspected(app) is not None, "the child inspected")
        await pilot.press("P")
        await wait_for(pilot, lambda: inspected(app)[0] == 4, "the parent")  # type: ignore[index]
        _, index, genome = inspected(app)  # type: ignore[misc]
        assert index == 36 and np.array_equal(genome, live[4].population[36])
        await pilot.press("d")
        assert inspected(app)[:2] == (5, CHILD)  # type: ignore[index]


def record(path: Path, config: Config) -> None:
    from tui.lab.engine_state import new_algorithm
    from tui.lab.recorder import Recorder

    with RunStore.open(path) as store:
        algorithm = new_algorithm(config)
        recorder = Recorder(store, algorithm)
        while algorithm.has_next():
            recorder.record(algorithm.step())
        recorder.close()


async def open_ancestry(app: QueensApp, pilot: object, wait_for: WaitFor) -> AncestryScreen:
    await pilot.press("w")  # type: ignore[attr-defined]
    await wait_for(pilot, lambda: isinstance(app.screen, AncestryScreen), "the ancestry")
    screen = app.screen
    assert isinstance(screen, AncestryScreen)
    return screen


async def test_the_ancestry_of_a_replayed_generation_is_the_live_one_and_the_labs(
    tmp_path: Path, wait_for: WaitFor
) -> None:
    path = tmp_path / "r.sqlite3"
    app = QueensApp(CROSSING, frozen_clock=True, record=True, store=str(path))
    async with app.run_test(size=(100, 32)) as pilot:
        for generation in range(1, 13):
            await pilot.press("n")
            await wait_for(
                pilot, lambda g=generation: app.main_screen.run.latest.generation == g, "a step"
            )
        await inspect_by_index(pilot, 7)
        await wait_for(pilot, lambda: inspected(app) is not None, "inspected")
        screen = await open_ancestry(app, pilot, wait_for)
        live_line = screen.line
        # Walking the line: the board follows.
        await pilot.press("p", "p")
        row = screen.line.ancestors[screen.rows[2][0]]
        assert screen.query_one("#ancestry-board").border_title.startswith(
            f"#{row.individual} of gen"
        )
        await pilot.press("enter")  # inspect that ancestor on the main screen
        await wait_for(
            pilot,
            lambda: app.screen is app.main_screen and inspected(app) is not None,
            "the ancestor inspected",
        )
        generation, index, genome = inspected(app)  # type: ignore[misc]
        assert (generation, index) == (row.generation, row.individual)
        assert tuple(int(gene) for gene in genome) == row.genome
    assert live_line.source == "memory" and live_line.complete
    app = QueensApp(CROSSING, frozen_clock=True, store=str(path), replay=1)
    async with app.run_test(size=(100, 32)) as pilot:
        await wait_for(
            pilot,
            lambda: (
                app.main_screen.run.latest is not None
                and app.main_screen.run.latest.generation == 12
            ),
            "the replay at its end",
        )
        await inspect_by_index(pilot, 7)
        await wait_for(pilot, lambda: inspected(app) is not None, "inspected")
        screen = await open_ancestry(app, pilot, wait_for)
        replayed = screen.line
        await pilot.press("p", "p", "p", "enter")  # an older ancestor, read from the record
        row = screen.line.ancestors[screen.rows[3][0]]
        await wait_for(
            pilot,
            lambda: (
                app.screen is app.main_screen
                and inspected(app) is not None
                and inspected(app)[0] == row.generation
            ),  # type: ignore[index]
            "the ancestor inspected",
        )
        assert tuple(int(gene) for gene in inspected(app)[2]) == row.genome  # type: ignore[index]
    assert replayed.source == "run 1"
    with RunStore.open(path) as store:
        lab = trace(RecordedSource(Timeline(store, 1)), 12, 7)
    assert live_line.ancestors == replayed.ancestors == lab.ancestors
    assert live_line.descent == replayed.descent == lab.descent
    assert [a.generation for a in lab.ancestors] == list(range(12, -1, -1))


READING = "reading the run's record"


def reading_notices(app: QueensApp) -> list[str]:
    return [note.message for note in app._notifications if READING in note.message]


def at_generation(app: QueensApp, generation: int) -> bool:
    latest = app.main_screen.run.latest
    return latest is not None and latest.generation == generation


def replay_at_its_end(tmp_path: Path) -> QueensApp:
    path = tmp_path / "r.sqlite3"
    config = CROSSING.replace(generations=12)
    record(path, config)
    return QueensApp(config, frozen_clock=True, store=str(path), replay=1)


async def test_an_ancestry_read_quickly_from_the_record_says_nothing_of_the_reading(
    tmp_path: Path, wait_for: WaitFor, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The notice came at once and stayed its 2 s over the ancestry's header, opened long before.
    monkeypatch.setattr(origin_keys, "NOTICE_DELAY", 1.0)
    app = replay_at_its_end(tmp_path)
    async with app.run_test(size=(100, 32)) as pilot:
        await wait_for(pilot, lambda: at_generation(app, 12), "the replay at its end")
        screen = await open_ancestry(app, pilot, wait_for)
        assert screen.line.source == "run 1"  # read from the record, in a thread
        await pilot.pause(1.3)
        assert reading_notices(app) == []


async def test_an_ancestry_slow_to_read_says_it_is_reading_the_record(
    tmp_path: Path, wait_for: WaitFor, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(origin_keys, "NOTICE_DELAY", 0.05)
    release = threading.Event()
    read_line = RecordedRun.line

    def slow_line(recorded: RecordedRun, generation: int, index: int) -> Line:
        release.wait(30)
        return read_line(recorded, generation, index)

    monkeypatch.setattr(RecordedRun, "line", slow_line)
    app = replay_at_its_end(tmp_path)
    async with app.run_test(size=(100, 32)) as pilot:
        await wait_for(pilot, lambda: at_generation(app, 12), "the replay at its end")
        await pilot.press("w")
        await wait_for(pilot, lambda: reading_notices(app) != [], "the reading notice")
        assert reading_notices(app) == ["Ancestry: reading the run's record…"]
        release.set()
        await wait_for(pilot, lambda: isinstance(app.screen, AncestryScreen), "the ancestry")


async def test_p_in_time_travel_shows_the_parent_of_a_past_generation(
    tmp_path: Path, wait_for: WaitFor
) -> None:
    live = generations(CROSSING, 8)
    app = QueensApp(CROSSING, frozen_clock=True, record=True, store=str(tmp_path / "r.sqlite3"))
    async with app.run_test(size=(100, 32)) as pilot:
        for generation in range(1, 9):
            await pilot.press("n")
            await wait_for(
                pilot, lambda g=generation: app.main_screen.run.latest.generation == g, "a step"
            )
        await pilot.press("left_square_bracket", "left_square_bracket", "left_square_bracket")
        await wait_for(
            pilot,
            lambda: app.main_screen.travel.active and app.main_screen.run.latest.generation == 5,
            "three generations back",
        )
        await inspect_by_index(pilot, CHILD)
        await wait_for(pilot, lambda: inspected(app) is not None, "the child inspected")
        assert inspected(app)[:2] == (5, CHILD)  # type: ignore[index]
        await pilot.press("p")
        await wait_for(pilot, lambda: inspected(app)[0] == 4, "the parent")  # type: ignore[index]
        _, index, genome = inspected(app)  # type: ignore[misc]
        assert index == 10 and np.array_equal(genome, live[4].population[10])


async def test_at_80x24_the_inspected_childs_origin_leaves_room_for_its_attacking_pairs(
    wait_for: WaitFor,
) -> None:
    from tui.dashboard.widgets import ConflictList

    config = CROSSING.replace(n=28)  # the showcase's size: the panel has 7 rows at 80x24
    lineage = generations(config, 5)[5].lineage
    assert lineage is not None
    child = next(
        index
        for index in range(config.population)
        if lineage.flags[index] & CROSSED and len(set(lineage.parents[index].tolist())) == 2
    )
    app = QueensApp(config, frozen_clock=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await step_to(app, pilot, wait_for, 5)
        await inspect_by_index(pilot, child)
        await wait_for(pilot, lambda: inspected(app) is not None, "the child inspected")
        await pilot.pause()
        panel = app.main_screen.query_one(ConflictList)
        text = panel.query_one("#conflict-text")
        seen = [text.render_line(y).text for y in range(panel.scrollable_content_region.height)]
        # The longest origin there is (crossed, two parents, moved queens), the count of
        # pairs, and at least two pairs, in the panel's rows without scrolling.
        assert panel.size.height <= 8, panel.size
        assert any("crossed (pmx)" in line for line in seen), seen
        assert sum(" × " in line and "row,col" not in line for line in seen) >= 2, seen
        # The one paragraph's separators stay with the part before them when it wraps.
        assert not any(line.rstrip().endswith("·") for line in seen), seen


async def test_the_ancestry_board_colours_the_queens_from_the_parent_the_line_follows(
    wait_for: WaitFor,
) -> None:
    from tui.dashboard.widgets import Board

    live = generations(CROSSING, 5)
    origin = origin_of(live[5], CHILD)
    assert origin is not None and origin.kind == "crossed" and origin.moved > 0
    main = 1 + next(number for number, parent in enumerate(origin.parents) if parent.main)
    app = QueensApp(CROSSING, frozen_clock=True)
    async with app.run_test(size=(100, 32)) as pilot:
        await step_to(app, pilot, wait_for, 5)
        await inspect_by_index(pilot, CHILD)
        await wait_for(pilot, lambda: inspected(app) is not None, "the child inspected")
        screen = await open_ancestry(app, pilot, wait_for)
        await pilot.pause()
        position = screen.query_one("#ancestry-board", Board).position
        assert position is not None and position.origins is not None
        line = position.origins
        # As the main screen's inspection says, as far as the line can tell: the queens from
        # the main parent (the one followed) in its colour, the rest (the other parent's, the
        # moved ones) plain.
        from_main = (origin.queens == main) | (origin.queens == FROM_BOTH)
        assert np.array_equal(line == main, from_main)
        assert not (line == MOVED).any()  # a crossed child's moves are not told apart
        head = str(screen.query_one("#ancestry-head").render())
        followed = origin.main_parent
        assert followed is not None
        assert f"board: {int(from_main.sum())} from #{followed.index}" in head
        await pilot.press("p")  # the parent, a copy or a survivor: all its queens told
        await pilot.pause()
        position = screen.query_one("#ancestry-board", Board).position
        assert position is not None and position.origins is not None
        assert (position.origins != 0).all()


async def test_a_line_of_one_generation_says_so_in_the_singular(wait_for: WaitFor) -> None:
    app = QueensApp(CROSSING, frozen_clock=True)
    async with app.run_test(size=(100, 32)) as pilot:
        screen = await open_ancestry(app, pilot, wait_for)
        assert screen.query_one("#ancestry-table").border_title == "Line: 1 generation"
