"""The `?` screen: every key of the dashboard, generated from the bindings themselves."""

from __future__ import annotations

from collections.abc import Iterable
from typing import ClassVar

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static


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

    def compose(self) -> ComposeResult:
        """One table, a block of rows per section."""
        table = Table(box=None, show_header=False, padding=(0, 1))
        table.add_column("key", style="bold", no_wrap=True)
        table.add_column("what")
        for label, note in self.notes:
            table.add_row(Text(label, style="underline"), Text(note, overflow="fold"))
        if self.notes:
            table.add_row("", "")
        for title, bindings in self.sections:
            table.add_row(Text(title, style="underline"), "")
            for binding in bindings:
                key = binding.key_display or self.app.get_key_display(binding)
                what = binding.description
                if binding.tooltip:
                    what = f"{what}: {binding.tooltip}"
                table.add_row(key, what)
            table.add_row("", "")
        table.add_row("", Text("escape, ? or q closes this screen", style="dim"))
        with VerticalScroll() as scroll:
            scroll.border_title = "Keys"
            yield Static(table)
