"""Exit codes of the ``queens`` command, shared by every subcommand."""

from __future__ import annotations

from typing import Final

EXIT_SOLVED: Final = 0
EXIT_UNSOLVED: Final = 1
EXIT_USAGE: Final = 2
EXIT_INTERRUPTED: Final = 130
EXIT_BROKEN_PIPE: Final = 141
"""The reader of stdout went away (``queens solve | head``): stop quietly, as ``cat`` does."""
