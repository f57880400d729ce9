"""``queens compare`` (a sweep over presets) and ``queens sweep``: bad input, JSON, CSV, the
table, kept and shown again, and replayable runs."""

from __future__ import annotations

import csv
import io
import json
import os
import shlex
from pathlib import Path
from typing import Any

import pytest

from engine import GeneticAlgorithm
from engine.config.presets import PRESETS
from tui.cli.command_line import main
from tui.cli.sweep_report import chart_text
from tui.cli.sweep_running import DEFAULT_MAX_EVALS
from tui.lab.sweep.plan import build_plan, spec_from_flags
from tui.lab.sweep.report import summarize, table_text, wilson_interval


@pytest.fixture(autouse=True)
def store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Every command here keeps its sweeps in a fresh store of its own."""
    path = tmp_path / "runs.sqlite3"
    monkeypatch.setenv("QUEENS_STORE", str(path))
    return path


def run_json(capsys: pytest.CaptureFixture[str], *flags: str) -> dict[str, Any]:
    code = main([*flags, "--json"])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    document: dict[str, Any] = json.loads(captured.out)
    return document


def compare_json(capsys: pytest.CaptureFixture[str], *flags: str) -> dict[str, Any]:
    return run_json(capsys, "compare", "--jobs", "2", *flags)


@pytest.mark.parametrize(
    ("flags", "field"),
    [
        (["--preset", "no-such-ga"], "preset: 'no-such-ga'"),
        (["--preset", "codeproject-2011", "--n", "10"], "n: 10"),
        (["--preset", "default", "--n", "3"], "n: 3"),
        (["--preset", "default", "--n", "eight"], "n: 'eight'"),
        ([], "--preset: []"),
        (["--preset", "default", "--seeds", "0"], "seeds: '0'"),
        (["--preset", "default", "--seeds", "many"], "seeds: 'many'"),
        (["--preset", "default", "--seeds", "1000000000"], "seeds: '1000000000'"),
        (["--preset", "default", "--jobs", "0"], "--jobs: 0"),
        (["--preset", "default", "--jobs", "many"], "--jobs: 'many'"),
        (["--preset", "default", "--jobs", "100000", "--force-jobs"], "--jobs: 100000"),
        (["--preset", "default", "--time-limit", "0"], "time-limit: 0.0"),
        (["--preset", "default", "--time-limit", "nan"], "time-limit: nan"),
        (["--preset", "default", "--max-evals", "0"], "--max-evals: '0'"),
    ],
)
def test_bad_compare_input_is_a_usage_error_naming_the_field(
    capsys: pytest.CaptureFixture[str], flags: list[str], field: str
) -> None:
    code = main(["compare", *flags])
    captured = capsys.readouterr()
    assert code == 2
    assert captured.out == ""
    assert captured.err.startswith(f"queens: error: {field} is not allowed"), captured.err
    assert "Traceback" not in captured.err


@pytest.mark.parametrize(
    ("flags", "field"),
    [
        (["--grid", "mutation_rate=0.5,zero", "--max-evals", "10"], "mutation-rate: 'zero'"),
        (["--grid", "mutaton_rate=0.5", "--max-evals", "10"], "mutaton-rate:"),
        (["--grid", "n=", "--max-evals", "10"], "n: ''"),
        (["--n", "8", "--max-evals", "10", "--seeds", "0"], "seeds: '0'"),
        (["--show", "7"], "--show: 7"),
        (["--show", "x"], "--show: 'x'"),
        (["--n", "8", "--max-evals", "10", "--connect-timeout", "-1"], "--connect-timeout: -1.0"),
    ],
)
def test_bad_sweep_input_is_a_usage_error_naming_the_field(
    capsys: pytest.CaptureFixture[str], flags: list[str], field: str
) -> None:
    code = main(["sweep", *flags])
    captured = capsys.readouterr()
    assert code == 2
    assert captured.out == ""
    assert captured.err.startswith(f"queens: error: {field}"), captured.err
    assert "Traceback" not in captured.err


def test_a_bad_plan_file_names_the_file_and_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    plan = tmp_path / "plan.toml"
    plan.write_text("seeds = 3\nmax_evals = 100\n\n[grid]\nmutation = ['swap', 'teleport']\n")
    code = main(["sweep", str(plan)])
    err = capsys.readouterr().err
    assert code == 2
    assert err.startswith("queens: error: mutation: 'teleport' is not allowed; choose one of")
    assert f"(in {plan}, line 5)" in err


def test_jobs_are_capped_at_the_cores_unless_forced(capsys: pytest.CaptureFixture[str]) -> None:
    cores = os.cpu_count() or 1
    code = main(["compare", "--preset", "default", "--seeds", "1", "--jobs", str(cores + 5)])
    captured = capsys.readouterr()
    assert code == 0
    assert f"--jobs {cores + 5} capped at this machine's {cores} cores" in captured.err
    assert "1 local worker" in captured.err  # one run needs one worker
    assert "--jobs" not in captured.out


def test_json_has_every_run_and_a_row_per_preset(capsys: pytest.CaptureFixture[str]) -> None:
    document = compare_json(
        capsys, "--preset", "default", "--preset", "codeproject-2011", "--n", "8", "--seeds", "3"
    )
    assert isinstance(document["sweep_id"], int)
    assert document["complete"] is True
    assert document["axes"] == {"preset": ["default", "codeproject-2011"]}
    assert document["seeds"] == {"first": 0, "count": 3}
    rows = {row["values"]["preset"]: row for row in document["rows"]}
    assert set(rows) == {"default", "codeproject-2011"}
    for name, row in rows.items():
        runs = [run for run in document["runs"] if run["values"]["preset"] == name]
        assert [run["seed"] for run in runs] == [0, 1, 2]
        assert row["runs"] == 3
        assert row["solved"] == sum(run["solved"] for run in runs)
        assert row["success_rate"] == pytest.approx(row["solved"] / 3, abs=1e-6)
        assert (row["ci_low"], row["ci_high"]) == pytest.approx(wilson_interval(row["solved"], 3))
        assert row["config"]["n"] == 8
        for run in runs:
            assert run["rerun"].startswith(f"queens solve --preset {name} --n 8 ")
            assert run["rerun"].endswith(f"--seed {run['seed']}")
        for metric in ("generations", "evaluations", "seconds"):
            spread = row[metric]
            if row["solved"]:
                assert spread["min"] <= spread["q1"] <= spread["median"] <= spread["q3"]
                assert spread["q3"] <= spread["max"]
                assert row[f"median_{metric}"] == spread["median"]
            else:
                assert spread is None
    # default stops only when solved: compare gives it a deterministic budget, and says so.
    assert rows["default"]["config"]["max_evals"] == DEFAULT_MAX_EVALS
    assert rows["default"]["config"]["time_limit"] is None
    assert f"--max-evals {DEFAULT_MAX_EVALS}" in rows["default"]["rerun"]
    assert rows["codeproject-2011"]["config"]["max_evals"] is None


def test_the_rows_are_ranked(capsys: pytest.CaptureFixture[str]) -> None:
    document = compare_json(
        capsys, "--preset", "codeproject-2011", "--preset", "default", "--seeds", "6"
    )
    keys = [
        (-row["success_rate"], -row["ci_low"], row["median_evaluations"] or float("inf"))
        for row in document["rows"]
    ]
    assert keys == sorted(keys)


def test_each_preset_runs_at_its_own_size_without_n(capsys: pytest.CaptureFixture[str]) -> None:
    document = compare_json(
        capsys, "--preset", "towardsai-5queens", "--preset", "default", "--seeds", "2"
    )
    sizes = {row["values"]["preset"]: row["config"]["n"] for row in document["rows"]}
    assert sizes == {"towardsai-5queens": 5, "default": 8}


def test_csv_has_a_header_and_one_line_per_run(capsys: pytest.CaptureFixture[str]) -> None:
    flags = ["--preset", "default", "--preset", "queens-ai", "--seeds", "3", "--jobs", "2"]
    code = main(["compare", "--csv", *flags])
    assert code == 0
    rows = list(csv.reader(io.StringIO(capsys.readouterr().out)))
    header, body = rows[0], rows[1:]
    assert header[:2] == ["preset", "seed"]
    assert {"solved", "generations", "evaluations", "seconds", "stop_reason"} <= set(header)
    assert {"conflicts", "time_cut", "rerun"} <= set(header)
    assert len(body) == 6
    seed, rerun = header.index("seed"), header.index("rerun")
    assert [row[seed] for row in body] == ["0", "1", "2"] * 2
    assert all(row[rerun].endswith(f"--seed {row[seed]}") for row in body)


@pytest.mark.parametrize(("name", "n"), [("default", 12), ("queens-ai", 8), ("deap-nqueens", 8)])
def test_each_rerun_command_repeats_its_run(
    capsys: pytest.CaptureFixture[str], name: str, n: int
) -> None:
    document = compare_json(capsys, "--preset", name, "--n", str(n), "--seeds", "2")
    for run in document["runs"]:
        words = shlex.split(run["rerun"])
        assert words[:2] == ["queens", "solve"]
        code = main([*words[1:], "--json"])
        solved = json.loads(capsys.readouterr().out)
        assert code == (0 if solved["solved"] else 1)
        if name != "deap-nqueens":  # it runs on after a solution; the sweep counts the first
            assert (solved["generations"], solved["evaluations"]) == (
                run["generations"],
                run["evaluations"],
            )
        assert solved["solved"] == run["solved"] or name == "deap-nqueens"
        final = GeneticAlgorithm(PRESETS[name].config(n).replace(seed=run["seed"])).run()
        assert solved["stop_reason"] == final.stop_reason or name == "default"


def test_the_table_names_each_preset_the_budget_and_how_to_rerun(
    capsys: pytest.CaptureFixture[str],
) -> None:
    flags = ["--preset", "queens-ai", "--preset", "default", "--n", "8", "--seeds", "2"]
    code = main(["compare", "--jobs", "2", *flags])
    out = capsys.readouterr().out
    assert code == 0
    lines = out.splitlines()
    rows = [line.split() for line in lines if line[:1].isdigit() and "/" in line]
    assert sorted(row[1] for row in rows) == ["default", "queens-ai"]
    assert "over the solved runs only" in out
    assert "IQR" in out
    assert "95% CI: Wilson score" in out
    assert f"default has none of its own, so {DEFAULT_MAX_EVALS:,} evaluations per run" in out
    assert "queens solve --preset queens-ai --n 8 --seed 0" in out
    assert f"queens solve --preset default --n 8 --max-evals {DEFAULT_MAX_EVALS} --seed" in out
    assert "queens sweep --show" in out
    assert "\x1b[" not in out  # no chart and no colours when stdout is not a terminal


def test_a_preset_given_twice_runs_once(capsys: pytest.CaptureFixture[str]) -> None:
    document = compare_json(capsys, "--preset", "default", "--preset", "default", "--seeds", "1")
    assert [row["values"]["preset"] for row in document["rows"]] == ["default"]


def test_a_sweep_is_kept_listed_and_shown_again(capsys: pytest.CaptureFixture[str]) -> None:
    flags = ["sweep", "--n", "8,10", "--grid", "mutation_rate=0.5,1", "--seeds", "3"]
    flags += ["--max-evals", "3000", "--workers", "2"]
    first = run_json(capsys, *flags)
    assert len(first["runs"]) == 12
    again = run_json(capsys, *flags)  # the same command: nothing left to run
    assert again["sweep_id"] == first["sweep_id"]
    assert again["runs"] == first["runs"]
    shown = run_json(capsys, "sweep", "--show", str(first["sweep_id"]))
    assert shown == first
    assert main(["sweeps"]) == 0
    listing = capsys.readouterr().out
    assert f"{first['sweep_id']:>4}" in listing
    assert "12/12" in listing
    assert "n=8,10; mutation_rate=0.5,1.0" in listing
    fresh = run_json(capsys, *flags, "--fresh")
    assert [{k: v for k, v in r.items() if k != "seconds"} for r in fresh["runs"]] == [
        {k: v for k, v in r.items() if k != "seconds"} for r in first["runs"]
    ]


def test_two_axes_get_a_heat_map(capsys: pytest.CaptureFixture[str]) -> None:
    flags = ["sweep", "--n", "8,10", "--grid", "mutation_rate=0.5,1", "--seeds", "2"]
    code = main([*flags, "--max-evals", "3000"])
    out = capsys.readouterr().out
    assert code == 0
    assert "success rate (median evaluations to solution):" in out
    assert "n \\ mutation_rate" in out


def test_the_table_flags_runs_cut_by_the_time_limit_and_the_chart_draws() -> None:
    plan = build_plan(spec_from_flags([], ["sheppard", "default"], "8", "3", {"time_limit": "9"}))
    sheppard, default = plan.cells

    def result(solved: bool, evaluations: int, cut: bool = False) -> dict[str, Any]:
        return {
            "solved": solved, "generations": evaluations // 10, "evaluations": evaluations,
            "seconds": evaluations / 1000, "stop_reason": "time-limit" if cut else "solved",
            "conflicts": 0 if solved else 2, "time_cut": cut,
        }  # fmt: skip

    results = {
        (sheppard.fingerprint, 0): result(True, 100),
        (sheppard.fingerprint, 1): result(False, 5000, cut=True),
        (sheppard.fingerprint, 2): result(True, 300),
        (default.fingerprint, 0): result(True, 80),
        (default.fingerprint, 1): result(True, 80),
        (default.fingerprint, 2): result(True, 120),
    }
    rows = summarize(plan, results)
    assert [row.cell.preset for row in rows] == ["default", "sheppard"]
    table = table_text(plan, rows)
    line = next(text for text in table.splitlines() if " sheppard " in text)
    # Medians over the two solved runs only: 200 evaluations, 20 generations.
    assert line.split()[:6] == ["2", "sheppard", "8", "2/3", "67%", "21%–94%"]
    assert "200" in line.split()
    assert "cut: 1 run ended by the wall-clock limit" in table
    assert line.split()[-1] == "1"  # the cut column
    chart = chart_text(plan, rows)
    assert "sheppard" in chart
    assert "success rate" in chart


def test_wilson_interval_matches_known_values() -> None:
    # Wilson (1927) / Newcombe (1998) table: 81/263 -> 0.2553 to 0.3662; 0/10 -> 0 to 0.2775.
    assert wilson_interval(81, 263) == pytest.approx((0.2553, 0.3662), abs=5e-4)
    assert wilson_interval(0, 10) == pytest.approx((0.0, 0.2775), abs=5e-4)
    assert wilson_interval(10, 10) == pytest.approx((0.7225, 1.0), abs=5e-4)


def test_a_sweep_without_a_budget_gets_the_default_and_says_so(
    capsys: pytest.CaptureFixture[str],
) -> None:
    flags = ["--grid", "mutation=swap,conflict", "--n", "8", "--seeds", "2"]
    code = main(["sweep", "--workers", "1", *flags])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    assert f"budget: none was given, so {DEFAULT_MAX_EVALS:,} evaluations per run" in captured.out
    assert f"--max-evals {DEFAULT_MAX_EVALS}" in captured.out


def test_a_sweep_with_a_budget_keeps_its_plan_as_before(capsys: pytest.CaptureFixture[str]) -> None:
    flags = ["--grid", "mutation=swap,conflict", "--n", "8", "--seeds", "1"]
    assert main(["sweep", "--workers", "1", "--generations", "50", *flags]) == 0
    out = capsys.readouterr().out
    assert "budget:" not in out
    spec = spec_from_flags(["mutation=swap,conflict"], [], "8", "1", {"generations": "50"})
    assert build_plan(spec).fallback_max_evals is None
