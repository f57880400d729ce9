"""Moving through the parameter form: Tab passes by the dimmed fields, ``/`` finds one by name.

A dimmed field means nothing with the operators chosen (``gene-rate`` under the conflict
mutation): Tab stopping there only slows the way to the next field that matters. It can still
be reached by its name (``/`` and the name, :class:`~tui.dashboard.widgets.field_finder.
FieldFinder`), or with the mouse.
"""

from __future__ import annotations

from typing import Final, Protocol

from textual.binding import Binding, BindingType
from textual.screen import Screen
from textual.widget import Widget

FORM_BINDINGS: Final[list[BindingType]] = [
    # Priority: before the screen's own Tab, which would stop on every field.
    Binding(
        "tab",
        "next_field(True)",
        "Next field",
        id="next-field",
        show=False,
        priority=True,
        tooltip="passes by the dimmed ones (those the chosen operators ignore)",
    ),
    Binding(
        "shift+tab",
        "next_field(False)",
        "Previous field",
        id="previous-field",
        show=False,
        priority=True,
    ),
    Binding(
        "slash",
        "find_field",
        "Find field",
        key_display="/",
        id="find-field",
        show=False,
        priority=True,
        tooltip="type a field's name (or its start), enter goes there",
    ),
]
"""The form's own keys: Tab and shift+Tab pass by dimmed fields, ``/`` finds one by name."""


class Form(Protocol):
    """What moving through the form needs of it."""

    @property
    def screen(self) -> Screen[object]:
        """The screen the form is on."""

    def dimmed(self, widget: Widget) -> bool:
        """Whether ``widget`` is (in) a field that means nothing with the current choices."""

    def put_cursor_in(self, field: Widget) -> None:
        """Put the cursor in a field, and bring it into view."""

    def holds(self, widget: Widget) -> bool:
        """Whether ``widget`` is in the form."""


def move_past_dimmed(form: Form, *, forward: bool) -> None:
    """Put the cursor in the next (or previous) widget of the screen that is not a dimmed
    field: past the form's last field, whatever Tab reaches next."""
    screen = form.screen
    chain = screen.focus_chain
    focused = screen.focused
    if focused not in chain:  # a field of a folded form: Tab as anywhere else
        if forward:
            screen.focus_next()
        else:
            screen.focus_previous()
        return
    here = chain.index(focused)
    step = 1 if forward else -1
    for distance in range(1, len(chain)):
        widget = chain[(here + step * distance) % len(chain)]
        if form.dimmed(widget):
            continue
        if form.holds(widget):
            form.put_cursor_in(widget)
        else:
            screen.set_focus(widget)
        return
