"""Running sweeps: the same results for any worker count, order or cluster; a killed worker
loses nothing; an interrupted sweep continues with only its missing runs; no orphan workers.

The Dask tests start one real ``distributed.LocalCluster`` on 127.0.0.1 (two worker
processes), shared by the module: starting one costs seconds.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.process_tree import alive, descendants
from tests.waiting import wait_until
from tui.lab.config_summary import summarize
from tui.lab.store import RunStore
from tui.lab.sweep.local_pool import LocalPool
from tui.lab.sweep.plan import SweepPlan, build_plan, spec_from_flags
from tui.lab.sweep.runner import MemoryLedger, missing_tasks, run_sweep
from tui.lab.sweep.store_ledger import StoreLedger
from tui.lab.sweep.task import DETERMINISTIC_FIELDS, Task, run_task

distributed = pytest.importorskip("distributed")

WAIT_LIMIT = 60.0
"""Seconds a subprocess may take to reach a state (generous: the machine is shared)."""


def small_plan(seeds: str = "4") -> SweepPlan:
    """Two sizes x two mutation rates, runs of a few hundredths of a second."""
    spec = spec_from_flags(["mutation_rate=0.5,1.0"], [], "8,12", seeds, {"max_evals": "4000"})
    return build_plan(spec)


SLOW_FIXED = {"generations": "100", "stop_when_solved": "false", "population": "100"}
"""Runs that go on for a fixed number of generations (long enough to be interrupted)."""


def slow_plan(seeds: str) -> SweepPlan:
    """:data:`SLOW_FIXED` at N = 20."""
    return build_plan(spec_from_flags([], [], "20", seeds, SLOW_FIXED))


def deterministic(results: dict[tuple[str, int], dict[str, Any]]) -> dict[Any, Any]:
    """Results without ``seconds`` (the one field that depends on the machine)."""
    return {key: {f: r[f] for f in DETERMINISTIC_FIELDS} for key, r in results.items()}


def in_process(plan: SweepPlan) -> dict[Any, Any]:
    """The plan run task by task in this process: the reference."""
    return deterministic(
        {task.key: run_task(task.config, task.seed) for task in missing_tasks(plan, set())}
    )


@pytest.fixture(scope="module")
def cluster() -> Iterator[Any]:
    """A real two-process Dask cluster on loopback, for the whole module."""
    with distributed.LocalCluster(
        n_workers=2,
        threads_per_worker=1,
        processes=True,
        host="127.0.0.1",
        dashboard_address=":0",
    ) as local:
        yield local


def test_results_are_the_same_for_one_or_two_workers_and_a_dask_cluster(cluster: Any) -> None:
    from tui.lab.sweep.dask_cluster import DaskCluster

    plan = small_plan()
    reference = in_process(plan)
    assert len(reference) == plan.tasks == 16
    outcomes = []
    for backend in (LocalPool(1), LocalPool(2)):
        ledger = MemoryLedger()
        assert run_sweep(plan, backend, ledger) == plan.tasks
        outcomes.append(deterministic(ledger.results()))
    with DaskCluster(cluster.scheduler_address) as dask:
        ledger = MemoryLedger()
        assert run_sweep(plan, dask, ledger) == plan.tasks
        outcomes.append(deterministic(ledger.results()))
    for outcome in outcomes:
        assert outcome == reference


def test_the_series_come_back_the_same_from_a_pool_and_a_dask_cluster(cluster: Any) -> None:
    from tui.lab.sweep.dask_cluster import DaskCluster

    plan = small_plan("2")
    gathered = []
    for backend in (LocalPool(2), DaskCluster(cluster.scheduler_address)):
        curves: dict[tuple[str, int], dict[str, list[float]]] = {}
        ledger = MemoryLedger()

        def keep(task: Task, curve: dict[str, list[float]], into: dict[Any, Any] = curves) -> None:
            into[task.key] = curve

        try:
            assert run_sweep(plan, backend, ledger, on_curve=keep) == plan.tasks
        finally:
            backend.close()
        assert deterministic(ledger.results()) == in_process(plan)
        assert all("curve" not in result for result in ledger.results().values())
        for key, result in ledger.results().items():
            assert curves[key]["generation"][-1] == result["generations"]
        gathered.append(curves)
    assert gathered[0] == gathered[1]


def test_a_task_is_the_same_run_as_the_engine_gives() -> None:
    from engine import Config, GeneticAlgorithm

    plan = small_plan("2")
    for task in missing_tasks(plan, set()):
        algorithm = GeneticAlgorithm(Config.from_mapping({**task.config, "seed": task.seed}))
        final = algorithm.run()
        result = run_task(task.config, task.seed)
        assert result["solved"] == final.solved
        assert result["stop_reason"] == final.stop_reason
        assert (result["generations"], result["evaluations"]) == (
            final.generation,
            final.evaluations,
        )


def test_a_killed_local_worker_loses_nothing_and_counts_nothing_twice() -> None:
    plan = slow_plan("4")
    reference = in_process(plan)
    pool = LocalPool(2)
    ledger = MemoryLedger()
    killed: list[int] = []
    seen: list[tuple[str, int]] = []

    def keep(task: Task, result: dict[str, Any]) -> None:
        seen.append(task.key)
        ledger.add(task.fingerprint, task.seed, result)
        if not killed:
            pid = pool.worker_pids()[0]
            os.kill(pid, signal.SIGKILL)
            killed.append(pid)

    pool.run(missing_tasks(plan, set()), keep)
    assert killed
    assert deterministic(ledger.results()) == reference
    assert len(set(seen)) == plan.tasks


def test_a_killed_dask_worker_loses_nothing(cluster: Any) -> None:
    from tui.lab.sweep.dask_cluster import DaskCluster

    plan = slow_plan("4")
    reference = in_process(plan)
    with DaskCluster(cluster.scheduler_address) as dask:
        pids = dask.client.run(os.getpid)
        ledger = MemoryLedger()
        killed: list[int] = []

        def keep(task: Task, result: dict[str, Any]) -> None:
            ledger.add(task.fingerprint, task.seed, result)
            if not killed:
                victim = next(iter(pids.values()))
                os.kill(victim, signal.SIGKILL)
                killed.append(victim)

        dask.run(missing_tasks(plan, set()), keep)
        assert killed
        assert deterministic(ledger.results()) == reference
        # The nanny starts a new worker: the cluster is whole again for later tests.
        dask.client.wait_for_workers(2, timeout=WAIT_LIMIT)


def test_a_resumed_sweep_runs_only_what_is_missing(tmp_path: Path) -> None:
    plan = small_plan()
    with RunStore.open(tmp_path / "runs.sqlite3") as store:
        ledger = StoreLedger.for_plan(store, plan)
        first = list(missing_tasks(plan, set()))[:5]
        for task in first:
            ledger.add(task.fingerprint, task.seed, run_task(task.config, task.seed))
        again = StoreLedger.for_plan(store, plan)
        assert again.sweep_id == ledger.sweep_id
        ran: list[tuple[str, int]] = []

        class Recording(LocalPool):
            def run(self, tasks: Any, on_result: Any) -> None:
                tasks = list(tasks)
                ran.extend(task.key for task in tasks)
                super().run(tasks, on_result)

        assert run_sweep(plan, Recording(2), again) == plan.tasks - 5
        assert not set(ran) & {task.key for task in first}
        assert len(ran) == plan.tasks - 5
        assert deterministic(again.results()) == in_process(plan)
        # A result kept twice is kept once.
        task = first[0]
        assert not again.add(task.fingerprint, task.seed, run_task(task.config, task.seed))
        assert len(again.results()) == plan.tasks


def sweep_command(store: Path) -> list[str]:
    return [
        sys.executable, "-m", "tui", "sweep", "--store", str(store), "--n", "20", "--seeds", "8",
        *[f"--{name.replace('_', '-')}={value}" for name, value in SLOW_FIXED.items()],
        "--workers", "2", "--json",
    ]  # fmt: skip


def kept_results(store: Path) -> int:
    if not store.exists():
        return 0
    with RunStore.open(store) as runs:
        return sum(sweep["results"] for sweep in runs.sweeps())


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
@pytest.mark.parametrize(("signum", "code"), [(signal.SIGTERM, 143), (signal.SIGINT, 130)])
def test_a_stopped_sweep_ends_its_workers_and_the_same_command_continues_it(
    tmp_path: Path, signum: int, code: int
) -> None:
    store = tmp_path / "runs.sqlite3"
    # Created before the sweep starts: two processes creating one store at once can collide
    # (the store's first-open race, reported to its owner), and this test polls it.
    RunStore.open(store).close()
    command = sweep_command(store)
    process = subprocess.Popen(
        command,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
        cwd=Path(__file__).resolve().parents[2],
    )

    def two_results_kept() -> bool:
        assert process.poll() is None, process.communicate()
        return kept_results(store) >= 2

    wait_until(two_results_kept, WAIT_LIMIT, "two of the sweep's results kept")
    workers = descendants(process.pid)
    assert workers
    if signum == signal.SIGINT:
        os.killpg(process.pid, signum)  # Ctrl+C reaches the whole foreground group
    else:
        process.send_signal(signum)
    # communicate() returns only once every holder of the pipes has gone: no orphan keeps them.
    out, err = process.communicate(timeout=WAIT_LIMIT)
    assert process.returncode == code, err
    assert b"Traceback" not in err
    assert b"run the same command again to continue" in err
    assert out == b""
    wait_until(lambda: not any(alive(pid) for pid in workers), 10, "the workers to end")
    kept = kept_results(store)
    assert 2 <= kept < 8

    finished = subprocess.run(
        command, capture_output=True, timeout=WAIT_LIMIT * 3, check=False,
        cwd=Path(__file__).resolve().parents[2],
    )  # fmt: skip
    assert finished.returncode == 0, finished.stderr
    assert f"{kept} of 8 runs kept from before; running the other {8 - kept}".encode() in (
        finished.stderr
    )
    document = json.loads(finished.stdout)
    assert document["complete"] is True
    assert len(document["runs"]) == 8
    plan = slow_plan("8")
    expected = in_process(plan)
    cell = plan.cells[0]
    for run in document["runs"]:
        want = expected[(cell.fingerprint, run["seed"])]
        assert {f: run[f] for f in DETERMINISTIC_FIELDS} == want


def test_an_unreachable_scheduler_is_a_usage_error_within_the_timeout(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from tui.cli.command_line import main

    started = time.monotonic()
    code = main(
        [
            "sweep", "--store", str(tmp_path / "s.sqlite3"), "--n", "8", "--seeds", "2",
            "--max-evals", "100", "--scheduler", "tcp://127.0.0.1:1", "--connect-timeout", "1",
        ]
    )  # fmt: skip
    err = capsys.readouterr().err
    assert code == 2
    assert "scheduler: 'tcp://127.0.0.1:1' is not allowed; cannot reach the Dask scheduler" in err
    assert "Traceback" not in err
    assert time.monotonic() - started < 30  # the timeout, not a hang (generous bound)


def test_a_dask_worker_or_dashboard_is_not_taken_for_the_scheduler(
    cluster: Any, tmp_path: Path
) -> None:
    worker = next(iter(cluster.scheduler_info["workers"]))
    dashboard = "tcp://" + cluster.dashboard_link.split("://", 1)[1].split("/", 1)[0]
    root = Path(__file__).resolve().parents[2]
    for address, said in ((worker, "it is a Dask Worker"), (dashboard, "no answer in Dask's")):
        done = subprocess.run(
            [
                sys.executable, "-m", "tui", "sweep", "--store", str(tmp_path / "s.sqlite3"),
                "--n", "8", "--seeds", "1", "--max-evals", "100", "--scheduler", address,
                "--connect-timeout", "2",
            ],
            capture_output=True, text=True, timeout=WAIT_LIMIT, cwd=root, check=False,
        )  # fmt: skip
        assert done.returncode == 2, done.stderr
        assert done.stderr.startswith(f"queens: error: --scheduler: {address!r} is not allowed; ")
        assert said in done.stderr
        assert done.stderr.count("\n") == 1, done.stderr


def test_the_cli_gives_the_same_report_on_the_cluster(
    cluster: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from tui.cli.command_line import main

    flags = ["sweep", "--n", "8,12", "--seeds", "3", "--max-evals", "4000", "--json"]
    documents = []
    for extra in (["--workers", "1"], ["--scheduler", cluster.scheduler_address]):
        code = main([*flags, "--store", str(tmp_path / f"{len(documents)}.sqlite3"), *extra])
        captured = capsys.readouterr()
        assert code == 0, captured.err
        documents.append(json.loads(captured.out))
    local, remote = documents
    strip = [{k: v for k, v in run.items() if k != "seconds"} for run in local["runs"]]
    assert strip == [{k: v for k, v in run.items() if k != "seconds"} for run in remote["runs"]]
    assert [row["values"] for row in local["rows"]] == [row["values"] for row in remote["rows"]]


def test_record_runs_keeps_each_run_in_full_beside_its_result(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from tui.cli.command_line import main

    path = tmp_path / "runs.sqlite3"
    flags = ["sweep", "--store", str(path), "--preset", "queens-ai", "--preset", "default"]
    code = main([*flags, "--seeds", "2", "--max-evals", "3000", "--record-runs", "--json"])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    document = json.loads(captured.out)
    with RunStore.open(path) as store:
        kept = store.sweep_results(document["sweep_id"])
        assert len(kept) == 4
        for row in kept:
            assert row["run_id"] is not None
            record = store.run(row["run_id"])
            assert record.seed == row["seed"]
            assert record.status == "finished"
            assert record.label is None  # no --label: the config says which preset it ran
            assert summarize(record.config).preset in ("queens-ai", "default")
            # Both presets stop when solved: the record ends where the result counted.
            assert record.generations == row["result"]["generations"]
            assert record.evaluations == row["result"]["evaluations"]
            assert "run_id" not in row["result"]
        assert len(store.runs()) == 4
