"""The statistics in every sweep report: the table's section and its sentences, the JSON rows
and methods, and the CSV columns; censored runs counted as such."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import Any

import pytest

from tui.cli.command_line import main
from tui.cli.sweep_report import report_text
from tui.lab.statistics.rank_test import mann_whitney_u
from tui.lab.statistics.run_lengths import censored_sample
from tui.lab.sweep.plan import build_plan, spec_from_flags
from tui.lab.sweep.report import summarize

SWEEP = ["sweep", "--grid", "crossover=ox,pmx", "--n", "10", "--seeds", "6"]
SWEEP += ["--max-evals", "2000", "--workers", "1"]


@pytest.fixture(autouse=True)
def store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Every sweep here is kept in a fresh store of its own."""
    path = tmp_path / "runs.sqlite3"
    monkeypatch.setenv("QUEENS_STORE", str(path))
    return path


def result(solved: bool, evaluations: int) -> dict[str, Any]:
    return {
        "solved": solved, "generations": evaluations // 100, "evaluations": evaluations,
        "seconds": evaluations / 1e5, "stop_reason": "solved" if solved else "max-evals",
        "conflicts": 0 if solved else 1, "time_cut": False,
    }  # fmt: skip


def made_up_sweep() -> tuple[Any, dict[tuple[str, int], dict[str, Any]]]:
    """Three rows over 12 seeds: fast (all solved), the same, and slow with unsolved runs."""
    plan = build_plan(
        spec_from_flags(["crossover=ox,pmx,cycle"], [], "8", "12", {"max_evals": "5000"})
    )
    ox, pmx, cycle = plan.cells
    results = {}
    for seed in range(12):
        results[(ox.fingerprint, seed)] = result(True, 200 + 10 * seed)
        results[(pmx.fingerprint, seed)] = result(True, 205 + 10 * seed)
        results[(cycle.fingerprint, seed)] = result(
            seed % 2 == 0, 1500 + seed if seed % 2 == 0 else 5000
        )
    return plan, results


def test_the_table_says_which_rows_cannot_be_told_apart_and_how() -> None:
    plan, results = made_up_sweep()
    text = report_text(plan, results, None)
    assert "ox and pmx cannot be told apart at the 5% level (Holm-corrected Mann-Whitney" in (
        text.replace("\n", " ")
    )
    assert "ox needs fewer evaluations than cycle" in text.replace("\n", " ")
    assert "percentile bootstrap of the median over the solved runs, 2,000 resamples" in (
        text.replace("\n", " ")
    )
    section = text[text.index("statistics, each row") : text.index("re-run one")].splitlines()
    ranks = {line.split()[1]: line.split()[2] for line in section[3:6]}
    assert ranks == {"ox": "1", "pmx": "1", "cycle": "3"}
    assert max(len(line) for line in section) <= 80


def test_unsolved_runs_are_censored_not_dropped() -> None:
    plan, results = made_up_sweep()
    rows = summarize(plan, results)
    cycle = rows[2]
    assert cycle.cell.values["crossover"] == "cycle"
    versus = cycle.statistics.versus_best if cycle.statistics else None
    assert versus is not None
    best = censored_sample([r for _, r in rows[0].runs], "evaluations")
    censored = censored_sample([r for _, r in cycle.runs], "evaluations")
    assert int((censored == float("inf")).sum()) == 6
    assert versus.p == pytest.approx(mann_whitney_u(censored, best).p)
    assert versus.a12 == 1.0  # every run of cycle, solved or not, is slower than ox's
    # The median's interval is over the solved runs, as the median is.
    interval = cycle.statistics.intervals["evaluations"] if cycle.statistics else None
    assert interval is not None and 1500 <= interval.low <= interval.high <= 1510


def test_json_and_csv_carry_the_statistics(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([*SWEEP, "--json"]) == 0
    document = json.loads(capsys.readouterr().out)
    assert document["methods"]["bootstrap_resamples"] == 2000
    assert "Mann-Whitney" in document["methods"]["versus_best"]
    best, other = document["rows"]
    assert best["statistics"]["versus_best"] is None and best["statistics"]["rank"] == 1
    versus = other["statistics"]["versus_best"]
    assert set(versus) >= {"p_mann_whitney", "p_holm", "a12", "a12_size", "tied_with_best"}
    assert other["statistics"]["rank"] == (1 if versus["tied_with_best"] else 2)
    low, high = best["statistics"]["median_evaluations_ci"]
    assert low <= best["median_evaluations"] <= high
    assert main([*SWEEP, "--csv"]) == 0
    lines = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    assert len(lines) == 12
    by_row = {line["crossover"]: line for line in lines}
    assert by_row[other["values"]["crossover"]]["a12"] == f"{versus['a12']:.6g}"
    assert by_row[best["values"]["crossover"]]["p_holm"] == ""


def test_rows_with_every_run_unsolved_or_one_run_each() -> None:
    plan = build_plan(spec_from_flags(["crossover=ox,pmx"], [], "8", "4", {"max_evals": "50"}))
    ox, pmx = plan.cells
    results = {
        (cell.fingerprint, seed): result(False, 50) for cell in plan.cells for seed in range(4)
    }
    rows = summarize(plan, results)
    versus = rows[1].statistics.versus_best if rows[1].statistics else None
    assert versus is not None
    assert (versus.p, versus.p_holm, versus.a12, versus.size) == (1.0, 1.0, 0.5, "negligible")
    assert rows[1].to_dict()["statistics"]["median_evaluations_ci"] is None
    text = report_text(plan, results, None).replace("\n", " ")
    assert "cannot be told apart at the 5% level (Holm-corrected Mann-Whitney p = 1," in text
    assert "run-length distributions" not in text  # nothing was solved: nothing to draw
    one_seed = build_plan(spec_from_flags(["crossover=ox,pmx"], [], "8", "1", {"max_evals": "50"}))
    single = {(ox.fingerprint, 0): result(True, 40), (pmx.fingerprint, 0): result(True, 30)}
    rows = summarize(one_seed, single)
    assert rows[0].statistics is not None
    interval = rows[0].statistics.intervals["evaluations"]
    assert interval is not None and interval.low == interval.high == 30
    lone = build_plan(spec_from_flags([], [], "8", "3", {"max_evals": "50"}))
    text = report_text(
        lone, {(lone.cells[0].fingerprint, s): result(True, 40) for s in range(3)}, None
    )
    assert "one row: nothing to compare it with." in text
