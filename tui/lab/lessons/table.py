"""A lesson's rows as plain text: aligned columns, numbers to four figures; the whole series a
row may carry (``curve``) left to the JSON."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

SERIES_KEYS: Final = ("curve", "curve_theory")
"""Row keys holding a whole series: in the JSON only."""

FITS: Final = 72
"""Characters of a table's line that fit the lessons screen at 80x24 (and a terminal of 80)."""

TEXT_KEYS: Final = ("text", "note")
"""Row keys holding words: a row with ``text`` is a sentence on a line of its own, a ``note``
follows its row."""


def shown_rows(rows: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """The rows without their series."""
    return [{k: v for k, v in row.items() if k not in SERIES_KEYS} for row in rows]


def columns_of(rows: Sequence[Mapping[str, Any]]) -> list[str]:
    """Every key of the rows, in the order they first appear."""
    return list(dict.fromkeys(key for row in rows for key in row))


def cell(value: Any) -> str:
    """A value as a table shows it."""
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return f"{value:.4g}" if abs(value) < 1e5 else f"{value:,.0f}"
    if isinstance(value, int):
        return f"{value:,}"
    return str(value)


def header_parts(column: str) -> tuple[str, str]:
    """A column's name on two lines, split at its first underscore (``strict_minima``:
    ``strict`` over ``minima``)."""
    first, _, rest = column.partition("_")
    return (first, rest.replace("_", " ")) if rest else ("", first)


def table_lines(rows: Sequence[Mapping[str, Any]]) -> list[str]:
    """The rows as aligned lines under a header; a row of text alone (a verdict) after a blank
    line; a note after its row.

    A table too wide for :data:`FITS` puts its two-word column names on two lines (and, if
    still too wide, one space between columns), so that the landscape's ten columns fit the
    lessons screen at 80x24 without wrapping.
    """
    shown = shown_rows(rows)
    columns = [c for c in columns_of(shown) if c not in TEXT_KEYS]
    cells = [[cell(row.get(c)) for c in columns] for row in shown if "text" not in row]

    def widths_under(headers: list[tuple[str, str]]) -> list[int]:
        return [
            max([*map(len, headers[i]), *(len(line[i]) for line in cells)])
            for i in range(len(columns))
        ]

    def width(widths: list[int], gap: str) -> int:
        return sum(widths) + len(gap) * (len(widths) - 1)

    headers = [("", c) for c in columns]
    widths = widths_under(headers)
    if width(widths, "  ") > FITS:
        headers = [header_parts(c) for c in columns]
        widths = widths_under(headers)
    gap = "  " if width(widths, "  ") <= FITS else " "
    lines = [
        gap.join(h[part].ljust(w) for h, w in zip(headers, widths, strict=True)).rstrip()
        for part in (0, 1)
        if part == 1 or any(h[0] for h in headers)
    ]
    for row in shown:
        if "text" in row:
            lines += ["", str(row["text"])]
            continue
        values = [cell(row.get(c)) for c in columns]
        line = gap.join(v.ljust(w) for v, w in zip(values, widths, strict=True)).rstrip()
        if "note" in row:
            line += f"  ({row['note']})"
        lines.append(line)
    return lines


def size_line(document: Mapping[str, Any], seeds_meaning: str) -> str:
    """``P = 1,000, 30 seeds``, or empty for a lesson without either."""
    size = [f"P = {document['population']:,}"] if document.get("population") else []
    if document.get("seeds"):
        size.append(f"{document['seeds']:,} {seeds_meaning}")
    return ", ".join(size)
