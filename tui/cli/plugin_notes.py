"""Telling the user when a recorded run's plug-in file has changed or gone since.

The record carries each plug-in's source, and that is what a replay or a resume runs: the note
says so, on stderr, so that no one believes the file as it is now made the run.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping
from typing import Any

from engine import file_changes


def note_changed_plugins(config: Mapping[str, Any]) -> None:
    """Print one ``queens: note:`` line per plug-in whose file differs from its record."""
    for note in file_changes(config):
        print(f"queens: note: {note}", file=sys.stderr)
