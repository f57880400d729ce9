"""Pilot tests of swapping a plug-in into the dashboard's paused run, and of replaying or
resuming a run whose plug-in file has changed since.

The run starts with version 1 of a plug-in mutation, is stepped and paused; its file is
rewritten with version 2 and the palette's ``Reload plug-ins`` swaps it in. The dashboard's run
must then be, generation for generation, the engine's run that swapped at the same generation
(not the run of version 1 throughout), and its record must say from which generation version 2
applies and re-make every generation the same way. A version that fails the checks, a run that
is not paused, and a dashboard under ``queens serve`` without ``--allow-plugins`` are refused in
one line, the run left as it was.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest
from textual.widgets import Input

from engine import Config, GeneticAlgorithm, restrict_plugins
from tests.plugin_versions import BROKEN, FIRST, SECOND, write_version
from tui.dashboard.app import QueensApp
from tui.dashboard.palette import palette_commands
from tui.dashboard.screens.plugin_prompt import PluginPrompt
from tui.lab.store import RunStore
from tui.lab.timeline import Timeline

WaitFor = Callable[..., Awaitable[None]]

SWAP_AT = 4
LAST = 9


pytestmark = pytest.mark.usefixtures("plug_ins_as_in_a_new_process")
"""Each test starts as a new process would: no plug-in source, module or check kept."""


def start(ops: Path) -> Config:
    mutation = write_version(ops, FIRST)
    return Config(
        n=10, population=24, seed=8, mutation=mutation, mutation_rate=0.9, stop_when_solved=False
    )


def generation(app: QueensApp) -> int:
    latest = app.main_screen.run.latest
    return -1 if latest is None else latest.generation


def said(app: QueensApp, words: str) -> bool:
    return any(words in notice.message for notice in app._notifications)


async def step_to(pilot: object, app: QueensApp, target: int, wait_for: WaitFor) -> None:
    app.main_screen.table.focus()
    for step in range(generation(app) + 1, target + 1):
        await pilot.press("n")  # type: ignore[attr-defined]
        await wait_for(pilot, lambda at=step: generation(app) == at, f"generation {step}")


def reload_plugins(app: QueensApp) -> None:
    (command,) = [c for c in palette_commands(app.main_screen, app) if c.name == "Reload plug-ins"]
    command.run()


def engine_run(config: Config, ops: Path, swap_to: str | None) -> list[bytes]:
    """The engine's own run: version 1, and ``swap_to`` from generation SWAP_AT + 1 on."""
    write_version(ops, FIRST)
    algorithm = GeneticAlgorithm(config)
    prints = [algorithm.snapshot.population.tobytes()]
    while algorithm.snapshot.generation < LAST:
        if algorithm.snapshot.generation == SWAP_AT and swap_to is not None:
            write_version(ops, swap_to)
            algorithm.swap_operator("mutation", f"{ops}:mutate")
        prints.append(algorithm.step().population.tobytes())
    return prints


async def test_reload_plug_ins_swaps_the_changed_file_into_the_paused_run(
    tmp_path: Path, wait_for: WaitFor
) -> None:
    ops, store = tmp_path / "ops.py", tmp_path / "runs.sqlite3"
    config = start(ops)
    app = QueensApp(config, frozen_clock=True, record=True, store=str(store))
    async with app.run_test(size=(110, 36)) as pilot:
        await pilot.pause()
        await step_to(pilot, app, SWAP_AT, wait_for)
        reload_plugins(app)
        await wait_for(pilot, lambda: said(app, "No plug-in file"), "nothing changed")
        write_version(ops, SECOND)
        reload_plugins(app)
        swapped = f"from generation {SWAP_AT + 1} on, kept in run 1's record"
        await wait_for(pilot, lambda: said(app, swapped), "the swap's notice")
        algorithm = app.main_screen.runner.algorithm
        assert algorithm is not None and algorithm.config.mutation != config.mutation
        # No solve line repeats a swap: the rerun given is the record's replay.
        rerun = app.main_screen.run_command()
        assert rerun is not None and rerun.startswith("queens replay 1  #")
        assert f"from generation {SWAP_AT + 1}" in rerun
        await step_to(pilot, app, LAST, wait_for)
        shown = app.main_screen.run.latest
        assert shown is not None
        # The dashboard's own time travel, before the swap and after (as the travel keys do:
        # what is buffered committed, the record's end read again).
        app.main_screen.recording.flush()
        assert app.main_screen.travel.last_generation() == LAST
        travelled = {at: app.main_screen.travel.snapshot_at(at) for at in (SWAP_AT + 2, 2, LAST)}
    expected = engine_run(config, ops, SECOND)
    assert shown.population.tobytes() == expected[LAST]
    for at, snapshot in travelled.items():
        assert snapshot.population.tobytes() == expected[at], at
    assert expected[LAST] != engine_run(config, ops, None)[LAST]
    ops.unlink()
    with RunStore.open(store) as opened:
        (swap,) = opened.run(1).swaps
        assert (swap.generation, swap.field) == (SWAP_AT + 1, "mutation")
        timeline = Timeline(opened, 1)
        for at in (LAST, SWAP_AT, SWAP_AT + 1, 0):
            assert timeline.snapshot_at(at).population.tobytes() == expected[at]


