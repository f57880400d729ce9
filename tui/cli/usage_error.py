"""The command line's own usage errors: a flag or argument given where it means nothing, or with
a value no command can use, that is not a config field (those are :class:`~engine.ConfigError`).

The command line prints one line and exits 2 (:data:`~tui.cli.exit_codes.EXIT_USAGE`), in the
same words as a config's refusal: ``--workers: 0 is not allowed; a whole number between 1 and
256``.
"""

from __future__ import annotations

from engine.errors import ConfigError
from tui.lab.sweep.plan_error import PlanError


class UsageError(ValueError):
    """A flag or argument that is not allowed as given.

    Attributes:
        flag: The flag as typed (``--workers``), or a positional argument's name (``RUN``).
        value: The value given.
        allowed: What would be accepted.
    """

    def __init__(self, flag: str, value: object, allowed: str) -> None:
        self.flag = flag
        self.value = value
        self.allowed = allowed
        super().__init__(f"{flag}: {value!r} is not allowed; {allowed}")


REFUSALS = (ConfigError, PlanError, UsageError)
"""What the command line reports as one line and exit 2: a config value, a sweep plan's entry,
or a flag or argument of its own that is not allowed."""


def refusal_line(error: ConfigError | PlanError | UsageError) -> str:
    """The one line the command line prints for ``error``: a config field is named by its flag
    (``--mutation-rate: 2.0 is not allowed; ...``), a plan's entry and a usage error as they
    say themselves."""
    if isinstance(error, ConfigError):
        return f"{error.flag}: {error.value!r} is not allowed; {error.allowed}"
    return str(error)
