"""The statistics of a sweep's rows: bootstrap intervals of the medians, and each row against
the best one (Mann-Whitney U on censored runs, Holm, A12), as values and as text.

Computed with :mod:`tui.lab.statistics` (numpy only), so every report has them. The rows come
ranked (:func:`tui.lab.sweep.report.summarize`); the first is the best.
"""

from __future__ import annotations

import textwrap
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from tui.lab.statistics.against_best import ALPHA, TEST_NAME, AgainstBest, against_best
from tui.lab.statistics.bootstrap import (
    BOOTSTRAP_RESAMPLES,
    BOOTSTRAP_SEED,
    Interval,
    bootstrap_median_interval,
)
from tui.lab.statistics.run_lengths import censored_sample

TEXT_WIDTH: Final = 80
"""Columns the sentences are wrapped at."""

INTERVAL_METRICS: Final = ("evaluations", "generations")
"""The measures whose median gets a bootstrap interval."""

BOOTSTRAP_TEXT: Final = (
    f"percentile bootstrap of the median over the solved runs, {BOOTSTRAP_RESAMPLES:,} "
    f"resamples, seed {BOOTSTRAP_SEED}"
)
"""How the medians' intervals are made, as the report names it."""


@dataclass(frozen=True)
class RowStatistics:
    """One row's statistics.

    Attributes:
        intervals: The 95% bootstrap interval of the median of each of
            :data:`INTERVAL_METRICS` over the solved runs (``None`` when none solved).
        versus_best: The row against the best (``None`` for the best row itself).
    """

    intervals: Mapping[str, Interval | None]
    versus_best: AgainstBest | None

    @property
    def rank(self) -> int:
        """1 for the best and the rows that cannot be told apart from it; else the place."""
        return 1 if self.versus_best is None else self.versus_best.rank

    def to_dict(self) -> dict[str, Any]:
        """Plain values, for JSON."""
        document: dict[str, Any] = {"rank": self.rank}
        for metric, interval in self.intervals.items():
            document[f"median_{metric}_ci"] = (
                None if interval is None else [round(interval.low, 6), round(interval.high, 6)]
            )
        document["versus_best"] = None if self.versus_best is None else self.versus_best.to_dict()
        return document


def row_statistics(runs_per_row: Sequence[Sequence[Mapping[str, Any]]]) -> list[RowStatistics]:
    """The statistics of each row, given each row's results, ranked best first."""
    samples = [censored_sample(runs, "evaluations") for runs in runs_per_row]
    compared = against_best(samples)
    made = []
    for runs, versus in zip(runs_per_row, compared, strict=True):
        intervals = {
            metric: bootstrap_median_interval([float(run[metric]) for run in runs if run["solved"]])
            for metric in INTERVAL_METRICS
        }
        made.append(RowStatistics(intervals, versus))
    return made


ROW_STATISTICS_COLUMNS: Final = (
    "row_rank",
    "median_evaluations_ci_low",
    "median_evaluations_ci_high",
    "median_generations_ci_low",
    "median_generations_ci_high",
    "p_mann_whitney",
    "p_holm",
    "a12",
    "a12_size",
)
"""The row statistics each CSV line carries (empty where they do not apply)."""


def row_statistics_cells(stats: RowStatistics | None) -> list[str]:
    """A row's :data:`ROW_STATISTICS_COLUMNS` as CSV cells."""
    if stats is None:
        return [""] * len(ROW_STATISTICS_COLUMNS)
    cells = [str(stats.rank)]
    for metric in ("evaluations", "generations"):
        interval = stats.intervals[metric]
        cells += ["", ""] if interval is None else [f"{interval.low:g}", f"{interval.high:g}"]
    versus = stats.versus_best
    if versus is None:
        return [*cells, "", "", "", ""]
    return [*cells, f"{versus.p:.6g}", f"{versus.p_holm:.6g}", f"{versus.a12:.6g}", versus.size]


