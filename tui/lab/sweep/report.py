"""A sweep's report: one ranked row per configuration, a chart, a heat map, JSON and CSV.

Per configuration: runs, solved, the success rate with its 95% Wilson score interval, and the
median and interquartile range (25th–75th percentile) of generations, evaluations and seconds
to the first solution, over the solved runs only (an unsolved run has no "time to solution");
for the unsolved runs, the fewest conflicts any of them got down to. Rows are ranked by success
rate, then by the interval's lower end, then by median evaluations. Runs that a wall-clock limit
ended are counted per row and flagged: how far such a run gets depends on the machine's load.
Each row also gets the statistics of :mod:`~tui.lab.sweep.row_statistics`: bootstrap intervals
of its medians, and a rank test, Holm's correction and A12 against the best row.
"""

from __future__ import annotations

import csv
import io
import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, Final

import numpy as np

from engine import is_plugin_name, plugin_label
from engine.config.presets import PRESETS
from tui.lab.rerun_line import solve_flags, solve_line
from tui.lab.sweep.plan import Cell, SweepPlan, has_budget
from tui.lab.sweep.row_statistics import (
    ROW_STATISTICS_COLUMNS,
    RowStatistics,
    row_statistics,
    row_statistics_cells,
    statistics_methods,
)
from tui.lab.sweep.task import RESULT_FIELDS

METRICS: Final = ("generations", "evaluations", "seconds")
"""The per-run measures summarized, each to the first solution."""

WILSON_Z: Final = 1.959963984540054
"""The normal quantile of a two-sided 95% interval."""

Results = Mapping[tuple[str, int], Mapping[str, Any]]
"""Results by (config fingerprint, seed)."""


def wilson_interval(successes: int, trials: int, z: float = WILSON_Z) -> tuple[float, float]:
    """The Wilson score interval of a success rate (95% by default); (0, 1) with no trials."""
    if trials <= 0:
        return (0.0, 1.0)
    rate = successes / trials
    scale = 1 + z * z / trials
    centre = (rate + z * z / (2 * trials)) / scale
    half = z * math.sqrt(rate * (1 - rate) / trials + z * z / (4 * trials * trials)) / scale
    return (max(0.0, centre - half), min(1.0, centre + half))


@dataclass(frozen=True)
class Spread:
    """A measure over some runs: median, quartiles, min and max."""

    median: float
    q1: float
    q3: float
    low: float
    high: float

    @classmethod
    def of(cls, values: Sequence[float]) -> Spread | None:
        """The spread of ``values``, or ``None`` when there are none."""
        if not values:
            return None
        q1, median, q3 = np.percentile(np.asarray(values, dtype=np.float64), [25, 50, 75])
        return cls(float(median), float(q1), float(q3), float(min(values)), float(max(values)))

    def to_dict(self) -> dict[str, float]:
        """Median, quartiles, min and max, for JSON."""
        values = {"median": self.median, "q1": self.q1, "q3": self.q3}
        values |= {"min": self.low, "max": self.high}
        return {name: round(value, 6) for name, value in values.items()}


def rerun_command(cell: Cell, seed: int | str) -> str:
    """The ``queens solve`` command that repeats one run of a cell (``seed`` may be ``"S"``).

    It starts from the cell's preset (``--preset NAME``) or the defaults, names the board size
    and the seed always, and every other field that differs from what it starts from.
    """
    values = {**cell.config, "seed": seed}
    return solve_line(solve_flags(values, preset=cell.preset, always=("n", "seed")))


