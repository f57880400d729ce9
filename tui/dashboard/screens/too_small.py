"""What a terminal below the dashboard's minimum size shows: its size, the minimum, `q`.

A screen of its own, pushed over whatever was showing, so that no key reaches a view the user
cannot see (a `f 9` would change N in a hidden form, an `r` start a run unseen): only `q`
acts, and making the terminal larger takes the screen away.
"""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import Screen
from textual.widgets import Static


class TooSmallScreen(Screen[None]):
    """The terminal's size, the size needed, and how to quit."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("q", "app.quit", "Quit")]

    DEFAULT_CSS = """
    TooSmallScreen {
        align: center middle;
    }
    TooSmallScreen > #too-small {
        width: 1fr;
        height: auto;
        text-align: center;
        text-style: bold;
    }
    """

    def __init__(self, width: int, height: int, min_width: int, min_height: int) -> None:
        """Args:
        width: The terminal's width now.
        height: The terminal's height now.
        min_width: The narrowest terminal the dashboard works in.
        min_height: The lowest terminal the dashboard works in.
        """
        super().__init__()
        self.minimum = (min_width, min_height)
        self._terminal_size = (width, height)

    def compose(self) -> ComposeResult:
        """One centred message."""
        yield Static(self.message(*self._terminal_size), id="too-small")

    def message(self, width: int, height: int) -> str:
        """What the screen says at a terminal size."""
        min_width, min_height = self.minimum
        return (
            f"Terminal too small: {width}x{height}.\n"
            f"The dashboard needs at least {min_width}x{min_height}.\n\nq quits."
        )

    def show_size(self, width: int, height: int) -> None:
        """The terminal changed size but is still too small."""
        self._terminal_size = (width, height)
        if self.is_mounted:
            self.query_one("#too-small", Static).update(self.message(width, height))
