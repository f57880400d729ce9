"""A lesson's document printed: a table with the lesson's text and formula, CSV, or JSON."""

from __future__ import annotations

import csv
import io
import json
from typing import Any

from tui.lab.lessons.lesson import Lesson

SERIES_KEYS = ("curve", "curve_theory")
"""Row keys holding a whole series: in the JSON only."""


def report(lesson: Lesson, document: dict[str, Any], output: str) -> str:
    """``document`` as ``json``, ``csv`` or a ``table``."""
    if output == "json":
        return json.dumps(document, allow_nan=False) + "\n"
    rows = [{k: v for k, v in row.items() if k not in SERIES_KEYS} for row in document["rows"]]
    columns = list(dict.fromkeys(key for row in rows for key in row))
    if output == "csv":
        buffer = io.StringIO()
        writer = csv.DictWriter(buffer, fieldnames=columns, lineterminator="\n")
        writer.writeheader()
        for row in rows:
            writer.writerow({key: row.get(key, "") for key in columns})
        return buffer.getvalue()
    return table(lesson, document, rows, columns)


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


def table(
    lesson: Lesson, document: dict[str, Any], rows: list[dict[str, Any]], columns: list[str]
) -> str:
    """The lesson's title, text and formula, then its rows as aligned columns (a row of text
    alone, such as a verdict, on a line of its own)."""
    lines = [lesson.title, "", lesson.text, "", f"theory: {lesson.formula}"]
    size = [f"P = {document['population']:,}"] if document["population"] else []
    if document["seeds"]:
        size.append(f"{document['seeds']:,} {lesson.seeds_meaning}")
    if size:
        lines.append(", ".join(size))
    lines.append("")
    shown = [c for c in columns if c not in ("text", "note")]
    texts = [[cell(row.get(c)) for c in shown] for row in rows if "text" not in row]
    widths = (
        [max(len(c), *(len(t[i]) for t in texts)) for i, c in enumerate(shown)] if texts else []
    )
    lines.append("  ".join(c.ljust(w) for c, w in zip(shown, widths, strict=True)).rstrip())
    for row in rows:
        if "text" in row:
            lines.append("")
            lines.append(str(row["text"]))
            continue
        values = [cell(row.get(c)) for c in shown]
        line = "  ".join(v.ljust(w) for v, w in zip(values, widths, strict=True)).rstrip()
        if "note" in row:
            line += f"  ({row['note']})"
        lines.append(line)
    return "\n".join(lines) + "\n"
