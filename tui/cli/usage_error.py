"""The command line's own usage errors: a flag or argument given where it means nothing, or with
a value no command can use, that is not a config field (those are :class:`~engine.ConfigError`).

The command line prints one line and exits 2 (:data:`~tui.cli.exit_codes.EXIT_USAGE`), in the
same words as every refusal (:class:`~engine.errors.NotAllowed`): ``--workers: 0 is not
allowed; a whole number between 1 and 256``.
"""

from __future__ import annotations

from engine.errors import NotAllowed


class UsageError(NotAllowed):
    """A flag or argument that is not allowed as given.

    Attributes:
        flag: The flag as typed (``--workers``), or a positional argument's name (``RUN``).
        value: The value given.
        allowed: What would be accepted.
    """

    def __init__(self, flag: str, value: object, allowed: str) -> None:
        self.flag = flag
        super().__init__(flag, value, allowed)
