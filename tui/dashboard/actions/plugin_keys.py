"""The palette's plug-in commands: ``Plug-in X from a file`` and ``Reload plug-ins``.

``Plug-in X from a file`` asks for ``file.py:function`` and chooses it in the form's field for
the next runs; while the run is paused, it is also swapped into the run from its next
generation on (refused, in the prompt, when it fails the checks). ``Reload plug-ins`` reads
again every plug-in file the paused run names and swaps in those that changed
(:class:`~tui.dashboard.runs.operator_swaps.OperatorSwaps`). Each swap is told in a notice:
the operator, the generation it applies from, the record that keeps it.
"""

from __future__ import annotations

from typing import Final

from textual.screen import Screen

from tui.dashboard.runs.operator_swaps import NOTHING_CHANGED, OperatorSwaps, SwapResult
from tui.dashboard.widgets import ParamForm

SWAPPED: Final = "Operator swapped"
"""The title of a swap's notice."""
NOT_SWAPPED: Final = "Not swapped"
"""The title of a refused swap's notice."""


class PluginKeys:
    """Loads plug-in operators into the form and swaps them into the paused run.

    Args:
        screen: The main screen (the prompt, notifications).
        form: The form, whose field takes the plug-in for the next runs.
        swaps: Swaps the paused run's operators.
    """

    def __init__(self, screen: Screen[None], form: ParamForm, swaps: OperatorSwaps) -> None:
        self.screen = screen
        self.form = form
        self.swaps = swaps

    def ask(self, field: str) -> None:
        """Ask for a plug-in of ``field``: into the form, and into the run if it is paused."""
        from tui.dashboard.screens.plugin_prompt import PluginPrompt

        self.screen.app.push_screen(PluginPrompt(field, self._load))

    def _load(self, field: str, text: str) -> str | None:
        """The prompt's answer: why it cannot be used, or ``None`` once loaded."""
        if self.swaps.refusal() is not None:
            return self.form.load_plugin(field, text)  # the next runs' only
        result = self.swaps.swap(field, text)
        if result.refused:
            return result.words
        self._say(result)
        return self.form.load_plugin(field, text)

    def reload(self) -> None:
        """Swap into the paused run each plug-in whose file changed since it was loaded."""
        for result in self.swaps.reload():
            self._say(result)

    def _say(self, result: SwapResult) -> None:
        if result.words == NOTHING_CHANGED:
            self.screen.notify(result.words, timeout=4)
        elif result.refused:
            self.screen.notify(result.words, title=NOT_SWAPPED, severity="error", timeout=10)
        else:
            self.screen.notify(result.words, title=SWAPPED, timeout=6)
