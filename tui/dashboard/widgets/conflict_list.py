"""The inspected individual's origin (parents, operator, where its queens came from) and its
attacking pairs, listed for reading."""

from __future__ import annotations

from typing import Final

import numpy as np
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.message import Message
from textual.widgets import Static

from tui.dashboard.pictures.board_pictures import Position
from tui.dashboard.pictures.origin import ORIGIN_COLOURS, ORIGIN_NAMES, Origin

PAIR_LIMIT: Final = 200
"""Pairs listed at most; a random board of large N has far more, and the count says so."""

PAIRS_IN_VIEW: Final = 2
"""Pairs the panel shows without scrolling where it can: where the origin's lines would leave
fewer, it says the origin in one paragraph, and the pairs' heading in the count's line. At
80x24 the panel has 6 or 7 rows, and the origin's five or six lines left none of them to the
pairs. The keys that step to the parents are not among those lines: the panel's holder says
them on its border (:class:`ConflictList.KeysHint`), where they cost no row."""


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


def keys_hint(origin: Origin | str | None) -> str:
    """The keys that walk an individual's family, as markup for a border: to each parent, back
    to the child, the ancestry (where the origin is known here), and back to the best: the
    footer has no room for ``b``, so the inspected individual's panel says it."""
    if not isinstance(origin, Origin):
        return "[b]b[/] best"
    parents = {0: "", 1: "[b]p[/] parent ", 2: "[b]p[/] parent [b]P[/] other "}
    child = "[b]d[/] child " if origin.parents else ""
    return f"{parents[min(len(origin.parents), 2)]}{child}[b]w[/] ancestry [b]b[/] best"


class ConflictList(VerticalScroll):
    """A scrollable list of the attacking pairs of one individual."""

    class KeysHint(Message):
        """The keys that walk the family of the individual shown (markup), or ``None``: the
        panel is hidden, or the origin is not known."""

        def __init__(self, hint: str | None) -> None:
            super().__init__()
            self.hint = hint

    DEFAULT_CSS = """
    ConflictList {
        height: 1fr;
    }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._shown: tuple[Position, str, int, Origin | str | None] | None = None
        self._said: str | None = None  # the keys last told to the holder

    def compose(self) -> ComposeResult:
        """One static holds the text."""
        yield Static(id="conflict-text")

    def on_show(self) -> None:
        """Shown: its holder says the keys of the individual shown."""
        self._say_keys(keys_hint(self._shown[3] if self._shown else None))

    def on_hide(self) -> None:
        """Hidden (no individual inspected): no keys to say."""
        self._say_keys(None)

    def _say_keys(self, hint: str | None) -> None:
        """Tell the holder the keys, when they change (each border change repaints)."""
        if hint != self._said:
            self._said = hint
            self.post_message(self.KeysHint(hint))

    def on_resize(self) -> None:
        """Say it again in the new size (compact or not: see :data:`PAIRS_IN_VIEW`)."""
        if self._shown is not None:
            position, title, conflicts, origin = self._shown
            self.show(position, title=title, conflicts=conflicts, origin=origin)

    def _rows(self, text: Text) -> int:
        """The rows ``text`` takes in the panel, wrapped at its width."""
        width = self.scrollable_content_region.width
        return len(text.wrap(self.app.console, width)) if width > 0 else 0

    def _compact(self, origin: Origin | str | None, conflicts: int) -> bool:
        """Whether the origin must be said in one paragraph to show the first pairs."""
        height = self.scrollable_content_region.height
        if height <= 0 or conflicts == 0 or not isinstance(origin, Origin):
            return False
        head = origin_text(origin)
        head.append("title\nheading")
        return self._rows(head) + min(conflicts, PAIRS_IN_VIEW) > height

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
        if self.display:
            self._say_keys(keys_hint(origin))
        self._shown = (position, title, conflicts, origin)
        compact = self._compact(origin, conflicts)
        text = origin_text(origin, compact=compact)
        text.append(f"{title}: ", style="bold")
        if conflicts == 0:
            text.append("no conflicts, a solution", style="bold green")
        else:
            text.append(f"{conflicts} attacking pair{'s' if conflicts != 1 else ''}")
            if compact:
                text.append(" (row,col)\n", style="dim")
            else:
                text.append("\nrow,col × row,col  line\n", style="dim")
            for line, first, second in attacking_pairs(position):
                a = f"{position.rows[first]},{position.columns[first]}"
                b = f"{position.rows[second]},{position.columns[second]}"
                text.append(f"{a} × {b}  ")
                text.append(f"{line}\n", style="dim")
            if conflicts > PAIR_LIMIT:
                text.append(f"… and {conflicts - PAIR_LIMIT} more", style="dim")
        self.query_one("#conflict-text", Static).update(text)  # user-paced: a query is fine


def origin_text(origin: Origin | str | None, *, compact: bool = False) -> Text:
    """How an individual was made, its parents (index, fitness, conflicts) and where its
    queens came from, each origin in its board colour (the keys that step to the parents are
    :func:`keys_hint`'s). A text instead says why that is not known here. ``compact``: one
    paragraph, parts separated by ``;`` (which wraps with the part before it, where a ``·``
    of its own was left at a line's end)."""
    text = Text()
    if origin is None:
        return text
    if isinstance(origin, str):
        text.append(f"{origin}\n", style="dim")
        return text
    end = "; " if compact else "\n"
    text.append(origin.operator, style="bold")
    text.append(end)
    for number, parent in enumerate(origin.parents, start=1):
        text.append(f"parent {number} ", style=f"bold {ORIGIN_COLOURS[number]}")
        main = " (main)" if parent.main and len(origin.parents) > 1 else ""
        plural = "s" if parent.conflicts != 1 else ""
        if compact:
            text.append(f"#{parent.index}{main} {parent.fitness:.6g}, {parent.conflicts} conf")
        else:
            text.append(
                f"#{parent.index}{main}: fitness {parent.fitness:.6g}, "
                f"{parent.conflicts} conflict{plural}"
            )
        text.append(end)
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
        text.append("\n")
    elif compact:
        text.right_crop(len(end))
        text.append("\n")
    else:
        text.append("no parents\n", style="dim")
    return text
