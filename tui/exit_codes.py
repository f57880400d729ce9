"""Exit codes of the ``queens`` command, shared by every subcommand."""

from __future__ import annotations

from typing import Final

from tui.entry import EXIT_INTERRUPTED, EXIT_TERMINATED

EXIT_SOLVED: Final = 0
EXIT_UNSOLVED: Final = 1
EXIT_USAGE: Final = 2
EXIT_BROKEN_PIPE: Final = 141
"""The reader of stdout went away (``queens solve | head``): stop quietly, as ``cat`` does."""

__all__ = [
    "EXIT_BROKEN_PIPE",
    "EXIT_INTERRUPTED",
    "EXIT_SOLVED",
    "EXIT_TERMINATED",
    "EXIT_UNSOLVED",
    "EXIT_USAGE",
]
