"""An ancestry's rows: a stretch of generations in which the line stayed in one place is one row.

In a long run the line of the best often sits still for hundreds of generations, a survivor of
itself at the same index; listed generation by generation those stretches bury the few
generations where something happened. The dashboard's ancestry screen and ``queens lineage``
both group them here, the same way: consecutive survivors in one place (same index, the line
following that same index) make one row, shown as the generations ``first-last``.
"""

from __future__ import annotations

from collections.abc import Sequence

from tui.lab.lineage import Ancestor


def line_rows(ancestors: Sequence[Ancestor]) -> list[tuple[int, int]]:
    """The rows of a line: ``(first, last)`` positions in ``ancestors``, a stretch of survivors
    of themselves in one place (same index, same operator) making one row."""
    rows: list[tuple[int, int]] = []
    for position, ancestor in enumerate(ancestors):
        if rows:
            first, last = rows[-1]
            previous = ancestors[last]
            if (
                ancestor.operator == "survivor"
                and previous.operator == "survivor"
                and ancestor.individual == previous.individual
                and previous.followed == ancestor.individual
            ):
                rows[-1] = (first, position)
                continue
        rows.append((position, position))
    return rows


def generations_text(ancestors: Sequence[Ancestor], first: int, last: int) -> str:
    """A row's generations: ``1,204`` for one, ``1,204-1,180`` for a stretch (newest first,
    as the line runs from the individual back to generation 0)."""
    text = f"{ancestors[first].generation:,}"
    if last > first:
        text += f"-{ancestors[last].generation:,}"
    return text
