"""The engine's two error types, in a module of their own so that raising or catching them
imports nothing else (the checkpoint reader is loaded only when a run is saved or resumed), and
the family of refusals they share with the lab's and the command line's own."""

from __future__ import annotations


class NotAllowed(ValueError):
    """A value that is not allowed, said in one line: what was given, the value, what is.

    The family of every refusal a person reads: a config value (:class:`ConfigError`), a sweep
    plan's entry and a command-line flag of the lab's and the command line's own. The command
    line prints :meth:`command_line_text` of any of them and exits 2.

    Attributes:
        value: The value given.
        allowed: What would be accepted.
    """

    def __init__(self, name: str, value: object, allowed: str) -> None:
        self.value = value
        self.allowed = allowed
        super().__init__(f"{name}: {value!r} is not allowed; {allowed}")

    def command_line_text(self) -> str:
        """The refusal as the command line says it."""
        return str(self)


class ConfigError(NotAllowed):
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
        super().__init__(self.name, value, allowed)

    @property
    def name(self) -> str:
        """The field as people write it: with dashes (``mutation-rate``)."""
        return self.field.replace("_", "-")

    @property
    def flag(self) -> str:
        """The field's command-line flag (``--mutation-rate``)."""
        return f"--{self.name}"

    def command_line_text(self) -> str:
        """The refusal naming the field's flag: ``--mutation-rate: 2.0 is not allowed; ...``."""
        return f"{self.flag}: {self.value!r} is not allowed; {self.allowed}"


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
