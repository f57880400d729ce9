"""Exit codes of the ``queens`` command, shared by every subcommand: the bottom of the command
line, importing nothing, so that the console script can use them before anything is loaded.

Plain names, not ``typing.Final``: importing ``typing`` took 3 ms of the start-up during which a
Ctrl+C is not yet ours to handle (the console script installs its handler right after this).
"""

EXIT_SOLVED = 0
EXIT_UNSOLVED = 1
EXIT_USAGE = 2
EXIT_INTERRUPTED = 130
"""Exit code after Ctrl+C (SIGINT): 128 + 2, as a shell reports it."""

EXIT_TERMINATED = 143
"""Exit code after SIGTERM: 128 + 15."""

EXIT_BROKEN_PIPE = 141
"""The reader of stdout went away (``queens solve | head``): stop quietly, as ``cat`` does."""
