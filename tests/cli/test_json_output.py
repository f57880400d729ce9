"""JSON output written as a stream: the same text as before for small N, any N in bounded memory.

``solve --json``, ``show --generation G --json`` and ``export --format json`` write their large
arrays straight from numpy (:mod:`tui.lab.json_stream`). Their text is compared byte for byte
with what the lists-first code wrote (kept here: ``json.dumps`` of the same document with
``tolist()`` lists), and at N = 10^6 the document is parsed back whole while the process's
peak memory stays that of the run without ``--json``.
"""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from contextlib import redirect_stdout
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from engine import Config, GeneticAlgorithm, Snapshot
from engine.config.config import fitting_operators
from engine.genomes.encodings import ENCODINGS
from tui.cli.command_line import main
from tui.cli.result_printing import print_result
from tui.lab.json_stream import Rows, write_json
from tui.lab.store import RunStore
from tui.lab.timeline import Timeline

QUEENS = str(Path(sys.executable).with_name("queens"))

EXTRA_MEMORY_LIMIT_MB = 40
"""Peak memory ``--json`` may add at N = 10^6 (the lists-first document added 140 MB)."""


def old_solve_text(snapshot: Snapshot, config: Config) -> str:
    """What ``solve --json`` printed when the document was built as Python lists."""
    rows, columns = ENCODINGS[snapshot.encoding].decode(snapshot.best[None, :], snapshot.n)
    document = {
        "solved": snapshot.solved,
        "n": snapshot.n,
        "seed": snapshot.seed,
        "generations": snapshot.generation,
        "evaluations": snapshot.evaluations,
        "elapsed_s": round(snapshot.elapsed, 6),
        "conflicts": snapshot.best_conflicts,
        "fitness": float(snapshot.fitness[snapshot.best_index]),
        "max_fitness": snapshot.max_fitness,
        "queens": np.stack((rows[0], columns[0]), axis=1).tolist(),
        "genome": snapshot.best.tolist(),
        "stop_reason": snapshot.stop_reason,
        "config": config.to_dict(),
    }
    return json.dumps(document, check_circular=False) + "\n"


def printed(snapshot: Snapshot | None, config: Config) -> str:
    output = io.StringIO()
    with redirect_stdout(output):
        print_result(snapshot, config, as_json=True)
    return output.getvalue()


@pytest.mark.parametrize("encoding", ["permutation", "integer", "squares"])
@pytest.mark.parametrize("n", [4, 8, 11, 100, 1000])
def test_solve_json_is_the_text_it_was(encoding: str, n: int) -> None:
    flags = {} if encoding == "permutation" else fitting_operators(encoding)
    config = Config(n=n, population=6, seed=n, generations=3, encoding=encoding, **flags)  # type: ignore[arg-type]
    algorithm = GeneticAlgorithm(config)
    snapshot = algorithm.snapshot
    while algorithm.has_next():
        snapshot = algorithm.step()
    assert printed(snapshot, config) == old_solve_text(snapshot, config)


def test_solve_json_interrupted_before_a_population_is_the_text_it_was() -> None:
    from tui.cli.result_printing import result_document

    config = Config(n=5000, population=10, seed=42)
    assert printed(None, config) == json.dumps(result_document(None, config)) + "\n"


