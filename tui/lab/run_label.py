"""A run's label: what a person calls a run (``--label``, the dashboard's palette), checked.

A label is typed by a person and printed in tables and on the dashboard's status line, so it is
one line of printable characters, not too long to show: :func:`check_label` refuses anything
else with a message naming the field, the value and what is allowed.
"""

from __future__ import annotations

from typing import Final

LABEL_FIELD: Final = "label"
"""The field's name, as messages say it."""
MAX_LABEL: Final = 60
"""Characters a label may have."""


def check_label(text: str) -> str:
    """``text`` as a label: trimmed of spaces at its ends, non-empty, printable, short.

    Raises:
        ValueError: Naming the field, the value and what is allowed.
    """
    label = text.strip()
    allowed = f"one line of 1 to {MAX_LABEL} printable characters"
    shown = repr(text if len(text) <= 2 * MAX_LABEL else text[: 2 * MAX_LABEL] + "…")
    if not label:
        raise ValueError(f"{LABEL_FIELD}: {shown} is not allowed; {allowed}")
    if not label.isprintable():
        raise ValueError(
            f"{LABEL_FIELD}: {shown} is not allowed (a control character or a line break); "
            f"{allowed}"
        )
    if len(label) > MAX_LABEL:
        raise ValueError(
            f"{LABEL_FIELD}: {shown} is not allowed ({len(label)} characters); {allowed}"
        )
    return label
