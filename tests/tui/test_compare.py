"""``queens compare``: bad input, the JSON and CSV documents, the table, and replayable runs."""

from __future__ import annotations

import csv
import io
import json
from typing import Any

import pytest

from engine import GeneticAlgorithm
from engine.presets import PRESETS
from tui.cli import main
from tui.compare import (
    DEFAULT_TIME_LIMIT,
    Comparison,
    Entrant,
    RunResult,
    rerun_command,
    run_one,
)
from tui.compare_report import chart_text, table_text


def compare_json(capsys: pytest.CaptureFixture[str], *flags: str) -> dict[str, Any]:
    code = main(["compare", "--json", "--jobs", "2", *flags])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    document: dict[str, Any] = json.loads(captured.out)
    return document


@pytest.mark.parametrize(
    ("flags", "field"),
    [
        (["--preset", "no-such-ga"], "preset: 'no-such-ga'"),
        (["--preset", "codeproject-2011", "--n", "10"], "n: 10"),
        (["--preset", "default", "--n", "3"], "n: 3"),
        (["--preset", "default", "--n", "eight"], "n: 'eight'"),
        ([], "preset: []"),
        (["--preset", "default", "--seeds", "0"], "seeds: 0"),
        (["--preset", "default", "--seeds", "many"], "seeds: 'many'"),
        (["--preset", "default", "--jobs", "0"], "jobs: 0"),
        (["--preset", "default", "--time-limit", "0"], "time-limit: 0.0"),
        (["--preset", "default", "--time-limit", "nan"], "time-limit: nan"),
    ],
)
def test_bad_input_is_a_usage_error_naming_the_field(
    capsys: pytest.CaptureFixture[str], flags: list[str], field: str
) -> None:
    code = main(["compare", *flags])
    captured = capsys.readouterr()
    assert code == 2
    assert captured.out == ""
    assert captured.err.startswith(f"queens: error: {field} is not allowed")
    assert "Traceback" not in captured.err


def test_json_has_every_run_and_a_summary_per_preset(capsys: pytest.CaptureFixture[str]) -> None:
    document = compare_json(
        capsys, "--preset", "default", "--preset", "codeproject-2011", "--n", "8", "--seeds", "3"
    )
    assert document["n"] == 8
    assert document["seeds"] == 3
    assert [p["name"] for p in document["presets"]] == ["default", "codeproject-2011"]
    for preset in document["presets"]:
        assert preset["n"] == 8
        assert [run["seed"] for run in preset["runs"]] == [0, 1, 2]
        for run in preset["runs"]:
            assert run["preset"] == preset["name"]
            assert run["rerun"].startswith(f"queens solve --preset {preset['name']} --n 8 --seed ")
        summary = preset["summary"]
        assert summary["runs"] == 3
        assert summary["solved"] == sum(run["solved"] for run in preset["runs"])
        assert summary["success_rate"] == pytest.approx(summary["solved"] / 3)
        for metric in ("generations", "evaluations", "seconds"):
            spread = summary[metric]
            if summary["solved"]:
                assert spread["min"] <= spread["q1"] <= spread["median"] <= spread["q3"]
                assert spread["q3"] <= spread["max"]
            else:
                assert spread is None
    default, codeproject = document["presets"]
    # default has no budget of its own: compare gives it one, and its re-run command says so.
    assert default["time_limit"] == DEFAULT_TIME_LIMIT
    assert default["time_limit_defaulted"] is True
    assert default["runs"][0]["rerun"].endswith(f"--time-limit {DEFAULT_TIME_LIMIT:g}")
    assert codeproject["time_limit"] is None
    assert codeproject["time_limit_defaulted"] is False


def test_each_preset_runs_at_its_own_size_without_n(capsys: pytest.CaptureFixture[str]) -> None:
    document = compare_json(
        capsys, "--preset", "towardsai-5queens", "--preset", "default", "--seeds", "2"
    )
    assert document["n"] is None
    assert [p["n"] for p in document["presets"]] == [5, 8]


def test_csv_has_a_header_and_one_row_per_run(capsys: pytest.CaptureFixture[str]) -> None:
    flags = ["--preset", "default", "--preset", "queens-ai", "--seeds", "3", "--jobs", "2"]
    code = main(["compare", "--csv", *flags])
    assert code == 0
    rows = list(csv.reader(io.StringIO(capsys.readouterr().out)))
    header, body = rows[0], rows[1:]
    assert {"preset", "n", "seed", "solved", "generations", "evaluations", "seconds"} <= set(header)
    assert {"stop_reason", "conflicts", "rerun"} <= set(header)
    assert len(body) == 6
    seed, rerun = header.index("seed"), header.index("rerun")
    assert [row[seed] for row in body] == ["0", "1", "2"] * 2
    assert all(f"--seed {row[seed]}" in row[rerun] for row in body)


