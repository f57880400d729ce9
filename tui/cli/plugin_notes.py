"""Telling the user when a recorded run's plug-in file has changed or gone since.

The record carries each plug-in's source, and that is what a replay or a resume runs: the note
says so, on stderr, so that no one believes the file as it is now made the run.
"""

from __future__ import annotations

import sys

from tui.lab.store import RunInfo
from tui.lab.swapped_operators import recorded_plugin_notes


def note_changed_plugins(info: RunInfo) -> None:
    """Print one ``queens: note:`` line per plug-in of the record (its starting config's and
    the ones swapped in since) whose file differs from its recorded source."""
    for note in recorded_plugin_notes(info):
        print(f"queens: note: {note}", file=sys.stderr)
