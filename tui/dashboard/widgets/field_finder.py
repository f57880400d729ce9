"""The form's ``/``: type a field's name (or the start of it) and the cursor jumps to that field.

The form has some thirty fields in seven sections, more than a small terminal shows; ``/`` and
a few letters (``/mut`` enter: ``mutation``) beat a dozen Tabs. The names are the form's own
(``mutation-rate``), with ``-``, ``_`` and spaces read alike. The finder is a line at the foot of
the form, shown while it is used; the help line above it lists the fields that match, the one
``enter`` goes to first. ``escape`` (or leaving it) puts it away.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar, Final

from textual import events, on
from textual.binding import Binding, BindingType
from textual.message import Message
from textual.widgets import Input

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


class FieldFinder(Input):
    """A line to type a field's name in; posts :class:`Chosen` or :class:`Closed`."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", "Stay", show=False),
    ]

    @dataclass
    class Chosen(Message):
        """Enter: go to the field that matches best (``None``: none matches)."""

        name: str | None

    @dataclass
    class Typed(Message):
        """The name typed so far changed."""

        text: str

    @dataclass
    class Closed(Message):
        """The finder is put away: escape (``restore``: the cursor goes back where it was),
        or the cursor went elsewhere."""

        restore: bool

    def __init__(self, names: Sequence[str], *, id: str | None = None) -> None:
        super().__init__(placeholder="field name", compact=True, id=id)
        self.names = list(names)

    @on(Input.Changed)
    def _typed(self, event: Input.Changed) -> None:
        event.stop()  # the form's own fields' changes are what it checks, not this one's
        self.post_message(self.Typed(event.value))

    @on(Input.Submitted)
    def _submitted(self, event: Input.Submitted) -> None:
        event.stop()  # enter here chooses a field, it does not ask for a run
        matches = matching_fields(event.value, self.names)
        self.post_message(self.Chosen(matches[0] if matches else None))

    def action_close(self) -> None:
        """Escape: put the finder away, the cursor back where it was."""
        self.post_message(self.Closed(restore=True))

    def _on_blur(self, event: events.Blur) -> None:
        super()._on_blur(event)
        self.post_message(self.Closed(restore=False))