@pytest.mark.parametrize(("name", "n"), [("default", 12), ("queens-ai", 8), ("deap-nqueens", 8)])
def test_a_run_is_the_same_as_running_the_preset_directly(name: str, n: int) -> None:
    for seed in (0, 1):
        result = run_one(name, n, seed, None)
        algorithm = GeneticAlgorithm(PRESETS[name].config(n).replace(seed=seed))
        final = algorithm.run()
        conflicts = list(algorithm.history.column("best_conflicts"))
        assert result.seed == seed
        assert result.solved == (0 in conflicts)
        if 0 in conflicts:
            first = conflicts.index(0)
            assert result.generations == algorithm.history.row(first).generation
            assert result.evaluations == algorithm.history.row(first).evaluations
            assert result.conflicts == 0
        else:
            assert result.generations == final.generation
            assert result.evaluations == final.evaluations
        assert result.stop_reason == final.stop_reason


def test_compare_results_match_direct_runs_whatever_the_workers(
    capsys: pytest.CaptureFixture[str],
) -> None:
    document = compare_json(capsys, "--preset", "default", "--n", "10", "--seeds", "3")
    for run in document["presets"][0]["runs"]:
        final = GeneticAlgorithm(PRESETS["default"].config(10).replace(seed=run["seed"])).run()
        assert run["solved"] is True
        assert (run["generations"], run["evaluations"]) == (final.generation, final.evaluations)


def test_the_table_names_each_preset_and_how_to_rerun(capsys: pytest.CaptureFixture[str]) -> None:
    flags = ["--preset", "queens-ai", "--preset", "default", "--n", "8", "--seeds", "2"]
    code = main(["compare", "--jobs", "2", *flags])
    out = capsys.readouterr().out
    assert code == 0
    lines = out.splitlines()
    rows = [line for line in lines if line.startswith(("queens-ai ", "default "))]
    assert [row.split()[0] for row in rows] == ["queens-ai", "default"]
    assert "over the solved runs only" in out
    assert "IQR" in out
    assert "default has none, so 10 s per run" in out
    assert "queens solve --preset queens-ai --n 8 --seed S" in out
    assert "queens solve --preset default --n 8 --seed S --time-limit 10" in out
    assert "\x1b[" not in out  # no chart and no colours when stdout is not a terminal


def test_a_preset_given_twice_runs_once(capsys: pytest.CaptureFixture[str]) -> None:
    document = compare_json(capsys, "--preset", "default", "--preset", "default", "--seeds", "1")
    assert [p["name"] for p in document["presets"]] == ["default"]


def test_the_table_lists_unsolved_seeds_and_runs_cut_by_the_time_limit() -> None:
    entrants = (Entrant("sheppard", 8, DEFAULT_TIME_LIMIT, defaulted=True),)
    comparison = Comparison(entrants, n=8, seeds=3, time_limit=None, jobs=1)

    def run(seed: int, solved: bool, evaluations: int) -> RunResult:
        reason = "solved" if solved else "time-limit"
        return RunResult(
            "sheppard", 8, seed, solved, 10 * seed, evaluations, 0.5 * seed, reason,
            0 if solved else 2, DEFAULT_TIME_LIMIT,
            rerun_command("sheppard", 8, seed, DEFAULT_TIME_LIMIT),
        )  # fmt: skip

    results = [run(0, True, 100), run(1, False, 5000), run(2, True, 300)]
    table = table_text(comparison, results)
    row = next(line for line in table.splitlines() if line.startswith("sheppard "))
    # Medians over the two solved runs only: 200 evaluations, 10 generations.
    assert row.split()[:5] == ["sheppard", "8", "2/3", "67%", "10"]
    assert "200" in row.split()
    assert "sheppard: 1 unsolved: seed 1 (time-limit, 2 conflicts)" in table
    assert "1 run hit the time limit" in table
    assert "sheppard has none, so 10 s per run" in table
    chart = chart_text(comparison, results)
    assert "sheppard" in chart
    assert "log scale" in chart
