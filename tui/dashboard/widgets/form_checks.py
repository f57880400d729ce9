"""The form's validation: each field checked by the engine's own rules on the whole form.

A field's validator puts the field's value into the form's values and asks the engine's
:meth:`~engine.Config.check` about all of them, so a message names the field, the value and what
is allowed, and a rule between two fields is caught in either; the record budget is checked by
the lab's own reader of sizes. On a keystroke every field's validator asks about the same
values: :class:`FormCheck` checks them once.
"""

from __future__ import annotations

from typing import Protocol

from textual.css.query import NoMatches
from textual.validation import ValidationResult, Validator

from engine import Config, ConfigError
from tui.lab.record_budget import RecordBudgetError, parse_budget


class CheckedForm(Protocol):
    """What a field's validator asks of its form."""

    def values(self) -> dict[str, str]:
        """The form as typed, one string per field.

        Raises:
            NoMatches: The form is still being built.
        """

    def check(self, values: dict[str, str]) -> list[ConfigError]:
        """Every problem the engine finds with ``values``."""


class FormCheck:
    """The engine's :meth:`~engine.Config.check` of a form's values, remembered for the next
    call: each field's validator checks the whole form with its own value in it, and the form
    checks it once more, so on a keystroke they all ask about the same values."""

    def __init__(self) -> None:
        self._checked: tuple[tuple[str, str], ...] | None = None
        self._errors: list[ConfigError] = []

    def __call__(self, values: dict[str, str]) -> list[ConfigError]:
        """Every problem with ``values`` (a new list: the caller may add to it)."""
        key = tuple(values.items())
        if key != self._checked:
            self._checked = key
            self._errors = Config.check(values)
        return list(self._errors)


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
            if error.field == self.name:
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
