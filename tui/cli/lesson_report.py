"""A lesson's document printed: a table with the lesson's text and formula, CSV, or JSON."""

from __future__ import annotations

import csv
import io
import json
import textwrap
from typing import Any, Final

from tui.lab.lessons.lesson import Lesson
from tui.lab.lessons.table import columns_of, shown_rows, size_line, table_lines

TEXT_WIDTH: Final = 78
"""The lesson's text and formula are wrapped to this many columns (an 80-column terminal)."""


def report(lesson: Lesson, document: dict[str, Any], output: str) -> str:
    """``document`` as ``json``, ``csv`` or a ``table``."""
    if output == "json":
        return json.dumps(document, allow_nan=False) + "\n"
    if output == "csv":
        rows = shown_rows(document["rows"])
        columns = columns_of(rows)
        buffer = io.StringIO()
        writer = csv.DictWriter(buffer, fieldnames=columns, lineterminator="\n")
        writer.writeheader()
        for row in rows:
            writer.writerow({key: row.get(key, "") for key in columns})
        return buffer.getvalue()
    lines = [
        lesson.title,
        "",
        *textwrap.wrap(lesson.text, TEXT_WIDTH),
        "",
        *textwrap.wrap(f"theory: {lesson.formula}", TEXT_WIDTH, subsequent_indent="  "),
    ]
    size = size_line(document, lesson.seeds_meaning)
    if size:
        lines.append(size)
    lines += ["", *table_lines(document["rows"])]
    return "\n".join(lines) + "\n"