@dataclass(frozen=True)
class Row:
    """One configuration's summary.

    Attributes:
        cell: The configuration.
        runs: Its runs' results, by seed (only the seeds that have one).
        solved: How many runs found a solution.
        ci_low: The lower end of the 95% Wilson interval of the success rate.
        ci_high: Its upper end.
        spreads: Generations, evaluations and seconds to solution over the solved runs.
        conflicts_left: Conflicts left over the unsolved runs (``None`` when all solved).
        time_cut: Runs that the wall-clock limit ended.
        statistics: Its intervals and its comparison with the best row (set by
            :func:`summarize`, which knows the best row).
    """

    cell: Cell
    runs: tuple[tuple[int, Mapping[str, Any]], ...]
    solved: int
    ci_low: float
    ci_high: float
    spreads: dict[str, Spread | None]
    conflicts_left: Spread | None
    time_cut: int
    statistics: RowStatistics | None = None

    @property
    def rate(self) -> float:
        """The share of runs solved."""
        return self.solved / len(self.runs) if self.runs else 0.0

    def median(self, metric: str) -> float | None:
        """The median of a measure over the solved runs."""
        spread = self.spreads[metric]
        return None if spread is None else spread.median

    @property
    def rerun(self) -> str:
        """The command that repeats one of its runs: the first unsolved one, else the first."""
        unsolved = [seed for seed, result in self.runs if not result["solved"]]
        seeds = unsolved or [seed for seed, _ in self.runs]
        return rerun_command(self.cell, seeds[0] if seeds else "S")

    def to_dict(self) -> dict[str, Any]:
        """The row as plain values, for JSON."""
        document: dict[str, Any] = {
            "values": dict(self.cell.values),
            "preset": self.cell.preset,
            "fingerprint": self.cell.fingerprint,
            "runs": len(self.runs),
            "solved": self.solved,
            "success_rate": round(self.rate, 6),
            "ci_low": round(self.ci_low, 6),
            "ci_high": round(self.ci_high, 6),
        }
        for metric in METRICS:
            median = self.median(metric)
            document[f"median_{metric}"] = None if median is None else round(median, 6)
        for metric, spread in self.spreads.items():
            document[metric] = None if spread is None else spread.to_dict()
        left = self.conflicts_left
        document["conflicts_left"] = None if left is None else left.to_dict()
        document["time_cut"] = self.time_cut
        document["statistics"] = None if self.statistics is None else self.statistics.to_dict()
        document["rerun"] = self.rerun
        document["config"] = dict(self.cell.config)
        return document


def _row(cell: Cell, runs: list[tuple[int, Mapping[str, Any]]]) -> Row:
    solved = [result for _, result in runs if result["solved"]]
    unsolved = [result for _, result in runs if not result["solved"]]
    low, high = wilson_interval(len(solved), len(runs))
    spreads = {m: Spread.of([float(r[m]) for r in solved]) for m in METRICS}
    left = Spread.of([float(r["conflicts"]) for r in unsolved])
    cut = sum(bool(result.get("time_cut")) for _, result in runs)
    return Row(cell, tuple(runs), len(solved), low, high, spreads, left, cut)


def summarize(plan: SweepPlan, results: Results) -> list[Row]:
    """One row per configuration, ranked best first (success, interval, median evaluations)."""
    rows = []
    for cell in plan.cells:
        runs = [
            (seed, results[(cell.fingerprint, seed)])
            for seed in plan.seeds
            if (cell.fingerprint, seed) in results
        ]
        rows.append(_row(cell, runs))
    order = {id(row): index for index, row in enumerate(rows)}

    def rank(row: Row) -> tuple[float, float, float, int]:
        evaluations = row.median("evaluations")
        return (
            -row.rate,
            -row.ci_low,
            math.inf if evaluations is None else evaluations,
            order[id(row)],
        )

    ranked = sorted(rows, key=rank)
    measured = row_statistics([[result for _, result in row.runs] for row in ranked])
    return [replace(row, statistics=stats) for row, stats in zip(ranked, measured, strict=True)]


def cell_name(plan: SweepPlan, cell: Cell) -> str:
    """A config as the statistics and figures name it: its value on the one axis that varies
    (``ox``), or ``axis=value`` for each of several (``crossover=ox mutation_rate=0.8``)."""
    varying = varying_axes(plan)
    if len(varying) > 1:
        return " ".join(f"{axis}={value_text(cell.values[axis])}" for axis in varying)
    shown = varying or [axis.name for axis in plan.axes][:1]
    return ", ".join(value_text(cell.values[axis]) for axis in shown) or "all"


