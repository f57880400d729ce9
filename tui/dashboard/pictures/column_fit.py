"""Fitting a table's columns into the width it has, so that no column is cut off at the side.

No Textual here. A table of short columns (numbers) and a few wide ones of words (an ancestry's
operators and parents) keeps every column on one line where they all fit; where they do not,
the short columns keep their width and the wide ones share what is left, their cells wrapped
onto more lines at the spaces (a word longer than its column is broken). At 80 columns the
ancestry screen's table has 45 cells for six columns: its last one used to be cut, to be read
only by scrolling sideways; it now reads with one space between columns, the operators
wrapped where they are long.
"""

from __future__ import annotations

import textwrap
from collections.abc import Sequence


def natural_widths(header: Sequence[str], rows: Sequence[Sequence[str]]) -> list[int]:
    """Each column's width on one line: its longest cell or its header."""
    widths = [len(label) for label in header]
    for row in rows:
        widths = [max(width, len(cell)) for width, cell in zip(widths, row, strict=True)]
    return widths


def longest_words(column: int, header: Sequence[str], rows: Sequence[Sequence[str]]) -> int:
    """The longest word of a column (the header's too): narrower, a word would be broken."""
    words = header[column].split()
    for row in rows:
        words += row[column].split()
    return max((len(word) for word in words), default=1)


def fitted_widths(natural: Sequence[int], shortest: Sequence[int | None], room: int) -> list[int]:
    """The columns' widths where their natural widths do not fit in ``room`` cells.

    Args:
        natural: Each column's width on one line (:func:`natural_widths`).
        shortest: For a column that may wrap, the width under which it would break words
            (:func:`longest_words`); ``None`` for a column that keeps its width.
        room: The cells the columns have across, padding and gaps left out.

    Returns:
        The widths: the wrapping columns share what the others leave, each at least its
        longest word where there is room for that (else the room is shared evenly, words
        broken), then, in turn, as near its natural width as what is left allows.
    """
    wrapping = [index for index, short in enumerate(shortest) if short is not None]
    left = room - sum(width for index, width in enumerate(natural) if index not in wrapping)
    widths = list(natural)
    floors = {index: max(1, min(shortest[index] or 1, natural[index])) for index in wrapping}
    if sum(floors.values()) > left:
        share, extra = divmod(max(left, len(wrapping)), len(wrapping))
        for position, index in enumerate(wrapping):
            widths[index] = share + (1 if position < extra else 0)
        return widths
    for index in wrapping:
        widths[index] = floors[index]
    left -= sum(floors.values())
    for index in wrapping:
        grow = min(left, natural[index] - widths[index])
        widths[index] += grow
        left -= grow
    return widths


def wrapped(cell: str, width: int) -> list[str]:
    """A cell's lines in a column ``width`` wide: wrapped at spaces, long words broken."""
    if len(cell) <= width:
        return [cell]
    return textwrap.wrap(cell, width, break_long_words=True, break_on_hyphens=False) or [""]
