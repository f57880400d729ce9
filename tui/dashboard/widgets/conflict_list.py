"""The inspected individual's origin (parents, operator, where its queens came from) and its
attacking pairs, listed for reading."""

from __future__ import annotations

from typing import Final

import numpy as np
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.widgets import Static

from tui.dashboard.board_pictures import Position
from tui.dashboard.origin import ORIGIN_COLOURS, ORIGIN_NAMES, Origin

PAIR_LIMIT: Final = 200
"""Pairs listed at most; a random board of large N has far more, and the count says so."""


def attacking_pairs(position: Position, limit: int = PAIR_LIMIT) -> list[tuple[str, int, int]]:
    """Pairs of queens (by gene index) that share a line, with the kind of line.

    Args:
        position: The individual.
        limit: Stop after this many pairs.

    Returns:
        ``(line, first, second)`` triples, rows first, then columns, diagonals, anti-diagonals.
    """
    rows, columns = position.rows, position.columns
    lines = (
        ("row", rows),
        ("column", columns),
        ("diagonal", rows - columns),
        ("anti-diagonal", rows + columns),
    )
    pairs: list[tuple[str, int, int]] = []
    for name, key in lines:
        order = np.argsort(key, kind="stable")
        ordered = key[order]
        starts = np.flatnonzero(np.r_[True, ordered[1:] != ordered[:-1]])
        ends = np.r_[starts[1:], ordered.size]
        for start, end in zip(starts.tolist(), ends.tolist(), strict=True):
            group = order[start:end].tolist()
            for i, first in enumerate(group):
                for second in group[i + 1 :]:
                    pairs.append((name, first, second))
                    if len(pairs) >= limit:
                        return pairs
    return pairs


class ConflictList(VerticalScroll):
    """A scrollable list of the attacking pairs of one individual."""

    DEFAULT_CSS = """
    ConflictList {
        height: 1fr;
    }
    """

    def compose(self) -> ComposeResult:
        """One static holds the text."""
        yield Static(id="conflict-text")

    def show(
        self,
        position: Position,
        *,
        title: str,
        conflicts: int,
        origin: Origin | str | None = None,
    ) -> None:
        """Say where ``position`` came from and list its pairs.

        Args:
            position: The individual.
            title: What it is (``#12 of gen 40``).
            conflicts: Its attacking pairs as the engine counted them.
            origin: Where it came from, or why that is not known here, or ``None``.
        """
        text = origin_text(origin)
        text.append(f"{title}: ", style="bold")
        if conflicts == 0:
            text.append("no conflicts, a solution", style="bold green")
        else:
            text.append(f"{conflicts} attacking pair{'s' if conflicts != 1 else ''}\n")
            text.append("row,col × row,col  line\n", style="dim")
            for line, first, second in attacking_pairs(position):
                a = f"{position.rows[first]},{position.columns[first]}"
                b = f"{position.rows[second]},{position.columns[second]}"
                text.append(f"{a} × {b}  ")
                text.append(f"{line}\n", style="dim")
            if conflicts > PAIR_LIMIT:
                text.append(f"… and {conflicts - PAIR_LIMIT} more", style="dim")
        self.query_one("#conflict-text", Static).update(text)  # user-paced: a query is fine


def origin_text(origin: Origin | str | None) -> Text:
    """How an individual was made, its parents (index, fitness, conflicts) and where its
    queens came from, each origin in its board colour; the keys that step to the parents.
    A text instead says why that is not known here."""
    text = Text()
    if origin is None:
        return text
    if isinstance(origin, str):
        text.append(f"{origin}\n", style="dim")
        return text
    text.append(f"{origin.operator}\n", style="bold")
    for number, parent in enumerate(origin.parents, start=1):
        text.append(f"parent {number} ", style=f"bold {ORIGIN_COLOURS[number]}")
        main = " (main)" if parent.main and len(origin.parents) > 1 else ""
        text.append(
            f"#{parent.index}{main}: fitness {parent.fitness:.6g}, "
            f"{parent.conflicts} conflict{'s' if parent.conflicts != 1 else ''}\n"
        )
    counts = origin.counts()
    if origin.parents:
        text.append("queens: ")
        parts = []
        for code, name in enumerate(ORIGIN_NAMES):
            if name in counts:
                style = f"bold {ORIGIN_COLOURS[code]}" if ORIGIN_COLOURS[code] else "bold"
                mark = "*" if name == "moved" else ""
                parts.append(Text.assemble((f"{counts[name]} {name}{mark}", style)))
        text.append(Text(", ").join(parts))
        keys = "p parent, P other" if len(origin.parents) > 1 else "p parent"
        text.append(f"\n{keys}, d back to the child, w ancestry\n", style="dim")
    else:
        text.append("no parents: w ancestry\n", style="dim")
    return text
