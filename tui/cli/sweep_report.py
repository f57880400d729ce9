"""The printed report of a sweep (``queens sweep``, ``queens compare``, ``queens sweep --show``).

One report for both commands: ``compare`` is a sweep over presets. The figures come from
:mod:`tui.lab.sweep.report`; this module picks what to print: the ranked table, the heat map
for two swept axes, the chart (only when stdout is a terminal) and the re-run commands; or one
JSON document; or one CSV line per run.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from tui.lab.sweep import report
from tui.lab.sweep.plan import SweepPlan

OUTPUTS: Final = ("table", "json", "csv")
"""The report's forms."""


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
    heatmap = report.heatmap_text(plan, rows)
    if heatmap:
        parts.append(heatmap)
    if chart:
        drawn = report.chart_text(plan, rows)
        if drawn:
            parts.append(drawn)
    parts.append(report.rerun_text(rows))
    if sweep_id is not None:
        parts.append(
            f"\nkept as sweep {sweep_id}: `queens sweep --show {sweep_id}` prints it again."
        )
    return "\n".join(parts) + "\n"