def row_name(plan: SweepPlan, row: Row) -> str:
    """A row's :func:`cell_name`."""
    return cell_name(plan, row.cell)


def varying_axes(plan: SweepPlan) -> list[str]:
    """The axes with more than one value (the ones a chart or heat map can show)."""
    return [axis.name for axis in plan.axes if len(axis.values) > 1]


def _number(value: float) -> str:
    return f"{value:,.1f}" if not float(value).is_integer() else f"{value:,.0f}"


def _decimals(value: float) -> int:
    """Decimals that show three significant digits of ``value`` (at most four)."""
    if value <= 0:
        return 4
    return min(4, max(0, 2 - math.floor(math.log10(value))))


def _cells(spread: Spread | None, metric: str) -> tuple[str, str]:
    """The median and the IQR of one measure, as text."""
    if spread is None:
        return "-", ""
    if metric == "seconds":
        d = _decimals(spread.q3)
        return f"{spread.median:,.{d}f}", f"{spread.q1:,.{d}f}–{spread.q3:,.{d}f}"
    return _number(spread.median), f"{spread.q1:,.0f}–{spread.q3:,.0f}"


def value_text(value: Any) -> str:
    """An axis value as a table shows it (a plug-in: its file's name, function and digest)."""
    if is_plugin_name(value):
        return plugin_label(value)
    if isinstance(value, float):
        return f"{value:g}"
    if value is None:
        return "none"
    return str(value)


def title_text(plan: SweepPlan, sweep_id: int | None = None) -> str:
    """``sweep 3: 12 configs x 50 runs (seeds 0–49) = 600 runs``."""
    configs = len(plan.cells)
    head = f"sweep {sweep_id}: " if sweep_id is not None else ""
    runs = plan.seeds.count
    return (
        f"{head}{configs} config{'s' if configs != 1 else ''} x {runs} run"
        f"{'s' if runs != 1 else ''} ({plan.seeds.text()}) = {plan.tasks:,} runs"
    )


def _fixed_text(plan: SweepPlan) -> str | None:
    if not plan.fixed:
        return None
    return "every config: " + ", ".join(f"{k}={value_text(v)}" for k, v in plan.fixed.items())


def _fallback_text(plan: SweepPlan) -> str | None:
    """Which cells got the plan's fallback budget, having none of their own."""
    if plan.fallback_max_evals is None:
        return None
    budget = f"{plan.fallback_max_evals:,} evaluations per run (--max-evals to change)."
    given = [
        cell.preset
        for cell in plan.cells
        if cell.preset is not None
        and not has_budget(PRESETS[cell.preset].config(cell.config["n"]))
        and cell.config["max_evals"] == plan.fallback_max_evals
    ]
    names = list(dict.fromkeys(given))
    if names:
        return (
            f"budget: {', '.join(names)} {'has' if len(names) == 1 else 'have'} none of "
            f"{'its' if len(names) == 1 else 'their'} own, so {budget}"
        )
    chosen = "max_evals" in plan.fixed or any(axis.name == "max_evals" for axis in plan.axes)
    if not chosen and any(
        cell.preset is None and cell.config["max_evals"] == plan.fallback_max_evals
        for cell in plan.cells
    ):
        return f"budget: none was given, so {budget}"
    return None


