"""The report of ``queens compare``: a table, a terminal chart, JSON and CSV.

Medians and spreads are over the solved runs only: an unsolved run has no "generations to
solution". The spread is the interquartile range (25th to 75th percentile); JSON adds min and
max. Unsolved runs are listed under the table with their seeds, so they can be re-run alone.
"""

from __future__ import annotations

import csv
import io
import json
import math
import shutil
import textwrap
from collections.abc import Sequence
from dataclasses import dataclass, fields
from typing import Any, Final

import numpy as np

from tui.compare import DEFAULT_TIME_LIMIT, Comparison, Entrant, RunResult, rerun_command

METRICS: Final = ("generations", "evaluations", "seconds")
"""The per-run measures summarized, each to the first solution."""

UNSOLVED_LISTED: Final = 6
"""Unsolved seeds named per preset under the table; the rest are counted."""

NOTE_WIDTH: Final = 100
"""Notes under the table wrap at this width."""

CHART_WIDTH: Final = 100
"""Columns of the terminal chart at most."""


@dataclass(frozen=True)
class Spread:
    """A measure over the solved runs of one preset."""

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


@dataclass(frozen=True)
class Summary:
    """One preset's row of the table.

    Attributes:
        entrant: The preset as compared.
        runs: Its runs, by seed.
        solved: How many runs found a solution.
        spreads: Generations, evaluations and seconds to solution over the solved runs.
    """

    entrant: Entrant
    runs: tuple[RunResult, ...]
    solved: int
    spreads: dict[str, Spread | None]

    @property
    def rate(self) -> float:
        """The share of runs solved."""
        return self.solved / len(self.runs) if self.runs else 0.0

    def to_dict(self) -> dict[str, Any]:
        """The summary as plain values, for JSON."""
        document: dict[str, Any] = {
            "runs": len(self.runs),
            "solved": self.solved,
            "success_rate": self.rate,
        }
        for metric, spread in self.spreads.items():
            document[metric] = None if spread is None else spread.to_dict()
        return document


def summarize(comparison: Comparison, results: Sequence[RunResult]) -> list[Summary]:
    """One summary per preset, in the order given."""
    summaries = []
    for entrant in comparison.entrants:
        runs = tuple(r for r in results if r.preset == entrant.name)
        solved = [r for r in runs if r.solved]
        spreads = {m: Spread.of([float(getattr(r, m)) for r in solved]) for m in METRICS}
        summaries.append(Summary(entrant, runs, len(solved), spreads))
    return summaries


def _count(value: float) -> str:
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
        # The same decimals for the three, from the largest: 0.051 in 0.001–0.140.
        d = _decimals(spread.q3)
        return f"{spread.median:,.{d}f}", f"{spread.q1:,.{d}f}–{spread.q3:,.{d}f}"
    return _count(spread.median), f"{spread.q1:,.0f}–{spread.q3:,.0f}"


def _size_text(comparison: Comparison) -> str:
    if comparison.n is not None:
        return f"N = {comparison.n}"
    sizes = {e.n for e in comparison.entrants}
    return f"N = {sizes.pop()}" if len(sizes) == 1 else "N = each preset's own"


def _budget_text(comparison: Comparison) -> str:
    if comparison.time_limit is not None:
        return f"budget: each preset's own, and at most {comparison.time_limit:g} s per run"
    defaulted = [e.name for e in comparison.entrants if e.defaulted]
    if not defaulted:
        return "budget: each preset's own"
    return (
        f"budget: each preset's own; {', '.join(defaulted)} "
        f"{'has' if len(defaulted) == 1 else 'have'} none, so {DEFAULT_TIME_LIMIT:g} s per run "
        "(--time-limit to change)"
    )


def _unsolved_text(summary: Summary) -> str | None:
    missed = [r for r in summary.runs if not r.solved]
    if not missed:
        return None
    named = [
        f"seed {r.seed} ({r.stop_reason}, {r.conflicts} conflict{'s' if r.conflicts != 1 else ''})"
        for r in missed
    ]
    more = len(named) - UNSOLVED_LISTED
    listed = ", ".join(named[:UNSOLVED_LISTED]) + (f", and {more} more" if more > 0 else "")
    text = f"{summary.entrant.name}: {len(missed)} unsolved: {listed}"
    return textwrap.fill(text, width=NOTE_WIDTH, subsequent_indent="  ", break_on_hyphens=False)


