"""The validators of the parameter form's inputs: a field checked with the whole form (the
engine's rules read several fields at once), and the record budget's size."""

from __future__ import annotations

from typing import Protocol

from textual.css.query import NoMatches
from textual.validation import ValidationResult, Validator

from engine import ConfigError
from tui.lab.record_budget import RecordBudgetError, parse_budget


class CheckedForm(Protocol):
    """What a field's validator reads of its form."""

    def values(self) -> dict[str, str]:
        """The form as typed, one string per field."""

    def check(self, values: dict[str, str]) -> list[ConfigError]:
        """Every problem with a set of values."""


class ConfigFieldValidator(Validator):
    """Checks one field in the context of the whole form."""

    def __init__(self, form: CheckedForm, name: str) -> None:
        super().__init__()
        self.form = form
        self.name = name

    def validate(self, value: str) -> ValidationResult:
        """Fail with the engine's message if this field (with this value) is at fault."""
        try:
            values = self.form.values()
        except NoMatches:  # the form is still being built
            return self.success()
        values[self.name] = value
        for error in self.form.check(values):
            if error.field == self.name.replace("_", "-"):
                return self.failure(str(error), value)
        return self.success()


class RecordBudgetValidator(Validator):
    """Checks the ``record-budget`` field: a size such as ``64MB``."""

    def validate(self, value: str) -> ValidationResult:
        """Fail with the message that names the field, the value and what is allowed."""
        try:
            parse_budget(value)
        except RecordBudgetError as error:
            return self.failure(str(error), value)
        return self.success()