def table_text(plan: SweepPlan, rows: Sequence[Row], sweep_id: int | None = None) -> str:
    """The ranked rows as an aligned plain-text table, with notes below."""
    axes = [axis.name for axis in plan.axes]
    any_cut = any(row.time_cut for row in rows)
    head = ["#", *axes, "solved", "rate", "95% CI", *[x for m in METRICS for x in (m, "")]]
    head += ["left"] + (["cut"] if any_cut else [])
    sub = ["", *[""] * len(axes), "", "", "", *["median", "IQR"] * len(METRICS), "min"]
    sub += [""] if any_cut else []
    lines_rows = []
    for rank, row in enumerate(rows, 1):
        cells = [str(rank), *[value_text(row.cell.values[a]) for a in axes]]
        cells += [
            f"{row.solved}/{len(row.runs)}",
            f"{row.rate:.0%}",
            f"{row.ci_low:.0%}–{row.ci_high:.0%}",
        ]
        for metric in METRICS:
            cells += _cells(row.spreads[metric], metric)
        cells.append("-" if row.conflicts_left is None else f"{row.conflicts_left.low:g}")
        if any_cut:
            cells.append(str(row.time_cut) if row.time_cut else "")
        lines_rows.append(cells)
    first = 1 + len(axes) + 3
    widths = [max(len(r[i]) for r in [sub, *lines_rows]) for i in range(len(head))]
    widths[:first] = [max(w, len(h)) for w, h in zip(widths[:first], head, strict=False)]
    for i in range(first, first + 2 * len(METRICS), 2):
        widths[i + 1] = max(widths[i + 1], len(head[i]) - widths[i] - 2)
    for i in range(first + 2 * len(METRICS), len(head)):
        widths[i] = max(widths[i], len(head[i]))
    left_aligned = set(range(1, 1 + len(axes)))
    measures = set(range(first, first + 2 * len(METRICS)))

    def line(cells: list[str], spans: bool = False) -> str:
        out = []
        for i, cell in enumerate(cells):
            if spans and i in measures and (i - first) % 2 == 0:
                out.append(cell.ljust(widths[i] + 2 + widths[i + 1]))
            elif spans and i in measures:
                continue
            elif i in left_aligned or (i in measures and (i - first) % 2 == 1):
                out.append(cell.ljust(widths[i]))
            else:
                out.append(cell.rjust(widths[i]))
        return "  ".join(out).rstrip()

    lines = [title_text(plan, sweep_id)]
    fixed = _fixed_text(plan)
    if fixed:
        lines.append(fixed)
    lines += ["", line(head, spans=True), line(sub), "  ".join("-" * w for w in widths)]
    lines += [line(cells) for cells in lines_rows]
    done = sum(len(row.runs) for row in rows)
    lines += [
        "",
        "generations, evaluations, seconds: to the first solution, over the solved runs only;",
        "median and IQR = 25th–75th percentile (--json adds min and max); 95% CI: Wilson score;",
        "left: fewest conflicts an unsolved run got down to. Ranked by rate, CI, evaluations.",
    ]
    fallback = _fallback_text(plan)
    if fallback:
        lines.append(fallback)
    if done < plan.tasks:
        lines.append(f"incomplete: {done:,} of {plan.tasks:,} runs have a result.")
    cut = sum(row.time_cut for row in rows)
    if cut:
        lines.append(
            f"cut: {cut} run{'s' if cut != 1 else ''} ended by the wall-clock limit, not a "
            "deterministic budget: how far such a run gets depends on the machine and its load."
        )
    elif any(row.cell.time_limited for row in rows):
        lines.append("a wall-clock limit was set, but it ended no run.")
    return "\n".join(lines)


def rerun_text(rows: Sequence[Row], limit: int = 10) -> str:
    """How to repeat one run of each row (the first unsolved one where there is one)."""
    lines = ["", "re-run one (--csv or --json lists every run):"]
    for rank, row in enumerate(rows[:limit], 1):
        lines.append(f"  #{rank}: {row.rerun}")
    if len(rows) > limit:
        lines.append(f"  ... and {len(rows) - limit} more rows (--json has each row's command)")
    return "\n".join(lines)


