"""The race's `a` and `b` keys: choose what a side races, from the keyboard, in one key more.

A small list over the race: the form's config (side A only) and every preset that fits the
race's N, each under a digit. A digit chooses at once; the arrows and ``enter`` choose too,
``escape`` keeps the side as it was. So ``x``, ``b``, ``2``, ``space`` sets up a race against
the second preset and starts it, without a mouse.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar, Final

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.events import Key
from textual.screen import ModalScreen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

DIGITS: Final = "123456789"
"""The keys that choose the first nine choices at once."""


class RaceChoice(ModalScreen[str | None]):
    """Choose one of ``choices`` (``(label, value)``); dismissed with its value, or ``None``.

    Args:
        side: ``A`` or ``B``, for the title.
        choices: What the side may race, in order; the first nine get a digit.
        current: The side's value now (highlighted when the list opens).
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "dismiss", "Cancel", id="cancel-race-choice"),
    ]

    DEFAULT_CSS = """
    RaceChoice {
        align: center middle;
    }
    RaceChoice > Vertical {
        width: 76;
        max-width: 95%;
        height: auto;
        border: round $accent;
        background: $surface;
        padding: 0 1;
    }
    /* One choice a line, cut with an ellipsis where narrow: the digit and name come first. */
    RaceChoice OptionList, RaceChoice OptionList:focus {
        height: auto;
        max-height: 12;
        border: none;
        padding: 0;
        text-wrap: nowrap;
        text-overflow: ellipsis;
    }
    RaceChoice #race-choice-help {
        color: $text-muted;
    }
    """

    def __init__(self, side: str, choices: Sequence[tuple[str, str]], current: object) -> None:
        super().__init__()
        self.side = side
        self.choices = list(choices)
        self.current = current

    def compose(self) -> ComposeResult:
        """The choices, each after its digit, and a line of help."""
        options = [
            Option(f"{DIGITS[i] if i < len(DIGITS) else ' '}  {label}", id=value)
            for i, (label, value) in enumerate(self.choices)
        ]
        with Vertical() as box:
            box.border_title = f"Side {self.side} races"
            yield OptionList(*options, id="race-choice-list")
            yield Static(
                "a digit or enter chooses (the race starts again), esc keeps the side",
                id="race-choice-help",
            )

    def on_mount(self) -> None:
        """Highlight the side's current choice."""
        options = self.query_one(OptionList)
        values = [value for _label, value in self.choices]
        if self.current in values:
            options.highlighted = values.index(str(self.current))
        options.focus()

    def on_key(self, event: Key) -> None:
        """A digit chooses its line at once."""
        if event.character is not None and event.character in DIGITS:
            index = DIGITS.index(event.character)
            if index < len(self.choices):
                event.stop()
                self.dismiss(self.choices[index][1])

    @on(OptionList.OptionSelected)
    def _selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.dismiss(event.option.id)
