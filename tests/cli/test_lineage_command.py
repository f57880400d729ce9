"""``queens lineage``: the ancestry of a recorded individual, as the live run made it; bad
runs, generations and individuals refused in one line; ``queens show --json`` with parents."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine import Config, GeneticAlgorithm, Snapshot
from tui.cli.command_line import main
from tui.cli.recorded_run import record_and_report
from tui.lab.lineage import SnapshotSource, trace

CONFIG = Config(
    n=10, population=20, crossover_rate=0.5, seed=21, generations=40, stop_when_solved=False
)


@pytest.fixture
def store_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """``QUEENS_STORE`` pointing at a new file."""
    path = tmp_path / "runs.sqlite3"
    monkeypatch.setenv("QUEENS_STORE", str(path))
    return path


def recorded(capsys: pytest.CaptureFixture[str]) -> int:
    """Record CONFIG as ``queens solve --record --json`` does; returns its id."""
    record_and_report(CONFIG, True, None, None)
    run_id: int = json.loads(capsys.readouterr().out)["run_id"]
    return run_id


def live() -> list[Snapshot]:
    algorithm = GeneticAlgorithm(CONFIG)
    return [algorithm.snapshot, *algorithm.step_many(100)]


def command(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_the_json_ancestry_is_the_live_one(
    store_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run_id = recorded(capsys)
    snapshots = live()
    last = snapshots[-1]
    code, out, err = command(capsys, "lineage", str(run_id), "--json")
    assert code == 0, err
    document = json.loads(out)
    expected = trace(SnapshotSource(snapshots), last.generation, last.best_index)
    assert (document["generation"], document["individual"]) == (40, last.best_index)
    assert document["ancestors"] == [ancestor.to_dict() for ancestor in expected.ancestors]
    assert [a["generation"] for a in document["ancestors"]] == list(range(40, -1, -1))
    assert document["best_descent"]["from_best"] == expected.descent.from_best
    for ancestor in document["ancestors"]:
        assert set(ancestor) >= {"generation", "index", "genome", "fitness", "conflicts"}
        assert set(ancestor) >= {"operator", "parents"}


def test_a_chosen_individual_and_a_generation_from_the_end(
    store_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run_id = recorded(capsys)
    snapshots = live()
    code, out, _ = command(
        capsys, "lineage", str(run_id), "--generation", "-11", "--individual", "7", "--json"
    )
    assert code == 0
    expected = trace(SnapshotSource(snapshots), 30, 7).ancestors
    assert json.loads(out)["ancestors"] == [ancestor.to_dict() for ancestor in expected]


def test_the_text_has_a_line_per_ancestor_or_stretch(
    store_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run_id = recorded(capsys)
    code, out, _ = command(capsys, "lineage", str(run_id), "--generation", "12")
    assert code == 0
    lines = out.splitlines()
    assert lines[0].startswith(f"run {run_id}: individual ")
    ancestors = [line for line in lines[2:] if not line.startswith("the best")]
    covered: list[int] = []  # a row per ancestor, or per stretch of survivors in one place
    for line in ancestors:
        newest, _, oldest = line.split()[0].partition("-")
        covered += list(range(int(newest), int(oldest or newest) - 1, -1))
    assert covered == list(range(12, -1, -1))
    assert "the best descends from the best of the generation before" in lines[-1]


@pytest.mark.parametrize(
    ("argv", "named"),
    [
        (["lineage", "99"], "no run 99"),
        (["lineage", "x"], "RUN: 'x' is not allowed"),
        (["lineage", "/nonexistent/file.run"], "RUN: '/nonexistent/file.run'"),
        (["lineage", "1", "--generation", "41"], "generation: '41' is not allowed"),
        (["lineage", "1", "--generation", "-42"], "0 to 40"),
        (["lineage", "1", "--generation", "x"], "generation: 'x' is not allowed"),
        (["lineage", "1", "--generation", "²"], "generation: '²' is not allowed"),
        (["lineage", "1", "--individual", "20"], "individuals 0 to 19"),
        (["lineage", "1", "--individual", "-1"], "individual: '-1' is not allowed"),
        (["lineage", "1", "--individual", "1.5"], "individual: '1.5' is not allowed"),
    ],
)
def test_bad_input_exits_2_in_one_line(
    store_file: Path, capsys: pytest.CaptureFixture[str], argv: list[str], named: str
) -> None:
    recorded(capsys)
    code, out, err = command(capsys, *argv)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("queens: error: ") and named in err


def test_show_json_gives_each_individuals_parents_and_operator(
    store_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run_id = recorded(capsys)
    snapshots = live()
    # The last generation has a keyframe: its lineage comes from re-stepping the one before.
    for generation in (40, 23, 0):
        code, out, _ = command(
            capsys, "show", str(run_id), "--generation", str(generation), "--json"
        )
        assert code == 0
        document = json.loads(out)
        lineage = snapshots[generation].lineage
        assert lineage is not None
        assert document["parents"] == lineage.parents.tolist()
        assert document["operators"] == [lineage.operator(i) for i in range(20)]


def test_a_stretch_in_one_place_is_one_row_as_on_the_dashboard(
    store_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    quiet = Config(n=12, population=20, seed=3, generations=60, stop_when_solved=False)
    record_and_report(quiet, True, None, None)
    run_id = json.loads(capsys.readouterr().out)["run_id"]
    code, out, _ = command(capsys, "lineage", str(run_id))
    assert code == 0
    rows = [line.split()[0] for line in out.splitlines()[2:] if not line.startswith("the best")]
    stretches = [row for row in rows if "-" in row]
    assert stretches and len(rows) < 61  # the survivors in one place are grouped
    covered: list[int] = []
    for row in rows:  # newest first, every generation once, none left out
        newest, _, oldest = row.replace(",", "").partition("-")
        covered += list(range(int(newest), int(oldest or newest) - 1, -1))
    assert covered == list(range(60, -1, -1))
    code, out, _ = command(capsys, "lineage", str(run_id), "--json")
    assert len(json.loads(out)["ancestors"]) == 61  # the JSON keeps every generation
