"""The engine's two error types, in a module of their own so that raising or catching them
imports nothing else (the checkpoint reader is loaded only when a run is saved or resumed)."""

from __future__ import annotations


class ConfigError(ValueError):
    """A config value that is not allowed.

    Attributes:
        field: The config field, as :class:`~engine.Config` names it (``mutation_rate``).
        value: The value given.
        allowed: What would be accepted.

    The message names the field as people write it, with dashes (``mutation-rate: 2.0 is not
    allowed; ...``); :attr:`flag` is the command line's spelling of it.
    """

    def __init__(self, field: str, value: object, allowed: str) -> None:
        self.field = field.replace("-", "_")
        self.value = value
        self.allowed = allowed
        super().__init__(f"{self.name}: {value!r} is not allowed; {allowed}")

    @property
    def name(self) -> str:
        """The field as people write it: with dashes (``mutation-rate``)."""
        return self.field.replace("_", "-")

    @property
    def flag(self) -> str:
        """The field's command-line flag (``--mutation-rate``)."""
        return f"--{self.name}"


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
