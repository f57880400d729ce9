"""Exit codes of the ``queens`` command, shared by every subcommand: the bottom of the command
line, importing nothing, so that the console script can use them before anything is loaded."""

from __future__ import annotations

from typing import Final

EXIT_SOLVED: Final = 0
EXIT_UNSOLVED: Final = 1
EXIT_USAGE: Final = 2
EXIT_INTERRUPTED: Final = 130
"""Exit code after Ctrl+C (SIGINT): 128 + 2, as a shell reports it."""

EXIT_TERMINATED: Final = 143
"""Exit code after SIGTERM: 128 + 15."""

EXIT_BROKEN_PIPE: Final = 141
"""The reader of stdout went away (``queens solve | head``): stop quietly, as ``cat`` does."""
