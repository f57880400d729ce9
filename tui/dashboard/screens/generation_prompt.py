"""The `g` prompt: which generation to travel to."""

from __future__ import annotations

from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Static


class GenerationPrompt(ModalScreen[int | None]):
    """Ask for a generation from 0 to ``last``; dismissed with it, or ``None``."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "dismiss", "Cancel", id="cancel-go-to"),
    ]

    DEFAULT_CSS = """
    GenerationPrompt {
        align: center middle;
    }
    GenerationPrompt > Vertical {
        width: 50;
        height: auto;
        border: round $accent;
        background: $surface;
        padding: 0 1;
    }
    GenerationPrompt #prompt-error {
        color: $error;
    }
    """

    def __init__(self, last: int) -> None:
        super().__init__()
        self.last = last

    def compose(self) -> ComposeResult:
        """A line of help, the input, the error."""
        with Vertical():
            yield Static(f"Go to generation (0 to {self.last:,}), enter to go, esc to cancel")
            yield Input(placeholder=str(self.last), id="generation")
            yield Static("", id="prompt-error")

    @on(Input.Submitted)
    def _submitted(self, event: Input.Submitted) -> None:
        typed = event.input.value  # as it is now: with the digits typed ahead of the enter
        text = typed.strip().replace(",", "").replace("_", "")
        if not text.isdigit() or int(text) > self.last:
            self.query_one("#prompt-error", Static).update(
                f"generation: {typed!r} is not allowed; a whole number from 0 to {self.last:,}"
            )
            return
        self.dismiss(int(text))
