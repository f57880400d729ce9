"""A sweep plan that cannot be run: an entry of its file or flags that is not allowed.

The entry is named as the plan spells it (``seeds``, ``grid``, a config field), with where it
was given (the command line, or the file and line), so the one line the command line prints
(exit 2) points at what to change. A config field's value refused inside a plan is a plan's
error too: it is the plan's entry, or the plan's cell, that must change.
"""

from __future__ import annotations

from engine.errors import NotAllowed


class PlanError(NotAllowed):
    """An entry of a sweep plan that is not allowed.

    Attributes:
        entry: The plan's key as people write it, with dashes (``seeds``, ``mutation-rate``,
            ``plan`` for the file itself).
        value: The value given.
        allowed: What would be accepted, and where the entry was given.
    """

    def __init__(self, entry: str, value: object, allowed: str) -> None:
        self.entry = entry.replace("_", "-")
        super().__init__(self.entry, value, allowed)
