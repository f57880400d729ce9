"""Runs a person can manage: labels, what `queens runs` says of each, ids never given twice, and
`queens rm` of several runs, of the empty ones, asked first."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from engine import Config, GeneticAlgorithm
from engine.config.presets import preset_named
from tui.cli.command_line import main
from tui.lab.recorder import Recorder
from tui.lab.store import RunStore

SHORT = ["--n", "8", "--generations", "5", "--no-stop-when-solved", "--seed", "3"]


@pytest.fixture
def store_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """``QUEENS_STORE`` pointing at a new file."""
    path = tmp_path / "runs.sqlite3"
    monkeypatch.setenv("QUEENS_STORE", str(path))
    return path


def command(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def solved_run(capsys: pytest.CaptureFixture[str], *flags: str) -> int:
    code, out, err = command(capsys, "solve", "--record", "--json", *SHORT, *flags)
    assert code in (0, 1), err
    run_id: int = json.loads(out)["run_id"]
    return run_id


def listed(capsys: pytest.CaptureFixture[str]) -> list[dict[str, object]]:
    code, out, err = command(capsys, "runs", "--json")
    assert code == 0, err
    lines: list[dict[str, object]] = json.loads(out)
    return lines


class Terminal(io.StringIO):
    """Standard input on a terminal, holding what the person types."""

    def isatty(self) -> bool:
        return True


# -- labels and what `queens runs` says ----------------------------------------------------------


def test_a_label_given_to_solve_is_kept_and_listed_with_what_differs_from_the_preset(
    store_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run_id = solved_run(capsys, "--preset", "showcase", "--mutation-rate", "0.3", "--label", "hot")
    [line] = listed(capsys)
    assert line["id"] == run_id
    assert line["label"] == "hot"
    assert line["preset"] == "showcase"
    assert "mutation-rate=0.3" in line["changes"]  # type: ignore[operator]
    code, out, _ = command(capsys, "runs")
    assert code == 0
    assert out.splitlines()[1].endswith(
        "hot (showcase, generations=5, mutation-rate=0.3, no-stop-when-solved)"
    )
    code, out, _ = command(capsys, "show", str(run_id))
    assert (
        "label        hot" in out
        and "config       showcase, generations=5, mutation-rate=0.3" in out
    )


def test_a_run_from_a_preset_unchanged_is_listed_by_the_preset_alone(
    store_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = preset_named("sheppard").config(8, seed=1, generations=3).to_dict()
    with RunStore.open(store_file) as store:
        recorder = Recorder(store, GeneticAlgorithm(Config.from_mapping(config)))
        recorder.close()
    [line] = listed(capsys)
    assert line["summary"] == "sheppard, generations=3"
    assert line["label"] is None


@pytest.mark.parametrize(
    ("argv", "needs"),
    [
        (["solve", *SHORT, "--label", "x"], "--record"),
        (
            ["sweep", "--n", "6", "--seeds", "1", "--generations", "2", "--label", "x"],
            "--record-runs",
        ),
        (["tui", "--no-record", "--label", "x"], "--record"),
    ],
)
def test_a_label_on_runs_not_recorded_is_refused(
    store_file: Path, capsys: pytest.CaptureFixture[str], argv: list[str], needs: str
) -> None:
    code, out, err = command(capsys, *argv)
    assert code == 2 and out == ""
    assert err.startswith("queens: error: --label: 'x'") and needs in err
    assert len(err.strip().splitlines()) == 1
    assert not store_file.exists()


@pytest.mark.parametrize("label", ["", "   ", "two\nlines", "x" * 61])
def test_a_label_that_is_not_one_short_printable_line_is_refused(
    store_file: Path, capsys: pytest.CaptureFixture[str], label: str
) -> None:
    with pytest.raises(SystemExit) as exit:
        main(["solve", "--record", *SHORT, "--label", label])
    assert exit.value.code == 2
    err = capsys.readouterr().err
    assert "--label: label:" in err and "printable characters" in err
    assert not store_file.exists()


def test_a_sweep_labels_the_runs_it_records(
    store_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    flags = ["--n", "6", "--seeds", "2", "--generations", "2", "--workers", "1"]
    code, _, err = command(capsys, "sweep", *flags, "--record-runs", "--label", "grid A", "--json")
    assert code == 0, err
    lines = listed(capsys)
    assert len(lines) == 2 and {line["label"] for line in lines} == {"grid A"}


# -- ids ---------------------------------------------------------------------------------------


def test_the_id_of_a_deleted_run_is_never_given_again(
    store_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    first, second = solved_run(capsys), solved_run(capsys)
    assert command(capsys, "rm", str(second), "--yes")[0] == 0
    third = solved_run(capsys)
    assert (first, second, third) == (1, 2, 3)
    assert command(capsys, "rm", str(first), str(third), "--yes")[0] == 0
    assert solved_run(capsys) == 4


# -- rm ----------------------------------------------------------------------------------------


def test_rm_deletes_several_runs_at_once(
    store_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ids = [solved_run(capsys) for _ in range(3)]
    code, out, err = command(capsys, "rm", str(ids[0]), str(ids[2]), "--yes")
    assert code == 0, err
    assert out.splitlines() == [f"deleted run {ids[0]}", f"deleted run {ids[2]}"]
    assert [line["id"] for line in listed(capsys)] == [ids[1]]


def test_rm_with_an_unknown_id_among_others_deletes_none(
    store_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run_id = solved_run(capsys)
    code, _, err = command(capsys, "rm", str(run_id), "99", "--yes")
    assert code == 2 and "no run 99" in err
    assert [line["id"] for line in listed(capsys)] == [run_id]


def test_rm_without_a_terminal_and_without_yes_deletes_nothing(
    store_file: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    run_id = solved_run(capsys)
    monkeypatch.setattr("sys.stdin", io.StringIO("y\n"))  # a pipe: not a person's answer
    code, out, err = command(capsys, "rm", str(run_id))
    assert code == 2 and out == ""
    assert err.startswith("queens: error: ") and "pass --yes" in err
    assert len(err.strip().splitlines()) == 1
    assert [line["id"] for line in listed(capsys)] == [run_id]


@pytest.mark.parametrize(
    ("answer", "deleted"), [("y\n", True), ("yes\n", True), ("\n", False), ("n\n", False)]
)
def test_rm_on_a_terminal_asks_first(
    store_file: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    answer: str,
    deleted: bool,
) -> None:
    first, second = solved_run(capsys), solved_run(capsys)
    monkeypatch.setattr("sys.stdin", Terminal(answer))
    code, _, err = command(capsys, "rm", str(first), str(second))
    assert f"Delete 2 runs ({first}, {second})" in err and "[y/N]" in err
    assert code == (0 if deleted else 2)
    assert len(listed(capsys)) == (0 if deleted else 2)


def test_rm_empty_deletes_the_runs_with_no_generation(
    store_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    kept = solved_run(capsys)
    with RunStore.open(store_file) as store:
        for seed in (1, 2):  # opened and never stepped: a record of generation 0 alone
            Recorder(store, GeneticAlgorithm(Config(n=8, seed=seed))).close("interrupted")
    assert len(listed(capsys)) == 3
    code, out, err = command(capsys, "rm", "--empty", "--yes")
    assert code == 0, err
    assert out.splitlines() == [f"deleted run {kept + 1}", f"deleted run {kept + 2}"]
    assert [line["id"] for line in listed(capsys)] == [kept]
    code, out, _ = command(capsys, "rm", "--empty", "--yes")
    assert code == 0 and out.startswith("no empty runs")


def test_rm_needs_a_run_or_empty(store_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    solved_run(capsys)
    code, _, err = command(capsys, "rm", "--yes")
    assert code == 2 and "RUN: none given" in err


# -- resume --------------------------------------------------------------------------------------


def test_resuming_a_solved_run_says_it_is_solved(
    store_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = command(capsys, "solve", "--record", "--json", "--n", "8", "--seed", "1")
    assert code == 0
    run_id, generations = json.loads(out)["run_id"], json.loads(out)["generations"]
    code, out, err = command(capsys, "resume", str(run_id))
    assert code == 0 and err == ""
    assert out.splitlines() == [
        f"run {run_id} is solved (at generation {generations}): there is nothing to resume; "
        f"queens show {run_id} prints it"
    ]
    code, out, _ = command(capsys, "resume", str(run_id), "--json")
    assert code == 0
    assert json.loads(out) == {
        "run_id": run_id,
        "solved": True,
        "resumed": False,
        "generations": generations,
    }
    [line] = listed(capsys)
    assert (line["generations"], line["status"]) == (generations, "finished")  # left as it was