def lists(value: Any) -> Any:
    """``value`` with its arrays as the lists the lists-first code built."""
    if isinstance(value, Rows):
        return np.stack(value.columns, axis=1).tolist()
    if isinstance(value, np.ndarray):
        return value.tolist()
    if isinstance(value, dict):
        return {key: lists(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [lists(item) for item in value]
    return value


@pytest.fixture
def recorded(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[Path, int]:
    """A store with one recorded run of 40 generations (its lineage kept)."""
    store = tmp_path / "runs.sqlite3"
    flags = ["--n", "30", "--population", "24", "--generations", "40", "--seed", "3"]
    main(["solve", "--record", "--store", str(store), "--no-stop-when-solved", *flags])
    capsys.readouterr()
    return store, 1


def test_show_generation_json_is_the_text_it_was(
    recorded: tuple[Path, int], capsys: pytest.CaptureFixture[str]
) -> None:
    from tui.cli.commands.show import generation_document
    from tui.lab.recorded_lineage import snapshot_with_lineage

    store_path, run_id = recorded
    for generation in ("0", "17", "40"):
        assert main(["show", str(run_id), "--generation", generation, "--json", "--store",
                     str(store_path)]) == 0  # fmt: skip
        text = capsys.readouterr().out
        with RunStore.open(store_path) as store:
            snapshot = snapshot_with_lineage(Timeline(store, run_id), int(generation))
        old = {
            **lists(generation_document(run_id, snapshot)),
            "best": [int(gene) for gene in snapshot.best],
            "queens": [list(pair) for pair in snapshot.queens()],
        }
        assert text == json.dumps(old) + "\n"
        assert isinstance(json.loads(text)["fitness"][0], float)


def old_export_text(store: RunStore, run_id: int) -> str:
    """What ``export --format json`` wrote when the population was a list."""
    from tui.lab.export import run_document

    info = store.run(run_id)
    head = run_document(info)
    final = Timeline(store, run_id).snapshot_at(info.generations)
    head["final_population"] = final.population.tolist()
    head["solutions_found"] = [
        {"generation": generation, "board": board} for generation, board in store.solutions(run_id)
    ]
    head["keyframes"] = store.keyframe_generations(run_id)
    text = json.dumps(head)
    rows = ", ".join(json.dumps(row) for row in store.iter_stats(run_id))
    return text[:-1] + ', "history": [' + rows + "]}\n"


def test_export_json_is_the_text_it_was(
    recorded: tuple[Path, int], capsys: pytest.CaptureFixture[str]
) -> None:
    store_path, run_id = recorded
    assert main(["export", str(run_id), "--format", "json", "--store", str(store_path)]) == 0
    text = capsys.readouterr().out
    with RunStore.open(store_path) as store:
        assert text == old_export_text(store, run_id)
    assert len(json.loads(text)["history"]) == 41


def test_arrays_of_every_kind_are_written_as_json_dumps_writes_their_lists() -> None:
    rng = np.random.default_rng(5)
    extremes = np.array([np.iinfo(np.int64).min, -1, 0, 9, 10, np.iinfo(np.int64).max])
    cases: list[Any] = [
        np.array([], dtype=np.int64),
        extremes,
        rng.integers(-(10**12), 10**12, 300_001),
        rng.integers(-5, 5, (7, 3)).astype(np.int32),
        np.zeros((3, 0), dtype=np.int64),
        np.array([1.5, float("nan"), float("inf"), -0.0, 1e-300]),
        rng.random(200_001),
        np.array([True, False]),
        np.arange(10, dtype=np.uint64) * np.uint64(10**18),
        Rows((np.arange(5), np.broadcast_to(np.int64(3), (5,)))),
        {"a": np.arange(3), "b": {"c": [np.arange(2), None, 1.5]}, 1: "x", "d": [1, 2]},
        {"history": iter([{"g": 0}, {"g": 1}]), "none": iter([])},
    ]
    for case in cases:
        written = io.StringIO()
        write_json(case, written)
        expected = lists(case) if not isinstance(case, dict) else case
        if isinstance(case, dict) and "history" in case:
            expected = {"history": [{"g": 0}, {"g": 1}], "none": []}
        assert written.getvalue() == json.dumps(lists(expected)), case


def solve_peak(n: int, *flags: str) -> tuple[bytes, float]:
    """stdout and peak resident MB of ``queens solve`` in a process of its own."""
    command = [QUEENS, "solve", "--n", str(n), "--seed", "1", "--population", "2"]
    process = subprocess.Popen([*command, "--generations", "1", *flags], stdout=subprocess.PIPE)
    assert process.stdout is not None
    output = process.stdout.read()
    _, status, usage = os.wait4(process.pid, 0)
    assert os.waitstatus_to_exitcode(status) in (0, 1)
    return output, usage.ru_maxrss / 1024


def test_a_million_queens_stream_out_whole_in_the_runs_own_memory() -> None:
    n = 1_000_000
    _, plain_peak = solve_peak(n)
    output, json_peak = solve_peak(n, "--json")
    document = json.loads(output)
    genome = np.array(document["genome"])
    assert document["n"] == n and genome.shape == (n,)
    assert np.array_equal(np.sort(genome), np.arange(n))  # a permutation, every gene there
    queens = np.array(document["queens"])
    assert np.array_equal(queens[:, 0], genome) and np.array_equal(queens[:, 1], np.arange(n))
    assert json_peak - plain_peak < EXTRA_MEMORY_LIMIT_MB, (plain_peak, json_peak)