def statistics_methods() -> dict[str, Any]:
    """The methods behind the rows' statistics, for JSON."""
    return {
        "success_rate_ci": "Wilson score, 95%",
        "median_ci": BOOTSTRAP_TEXT,
        "bootstrap_resamples": BOOTSTRAP_RESAMPLES,
        "bootstrap_seed": BOOTSTRAP_SEED,
        "versus_best": TEST_NAME,
        "alpha": ALPHA,
    }


def p_text(p: float) -> str:
    """A p-value for people: two significant digits, or ``< 0.001``."""
    return "< 0.001" if p < 0.001 else f"= {p:.2g}"


def _interval_text(interval: Interval | None) -> str:
    if interval is None:
        return "-"
    return f"{interval.low:,.0f}–{interval.high:,.0f}"


def statistics_table(names: Sequence[str], statistics: Sequence[RowStatistics]) -> str:
    """The rows' statistics as an aligned table, ranked as given."""
    head = ["#", "row", "rank", "median evals CI", "median gens CI"]
    head += ["p (Holm)", "A12", "effect"]
    lines = [head]
    for place, (name, stats) in enumerate(zip(names, statistics, strict=True), 1):
        versus = stats.versus_best
        cells = [str(place), name, str(stats.rank)]
        cells += [_interval_text(stats.intervals[metric]) for metric in INTERVAL_METRICS]
        if versus is None:
            cells += ["-", "-", "best"]
        else:
            cells += [p_text(versus.p_holm).lstrip("= "), f"{versus.a12:.2f}", versus.size]
        lines.append(cells)
    widths = [max(len(line[i]) for line in lines) for i in range(len(head))]
    text = []
    for number, cells in enumerate(lines):
        text.append(
            "  ".join(
                cell.ljust(widths[i]) if i == 1 or i == len(head) - 1 else cell.rjust(widths[i])
                for i, cell in enumerate(cells)
            ).rstrip()
        )
        if number == 0:
            text.append("  ".join("-" * width for width in widths))
    return "\n".join(text)


def verdict_lines(names: Sequence[str], statistics: Sequence[RowStatistics]) -> list[str]:
    """Each row against the best, in words."""
    if len(names) < 2:
        return ["one row: nothing to compare it with."]
    best = names[0]
    lines = []
    for name, stats in zip(names[1:], statistics[1:], strict=True):
        versus = stats.versus_best
        if versus is None:
            continue
        figures = (
            f"(Holm-corrected Mann-Whitney p {p_text(versus.p_holm)}, "
            f"A12 = {versus.a12:.2f}, {versus.size})"
        )
        if versus.tied_with_best:
            lines.append(
                f"{best} and {name} cannot be told apart at the {ALPHA:.0%} level {figures}."
            )
        elif versus.a12 > 0.5:
            lines.append(f"{best} needs fewer evaluations than {name} {figures}.")
        else:
            lines.append(
                f"{name} needs fewer evaluations than {best}, though ranked below it on success "
                f"rate {figures}."
            )
    return lines


def wrapped(text: str) -> str:
    """``text`` wrapped at :data:`TEXT_WIDTH`, never inside a hyphenated name."""
    return textwrap.fill(text, TEXT_WIDTH, break_on_hyphens=False)


def statistics_text(names: Sequence[str], statistics: Sequence[RowStatistics]) -> str:
    """The statistics section of the printed report: table, verdicts, and the methods."""
    lines = ["", "statistics, each row against the best (#1):"]
    lines += [statistics_table(names, statistics), ""]
    lines += [wrapped(line) for line in verdict_lines(names, statistics)]
    notes = [
        f"median evals CI, median gens CI: 95% intervals, {BOOTSTRAP_TEXT}.",
        f"p and A12: {TEST_NAME}.",
        f"A12 = P(a run of the row needs more evaluations than one of #1); rank 1: cannot be "
        f"told apart from #1 at the {ALPHA:.0%} level (docs/statistics.md).",
    ]
    lines += [""] + [wrapped(note) for note in notes]
    return "\n".join(lines)
