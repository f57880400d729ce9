"""The `l` screen: the recorded runs, to replay (enter) or continue (c)."""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import ClassVar, Final

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import DataTable, Static

from tui.lab.config_summary import run_description
from tui.lab.store import RunInfo

BOX_WIDTH: Final = 90
"""Columns of the list's box where the screen has them."""
HEADERS: Final = ("id", "started", "N", "label (config)", "gens", "solved", "status")
"""The table's columns."""
SUMMARY: Final = 3
"""The column that gives way on narrow screens."""
SUMMARY_WIDTH: Final = 32
"""The summary's width at most."""


def summary_room(rows: Sequence[tuple[str, ...]], box_width: int) -> int:
    """Characters the summary may take so every other column shows whole in ``box_width``.

    The box's border and padding take 4 columns, the table's scrollbar 1, and each column 2 of
    cell padding.
    """
    others = sum(
        max([len(HEADERS[column]), *(len(row[column]) for row in rows)]) + 2
        for column in range(len(HEADERS))
        if column != SUMMARY
    )
    return max(8, min(SUMMARY_WIDTH, box_width - 5 - others - 2))


class RunsScreen(ModalScreen[tuple[str, int] | None]):
    """A table of the store's runs; dismissed with ``("replay" | "resume", run id)``."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "choose('replay')", "Replay", id="replay-run", priority=True),
        Binding("c", "choose('resume')", "Continue", id="resume-run"),
        Binding("escape,q,l", "dismiss", "Close", id="close-runs"),
    ]

    DEFAULT_CSS = """
    RunsScreen {
        align: center middle;
    }
    RunsScreen > Vertical {
        width: 90;  /* BOX_WIDTH */
        max-width: 95%;
        height: auto;
        max-height: 90%;
        border: round $accent;
        border-title-align: center;
        background: $surface;
        padding: 0 1;
    }
    RunsScreen DataTable {
        height: auto;
        max-height: 20;
    }
    """

    def __init__(self, runs: list[RunInfo], where: str) -> None:
        """Args:
        runs: The runs to list (newest first on screen).
        where: The store's path, for the title.
        """
        super().__init__()
        self.runs = runs
        self.where = where

    def compose(self) -> ComposeResult:
        """The table and a line of help."""
        with Vertical() as box:
            box.border_title = "Recorded runs"
            table: DataTable[str] = DataTable(cursor_type="row", zebra_stripes=True)
            yield table
            if self.runs:
                yield Static("enter replays (time travel), c continues the run, esc closes")
            else:
                yield Static(f"no recorded runs yet in {self.where}")

    def on_mount(self) -> None:
        """Fill the table, newest run first; the summary gives way so the status shows whole."""
        table = self.query_one(DataTable)
        rows = [
            (
                str(info.id),
                time.strftime("%m-%d %H:%M", time.localtime(info.started)),
                str(info.n),
                run_description(info.label, info.config),
                f"{info.generations:,}",
                "yes" if info.solved else "no",
                info.status,
            )
            for info in reversed(self.runs)
        ]
        room = summary_room(rows, min(BOX_WIDTH, self.app.size.width * 95 // 100))
        table.add_columns(*HEADERS)
        for row, info in zip(rows, reversed(self.runs), strict=True):
            label = row[SUMMARY]
            short = label if len(label) <= room else label[: room - 1] + "…"
            table.add_row(*row[:SUMMARY], short, *row[SUMMARY + 1 :], key=str(info.id))
        table.focus()

    def action_choose(self, what: str) -> None:
        """Close with the run under the cursor."""
        table = self.query_one(DataTable)
        if not self.runs or table.cursor_row < 0:
            return
        key = table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value
        if key is not None:
            self.dismiss((what, int(key)))
