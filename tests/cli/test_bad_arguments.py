"""Bad arguments on the command line: one line naming the value and what is allowed, exit 2,
never a traceback, and the store left as it was. One test per class of input."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from engine import Config
from tui.cli.command_line import main
from tui.cli.recorded_run import record_and_report

CONFIG = Config(n=8, population=20, seed=5, generations=10, stop_when_solved=False)

TOO_LARGE = "99999999999999999999"
"""More than SQLite's 64-bit integers hold."""


@pytest.fixture
def store_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """``QUEENS_STORE`` pointing at a new file, with one recorded run (id 1)."""
    path = tmp_path / "runs.sqlite3"
    monkeypatch.setenv("QUEENS_STORE", str(path))
    record_and_report(CONFIG, True, None, None)
    return path


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _refused(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    """Run ``queens ARGV``; assert exit 2 and one error line; return that line."""
    capsys.readouterr()
    code = main(list(argv))
    captured = capsys.readouterr()
    assert code == 2, captured
    assert "Traceback" not in captured.err
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("queens: error: "), captured.err
    return lines[0]


@pytest.mark.parametrize("command", ["show", "resume", "export", "replay", "rm"])
@pytest.mark.parametrize("run", [TOO_LARGE, "0", "²", "", "١٢"])
def test_a_run_argument_that_is_no_run_id_nor_file_is_refused_by_name(
    store_file: Path, capsys: pytest.CaptureFixture[str], command: str, run: str
) -> None:
    before = _digest(store_file)
    extra = ["--format", "csv"] if command == "export" else []
    line = _refused(capsys, command, run, *extra)
    assert f"RUN: {run!r} is not allowed" in line
    assert _digest(store_file) == before


def test_a_generation_that_is_no_whole_number_is_refused(
    store_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert "generation: '²' is not allowed" in _refused(capsys, "show", "1", "--generation", "²")


def test_a_huge_path_is_shortened_in_the_message(
    store_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    line = _refused(capsys, "show", "a" * 100_000)
    assert "100,000 characters" in line and len(line) < 400


@pytest.mark.parametrize("output", ["/", "", "."])
def test_an_export_output_that_is_a_directory_is_refused(
    store_file: Path, capsys: pytest.CaptureFixture[str], output: str, tmp_path: Path
) -> None:
    line = _refused(capsys, "export", "1", "--format", "csv", "--output", output)
    assert f"--output: {output!r} is not allowed" in line
    assert not list(tmp_path.glob("*.partial"))


@pytest.mark.parametrize("sweep", [TOO_LARGE, "²", "0"])
def test_a_sweep_id_out_of_range_is_refused(
    store_file: Path, capsys: pytest.CaptureFixture[str], sweep: str
) -> None:
    assert f"show: {sweep!r} is not allowed" in _refused(capsys, "sweep", "--show", sweep)


def test_a_time_limit_beyond_the_timer_runs_without_a_traceback(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code = main(["solve", "--n", "8", "--seed", "1", "--generations", "3", "--json",
                 "--time-limit", "9223372036854775808"])  # fmt: skip
    captured = capsys.readouterr()
    assert "Traceback" not in captured.err
    assert code in (0, 1)
    assert json.loads(captured.out)["seed"] == 1


def test_a_malformed_scheduler_address_is_refused_before_any_client(
    store_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("distributed")
    line = _refused(
        capsys, "compare", "--preset", "sheppard", "--seeds", "1",
        "--scheduler", "garbage", "--connect-timeout", "3",
    )  # fmt: skip
    assert "scheduler: 'garbage' is not allowed; not a scheduler address" in line


@pytest.mark.parametrize("command", [["runs"], ["sweeps"], ["show", "1"], ["solve", "--record"]])
def test_a_store_path_the_file_system_cannot_look_up_is_refused_shortened(
    capsys: pytest.CaptureFixture[str], command: list[str], tmp_path: Path
) -> None:
    too_long = str(tmp_path / ("b" * 300))
    line = _refused(capsys, *command, "--store", too_long)
    assert line.startswith("queens: error: --store: ")
    assert "characters) is not allowed" in line and len(line) < 300


def test_a_kept_sweep_whose_plan_is_damaged_is_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    import sqlite3

    store = tmp_path / "sweeps.sqlite3"
    flags = ["--preset", "sheppard", "--seeds", "1", "--max-evals", "200", "--store", str(store)]
    assert main(["compare", *flags]) == 0
    with sqlite3.connect(store) as connection:
        connection.execute("UPDATE sweeps SET plan = '{damaged'")
    line = _refused(capsys, "sweep", "--show", "1", "--store", str(store))
    assert "plan is damaged" in line
