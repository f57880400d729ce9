"""The dashboard's operator swaps as plain code: when a run may take one, what the notice says,
what its record keeps, and what ``Reload plug-ins`` finds (without an app: a real run, a real
store, the runner's turn lock stood in for by a plain one)."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from engine import Config, GeneticAlgorithm, Snapshot
from tests.plugin_versions import BROKEN, FIRST, SECOND, write_version
from tui.dashboard.runs.current_run import CurrentRun
from tui.dashboard.runs.operator_swaps import (
    IN_THE_PAST,
    NOT_PAUSED,
    NOTHING_CHANGED,
    OperatorSwaps,
)
from tui.dashboard.runs.recording import DashboardRecording
from tui.dashboard.runs.time_travel import TimeTravel
from tui.lab.store import RunStore

pytestmark = pytest.mark.usefixtures("plug_ins_as_in_a_new_process")
"""Each test starts as a new process would: no plug-in source, module or check kept."""


class Runner:
    """One run, stepped here, held between turns by a lock as the engine runner holds it."""

    def __init__(self, algorithm: GeneticAlgorithm) -> None:
        self.algorithm: GeneticAlgorithm | None = algorithm
        self.turn = threading.Lock()

    @contextmanager
    def between_turns(self) -> Iterator[tuple[GeneticAlgorithm, ...]]:
        with self.turn:
            assert self.algorithm is not None
            yield (self.algorithm,)


def paused_run(
    tmp_path: Path, *, record: bool
) -> tuple[OperatorSwaps, GeneticAlgorithm, DashboardRecording, Path]:
    ops = tmp_path / "ops.py"
    config = Config(n=10, population=20, seed=6, mutation=write_version(ops, FIRST))
    algorithm = GeneticAlgorithm(config)
    recording = DashboardRecording(tmp_path / "runs.sqlite3", enabled=record)
    recording.begin(algorithm)
    for _ in range(3):
        snapshot: Snapshot = algorithm.step()
        recording.observe(algorithm, snapshot)
    run = CurrentRun()
    run.move_to("paused")
    swaps = OperatorSwaps(run, Runner(algorithm), recording, TimeTravel())
    return swaps, algorithm, recording, ops


def test_a_swap_is_told_and_kept_in_the_record_from_the_next_generation(tmp_path: Path) -> None:
    swaps, algorithm, recording, ops = paused_run(tmp_path, record=True)
    write_version(ops, SECOND)
    result = swaps.swap("mutation", f"{ops}:mutate")
    assert not result.refused
    digest = algorithm.config.mutation.rpartition("@")[2][:8]
    kept = "from generation 4 on, kept in run 1's record"
    assert result.words == f"mutation: ops.py:mutate@{digest} {kept}"
    with RunStore.open(tmp_path / "runs.sqlite3") as store:  # as another process reads it
        (swap,) = store.run(1).swaps
        assert (swap.generation, swap.value) == (4, algorithm.config.mutation)
        assert store.run(1).generations == 3  # committed with the swap, not a second later
    recording.close()


def test_reload_swaps_a_changed_file_says_nothing_changed_and_refuses_a_broken_one(
    tmp_path: Path,
) -> None:
    swaps, algorithm, _, ops = paused_run(tmp_path, record=False)
    (unchanged,) = swaps.reload()
    assert unchanged.words == NOTHING_CHANGED and not unchanged.refused
    first = algorithm.config.mutation
    write_version(ops, BROKEN)
    (broken,) = swaps.reload()
    assert broken.refused and "check 'shape' failed" in broken.words
    assert algorithm.config.mutation == first
    write_version(ops, SECOND)
    (swapped,) = swaps.reload()
    assert not swapped.refused and swapped.words.endswith("from generation 4 on")
    assert algorithm.config.mutation != first
    ops.unlink()
    (gone,) = swaps.reload()
    assert gone.refused and "check 'file' failed" in gone.words
    assert gone.words.endswith("the run keeps the source it was loaded with")


def test_only_a_paused_live_run_takes_a_swap(tmp_path: Path) -> None:
    swaps, algorithm, _, ops = paused_run(tmp_path, record=False)
    first = algorithm.config
    write_version(ops, SECOND)
    swaps.run.move_to("running")
    assert swaps.swap("mutation", f"{ops}:mutate").words == NOT_PAUSED
    swaps.run.move_to("paused")
    swaps.travel.ask(1)  # a past generation shown
    assert swaps.reload()[0].words == IN_THE_PAST
    assert algorithm.config == first
    swaps.travel.leave()
    assert not swaps.swap("mutation", f"{ops}:mutate").refused
