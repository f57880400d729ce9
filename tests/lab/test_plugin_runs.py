"""Plug-in runs in the lab: one run from the command line, a sweep on two local workers and a
Dask cluster gives the same result; the workers need no copy of the file (the task carries
the source); a recorded run resumes from its recorded source after the file changed, and
says so; a refused plug-in records nothing."""

from __future__ import annotations

import hashlib
import json
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tui.cli.command_line import main
from tui.lab.store import RunStore
from tui.lab.sweep.local_pool import LocalPool
from tui.lab.sweep.plan import build_plan, spec_from_flags
from tui.lab.sweep.runner import MemoryLedger, run_sweep
from tui.lab.sweep.task import DETERMINISTIC_FIELDS
from tui.lab.timeline import Timeline

EXAMPLES = Path(__file__).resolve().parents[2] / "docs" / "examples" / "plugin_ops.py"
FIXED = {"generations": "30", "mutation_rate": "0.8", "stop_when_solved": "false"}
"""A sweep's fixed fields, at N = 12; the command line's flags below say the same."""
CLI = ["--n", "12", "--mutation-rate", "0.8", "--no-stop-when-solved"]


@pytest.fixture
def ops(tmp_path: Path) -> Path:
    path = tmp_path / "ops.py"
    shutil.copyfile(EXAMPLES, path)
    return path


def final_population_sha256(store: RunStore, run_id: int) -> str:
    info = store.run(run_id)
    population = Timeline(store, run_id).algorithm_at(info.generations).snapshot.population
    return hashlib.sha256(population.astype("<i8").tobytes()).hexdigest()


class RunIds(MemoryLedger):
    """A ledger that also keeps each recorded run's id, by seed."""

    def __init__(self) -> None:
        super().__init__()
        self.run_ids: dict[int, int] = {}

    def add(
        self, fingerprint: str, seed: int, result: dict[str, Any], run_id: int | None = None
    ) -> bool:
        assert run_id is not None
        self.run_ids[seed] = run_id
        return super().add(fingerprint, seed, result, run_id)


def solve(capsys: pytest.CaptureFixture[str], store: Path, *extra: str) -> dict[str, Any]:
    code = main(["solve", "--json", "--record", "--store", str(store), *extra])
    captured = capsys.readouterr()
    assert code in (0, 1), captured.err
    result: dict[str, Any] = json.loads(captured.out)
    return result


