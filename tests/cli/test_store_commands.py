"""The run-record commands on a real store file: runs, show, resume, export, rm, and kills."""

from __future__ import annotations

import csv
import io
import json
import os
import re
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from engine import Config, GeneticAlgorithm
from tests.waiting import wait_until
from tui.cli.command_line import main
from tui.cli.recorded_run import record_and_report
from tui.lab.store import STAT_FIELDS, RunStore

CONFIG = Config(n=10, population=20, seed=21, generations=40, stop_when_solved=False)


@pytest.fixture
def store_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """``QUEENS_STORE`` pointing at a new file."""
    path = tmp_path / "runs.sqlite3"
    monkeypatch.setenv("QUEENS_STORE", str(path))
    return path


def recorded(capsys: pytest.CaptureFixture[str], config: Config = CONFIG) -> int:
    """Record a run as ``queens solve --record --json`` does; returns its id."""
    record_and_report(config, True, None, None)
    document = json.loads(capsys.readouterr().out)
    run_id: int = document["run_id"]
    return run_id


def command(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_runs_lists_a_recorded_run(store_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert command(capsys, "runs", "--json")[1] == "[]\n"
    run_id = recorded(capsys)
    code, out, _ = command(capsys, "runs", "--json")
    assert code == 0
    [line] = json.loads(out)
    assert (line["id"], line["n"], line["generations"], line["status"], line["seed"]) == (
        run_id,
        10,
        40,
        "finished",
        21,
    )
    code, out, _ = command(capsys, "runs")
    assert code == 0 and "finished (max-generations)" in out


def test_show_generation_json_is_the_live_generation(
    store_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run_id = recorded(capsys)
    algorithm = GeneticAlgorithm(CONFIG)
    for _ in range(23):
        live = algorithm.step()
    code, out, _ = command(capsys, "show", str(run_id), "--generation", "23", "--json")
    assert code == 0
    document = json.loads(out)
    assert document["population"] == live.population.tolist()
    assert document["best"] == [int(g) for g in live.best]
    assert document["conflicts"] == live.conflicts.tolist()
    assert document["stats"]["mean_fitness"] == live.stats.mean_fitness
    code, out, _ = command(capsys, "show", str(run_id), "--generation", "23")
    assert code == 0 and "generation 23" in out
    # Figures for people: the time in milliseconds' precision, fractions to three places.
    figures = dict(line.split(None, 1) for line in out.splitlines()[1:12])
    assert re.fullmatch(r"\d+\.\d{3} s", figures["elapsed"]), figures["elapsed"]
    assert re.fullmatch(r"\d\.\d{3}", figures["entropy"]), figures["entropy"]
    assert "    0 1 2 3 4 5 6 7 8 9" in out  # the board, its columns numbered


def test_export_formats_hold_every_generation(
    store_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run_id = recorded(capsys)
    code, out, _ = command(capsys, "export", str(run_id), "--format", "csv")
    rows = list(csv.reader(io.StringIO(out)))
    assert code == 0 and rows[0] == list(STAT_FIELDS) and len(rows) == 42
    code, out, _ = command(capsys, "export", str(run_id), "--format", "jsonl")
    lines = [json.loads(line) for line in out.splitlines()]
    assert [line["generation"] for line in lines] == list(range(41))
    target = tmp_path / "run.json"
    code, _, _ = command(capsys, "export", str(run_id), "--format", "json", "--output", str(target))
    document = json.loads(target.read_text())
    assert code == 0 and document["generations"] == 40 and len(document["history"]) == 41
    assert document["final_population"] == GeneticAlgorithm(CONFIG).run().population.tolist()


def test_a_portable_run_file_is_a_run_argument(
    store_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run_id = recorded(capsys)
    portable = tmp_path / "one.run"
    code, _, _ = command(
        capsys, "export", str(run_id), "--format", "run", "--output", str(portable)
    )
    assert code == 0
    code, _, err = command(
        capsys, "export", str(run_id), "--format", "run", "--output", str(portable)
    )
    assert code == 2 and "exists already" in err
    _, from_store, _ = command(capsys, "show", str(run_id), "--generation", "31", "--json")
    _, from_file, _ = command(capsys, "show", str(portable), "--generation", "31", "--json")
    assert json.loads(from_store) == json.loads(from_file)


def test_rm_deletes_a_run(store_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run_id = recorded(capsys)
    assert command(capsys, "rm", str(run_id), "--yes")[0] == 0
    code, _, err = command(capsys, "show", str(run_id))
    assert code == 2 and f"no run {run_id}" in err


@pytest.mark.parametrize(
    "argv",
    [
        ["show", "99"],
        ["show", "1", "--generation", "999"],
        ["show", "1", "--generation", "x"],
        ["resume", "99"],
        ["export", "99", "--format", "csv"],
        ["rm", "99"],
        ["show", "/nonexistent/file.run"],
    ],
)
def test_unknown_runs_and_generations_exit_2_with_a_message(
    store_file: Path, capsys: pytest.CaptureFixture[str], argv: list[str]
) -> None:
    recorded(capsys)
    code, out, err = command(capsys, *argv)
    assert code == 2 and out == "" and err.startswith("queens: error: ")
    assert "Traceback" not in err


@pytest.mark.parametrize(
    "content",
    [b"", b"garbage" * 1000, b"SQLite format 3\x00" + bytes(range(256)) * 8],
    ids=["empty", "text", "bad-header"],
)
def test_a_damaged_run_file_exits_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: bytes
) -> None:
    path = tmp_path / "damaged.run"
    path.write_bytes(content)
    code, _, err = command(capsys, "show", str(path))
    assert code == 2 and "queens: error:" in err
    assert path.read_bytes() == content


def test_a_truncated_store_exits_2(store_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run_id = recorded(capsys)
    with sqlite3.connect(store_file) as connection:
        connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    data = store_file.read_bytes()
    store_file.write_bytes(data[: len(data) // 3])
    code, _, err = command(capsys, "show", str(run_id), "--generation", "30")
    assert code == 2 and "queens: error:" in err


def test_a_store_on_a_read_only_path_exits_2(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("QUEENS_STORE", "/proc/queens-runs.sqlite3")
    code, out, err = command(capsys, "solve", "--record", "--n", "6", "--seed", "1")
    assert code == 2 and out == ""
    assert "cannot" in err and "/proc/queens-runs.sqlite3" in err


def test_solve_record_json_gains_the_run_id(
    store_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = command(capsys, "solve", "--record", "--json", "--n", "12", "--seed", "4")
    document = json.loads(out)
    expected = GeneticAlgorithm(Config(n=12, seed=4)).run()
    assert code == 0 and document["genome"] == [int(g) for g in expected.best]
    other = tmp_path / "other.sqlite3"
    code, out, _ = command(
        capsys, "solve", "--record", "--store", str(other), "--preset", "sheppard", "--seed", "1"
    )
    assert code == 0 and "recorded as run 1" in out
    _, listed, _ = command(capsys, "runs", "--json", "--store", str(other))
    assert [line["summary"] for line in json.loads(listed)] == ["sheppard"]
    _, listed, _ = command(capsys, "runs", "--json")
    assert [line["id"] for line in json.loads(listed)] == [document["run_id"]]


def test_a_failed_resume_leaves_the_store_as_it_was(
    store_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run_id = recorded(capsys)
    _, before, _ = command(capsys, "export", str(run_id), "--format", "jsonl")
    code, _, err = command(capsys, "resume", str(run_id), "--generations", "-5")
    assert code == 2 and "generations" in err
    code, _, err = command(capsys, "resume", str(run_id))
    assert code == 2 and "larger budget" in err
    _, after, _ = command(capsys, "export", str(run_id), "--format", "jsonl")
    assert after == before
    _, out, _ = command(capsys, "runs", "--json")
    assert json.loads(out)[0]["status"] == "finished"


def test_resume_continues_the_same_run(
    store_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run_id = recorded(capsys)
    code, out, _ = command(capsys, "resume", str(run_id), "--generations", "70", "--json")
    assert code == 0
    document = json.loads(out)
    expected = GeneticAlgorithm(CONFIG.replace(generations=70)).run()
    assert document["run_id"] == run_id and document["generations"] == 70
    assert document["genome"] == [int(g) for g in expected.best]
    _, out, _ = command(capsys, "runs", "--json")
    assert [line["generations"] for line in json.loads(out)] == [70]


@pytest.mark.slow  # a recording process, killed
def test_a_run_killed_with_sigkill_reads_interrupted_and_resumes_exactly(
    store_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A real process, really killed: the record survives, resume re-steps and checks it."""
    config = Config(n=12, population=16, seed=8, generations=5, stop_when_solved=False)
    run_id = recorded(capsys, config)
    child = subprocess.Popen(
        [sys.executable, "-m", "tui", "resume", str(run_id), "--generations", "100000000"],
        env={**os.environ, "QUEENS_STORE": str(store_file)},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        with RunStore.open(store_file) as store:
            # Wait for two commits past the last keyframe's spacing, so the kill lands between
            # keyframes with generations recorded after the last one.
            def between_keyframes() -> bool:
                assert child.poll() is None, "the child ended early"
                generations = store.run(run_id).generations
                return generations >= 100 and generations % 16 != 0

            wait_until(between_keyframes, 60, "the child's record past 100, between keyframes")
            assert store.run(run_id).status == "running"
    finally:
        child.send_signal(signal.SIGKILL)
        child.wait()
    with RunStore.open(store_file) as store:
        info = store.run(run_id)
        assert info.status == "interrupted" and not info.writer_alive
        killed_at = info.generations
    code, out, _ = command(capsys, "show", str(run_id), "--generation", str(killed_at), "--json")
    live = GeneticAlgorithm(config.replace(generations=killed_at)).run()
    assert code == 0 and json.loads(out)["population"] == live.population.tolist()
    target = killed_at + 20
    code, out, err = command(capsys, "resume", str(run_id), "--generations", str(target), "--json")
    document = json.loads(out)
    assert code in (0, 1) and document["record_matched"] is True
    assert document["restepped"] > 0 and "all equal the record" in err
    uninterrupted = GeneticAlgorithm(config.replace(generations=target)).run()
    assert document["genome"] == [int(g) for g in uninterrupted.best]
    algorithm = GeneticAlgorithm(config.replace(generations=target))
    live = [algorithm.snapshot.stats.mean_fitness]
    while algorithm.has_next():
        live.append(algorithm.step().stats.mean_fitness)
    with RunStore.open(store_file) as store:
        columns = store.stats(run_id)
    assert columns["generation"].tolist() == list(range(target + 1))
    assert columns["mean_fitness"].tolist() == live


@pytest.mark.slow  # a recording process, stopped
def test_a_recorded_solve_stopped_with_sigterm_prints_its_run_and_resumes_exactly(
    store_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = Config(n=12, population=16, seed=9, stop_when_solved=False)
    child = subprocess.Popen(
        [
            *(sys.executable, "-m", "tui", "solve", "--record", "--json", "--n", "12"),
            *("--population", "16", "--seed", "9", "--no-stop-when-solved"),
        ],
        env={**os.environ, "QUEENS_STORE": str(store_file)},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:

        def store_made() -> bool:
            assert child.poll() is None, "the child ended early"
            return store_file.exists()

        waited = wait_until(store_made, 60, "the child's store")
        with RunStore.open(store_file) as store:

            def sixty_recorded() -> bool:
                assert child.poll() is None, "the child ended early"
                return bool(store.runs()) and store.runs()[0].generations >= 60

            wait_until(sixty_recorded, 60 - waited, "the child's record of 60 generations")
    finally:
        child.send_signal(signal.SIGTERM)
        out, _ = child.communicate(timeout=60)
    assert child.returncode == 143
    document = json.loads(out)
    assert document["stop_reason"] == "interrupted" and document["run_id"] == 1
    stopped_at = document["generations"]
    with RunStore.open(store_file) as store:
        info = store.run(1)
        assert info.status == "interrupted" and info.generations == stopped_at
    target = stopped_at + 10
    code, out, _ = command(capsys, "resume", "1", "--generations", str(target), "--json")
    resumed = json.loads(out)
    assert code in (0, 1) and resumed["run_id"] == 1
    expected = GeneticAlgorithm(config.replace(generations=target)).run()
    assert resumed["genome"] == [int(g) for g in expected.best]
    assert resumed["evaluations"] == expected.evaluations
