"""The plug-in operators a form's selects offer beside the built-ins, field by field.

A plug-in joins its field's select when it is loaded (the palette's ``Plug-in ...`` commands)
or when a config that names one fills the form (a replayed run, ``queens tui --mutation
ops.py:f``), and stays offered for the session, under its short label, with its pinned name
(source digest included) as the value.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine import is_plugin_name, plugin_label


class PluginChoices:
    """The plug-ins offered per operator field, in the order they came."""

    def __init__(self) -> None:
        self._by_field: dict[str, list[str]] = {}

    def remember(self, field: str, value: object) -> bool:
        """Offer ``value`` in ``field`` if it is a plug-in not offered yet; whether it is new."""
        if not isinstance(value, str) or not is_plugin_name(value):
            return False
        offered = self._by_field.setdefault(field, [])
        if value in offered:
            return False
        offered.append(value)
        return True

    def options(self, field: str, choices: Sequence[str]) -> list[tuple[str, str]]:
        """A select's options: the built-in ``choices``, then the field's plug-ins."""
        plugins = [(plugin_label(value), value) for value in self._by_field.get(field, [])]
        return [(choice, choice) for choice in choices] + plugins

    def values(self, field: str, choices: Sequence[str]) -> tuple[str, ...]:
        """The values of :meth:`options`."""
        return (*choices, *self._by_field.get(field, []))
