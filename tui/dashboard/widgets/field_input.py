"""A form field whose editing keys act in the order they were typed.

Textual's :class:`~textual.widgets.Input` inserts a typed character the moment the key reaches
it, but its bound keys (backspace, delete, home, end, the arrows) act only once the key has
bubbled up through every ancestor to the app, which then runs the binding. In the dashboard
those ancestors are busy: the form checks itself on each change, the screen repaints a run
ten times a second. A backspace then waits in their queues while the characters typed after it
are already in the field, and deletes one of them: ``End``, four ``Backspace``, ``1 5 0`` gave
``10`` or ``50``. This input runs its own bindings as soon as the key reaches it, so every key
acts in the order it came. Keys it has no binding for bubble on as before (``escape`` leaves
the form, ``tab`` moves on); keys bound with priority (the screen's ``end``, which it skips in
the form) were already offered to their owners before the key reached the field.
"""

from __future__ import annotations

from typing import Final

from textual import events
from textual.widgets import Input

FORM_CHARACTERS: Final = frozenset("/")
"""Characters no field's value holds, left to the form: ``/`` finds a field by name."""


class FieldInput(Input):
    """An :class:`~textual.widgets.Input` that edits at once, in the order keys arrive."""

    def check_consume_key(self, key: str, character: str | None = None) -> bool:
        """Every printable character is the field's, but those the form's keys use."""
        if character in FORM_CHARACTERS:
            return False
        return super().check_consume_key(key, character)

    async def _on_key(self, event: events.Key) -> None:
        await super()._on_key(event)
        if event.is_printable:  # already inserted
            return
        if await self._run_own_binding(event.key):
            # Handled here, as the app would have once the key came back up to it.
            event.stop()
            event.prevent_default()

    async def _run_own_binding(self, key: str) -> bool:
        """Run this input's (non-priority) binding of ``key``, if it has one that acts."""
        for binding in self._bindings.key_to_bindings.get(key, ()):
            if not binding.priority and await self.app.run_action(binding.action, self):
                return True
        return False
