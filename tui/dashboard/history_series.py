"""The run's history as plain lists for the charts, read incrementally and thinned to a width.

No Textual here: the repaint code feeds these lists to the widgets.
"""

from __future__ import annotations

import math
from typing import Final

from engine import History, Snapshot

SERIES: Final = (
    "generation",
    "evaluations",
    "best_fitness",
    "mean_fitness",
    "worst_fitness",
    "best_conflicts",
    "mean_conflicts",
)
"""History columns the charts read."""
SERIES_DIVERSITY: Final = "entropy"
"""The diversity column the chart shows beside fitness."""


def thinned(values: list[float], limit: int) -> list[float]:
    """Every k-th value (and the last) so that at most about ``limit`` remain."""
    if len(values) <= limit:
        return values
    step = math.ceil(len(values) / limit)
    kept = values[::step]
    if (len(values) - 1) % step:
        kept.append(values[-1])
    return kept


class HistorySeries:
    """The run's history as plain lists, read incrementally.

    Only the generations added since the last read are converted, so a long run costs the UI
    the same per frame as a short one. Reads stop at the generation of a published snapshot,
    so a row the engine thread is still appending is never half read.
    """

    def __init__(self) -> None:
        self.columns: dict[str, list[float]] = {name: [] for name in (*SERIES, SERIES_DIVERSITY)}

    def __len__(self) -> int:
        return len(self.columns["generation"])

    def update(self, history: History, snapshot: Snapshot) -> None:
        """Read the rows up to and including ``snapshot``'s generation."""
        start = len(self)
        stop = snapshot.generation + 1
        if stop <= start:
            return
        for name, values in self.columns.items():
            values.extend(history.column(name, start)[: stop - start].tolist())
