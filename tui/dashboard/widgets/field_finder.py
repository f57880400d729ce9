"""The form's ``/``: type a field's name (or the start of it) and the cursor jumps to that field.

The form has some thirty fields in seven sections, more than a small terminal shows; ``/`` and
a few letters (``/mut`` enter: ``mutation``) beat a dozen Tabs. The names are the form's own
(``mutation-rate``), with ``-``, ``_`` and spaces read alike. The finder is a line at the foot of
the form, shown while it is used; the help line above it lists the fields that match, the one
``enter`` goes to first. ``escape`` (or leaving it) puts it away.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar, Final, Protocol

from textual import events, on
from textual.binding import Binding, BindingType
from textual.widget import Widget
from textual.widgets import Input, Static

SHOWN_MATCHES: Final = 6
"""Matching names the help line lists at most."""


def plain_name(text: str) -> str:
    """A name as typed, read as the form writes it: lower case, dashed."""
    return text.strip().lower().replace("_", "-").replace(" ", "-")


def matching_fields(typed: str, names: Sequence[str]) -> list[str]:
    """The names that match what was typed, best first: the name itself, then names that start
    with it (shortest first), then names that hold it; ``names`` are dashed field names."""
    wanted = plain_name(typed)
    if not wanted:
        return []
    exact = [name for name in names if name == wanted]
    starting = sorted(
        (name for name in names if name.startswith(wanted) and name != wanted), key=len
    )
    holding = [name for name in names if wanted in name and not name.startswith(wanted)]
    return exact + starting + holding


def matches_text(typed: str, names: Sequence[str]) -> str:
    """The help line while the finder is used: what ``enter`` goes to, and what else matches."""
    if not plain_name(typed):
        return "go to field: type its name (enter goes there, esc stays)"
    matches = matching_fields(typed, names)
    if not matches:
        return f"no field is called {typed.strip()!r}"
    more = len(matches) - SHOWN_MATCHES
    others = ", ".join(matches[1:SHOWN_MATCHES]) + (f" and {more} more" if more > 0 else "")
    return f"enter: {matches[0]}" + (f"  (also {others})" if others else "")


class FinderForm(Protocol):
    """What the finder needs of the form it serves."""

    def field_widget(self, name: str) -> Widget:
        """The input or select of a field."""

    def put_cursor_in(self, field: Widget) -> None:
        """Put the cursor in a field, and bring it into view."""


class FieldFinder(Input):
    """A line to type a field's name in, at the foot of the form (shown by :meth:`open`)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", "Cancel"),
    ]

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(placeholder="field name", compact=True, id=id)
        self.names: list[str] = []
        self._form: FinderForm | None = None
        self._help: Static | None = None
        self._before: Widget | None = None

    def open(self, form: FinderForm, names: Sequence[str], help_line: Static) -> None:
        """Show the finder, empty, the cursor in it; the help line lists what matches."""
        self._form, self._help, self._before = form, help_line, self.screen.focused
        self.names = list(names)
        self.value = ""
        help_line.update(matches_text("", self.names))
        self.display = True  # its own style: a class on the form would restyle every field
        form.put_cursor_in(self)

    @on(Input.Changed)
    def _typed(self, event: Input.Changed) -> None:
        event.stop()  # the form checks its fields' changes, not this one's
        if self._help is not None:
            self._help.update(matches_text(event.value, self.names))

    @on(Input.Submitted)
    def _submitted(self, event: Input.Submitted) -> None:
        event.stop()  # enter here chooses a field, it does not ask for a run
        matches = matching_fields(event.value, self.names)
        if matches and self._form is not None:
            self._put_away()
            self._form.put_cursor_in(self._form.field_widget(matches[0]))

    def action_close(self) -> None:
        """Escape: put the finder away, the cursor back where it was."""
        before, form = self._before, self._form
        self._put_away()
        if form is not None and before is not None and before.is_attached:
            form.put_cursor_in(before)

    def _on_blur(self, event: events.Blur) -> None:
        super()._on_blur(event)
        self._put_away()

    def _put_away(self) -> None:
        self.display = False
        self._before = None
