"""The palette's ``Label this run`` prompt: what to call the run shown in ``queens runs``."""

from __future__ import annotations

from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Static

from tui.lab.run_label import MAX_LABEL, check_label


class LabelPrompt(ModalScreen[str | None]):
    """Ask for a run's label; dismissed with it (checked), or ``None``.

    Args:
        run: How the run is named in the prompt (``run 12``, ``this run``).
        current: The label it has now, to start from.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "dismiss", "Cancel", id="cancel-label"),
    ]

    DEFAULT_CSS = """
    LabelPrompt {
        align: center middle;
    }
    LabelPrompt > Vertical {
        width: 70;
        height: auto;
        border: round $accent;
        background: $surface;
        padding: 0 1;
    }
    LabelPrompt #label-error {
        color: $error;
    }
    """

    def __init__(self, run: str, current: str | None = None) -> None:
        super().__init__()
        self.run_name = run
        self.current = current

    def compose(self) -> ComposeResult:
        """A line of help, the input, the error."""
        with Vertical():
            yield Static(
                f"Label {self.run_name} (up to {MAX_LABEL} characters), enter to keep it, "
                "esc to cancel",
                markup=False,
            )
            yield Input(self.current or "", placeholder="baseline", id="label")
            yield Static("", id="label-error", markup=False)

    @on(Input.Submitted)
    def _submitted(self, event: Input.Submitted) -> None:
        try:
            label = check_label(event.input.value)
        except ValueError as error:
            self.query_one("#label-error", Static).update(str(error))
            return
        self.dismiss(label)
