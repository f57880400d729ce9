"""The chart's diversity-explained view, as figures and words: what to plot and what to say.

No Textual here; :class:`~tui.dashboard.widgets.FitnessPlot` draws it. Per generation ``g``:

- above, the diversity (column entropy) of generation ``g - 1``, of the parents selection
  picked, of the children as the crossover made them, and of generation ``g``: from one line to
  the next, what selection removed, crossover added, and mutation with the survivor selection
  added or removed; the newest generation's differences are written out;
- below, the shares of children crossover and mutation improved (green) and made worse (red),
  in per cent; the newest generation's improved / equal / worse shares are written out.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Final, NamedTuple

import numpy as np

from engine.arrays import FloatArray
from engine.lineage.variation_effects import STAGES

Piece = tuple[str, str | None]
"""Some text, and the series whose glyph and colour it takes (``None``: plain text)."""

STAGE_LABELS: Final = {
    "previous": "g-1",
    "parents": "picked",
    "crossed": "crossed",
    "current": "g",
}
"""How the legend names each stage's line."""
SHARE_LINES: Final = (
    "crossover worse",
    "mutation worse",
    "crossover improved",
    "mutation improved",
)
"""The share lines, in drawing order (improved on top)."""


class Texts(NamedTuple):
    """The view's words: each a line of pieces.

    Attributes:
        legend: The diversity lines' legend.
        summary: The newest generation's diversity differences.
        shares_legend: The share lines' legend.
        shares: The newest generation's improved / equal / worse shares.
    """

    legend: list[Piece]
    summary: list[Piece]
    shares_legend: list[Piece]
    shares: list[Piece]


def percent(share: float) -> str:
    """A share in whole per cent: ``73%``."""
    return f"{share:.0%}"


def outcome_text(
    operator: str, row: Mapping[str, float], *, label: str | None = None, short: bool = False
) -> str:
    """``crossover ↑1% =0% ↓99%`` (``label``: named so, ``cross ↑1% =0% ↓99%``; short:
    ``c ↑1 =0 ↓99%``), or ``no crossover`` when it made no child."""
    name = label or (operator[0] if short else operator)
    improved = row.get(f"{operator} improved", math.nan)
    if math.isnan(improved):
        return f"no {name}"
    equal, worse = row[f"{operator} equal"], row[f"{operator} worse"]
    if short:
        return f"{name} ↑{improved:.0%} ={equal:.0%} ↓{worse:.0%}".replace("%", "") + "%"
    return f"{name} ↑{percent(improved)} ={percent(equal)} ↓{percent(worse)}"


def fitting(variants: Sequence[list[Piece]], width: int) -> list[Piece]:
    """The first variant whose text fits the width (else the last, the shortest)."""
    for variant in variants:
        if sum(len(text) + (name is not None) for text, name in variant) <= width:
            return variant
    return list(variants[-1])


class ExplainedFigures:
    """The diversity-explained series the chart shows, as arrays, and their words."""

    def __init__(self) -> None:
        self.columns: dict[str, FloatArray] = {}
        self.x: FloatArray = np.empty(0)
        """The generations measured."""
        self.note: Sequence[str] = ()
        """Why the generation shown has no figures (variants, longest first; empty: it has)."""

    @property
    def size(self) -> int:
        """Generations shown."""
        return int(self.x.shape[0])

    def update(
        self, columns: Mapping[str, Sequence[float]], note: Sequence[str] | None = None
    ) -> None:
        """New columns (``generation``, the stages, the shares), already thinned; ``note``: why
        the generation shown (a past one) has no figures, said instead of the newest's."""
        self.columns = {name: np.asarray(values, np.float64) for name, values in columns.items()}
        self.x = self.columns.get("generation", np.empty(0))
        self.note = tuple(note or ())

    def stage_lines(self) -> list[tuple[str, FloatArray]]:
        """The diversity lines, by stage, ``g`` drawn last (on top)."""
        return [(name, self.columns[name]) for name in STAGES if name in self.columns]

    def share_lines(self) -> list[tuple[str, FloatArray]]:
        """The share lines (0 to 1), improved drawn last."""
        return [(name, self.columns[name]) for name in SHARE_LINES if name in self.columns]

    def diversity_range(self) -> tuple[float, float]:
        """The lowest and highest diversity of any stage."""
        lines = [line for _, line in self.stage_lines() if line.size]
        if not lines:
            return 0.0, 1.0
        values = np.concatenate(lines)
        return float(np.nanmin(values)), float(np.nanmax(values))

    def latest(self) -> dict[str, float]:
        """The newest generation's figures (empty before the first)."""
        if self.size == 0:
            return {}
        return {name: float(values[-1]) for name, values in self.columns.items()}

    def texts(self, width: int) -> Texts:
        """The legends, and the newest generation's figures in words, as long as fits."""
        legend = fitting(
            [
                [("diversity ", None), *[(f"{STAGE_LABELS[name]} ", name) for name in STAGES]],
                [("div ", None), *[(f"{STAGE_LABELS[name]} ", name) for name in STAGES]],
            ],
            width,
        )
        shares_legend = fitting(
            [
                [
                    ("improved by ", None),
                    ("crossover ", "crossover improved"),
                    ("mutation ", "mutation improved"),
                    ("worse by ", None),
                    ("crossover ", "crossover worse"),
                    ("mutation", "mutation worse"),
                ],
                [
                    ("↑ ", None),
                    ("crossover ", "crossover improved"),
                    ("mutation ", "mutation improved"),
                    ("↓ ", None),
                    ("crossover ", "crossover worse"),
                    ("mutation", "mutation worse"),
                ],
                [
                    ("↑", None),
                    ("cross ", "crossover improved"),
                    ("mut ", "mutation improved"),
                    ("↓", None),
                    ("cross ", "crossover worse"),
                    ("mut", "mutation worse"),
                ],
            ],
            width,
        )
        if self.note:
            said = fitting([[(variant, None)] for variant in self.note], width)
            return Texts(legend, said, shares_legend, [])
        row = self.latest()
        if not row:
            return Texts(legend, [], shares_legend, [])
        generation = f"gen {row['generation']:,.0f}: "
        selection = row["parents"] - row["previous"]
        crossover = row["crossed"] - row["parents"]
        rest = row["current"] - row["crossed"]
        summary = fitting(
            [
                [
                    (
                        f"{generation}selection {selection:+.3f}  crossover {crossover:+.3f}  "
                        f"mutation+survivors {rest:+.3f}",
                        None,
                    )
                ],
                [(f"sel {selection:+.3f} cross {crossover:+.3f} mut+surv {rest:+.3f}", None)],
                [(f"sel {selection:+.2f} cross {crossover:+.2f} mut {rest:+.2f}", None)],
                [(f"{selection:+.3f} {crossover:+.3f} {rest:+.3f}", None)],
            ],
            width,
        )
        shares = fitting(
            [
                [
                    (
                        f"{generation}{outcome_text('crossover', row)}  "
                        f"{outcome_text('mutation', row)}",
                        None,
                    )
                ],
                [
                    (
                        # Named as the shares' legend and the diversity's figures name them.
                        f"{outcome_text('crossover', row, label='cross')}  "
                        f"{outcome_text('mutation', row, label='mut')}",
                        None,
                    )
                ],
                [
                    (
                        f"{outcome_text('crossover', row, short=True)}  "
                        f"{outcome_text('mutation', row, short=True)}",
                        None,
                    )
                ],
            ],
            width,
        )
        return Texts(legend, summary, shares_legend, shares)
