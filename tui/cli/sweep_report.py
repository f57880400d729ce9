"""The printed report of a sweep (``queens sweep``, ``queens compare``, ``queens sweep --show``).

One report for both commands: ``compare`` is a sweep over presets. The figures and tables come
from :mod:`tui.lab.sweep.report`; this module picks what to print (the ranked table, the heat
map for two swept axes, the chart only when stdout is a terminal, and the re-run commands; or
one JSON document; or one CSV line per run) and draws the chart, with plotext: the lab draws
nothing.
"""

from __future__ import annotations

import math
import shutil
from collections.abc import Mapping, Sequence
from typing import Any, Final

from tui.lab.statistics.run_lengths import censored_sample
from tui.lab.sweep import report
from tui.lab.sweep.plan import SweepPlan
from tui.lab.sweep.report import Row, value_text, varying_axes
from tui.lab.sweep.row_statistics import statistics_text
from tui.lab.sweep.run_length_text import run_length_text

OUTPUTS: Final = ("table", "json", "csv")
"""The report's forms."""

CHART_WIDTH: Final = 100
"""Columns of the terminal chart at most."""


def report_text(
    plan: SweepPlan,
    results: Mapping[tuple[str, int], Mapping[str, Any]],
    sweep_id: int | None,
    output: str = "table",
    chart: bool = False,
) -> str:
    """The report as text, ending with a newline.

    Args:
        plan: The sweep.
        results: Its results by (config fingerprint, seed).
        sweep_id: Its id in the run store, or ``None`` when it is not kept.
        output: ``table``, ``json`` or ``csv``.
        chart: Add the terminal chart (for a terminal only: it has colours).
    """
    if output == "json":
        return report.json_text(plan, results, sweep_id) + "\n"
    if output == "csv":
        return report.csv_text(plan, results)
    rows = report.summarize(plan, results)
    parts = [report.table_text(plan, rows, sweep_id)]
    statistics = [row.statistics for row in rows if row.statistics is not None]
    names = [report.row_name(plan, row) for row in rows]
    if rows and len(statistics) == len(rows):
        parts.append(statistics_text(names, statistics))
    samples = [
        {m: censored_sample([r for _, r in row.runs], m) for m in report.METRICS} for row in rows
    ]
    places = [f"#{place} {name}" for place, name in enumerate(names, 1)]
    distributions = run_length_text(places, samples)
    if distributions:
        parts.append(distributions)
    heatmap = report.heatmap_text(plan, rows)
    if heatmap:
        parts.append(heatmap)
    if chart:
        drawn = chart_text(plan, rows)
        if drawn:
            parts.append(drawn)
    parts.append(report.rerun_text(rows))
    if sweep_id is not None:
        parts.append(
            f"\nkept as sweep {sweep_id}: `queens sweep --show {sweep_id}` prints it again."
        )
    return "\n".join(parts) + "\n"


def chart_text(plan: SweepPlan, rows: Sequence[Row]) -> str:
    """A terminal chart (plotext), or "" when there is nothing to draw.

    One varying numeric axis: success rate against it (or median evaluations, log scale,
    when every config solved every run). Otherwise: a bar per config of median evaluations to
    solution (log scale), in ranked order.
    """
    import plotext as plt  # type: ignore[import-untyped]

    varying = varying_axes(plan)
    width = min(shutil.get_terminal_size().columns, CHART_WIDTH)
    plt.clear_figure()
    plt.theme("clear")
    if len(varying) == 1 and len(rows) == len(plan.cells) and len(rows) > 1:
        axis = varying[0]
        ordered = sorted(rows, key=lambda row: plan.cells.index(row.cell))
        labels = [value_text(row.cell.values[axis]) for row in ordered]
        if all(row.rate == 1.0 for row in ordered):
            medians = [row.median("evaluations") or 1.0 for row in ordered]
            logs = [math.log10(max(value, 1.0)) for value in medians]
            top = max(1, math.ceil(max(logs)))
            plt.bar(labels, logs, width=0.4)
            plt.ylim(0, top)
            plt.yticks(list(range(top + 1)), [f"{10**k:,}" for k in range(top + 1)])
            plt.title(f"median evaluations to solution against {axis} (log scale)")
        else:
            plt.bar(labels, [100 * row.rate for row in ordered], width=0.4)
            plt.ylim(0, 100)
            plt.title(f"success rate (%) against {axis}")
        plt.xlabel(axis)
        plt.plotsize(width, 16)
    else:
        solved = [row for row in rows if row.median("evaluations") is not None]
        if not solved:
            return ""
        names = [
            ", ".join(value_text(row.cell.values[a]) for a in varying) or "all"
            for row in reversed(solved)
        ]
        logs = [math.log10(max(row.median("evaluations") or 1.0, 1.0)) for row in reversed(solved)]
        top = max(1, math.ceil(max(logs)))
        plt.bar(names, logs, orientation="horizontal", width=0.3)
        plt.xlim(0, top)
        plt.xticks(list(range(top + 1)), [f"{10**k:,}" for k in range(top + 1)])
        plt.title("median evaluations to solution, solved runs (log scale)")
        plt.plotsize(width, 3 * len(names) + 3)
    text: str = plt.build()
    plt.clear_figure()
    return "\n" + text.rstrip()