def table_text(comparison: Comparison, results: Sequence[RunResult]) -> str:
    """The comparison as an aligned plain-text table, with its notes below."""
    summaries = summarize(comparison, results)
    seeds = comparison.seeds
    seed_range = "seed 0" if seeds == 1 else f"seeds 0–{seeds - 1}"
    title = (
        f"{len(summaries)} preset{'s' if len(summaries) != 1 else ''} x {seeds} run"
        f"{'s' if seeds != 1 else ''} ({seed_range}), {_size_text(comparison)}"
    )
    head = ["preset", "N", "solved", *[x for m in METRICS for x in (m, "")]]
    sub = ["", "", "", *["median", "IQR"] * len(METRICS)]
    count_width = max(len(f"{s.solved}/{len(s.runs)}") for s in summaries)
    rows = []
    for s in summaries:
        solved = f"{f'{s.solved}/{len(s.runs)}':>{count_width}} {s.rate:>4.0%}"
        row = [s.entrant.name, str(s.entrant.n), solved]
        for metric in METRICS:
            row += _cells(s.spreads[metric], metric)
        rows.append(row)
    first = 3  # columns before the measures
    widths = [max(len(r[i]) for r in [sub, *rows]) for i in range(len(head))]
    widths[:first] = [max(w, len(h)) for w, h in zip(widths[:first], head, strict=False)]
    # A measure's name spans its median and IQR columns: widen the IQR column if it needs.
    for i in range(first, len(head), 2):
        widths[i + 1] = max(widths[i + 1], len(head[i]) - widths[i] - 2)
    right = {1, 2, *range(first, len(head), 2)}

    def line(cells: list[str], spans: bool = False) -> str:
        out = []
        for i, cell in enumerate(cells):
            if spans and i >= first and (i - first) % 2 == 0:
                out.append(cell.ljust(widths[i] + 2 + widths[i + 1]))
            elif spans and i >= first:
                continue
            else:
                out.append(cell.rjust(widths[i]) if i in right else cell.ljust(widths[i]))
        return "  ".join(out).rstrip()

    lines = [title, "", line(head, spans=True), line(sub)]
    lines.append("  ".join("-" * w for w in widths))
    lines += [line(row) for row in rows]
    lines += [
        "",
        "generations, evaluations, seconds: to the first solution, over the solved runs only;",
        "median, and IQR = 25th–75th percentile (--json adds min and max).",
        _budget_text(comparison) + ".",
    ]
    cut = sum(r.stop_reason == "time-limit" for r in results)
    if cut:
        lines.append(
            f"{cut} run{'s' if cut != 1 else ''} hit the time limit: "
            "how far a run gets in time depends on the machine and its load."
        )
    missed = [text for s in summaries if (text := _unsolved_text(s))]
    if missed:
        lines += ["", *missed]
    return "\n".join(lines)


def chart_text(comparison: Comparison, results: Sequence[RunResult]) -> str:
    """A terminal bar chart of median evaluations to solution (log scale), or ""."""
    import plotext as plt  # type: ignore[import-untyped]

    solved = [s for s in summarize(comparison, results) if s.spreads["evaluations"]]
    if not solved:
        return ""
    # First preset on top: plotext draws the first bar at the bottom.
    names = [s.entrant.name for s in reversed(solved)]
    medians = [s.spreads["evaluations"].median for s in reversed(solved)]  # type: ignore[union-attr]
    logs = [math.log10(max(value, 1.0)) for value in medians]
    top = max(1, math.ceil(max(logs)))
    plt.clear_figure()
    plt.theme("clear")
    plt.bar(names, logs, orientation="horizontal", width=0.3)
    plt.xlim(0, top)
    plt.xticks(list(range(top + 1)), [f"{10**k:,}" for k in range(top + 1)])
    plt.title("median evaluations to solution, solved runs (log scale)")
    plt.plotsize(min(shutil.get_terminal_size().columns, CHART_WIDTH), 3 * len(names) + 3)
    text: str = plt.build()
    plt.clear_figure()
    return "\n" + text.rstrip()


def rerun_text(comparison: Comparison) -> str:
    """How to re-run one cell of the table alone."""
    last = comparison.seeds - 1
    seeds = "S = 0" if last == 0 else f"S = 0..{last}"
    lines = ["", f"re-run one ({seeds}; --csv or --json lists every run's command):"]
    for e in comparison.entrants:
        lines.append("  " + rerun_command(e.name, e.n, "S", e.time_limit))
    return "\n".join(lines)


def json_text(comparison: Comparison, results: Sequence[RunResult]) -> str:
    """The comparison as one JSON document: settings, then per preset its summary and runs."""
    document = {
        "n": comparison.n,
        "seeds": comparison.seeds,
        "time_limit": comparison.time_limit,
        "default_time_limit": DEFAULT_TIME_LIMIT,
        "presets": [
            {
                "name": s.entrant.name,
                "n": s.entrant.n,
                "time_limit": s.entrant.time_limit,
                "time_limit_defaulted": s.entrant.defaulted,
                "summary": s.to_dict(),
                "runs": [r.to_dict() for r in s.runs],
            }
            for s in summarize(comparison, results)
        ],
    }
    return json.dumps(document, indent=2)


def csv_text(results: Sequence[RunResult]) -> str:
    """Every run as a CSV row under a header, seed and re-run command included."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    names = [f.name for f in fields(RunResult)]
    writer.writerow(names)
    for result in results:
        values = result.to_dict()
        writer.writerow(["" if values[name] is None else values[name] for name in names])
    return buffer.getvalue()