async def test_a_version_that_fails_its_checks_is_refused_and_the_run_goes_on_as_it_was(
    tmp_path: Path, wait_for: WaitFor
) -> None:
    ops = tmp_path / "ops.py"
    config = start(ops)
    app = QueensApp(config, frozen_clock=True)
    async with app.run_test(size=(110, 36)) as pilot:
        await pilot.pause()
        await step_to(pilot, app, SWAP_AT, wait_for)
        write_version(ops, BROKEN)
        reload_plugins(app)
        await wait_for(pilot, lambda: said(app, "check 'shape' failed"), "the refusal")
        refusal = next(n for n in app._notifications if "check 'shape' failed" in n.message)
        assert "\n" not in refusal.message and refusal.title == "Not swapped"
        algorithm = app.main_screen.runner.algorithm
        assert algorithm is not None and algorithm.config == config
        await step_to(pilot, app, LAST, wait_for)
        shown = app.main_screen.run.latest
        assert shown is not None
    assert shown.population.tobytes() == engine_run(config, ops, None)[LAST]


async def test_the_palette_s_plug_in_command_swaps_another_function_into_the_paused_run(
    tmp_path: Path, wait_for: WaitFor
) -> None:
    ops, other = tmp_path / "ops.py", tmp_path / "other.py"
    app = QueensApp(start(ops), frozen_clock=True)
    async with app.run_test(size=(110, 36)) as pilot:
        await pilot.pause()
        await step_to(pilot, app, SWAP_AT, wait_for)
        app.main_screen.ask_plugin("mutation")
        await wait_for(pilot, lambda: isinstance(app.screen, PluginPrompt), "the prompt")
        await pilot.pause()
        write_version(other, BROKEN)
        app.screen.query_one(Input).value = f"{other}:mutate"
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, PluginPrompt)  # refused on the prompt: it stays
        assert "check 'shape' failed" in str(app.screen.query_one("#plugin-error").render())
        write_version(other, SECOND)
        await pilot.press("enter")
        await wait_for(pilot, lambda: not isinstance(app.screen, PluginPrompt), "the prompt")
        await wait_for(pilot, lambda: said(app, "other.py:mutate@"), "the swap's notice")
        algorithm = app.main_screen.runner.algorithm
        assert algorithm is not None and algorithm.config.mutation.startswith(f"{other}:mutate@")
        # Not recorded: the starting config's line, which says where it stops being this run.
        rerun = app.main_screen.run_command()
        assert rerun is not None and rerun.startswith("queens solve") and "ops.py:mutate" in rerun
        assert f"up to generation {SWAP_AT}" in rerun and "other.py" not in rerun


async def test_a_running_run_and_a_server_without_allow_plugins_refuse_the_swap(
    tmp_path: Path, wait_for: WaitFor
) -> None:
    ops = tmp_path / "ops.py"
    config = start(ops)
    app = QueensApp(config, frozen_clock=True, speed=5)
    async with app.run_test(size=(110, 36)) as pilot:
        await pilot.pause()
        write_version(ops, SECOND)
        app.main_screen.table.focus()
        await pilot.press("space")
        await wait_for(pilot, lambda: app.main_screen.run.state == "running", "the run going")
        reload_plugins(app)
        await wait_for(pilot, lambda: said(app, "Pause the run first"), "the refusal")
        await pilot.press("space")
        await wait_for(pilot, lambda: app.main_screen.run.state == "paused", "the pause")
        restrict_plugins(None)  # as `queens serve` without --allow-plugins
        reload_plugins(app)
        await wait_for(pilot, lambda: said(app, "this server loads no plug-in"), "the refusal")
        algorithm = app.main_screen.runner.algorithm
        assert algorithm is not None and algorithm.config.mutation == config.mutation


async def test_replaying_and_resuming_a_run_whose_file_changed_say_the_recorded_source_is_used(
    tmp_path: Path, wait_for: WaitFor
) -> None:
    ops, store = tmp_path / "ops.py", tmp_path / "runs.sqlite3"
    app = QueensApp(start(ops), frozen_clock=True, record=True, store=str(store))
    async with app.run_test(size=(110, 36)) as pilot:
        await pilot.pause()
        await step_to(pilot, app, 3, wait_for)
    write_version(ops, SECOND)
    note = f"{ops}:mutate: {ops} has changed; the recorded source is used"
    app = QueensApp(Config(n=8, seed=1), frozen_clock=True, record=True, store=str(store))
    async with app.run_test(size=(110, 36)) as pilot:
        await pilot.pause()
        app.main_screen.record_keys.replay(1)
        await wait_for(pilot, lambda: said(app, note), "the replay's note")
    app = QueensApp(Config(n=8, seed=1), frozen_clock=True, record=True, store=str(store))
    async with app.run_test(size=(110, 36)) as pilot:
        await pilot.pause()
        app.main_screen.record_keys.resume(1)
        await wait_for(pilot, lambda: said(app, "run 1 resumed"), "the resume")
        await wait_for(pilot, lambda: said(app, note), "the resume's note")
    ops.unlink()
    app = QueensApp(Config(n=8, seed=1), frozen_clock=True, replay=1, store=str(store))
    async with app.run_test(size=(110, 36)) as pilot:
        gone = f"{ops}:mutate: {ops} is gone; the recorded source is used"
        await wait_for(pilot, lambda: said(app, gone), "the replay's note")
