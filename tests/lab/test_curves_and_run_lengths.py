"""The thinned curves a figure keeps (bounded per run and per row), their quartiles, and the
run-length distributions printed as block lines."""

from __future__ import annotations

import math

import numpy as np

from tui.lab.sweep.curves import (
    POINTS_PER_RUN,
    RUNS_PER_ROW,
    CurveKeeper,
    RowCurves,
    quartile_curves,
    thinned,
)
from tui.lab.sweep.run_length_text import block_line, run_length_text


def test_a_long_run_is_thinned_keeping_its_ends() -> None:
    values = list(range(10_000))
    kept = thinned(values)
    assert kept.size <= POINTS_PER_RUN
    assert kept[0] == 0 and kept[-1] == 9_999
    assert list(thinned([3.0, 2.0, 1.0])) == [3.0, 2.0, 1.0]


def test_a_row_keeps_at_most_its_cap_of_runs_and_counts_the_rest() -> None:
    keeper = CurveKeeper()
    curve = {"evaluations": [10.0, 20.0], "best_conflicts": [3.0, 0.0]}
    for _ in range(RUNS_PER_ROW + 5):
        keeper.add("row", curve)
    assert len(keeper.rows["row"].evaluations) == RUNS_PER_ROW
    assert keeper.rows["row"].dropped == 5
    assert keeper.runs == RUNS_PER_ROW


def test_quartiles_read_each_run_as_a_step_held_after_its_end() -> None:
    # Run A: 5 conflicts at 10 evaluations, 0 at 30 (solved, ends). Run B: 4 at 10, 2 at 50.
    row = RowCurves(
        [np.array([10.0, 30.0]), np.array([10.0, 50.0])],
        [np.array([5.0, 0.0]), np.array([4.0, 2.0])],
    )
    q1, median, q3 = quartile_curves(row, np.array([5.0, 10.0, 40.0, 100.0]))
    # At 40: A is solved (0), B still at 4 (its 2 comes at 50); at 100, 0 and 2.
    assert list(median) == [4.5, 4.5, 2.0, 1.0]  # before its start a run counts its start
    assert list(q1) == [4.25, 4.25, 1.0, 0.5]
    assert list(q3) == [4.75, 4.75, 3.0, 1.5]


def test_block_heights_follow_the_share() -> None:
    assert block_line(np.array([0.0, 0.1, 0.125, 0.5, 0.99, 1.0])) == " ▁▁▄██"


def test_the_printed_distributions_fit_80_columns_and_end_at_the_success_rate() -> None:
    inf = math.inf
    fast = {m: np.array([10.0, 20.0, 40.0, 80.0]) for m in ("evaluations", "generations")}
    slow = {m: np.array([400.0, inf, inf, 800.0]) for m in ("evaluations", "generations")}
    fast["seconds"] = np.array([0.01, 0.02, 0.03, 0.04])
    slow["seconds"] = np.array([0.5, inf, inf, 0.9])
    text = run_length_text(["#1 fast", "#2 a rather long name indeed"], [fast, slow])
    lines = text.splitlines()
    assert max(len(line) for line in lines) <= 80
    rows = [line for line in lines if line.startswith("#")]
    assert len(rows) == 6
    assert rows[0].endswith(" 100%") and rows[1].endswith("  50%")
    assert rows[1].startswith("#2 a rather long …")
    assert rows[1][len("#2 a rather long …") + 2] == " "  # nothing solved at the left end
    assert "█" in rows[0] and "█" not in rows[1]
    unsolved = {m: np.array([inf]) for m in ("evaluations", "generations", "seconds")}
    assert run_length_text(["#1 none"], [unsolved]) == ""


def test_asking_for_the_series_changes_nothing_else_of_a_run() -> None:
    from tui.lab.sweep.dask_cluster import task_key
    from tui.lab.sweep.task import CURVE_COLUMNS, Task, run_task

    config = {"n": 10, "max_evals": 3000}
    plain = run_task(config, 4)
    with_curve = run_task(config, 4, curves=True)
    curve = with_curve.pop("curve")
    assert {k: v for k, v in with_curve.items() if k != "seconds"} == {
        k: v for k, v in plain.items() if k != "seconds"
    }
    assert set(curve) == set(CURVE_COLUMNS)
    assert curve["generation"] == list(range(plain["generations"] + 1))
    assert curve["evaluations"][-1] == plain["evaluations"]
    assert task_key(Task("f" * 40, config, 4)) != task_key(Task("f" * 40, config, 4, True))
