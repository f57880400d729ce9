"""A recorded run that swapped its mutation while paused, read back exactly.

Run A starts with version 1 of a plug-in mutation, is recorded to generation :data:`SWAP_AT`,
swaps to version 2 (the file rewritten, as a person would), and goes on to :data:`LAST`. Its
record must give A's population at every generation, whichever way it is read: time travel
from any keyframe (before the swap or after), walking forward from generation 0, a portable run
file, the lineage, and resuming the run; and it must do so from the recorded sources alone,
with the file changed again or gone. A run of version 1 throughout differs from A after the
swap, so a record that lost the swap would fail these tests.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from pathlib import Path

import pytest

import engine.operators.plugins as plugins
from engine import Config, GeneticAlgorithm, Snapshot
from engine.config import plugin_checks
from tests.plugin_versions import FIRST, SECOND, write_version
from tui.cli.command_line import main
from tui.lab.engine_state import new_algorithm
from tui.lab.lineage import SnapshotSource, ancestry
from tui.lab.recorded_lineage import RecordedSource
from tui.lab.recorder import Recorder
from tui.lab.resume import resume
from tui.lab.store import OperatorSwap, RunStore, StoreError
from tui.lab.timeline import Timeline

SWAP_AT = 13
"""The generation the run is paused at when it swaps: generation 14 is the first of version 2
(keyframes every 4 generations: the pause's own at 13 holds version 1, the one at 16 version 2)."""
LAST = 30
MORE = 12
"""Generations the resumed run goes on for."""


def forget_plugins() -> None:
    """As a new process: no plug-in source, module or check known."""
    plugins._SOURCES.clear()
    plugins._MODULES.clear()
    plugin_checks._checked.cache_clear()


pytestmark = pytest.mark.usefixtures("plug_ins_as_in_a_new_process")
"""Each test starts as a new process would: no plug-in source, module or check kept."""


def genes(snapshot: Snapshot) -> str:
    return hashlib.sha256(snapshot.population.astype("<i8").tobytes()).hexdigest()


def first_config(ops: Path, generations: int = LAST) -> Config:
    return Config(
        n=12,
        seed=29,
        mutation=write_version(ops, FIRST),
        mutation_rate=0.9,
        generations=generations,
        stop_when_solved=False,
    )


def swapped_run(
    store: RunStore, ops: Path, *, to: int = LAST, last_keyframe: bool = True
) -> tuple[int, list[Snapshot], GeneticAlgorithm]:
    """Run A, recorded: version 1 to :data:`SWAP_AT`, then version 2 to ``to`` (without a
    keyframe there when not ``last_keyframe``, as a run killed)."""
    algorithm = new_algorithm(first_config(ops, generations=LAST + MORE))
    recorder = Recorder(store, algorithm, spacing=4, keyframe_share=None)
    published = [algorithm.snapshot]
    while algorithm.snapshot.generation < to:
        if algorithm.snapshot.generation == SWAP_AT:
            recorder.flush()  # a pause: its keyframe holds version 1
            write_version(ops, SECOND)
            algorithm.swap_operator("mutation", f"{ops}:mutate")
            recorder.note_swap("mutation")
        published.append(algorithm.step())
        recorder.record(published[-1])
    recorder.close("interrupted", keyframe=last_keyframe)
    return recorder.run_id, published, algorithm


def test_every_generation_of_a_swapped_record_is_the_live_run_s(
    store: RunStore, tmp_path: Path
) -> None:
    ops = tmp_path / "ops.py"
    run_id, published, _ = swapped_run(store, ops)
    info = store.run(run_id)
    assert [(swap.generation, swap.field) for swap in info.swaps] == [(SWAP_AT + 1, "mutation")]
    assert "swaps" not in info.config  # the starting config reads as any other
    keyframes = store.keyframe_generations(run_id)
    assert any(g <= SWAP_AT for g in keyframes) and any(g > SWAP_AT + 1 for g in keyframes)

    ops.write_text("raise SystemExit('not this file')\n")  # changed again: the record is used
    forget_plugins()
    jumps = [LAST, 0, SWAP_AT + 1, SWAP_AT, 3, LAST - 1, SWAP_AT + 2, 17]
    for generation in jumps:  # time travel: each from its nearest keyframe, a fresh timeline
        assert genes(Timeline(store, run_id).snapshot_at(generation)) == genes(
            published[generation]
        ), generation
    walk = Timeline(store, run_id)  # forward from generation 0, one step at a time
    for generation in range(LAST + 1):
        assert genes(walk.snapshot_at(generation)) == genes(published[generation])

    ops.unlink()  # gone
    forget_plugins()
    export = tmp_path / "run.queens"
    store.export_run(run_id, export)
    with RunStore.open(export) as copy:
        assert copy.run(run_id).swaps == info.swaps
        replayed = Timeline(copy, run_id)
        for generation in range(LAST, -1, -1):
            assert genes(replayed.snapshot_at(generation)) == genes(published[generation])


def test_the_record_differs_from_the_first_version_throughout(
    store: RunStore, tmp_path: Path
) -> None:
    ops = tmp_path / "ops.py"
    _, published, _ = swapped_run(store, ops)
    write_version(ops, FIRST)
    unswapped = GeneticAlgorithm(first_config(ops))
    same = [genes(unswapped.snapshot)] + [genes(unswapped.step()) for _ in range(LAST)]
    swapped = [genes(snapshot) for snapshot in published]
    assert same[: SWAP_AT + 1] == swapped[: SWAP_AT + 1]
    assert same[SWAP_AT + 1 :] != swapped[SWAP_AT + 1 :]


def test_the_lineage_across_the_swap_is_the_live_run_s(store: RunStore, tmp_path: Path) -> None:
    ops = tmp_path / "ops.py"
    run_id, published, _ = swapped_run(store, ops)
    forget_plugins()
    recorded, live = RecordedSource(Timeline(store, run_id)), SnapshotSource(published)
    for generation in (SWAP_AT + 1, SWAP_AT + 5, LAST):
        for index in (0, 7):
            assert ancestry(recorded, generation, index) == ancestry(live, generation, index)


def test_a_swapped_run_resumes_with_the_operator_it_had(store: RunStore, tmp_path: Path) -> None:
    ops = tmp_path / "ops.py"
    run_id, _, original = swapped_run(store, ops, to=SWAP_AT + 2, last_keyframe=False)
    straight_on = [genes(original.step()) for _ in range(MORE)]
    ops.unlink()
    forget_plugins()
    resumed = resume(store, run_id)
    assert resumed.mismatch is None
    assert resumed.restepped == 2  # from the pause's keyframe, version 1's, across the swap
    assert resumed.algorithm.config.mutation == original.config.mutation
    went_on = []
    for _ in range(MORE):
        snapshot = resumed.algorithm.step()
        resumed.recorder.record(snapshot)
        went_on.append(genes(snapshot))
    resumed.recorder.close()
    assert went_on == straight_on
    info = store.run(run_id)
    assert info.swaps[0].generation == SWAP_AT + 1  # resuming kept the swap in the record
    # The record still starts with version 1; the swap says where version 2 takes over.
    assert info.config["mutation"] != original.config.mutation
    assert info.swaps[0].value == original.config.mutation
    forget_plugins()
    assert genes(Timeline(store, run_id).snapshot_at(SWAP_AT + 2 + MORE)) == straight_on[-1]


def test_a_swap_made_while_paused_at_the_last_generation_is_the_one_resume_continues_with(
    store: RunStore, tmp_path: Path
) -> None:
    ops = tmp_path / "ops.py"
    algorithm = new_algorithm(first_config(ops))
    recorder = Recorder(store, algorithm, spacing=4, keyframe_share=None)
    for _ in range(SWAP_AT):
        recorder.record(algorithm.step())
    write_version(ops, SECOND)
    algorithm.swap_operator("mutation", f"{ops}:mutate")
    recorder.note_swap("mutation")
    recorder.close("interrupted", keyframe=True)
    expected = genes(algorithm.step())
    forget_plugins()
    resumed = resume(store, recorder.run_id)
    assert genes(resumed.algorithm.step()) == expected
    resumed.recorder.close()


def test_a_record_without_swaps_reads_and_stores_its_config_as_before(
    store: RunStore, tmp_path: Path
) -> None:
    algorithm = new_algorithm(Config(n=8, seed=3, generations=5))
    recorder = Recorder(store, algorithm)
    while algorithm.has_next():
        recorder.record(algorithm.step())
    recorder.close()
    info = store.run(recorder.run_id)
    assert info.swaps == ()
    with sqlite3.connect(store.path) as connection:
        (stored,) = connection.execute(
            "SELECT config FROM runs WHERE id = ?", (recorder.run_id,)
        ).fetchone()
    assert json.loads(stored) == algorithm.config.to_dict()


@pytest.mark.parametrize(
    "swaps",
    [
        "not a list",
        [{"generation": 0, "field": "mutation", "value": "swap"}],
        [{"generation": 3, "field": "fitness", "value": "linear"}],
        [{"generation": 3, "field": "mutation", "value": "swap", "plugins": {"x": 1}}],
        [
            {"generation": 5, "field": "mutation", "value": "swap"},
            {"generation": 4, "field": "mutation", "value": "inversion"},
        ],
    ],
)
def test_damaged_swaps_are_refused_naming_the_run(
    store: RunStore, tmp_path: Path, swaps: object
) -> None:
    algorithm = new_algorithm(Config(n=8, seed=3, generations=5))
    recorder = Recorder(store, algorithm)
    recorder.close()
    with sqlite3.connect(store.path) as connection:
        connection.execute(
            "UPDATE runs SET config = json_set(config, '$.swaps', json(?)) WHERE id = ?",
            (json.dumps(swaps), recorder.run_id),
        )
    with pytest.raises(StoreError, match=rf"run {recorder.run_id} is damaged \(its operator swaps"):
        store.run(recorder.run_id)


def test_a_swap_from_before_the_last_one_is_refused(store: RunStore) -> None:
    algorithm = new_algorithm(Config(n=8, seed=3, generations=5))
    recorder = Recorder(store, algorithm)
    recorder.close()
    store.record_swap(recorder.run_id, OperatorSwap(4, "mutation", "inversion"))
    with pytest.raises(StoreError, match="a swap from generation 2 after one from 4"):
        store.record_swap(recorder.run_id, OperatorSwap(2, "mutation", "swap"))
    assert [swap.generation for swap in store.run(recorder.run_id).swaps] == [4]


def test_show_names_each_swap_and_its_generation(
    store: RunStore, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ops = tmp_path / "ops.py"
    run_id, _, algorithm = swapped_run(store, ops)
    capsys.readouterr()
    assert main(["show", str(run_id), "--store", str(store.path)]) == 0
    out = capsys.readouterr().out
    digest = algorithm.config.mutation.rpartition("@")[2][:8]
    assert f"swapped      mutation ops.py:mutate@{digest} from generation {SWAP_AT + 1} on" in out
    assert main(["show", str(run_id), "--json", "--store", str(store.path)]) == 0
    (swap,) = json.loads(capsys.readouterr().out)["swaps"]
    assert swap["generation"] == SWAP_AT + 1 and swap["value"] == algorithm.config.mutation
    assert SECOND in [entry["source"] for entry in swap["plugins"].values()]


def test_truncating_a_record_forgets_the_swaps_after_it(store: RunStore) -> None:
    algorithm = new_algorithm(Config(n=8, seed=3, generations=9, stop_when_solved=False))
    recorder = Recorder(store, algorithm)
    while algorithm.has_next():
        recorder.record(algorithm.step())
    recorder.close()
    for generation, mutation in ((4, "inversion"), (6, "swap"), (8, "scramble")):
        store.record_swap(recorder.run_id, OperatorSwap(generation, "mutation", mutation))
    store.truncate_run(recorder.run_id, 5)  # generation 6 is the next one made: its swap stays
    assert [swap.value for swap in store.run(recorder.run_id).swaps] == ["inversion", "swap"]


def test_the_command_line_s_resume_notes_a_swapped_plug_in_s_file_changed_once(
    store: RunStore, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ops = tmp_path / "ops.py"
    run_id, _, original = swapped_run(store, ops)
    expected = [genes(original.step()) for _ in range(MORE)][-1]
    ops.write_text("# neither version\n")
    forget_plugins()
    capsys.readouterr()
    assert main(["resume", str(run_id), "--store", str(store.path)]) in (0, 1)
    note = f"queens: note: {ops}:mutate: {ops} has changed; the recorded source is used"
    assert capsys.readouterr().err.count(note) == 1
    assert genes(Timeline(store, run_id).snapshot_at(LAST + MORE)) == expected
