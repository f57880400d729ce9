"""Small ASCII boards of the solutions found, as many to a row as the width allows.

Each board is ``Q`` and ``.`` with a space between squares, so it looks square and reads the
same in any terminal and any colours. The boards are laid out again when the width changes
or new solutions arrive, never on a plain repaint.
"""

from __future__ import annotations

from typing import Final

import numpy as np
import numpy.typing as npt
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.events import Resize
from textual.widgets import Static

GAP: Final = 3
"""Columns between two boards."""
CELL_BUDGET: Final = 40_000
"""Squares drawn at most: beyond it the gallery shows the first boards and says how many."""


def gallery_text(solutions: npt.NDArray[np.int64], width: int, limit: int) -> Text:
    """The first ``limit`` solutions as boards in rows that fit ``width`` columns.

    Args:
        solutions: ``(S, N)`` boards, the row of the queen in each column.
        width: Columns available.
        limit: Boards to draw at most.

    Returns:
        The boards, numbered, with a line saying how many were left out.
    """
    count, n = solutions.shape if solutions.ndim == 2 else (0, 0)
    if count == 0:
        return Text()
    board_width = max(2 * n - 1, 4)
    per_row = max(1, (width + GAP) // (board_width + GAP))
    shown = min(count, limit)
    boards = solutions[:shown].tolist()
    spacer = " " * GAP
    lines: list[str] = []
    for start in range(0, shown, per_row):
        batch = boards[start : start + per_row]
        lines.append(spacer.join(f"#{start + i + 1}".ljust(board_width) for i in range(len(batch))))
        for row in range(n):
            lines.append(
                spacer.join(
                    " ".join("Q" if board[column] == row else "." for column in range(n)).ljust(
                        board_width
                    )
                    for board in batch
                )
            )
        lines.append("")
    if shown < count:
        lines.append(f"… and {count - shown:,} more (the first {shown:,} are drawn)")
    text = Text("\n".join(line.rstrip() for line in lines), style="dim")
    text.highlight_regex(r"Q", "not dim bold yellow")
    return text


class SolutionGallery(VerticalScroll):
    """A scrollable gallery of solution boards."""

    DEFAULT_CSS = """
    SolutionGallery {
        height: 1fr;
    }
    SolutionGallery > Static {
        width: 1fr;
    }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._solutions: npt.NDArray[np.int64] = np.zeros((0, 0), dtype=np.int64)
        self._drawn: tuple[int, int, int] = (-1, -1, -1)

    def compose(self) -> ComposeResult:
        """One text of all the boards."""
        yield Static("", id="gallery-boards")

    @property
    def drawn(self) -> int:
        """How many solutions the gallery was last drawn with."""
        return self._drawn[0]

    def show(self, solutions: npt.NDArray[np.int64]) -> None:
        """Draw these solutions (free when nothing new was found)."""
        self._solutions = solutions
        self._redraw()

    def on_resize(self, event: Resize) -> None:
        """Another width fits another number of boards to a row."""
        self._redraw()

    def _redraw(self) -> None:
        solutions = self._solutions
        count = solutions.shape[0]
        n = solutions.shape[1] if solutions.ndim == 2 else 0
        width = max(1, self.scrollable_content_region.width)
        key = (count, n, width)
        if key == self._drawn:
            return
        self._drawn = key
        limit = max(12, CELL_BUDGET // max(1, n * n))
        self.query_one("#gallery-boards", Static).update(gallery_text(solutions, width, limit))
