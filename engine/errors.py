"""The engine's two error types, in a module of their own so that raising or catching them
imports nothing else (the checkpoint reader is loaded only when a run is saved or resumed)."""

from __future__ import annotations


class ConfigError(ValueError):
    """A config value that is not allowed.

    Attributes:
        field: The config field (as on the command line, with dashes).
        value: The value given.
        allowed: What would be accepted.
    """

    def __init__(self, field: str, value: object, allowed: str) -> None:
        self.field = field.replace("_", "-")
        self.value = value
        self.allowed = allowed
        super().__init__(f"{self.field}: {value!r} is not allowed; {allowed}")


class CheckpointError(ValueError):
    """A checkpoint that cannot be resumed.

    Attributes:
        field: The field at fault, dotted for nested ones (``config.n``, ``rng.state``,
            ``history.elapsed``).
        problem: What is wrong with it, and what was expected.
    """

    def __init__(self, field: str, problem: str) -> None:
        self.field = field
        self.problem = problem
        super().__init__(f"checkpoint {field}: {problem}")