def heatmap_text(plan: SweepPlan, rows: Sequence[Row]) -> str:
    """For exactly two varying axes, a table: success rate (median evaluations) per pair; or ""."""
    varying = varying_axes(plan)
    if len(varying) != 2 or len(rows) != len(plan.cells):
        return ""
    across, down = varying[1], varying[0]
    values = {axis.name: axis.values for axis in plan.axes}
    by_pair: dict[tuple[Any, Any], list[Row]] = {}
    for row in rows:
        by_pair.setdefault((row.cell.values[down], row.cell.values[across]), []).append(row)
    table = [[f"{down} \\ {across}", *[value_text(v) for v in values[across]]]]
    for d in values[down]:
        line = [value_text(d)]
        for a in values[across]:
            pair = by_pair.get((d, a), [])
            runs = sum(len(r.runs) for r in pair)
            solved = sum(r.solved for r in pair)
            medians = [m for r in pair if (m := r.median("evaluations")) is not None]
            median = f" ({_number(float(np.median(medians)))})" if medians else " (-)"
            line.append(f"{solved / runs:.0%}{median}" if runs else "-")
        table.append(line)
    widths = [max(len(r[i]) for r in table) for i in range(len(table[0]))]
    text = ["", "success rate (median evaluations to solution):"]
    for number, line in enumerate(table):
        text.append(
            "  ".join(
                c.rjust(w) if i else c.ljust(w)
                for i, (c, w) in enumerate(zip(line, widths, strict=True))
            )
        )
        if number == 0:
            text.append("  ".join("-" * w for w in widths))
    return "\n".join(text)


def run_records(plan: SweepPlan, results: Results) -> list[dict[str, Any]]:
    """Every run with a result, in plan order: its cell's values, seed, result and command."""
    records = []
    for cell in plan.cells:
        for seed in plan.seeds:
            result = results.get((cell.fingerprint, seed))
            if result is None:
                continue
            record: dict[str, Any] = {"values": dict(cell.values), "seed": seed}
            record |= {name: result.get(name) for name in RESULT_FIELDS}
            record["rerun"] = rerun_command(cell, seed)
            records.append(record)
    return records


def json_text(plan: SweepPlan, results: Results, sweep_id: int | None) -> str:
    """The sweep as one JSON document: its id, plan, ranked rows and every run."""
    document = {
        "sweep_id": sweep_id,
        "fingerprint": plan.fingerprint,
        "seeds": {"first": plan.seeds.first, "count": plan.seeds.count},
        "axes": {axis.name: list(axis.values) for axis in plan.axes},
        "fixed": dict(plan.fixed),
        "complete": all(
            (cell.fingerprint, seed) in results for cell in plan.cells for seed in plan.seeds
        ),
        "rows": [row.to_dict() for row in summarize(plan, results)],
        "runs": run_records(plan, results),
        "methods": statistics_methods(),
    }
    return json.dumps(document, indent=2)


def csv_text(plan: SweepPlan, results: Results) -> str:
    """Every run as a CSV row under a header: axis values, seed, result, re-run command, and its
    row's statistics (:data:`ROW_STATISTICS_COLUMNS`, the same on each run of a row)."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    axes = [axis.name for axis in plan.axes]
    writer.writerow([*axes, "seed", *RESULT_FIELDS, "rerun", *ROW_STATISTICS_COLUMNS])
    by_cell = {
        row.cell.fingerprint: row_statistics_cells(row.statistics)
        for row in summarize(plan, results)
    }
    for record, fingerprint in zip(
        run_records(plan, results), _run_cells(plan, results), strict=True
    ):
        values = [value_text(record["values"][axis]) for axis in axes]
        outcome = ["" if record[name] is None else record[name] for name in RESULT_FIELDS]
        writer.writerow([*values, record["seed"], *outcome, record["rerun"], *by_cell[fingerprint]])
    return buffer.getvalue()


def _run_cells(plan: SweepPlan, results: Results) -> list[str]:
    """The cell fingerprint of each of :func:`run_records`, in the same order."""
    return [
        cell.fingerprint
        for cell in plan.cells
        for seed in plan.seeds
        if (cell.fingerprint, seed) in results
    ]
