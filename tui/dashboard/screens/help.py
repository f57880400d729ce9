"""The `?` screen: every key of the dashboard, generated from the bindings themselves."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence
from typing import ClassVar, Final

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

KEY_WORDS: Final = {"⏎": "enter"}
"""Keys the footer draws as a symbol, in words: help says ``enter`` as the footers mostly do."""


def described(bindings: Iterable[BindingType]) -> list[Binding]:
    """The bindings that carry an id: the ones the dashboard documents."""
    return [b for b in bindings if isinstance(b, Binding) and b.id]


class HelpScreen(ModalScreen[None]):
    """A table of keys and what they do, in sections (everywhere, table, board)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "dismiss", "Close", id="close-help"),
        Binding("question_mark", "dismiss", "Close", show=False),
        Binding("q", "dismiss", "Close", show=False),
    ]

    DEFAULT_CSS = """
    HelpScreen {
        align: center middle;
    }
    HelpScreen > VerticalScroll {
        width: 76;
        max-width: 95%;
        height: auto;
        max-height: 90%;
        border: round $accent;
        border-title-align: center;
        background: $surface;
        padding: 0 1;
    }
    """

    def __init__(
        self,
        sections: list[tuple[str, list[Binding]]],
        notes: list[tuple[str, str]] | None = None,
    ) -> None:
        """Args:
        sections: A title and the bindings of each part of the dashboard.
        notes: Lines shown before the keys: a label and a text (the command that reruns
            the run, the palette).
        """
        super().__init__()
        self.sections = sections
        self.notes = notes or []

    def key_text(self, binding: Binding) -> str:
        """A binding's keys as help writes them: each key spelled as the footer spells it,
        ``/`` between two keys, words for the keys the footer draws as a symbol."""
        if binding.key_display:
            return binding.key_display
        keys = [
            self.app.get_key_display(dataclasses.replace(binding, key=key.strip()))
            for key in binding.key.split(",")
        ]
        return "/".join(KEY_WORDS.get(key, key) for key in keys)

    def compose(self) -> ComposeResult:
        """The notes, then each section's title over its keys; one key column for all, as
        narrow as the widest key, so every description starts in the same column."""
        rows = [
            (title, [(self.key_text(b), self.what(b)) for b in bindings])
            for title, bindings in self.sections
        ]
        labels = [label for label, _ in self.notes]
        labels += [key for _, keys in rows for key, _ in keys]
        width = max(map(len, labels), default=1)
        parts: list[RenderableType] = []
        if self.notes:
            notes = [(Text(label, style="underline"), note) for label, note in self.notes]
            parts += [self._table(notes, width), Text("")]
        for title, keys in rows:
            parts += [Text(title, style="bold underline"), self._table(keys, width), Text("")]
        parts.append(Text("escape, ? or q closes this screen", style="dim"))
        with VerticalScroll() as scroll:
            scroll.border_title = "Keys"
            yield Static(Group(*parts))

    @staticmethod
    def what(binding: Binding) -> str:
        """What a binding does: its description, and its tooltip after a colon."""
        return (
            f"{binding.description}: {binding.tooltip}" if binding.tooltip else binding.description
        )

    @staticmethod
    def _table(rows: Sequence[tuple[str | Text, str]], width: int) -> Table:
        table = Table(box=None, show_header=False, padding=(0, 1), pad_edge=False)
        table.add_column("key", style="bold", no_wrap=True, min_width=width, max_width=width)
        table.add_column("what", ratio=1)
        for key, what in rows:
            table.add_row(key, Text(what, overflow="fold"))
        return table
