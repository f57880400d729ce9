"""A run record's size budget: its default, and the text that sets it (``64MB``).

Past its budget a record is thinned (:class:`~tui.lab.recorder.Recorder`): every generation's
statistics stay, keyframes and lineage rows are spaced wider, and any generation is still
recomputed exactly from the nearest keyframe. What the budget counts is
:mod:`tui.lab.store.run_size`'s.
"""

from __future__ import annotations

import re
from typing import Final

from engine import ConfigError

RECORD_BUDGET: Final = 64 * 2**20
"""Bytes a run's record may take by default (64 MB)."""
LEAST_BUDGET: Final = 64 * 2**10
"""The smallest budget allowed (64 KB: room for a short run and a few keyframes of a small one)."""
MOST_BUDGET: Final = 2**40
"""The largest budget allowed (1024 GB)."""
UNITS: Final = {"": 1, "B": 1, "KB": 2**10, "MB": 2**20, "GB": 2**30}
"""Bytes per unit; KB, MB and GB are powers of 1024 (KiB, MiB and GiB are read the same)."""
_SIZE: Final = re.compile(r"\s*(\d+(?:\.\d+)?)\s*([KMG]?I?B)?\s*", re.IGNORECASE)
ALLOWED: Final = "a size from 64KB to 1024GB, such as 64MB or 512KB (KB, MB, GB: powers of 1024)"
"""What a budget may be, in words (error messages say it)."""


class RecordBudgetError(ConfigError):
    """A budget that is not a size, or out of range; the message names the field and value
    (a :class:`~engine.ConfigError`, so the command line reports it as it does a config's)."""

    def __init__(self, text: str, field: str = "record-budget") -> None:
        super().__init__(field, text if len(text) <= 40 else text[:37] + "...", ALLOWED)


def parse_budget(text: str, field: str = "record-budget") -> int:
    """The bytes ``text`` spells (``64MB``, ``512 KB``, ``1GiB``, ``1.5GB``).

    Raises:
        RecordBudgetError: Not a size, or out of :data:`LEAST_BUDGET` .. :data:`MOST_BUDGET`.
    """
    found = _SIZE.fullmatch(text)
    if found is None:
        raise RecordBudgetError(text, field)
    number, unit = found.group(1), (found.group(2) or "").upper().replace("I", "")
    size = int(float(number) * UNITS[unit])
    if not LEAST_BUDGET <= size <= MOST_BUDGET:
        raise RecordBudgetError(text, field)
    return size


def budget_text(size: int) -> str:
    """A budget as its shortest exact text (``64MB``, ``256KB``), else in bytes."""
    for unit in ("GB", "MB", "KB"):
        if size % UNITS[unit] == 0:
            return f"{size // UNITS[unit]}{unit}"
    return f"{size}B"
