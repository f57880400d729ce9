"""The palette's ``Plug-in ...`` prompt: which file's function to use as an operator.

The answer, ``path/to/ops.py:function``, is read and checked by the form
(:meth:`~tui.dashboard.widgets.param_form.ParamForm.load_plugin`): a file that cannot be used
is said in the prompt, one line naming the file, the function and what failed, and the prompt
stays open to be corrected.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Static


class PluginPrompt(ModalScreen[str | None]):
    """Ask for a plug-in of one operator field; dismissed with its pinned name, or ``None``.

    Args:
        field: The operator field (``mutation``).
        load: Loads ``file.py:function`` into the field: ``None`` when it did, else why not.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "dismiss", "Cancel", id="cancel-plugin"),
    ]

    DEFAULT_CSS = """
    PluginPrompt {
        align: center middle;
    }
    PluginPrompt > Vertical {
        width: 90;
        height: auto;
        border: round $accent;
        background: $surface;
        padding: 0 1;
    }
    PluginPrompt #plugin-error {
        color: $error;
    }
    """

    def __init__(self, field: str, load: Callable[[str, str], str | None]) -> None:
        super().__init__()
        self.field = field
        self.load = load

    def compose(self) -> ComposeResult:
        """A line of help, the input, the error."""
        with Vertical():
            yield Static(
                f"A {self.field} of your own: path/to/file.py:function (docs/plugins.md says "
                "what it receives and returns); enter to load it, esc to cancel",
                markup=False,
            )
            yield Input("", placeholder="ops.py:my_" + self.field, id="plugin")
            yield Static("", id="plugin-error", markup=False)

    @on(Input.Submitted)
    def _submitted(self, event: Input.Submitted) -> None:
        text = event.input.value.strip()
        problem = self.load(self.field, text)
        if problem is not None:
            self.query_one("#plugin-error", Static).update(problem)
            return
        self.dismiss(text)
