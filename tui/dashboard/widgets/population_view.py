"""The whole population on the board panel: its placement map or its conflict histogram.

The numbers come from :mod:`tui.dashboard.pictures.population_pictures`; this widget only turns them
into lines in the board's colours and shades. It is given a snapshot at the painter's rate and
computes the map once per snapshot, however often it is drawn.
"""

from __future__ import annotations

from typing import ClassVar, Final

import numpy as np
import numpy.typing as npt
from rich.style import Style
from rich.text import Text
from textual.widget import Widget

from engine import Snapshot
from tui.dashboard.pictures.board_pictures import SHADES
from tui.dashboard.pictures.population_pictures import (
    ASCII_SHARE_LEGEND,
    SHARE_LEGEND,
    block_shares,
    conflict_histogram,
    map_scale,
    placement_shares,
    share_levels,
)
from tui.dashboard.terminal import draws_ascii

VIEWS: Final = ("board", "placement", "conflicts")
"""What the board panel shows, in the order ``v`` steps through them."""
VIEW_TITLES: Final = {"placement": "Placement", "conflicts": "Conflicts"}
"""The panel's title in each population view."""


class PopulationView(Widget):
    """The placement map or the conflict histogram of one snapshot's population."""

    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "population-view--light",
        "population-view--dark",
        "population-view--field",
        "population-view--queen",
    }

    DEFAULT_CSS = """
    PopulationView > .population-view--light { background: #6c6c6c; }
    PopulationView > .population-view--dark { background: #303030; }
    PopulationView > .population-view--field { background: #262626; }
    PopulationView > .population-view--queen { color: #ffd75f; }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.view = "placement"
        """``placement`` or ``conflicts``."""
        self.snapshot: Snapshot | None = None
        """The generation shown."""
        self._shares: npt.NDArray[np.float64] | None = None

    def show(self, snapshot: Snapshot, view: str) -> None:
        """Show a view of a snapshot's population (the same again costs nothing).

        Args:
            snapshot: The generation.
            view: ``placement`` or ``conflicts``.
        """
        if snapshot is self.snapshot and view == self.view:
            return
        if snapshot is not self.snapshot:
            self._shares = None
        self.snapshot, self.view = snapshot, view
        title = f"{VIEW_TITLES[view]} · gen {snapshot.generation:,}"
        if self.border_title != title:
            self.border_title = title
        self._set_subtitle(self._caption())
        self.refresh()

    def on_resize(self) -> None:
        """The placement map's scale, and so its caption, follows the size."""
        self._set_subtitle(self._caption())

    def _caption(self) -> str:
        """What the border says under the view: the map's scale and shades, or how many
        individuals the histogram counts.

        Set when the view, the snapshot or the size changes, never while drawing: a border
        changed in :meth:`render` is drawn at the next repaint only, and a paused run has
        none (the placement map went without its legend, the histogram kept the map's).
        """
        snapshot = self.snapshot
        if snapshot is None:
            return ""
        if self.view == "conflicts":
            return f"conflicts of {snapshot.conflicts.shape[0]:,}"
        width, height = self.size
        if width < 1 or height < 1:  # not laid out yet: the resize that follows says it
            return str(self.border_subtitle or "")
        legend = ASCII_SHARE_LEGEND if draws_ascii(self) else SHARE_LEGEND
        scale = map_scale(snapshot.n, width, height)
        return f"share: {legend}" if scale == 0 else f"1 char = {scale}x{2 * scale} sq · {legend}"

    def shares(self) -> npt.NDArray[np.float64]:
        """The placement map of the snapshot shown, computed once."""
        snapshot = self.snapshot
        assert snapshot is not None
        if self._shares is None:
            self._shares = placement_shares(snapshot.population, snapshot.n, snapshot.encoding)
        return self._shares

    def render(self) -> Text:
        """The view at the widget's size."""
        if self.snapshot is None:
            return Text()
        width, height = self.size.width, self.size.height
        if self.view == "conflicts":
            return self._histogram(width, height)
        return self._placement(width, height)

    def _placement(self, width: int, height: int) -> Text:
        shares = self.shares()
        scale = map_scale(shares.shape[0], width, height)
        queen = self.get_component_rich_style("population-view--queen", partial=True)
        text = Text(no_wrap=True, overflow="crop")
        if scale == 0:
            light = self.get_component_rich_style("population-view--light") + queen
            dark = self.get_component_rich_style("population-view--dark") + queen
            levels = share_levels(shares).tolist()
        else:
            field = self.get_component_rich_style("population-view--field") + queen
            light = dark = field
            levels = share_levels(block_shares(shares, scale)).tolist()
        cell = 2 if scale == 0 else 1
        for row, line in enumerate(levels):
            if row:
                text.append("\n")
            for column, level in enumerate(line):
                style: Style = light if (row + column) % 2 == 0 else dark
                text.append(SHADES[level] * cell, style)
        return text

    def _histogram(self, width: int, height: int) -> Text:
        snapshot = self.snapshot
        assert snapshot is not None
        histogram = conflict_histogram(snapshot.conflicts, max(1, height))
        labels = [
            str(low) if low == high else f"{low}-{high}"
            for low, high in zip(histogram.lows.tolist(), histogram.highs.tolist(), strict=True)
        ]
        label_width = max((len(label) for label in labels), default=1)
        # Label, a space, the bar, a space and up to "100%".
        room = max(1, width - label_width - 6)
        fullest = max(1, int(histogram.counts.max(initial=0)))
        queen = self.get_component_rich_style("population-view--queen", partial=True)
        text = Text(no_wrap=True, overflow="crop")
        for line, (label, count) in enumerate(zip(labels, histogram.counts.tolist(), strict=True)):
            if line:
                text.append("\n")
            length = round(room * count / fullest)
            if count and not length:
                length = 1  # any individual shows
            share = 100 * count / max(1, histogram.size)
            text.append(f"{label:>{label_width}} ")
            text.append("█" * length, queen)
            text.append(" <1%" if 0 < share < 1 else f" {share:.0f}%")
        return text

    def _set_subtitle(self, subtitle: str) -> None:
        if self.border_subtitle != subtitle:
            self.border_subtitle = subtitle
