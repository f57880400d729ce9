"""A lesson's figure (``queens lesson NAME --plot FILE``): each row's measured value beside its
theory, one line per arm.

Rows are drawn in the order the lesson lists them (generations for drift, selections for
takeover, arms for the headless chicken); a row without a theory has only its measurement, a
row without a measurement only its theory. The landscape,
which measures a board rather than a run, draws the share of starts from which descent reaches
a solution and the fitness-distance correlations, by N.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from tui.lab.figures.saving import save_figure
from tui.lab.figures.style import pyplot, series_style

LANDSCAPE_SERIES = (
    ("descent_solved", "starts whose descent solves (share)"),
    ("fdc_hamming", "FDC, Hamming distance"),
    ("fdc_swap", "FDC, swap distance"),
)
"""What the landscape's figure draws, by N."""


Y_LABELS = {
    "takeover": "generations until the best fills the population",
    "drift": "diversity H (Gini-Simpson, mean over columns)",
    "founders": "generations until one founder is left",
    "headless-chicken": "share of runs solved",
    "hill-climbing": "share of starts solved",
}
"""What a lesson's rows measure, for the figure's vertical axis."""


def _number(value: object) -> float | None:
    """A row's value as a float, or ``None`` where it has none."""
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else None


def draw_lesson_figure(path: Path, document: Mapping[str, Any], title: str) -> None:
    """Draw and save a lesson's figure at ``path`` (format from its suffix).

    Args:
        path: Where to write it.
        document: The lesson's document, as ``--json`` prints it (``lesson`` and ``rows``).
        title: The figure's title.

    Raises:
        ValueError: If its rows have nothing to draw.
        OSError: If the file cannot be written (nothing is left behind).
    """
    rows: Sequence[Mapping[str, Any]] = document["rows"]
    plt = pyplot()
    figure, axes = plt.subplots(figsize=(6.4, 4.2), layout="constrained")
    if document["lesson"] == "landscape":
        drawn = _landscape(axes, rows)
    else:
        drawn = _measured_and_theory(axes, rows)
        axes.set_ylabel(Y_LABELS.get(document["lesson"], "measured, and its theory"))
    if not drawn:
        plt.close(figure)
        raise ValueError(f"the {document['lesson']} lesson has no numbers to draw")
    axes.legend()
    figure.suptitle(title, fontsize=10)
    save_figure(figure, path)


def _measured_and_theory(axes: Any, rows: Sequence[Mapping[str, Any]]) -> bool:
    """Each arm's measured values (filled markers) and theory (open markers, dashed): against
    the generation where the rows are a run's course (drift), else one point per row."""
    in_time = all(_number(row.get("generation")) is not None for row in rows)
    arms: dict[str, list[tuple[int, Mapping[str, Any]]]] = {}
    for index, row in enumerate(rows):
        arms.setdefault(str(row.get("arm", "")), []).append((index, row))
    drawn = False
    for number, (arm, members) in enumerate(arms.items()):
        style = series_style(number)
        name = f"{arm}: " if arm else ""
        for key, dashes in (("measured", "-"), ("theory", "--")):
            points = [
                (row["generation"] if in_time else index, _number(row.get(key)))
                for index, row in members
            ]
            kept = [(x, value) for x, value in points if value is not None]
            if not kept:
                continue
            xs, ys = zip(*kept, strict=True)
            axes.plot(
                xs,
                ys,
                color=style["color"],
                marker=style["marker"],
                linestyle=dashes if in_time else "none",
                markersize=7 if key == "measured" else 9,
                markerfacecolor=style["color"] if key == "measured" else "none",
                label=f"{name}{key}",
            )
            drawn = True
    if in_time:
        axes.set_xlabel("generation t")
    else:
        axes.set_xticks(range(len(rows)), [str(row.get("label", "")) for row in rows])
        axes.tick_params(axis="x", labelrotation=30 if len(rows) > 5 else 0)
    return drawn


def _landscape(axes: Any, rows: Sequence[Mapping[str, Any]]) -> bool:
    """The landscape's shares and correlations against N."""
    drawn = False
    for index, (key, label) in enumerate(LANDSCAPE_SERIES):
        kept = [(row["n"], _number(row.get(key))) for row in rows]
        points = [(n, value) for n, value in kept if value is not None]
        if not points:
            continue
        xs, ys = zip(*points, strict=True)
        axes.plot(xs, ys, label=label, **series_style(index))
        drawn = True
    axes.set_xlabel("N (queens)")
    axes.set_ylabel("share, or correlation")
    return drawn