def test_the_cli_and_a_two_worker_sweep_without_the_file_give_the_same_runs(
    ops: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    store = tmp_path / "runs.sqlite3"
    mutation = f"{ops}:swap_two_queens"
    by_cli = {}
    for seed in (0, 1):
        seeded = ["--generations", "30", "--seed", str(seed)]
        result = solve(capsys, store, *CLI, *seeded, "--mutation", mutation)
        by_cli[seed] = result["run_id"]
    plan = build_plan(spec_from_flags([f"mutation={mutation}"], [], "12", "2", FIXED))
    ops.unlink()  # the workers have the task's source, not the file
    ledger = RunIds()
    pool = LocalPool(2, record_to=str(store))
    assert run_sweep(plan, pool, ledger) == 2
    assert sorted(ledger.run_ids) == [0, 1]
    with RunStore.open(store) as opened:
        for seed, run_id in ledger.run_ids.items():
            assert final_population_sha256(opened, run_id) == final_population_sha256(
                opened, by_cli[seed]
            )
            recorded = opened.run(run_id).config
            assert recorded["plugins"] == opened.run(by_cli[seed]).config["plugins"]


def test_a_dask_cluster_runs_a_plug_in_it_has_no_file_of(ops: Path) -> None:
    distributed = pytest.importorskip("distributed")
    from tui.lab.sweep.dask_cluster import DaskCluster

    grid = [f"mutation=swap,{ops}:swap_two_queens"]
    plan = build_plan(spec_from_flags(grid, [], "12", "2", FIXED))
    ops.unlink()
    local = MemoryLedger()
    assert run_sweep(plan, LocalPool(1), local) == 4
    with (
        distributed.LocalCluster(
            n_workers=2,
            threads_per_worker=1,
            processes=True,
            host="127.0.0.1",
            dashboard_address=":0",
        ) as cluster,
        DaskCluster(cluster.scheduler_address) as dask,
    ):
        remote = MemoryLedger()
        assert run_sweep(plan, dask, remote) == 4

    def deterministic(results: dict[Any, dict[str, Any]]) -> dict[Any, tuple[Any, ...]]:
        return {key: tuple(r[f] for f in DETERMINISTIC_FIELDS) for key, r in results.items()}

    assert deterministic(remote.results()) == deterministic(local.results())
    # The copy of swap runs the built-in swap draw for draw: one result per seed.
    by_seed: dict[int, set[tuple[Any, ...]]] = {}
    for (_, seed), outcome in deterministic(local.results()).items():
        by_seed.setdefault(seed, set()).add(outcome)
    assert all(len(outcomes) == 1 for outcomes in by_seed.values())


def test_a_resumed_run_uses_its_recorded_source_and_says_the_file_changed(
    ops: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    store = tmp_path / "runs.sqlite3"
    extra = [*CLI, "--mutation", f"{ops}:swap_two_queens", "--seed", "5"]
    whole = solve(capsys, store, *extra, "--generations", "60")
    first = solve(capsys, store, *extra, "--generations", "30")
    ops.write_text("def swap_two_queens(children, rng, rate):\n    raise ValueError\n")
    again = ["resume", str(first["run_id"]), "--generations", "60", "--json"]
    code = main([*again, "--store", str(store)])
    captured = capsys.readouterr()
    assert code in (0, 1), captured.err
    assert f"queens: note: {ops}:swap_two_queens: {ops} has changed" in captured.err
    with RunStore.open(store) as opened:
        assert final_population_sha256(opened, first["run_id"]) == final_population_sha256(
            opened, whole["run_id"]
        )


def test_a_refused_plug_in_runs_and_records_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    store = tmp_path / "runs.sqlite3"
    bad = tmp_path / "bad.py"
    bad.write_text("def f(children, rng, rate):\n    return children[:1].copy()\n")
    code = main(["solve", "--record", "--store", str(store), "--mutation", f"{bad}:f"])
    captured = capsys.readouterr()
    assert code == 2
    (line,) = captured.err.strip().splitlines()
    assert f"{bad}:f" in line and "check 'shape' failed" in line
    assert captured.out == ""
    if store.exists():
        with RunStore.open(store) as opened:
            assert opened.runs() == []


@pytest.fixture(autouse=True)
def no_restriction(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.delenv("QUEENS_PLUGINS_RESTRICTED", raising=False)
    yield


def test_compare_lays_a_plug_in_over_each_preset_beside_a_built_in(
    ops: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    flags = ["compare", "--store", str(tmp_path / "runs.sqlite3"), "--json", "--jobs", "1"]
    presets = ["--preset", "default", "--preset", "queens-ai", "--n", "8", "--seeds", "3"]
    code = main([*flags, *presets, "--mutation", f"swap,{ops}:swap_two_queens"])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    rows = json.loads(captured.out)["rows"]
    assert len(rows) == 4
    by_cell = {(row["preset"], row["values"]["mutation"].partition("@")[0]): row for row in rows}
    for preset in ("default", "queens-ai"):
        built_in, plugged = by_cell[(preset, "swap")], by_cell[(preset, f"{ops}:swap_two_queens")]
        assert plugged["solved"] == built_in["solved"]
        assert plugged["median_evaluations"] == built_in["median_evaluations"]


def test_a_kept_sweep_of_a_plug_in_is_shown_again_without_its_file(
    ops: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    store = ["--store", str(tmp_path / "runs.sqlite3")]
    grid = ["--grid", f"mutation=swap,{ops}:swap_two_queens", "--n", "8", "--seeds", "2"]
    code = main(["sweep", *store, *grid, "--max-evals", "2000", "--workers", "1", "--json"])
    first = capsys.readouterr()
    assert code == 0, first.err
    ops.unlink()
    code = main(["sweep", *store, "--show", str(json.loads(first.out)["sweep_id"]), "--json"])
    again = capsys.readouterr()
    assert code == 0, again.err
    assert json.loads(again.out)["rows"] == json.loads(first.out)["rows"]
