"""The headless command line: JSON document, exit codes, errors for people."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time

import pytest

from engine import Config, GeneticAlgorithm, queens_of
from engine.encodings import ENCODINGS
from tui.cli import config_flags, main


def run_json(capsys: pytest.CaptureFixture[str], *flags: str) -> tuple[int, dict[str, object]]:
    code = main(["solve", "--json", *flags])
    out = capsys.readouterr().out
    return code, json.loads(out)


def test_solve_json_has_the_documented_fields(capsys: pytest.CaptureFixture[str]) -> None:
    code, document = run_json(capsys, "--n", "12", "--seed", "5")
    assert code == 0
    for key in (
        "solved",
        "n",
        "seed",
        "generations",
        "evaluations",
        "elapsed_s",
        "conflicts",
        "queens",
        "genome",
        "stop_reason",
        "config",
    ):
        assert key in document
    assert document["solved"] is True
    assert document["n"] == 12
    assert document["seed"] == 5
    assert document["stop_reason"] == "solved"
    assert document["conflicts"] == 0
    queens = document["queens"]
    assert isinstance(queens, list)
    assert queens == [list(p) for p in queens_of(document["genome"], ENCODINGS["permutation"], 12)]
    # A solution: all rows, columns and both diagonals distinct.
    rows = [r for r, _ in queens]
    columns = [c for _, c in queens]
    assert len(set(rows)) == len(set(columns)) == 12
    assert len({r - c for r, c in queens}) == len({r + c for r, c in queens}) == 12


def test_solve_json_matches_the_engine_run(capsys: pytest.CaptureFixture[str]) -> None:
    _, document = run_json(capsys, "--n", "16", "--seed", "9", "--population", "30")
    expected = GeneticAlgorithm(Config(n=16, seed=9, population=30)).run()
    assert document["genome"] == [int(g) for g in expected.best]
    assert document["generations"] == expected.generation
    assert document["evaluations"] == expected.evaluations


def test_random_seed_is_recorded_and_replays(capsys: pytest.CaptureFixture[str]) -> None:
    _, first = run_json(capsys, "--n", "10")
    assert isinstance(first["seed"], int)
    _, again = run_json(capsys, "--n", "10", "--seed", str(first["seed"]))
    assert again["genome"] == first["genome"]
    assert first["config"]["seed"] == first["seed"]  # type: ignore[index]


def test_unsolved_within_budget_exits_1(capsys: pytest.CaptureFixture[str]) -> None:
    code, document = run_json(
        capsys,
        "--n",
        "8",
        "--seed",
        "1",
        "--generations",
        "1",
        "--encoding",
        "integer",
        "--crossover",
        "single-point",
        "--mutation",
        "random-reset",
        "--mutation-rate",
        "0",
    )
    assert code == 1
    assert document["solved"] is False
    assert document["stop_reason"] == "max-generations"


@pytest.mark.parametrize(
    ("flags", "field"),
    [
        (["--n", "3"], "n"),
        (["--n", "0"], "n"),
        (["--n", "eight"], "n"),
        (["--population", "1"], "population"),
        (["--crossover-rate", "1.5"], "crossover-rate"),
        (["--encoding", "bits"], "encoding"),
        (["--encoding", "integer"], "crossover"),
        (["--tournament-size", "99", "--population", "10"], "tournament-size"),
        (["--elitism", "10", "--population", "10", "--survivor", "generational"], "elitism"),
    ],
)
def test_config_errors_exit_2_and_name_the_field(
    capsys: pytest.CaptureFixture[str], flags: list[str], field: str
) -> None:
    assert main(["solve", *flags]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith(f"queens: error: {field}: ")
    assert "not allowed" in captured.err


def test_unknown_flag_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["solve", "--queens", "8"])
    assert stop.value.code == 2


def test_config_flags_round_trip() -> None:
    config = Config(n=12, population=50, unique=True, survivor="plus", seed=4, time_limit=2.5)
    from tui.cli import build_parser, config_from_args

    args = build_parser().parse_args(["solve", *config_flags(config)])
    assert config_from_args(args) == config


def test_human_output_draws_the_board(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", "--n", "6", "--seed", "2"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("N = 6: solved")
    board = [line for line in out.splitlines() if set(line) <= {"Q", ".", " "} and line]
    assert len(board) == 6
    assert all(line.count("Q") == 1 for line in board)


def test_console_script_exit_codes_and_interrupt() -> None:
    """The installed entry point, as a script would run it (``python -m tui``)."""
    solved = subprocess.run(
        [sys.executable, "-m", "tui", "solve", "--n", "8", "--seed", "1", "--json"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert solved.returncode == 0
    assert json.loads(solved.stdout)["solved"] is True
    assert solved.stderr == ""  # progress only when stderr is a terminal

    # A run that never stops on its own, interrupted like Ctrl+C.
    endless = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "tui",
            "solve",
            "--n",
            "8",
            "--encoding",
            "integer",
            "--crossover",
            "single-point",
            "--mutation",
            "random-reset",
            "--mutation-rate",
            "0",
            "--no-stop-when-solved",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    time.sleep(1.5)
    endless.send_signal(signal.SIGINT)
    _, err = endless.communicate(timeout=20)
    assert endless.returncode == 130
    assert "interrupted" in err
