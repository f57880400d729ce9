"""The run's parameters: one field per engine setting, validated as the user types.

The fields are generated from :data:`engine.FIELDS`, so a new engine setting appears here by
itself. Values are checked by the engine's own :meth:`Config.check` on the whole form, so a
message names the field, the value and what is allowed, and cross-field rules (a crossover that
does not fit the encoding, a tournament larger than the population) are caught too. Nothing is
ever reset: a bad value stays in its field until the user fixes it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.containers import Horizontal, VerticalScroll
from textual.css.query import NoMatches
from textual.message import Message
from textual.validation import ValidationResult, Validator
from textual.widget import Widget
from textual.widgets import Input, Label, Select, Static

from engine import FIELDS, Config, ConfigError
from engine.config import parse_field
from tui.widgets.preset_select import PresetSelect, preset_choice

BOOL_FIELDS: Final = tuple(name for name, spec in FIELDS.items() if isinstance(spec.default, bool))
"""Yes/no fields: a select of ``true``/``false``, whose text reads the same in any colours."""


def dashed(name: str) -> str:
    """A field name as on the command line and in :class:`ConfigError`."""
    return name.replace("_", "-")


def field_text(value: Any) -> str:
    """A config value as the text of an input (``None`` is an empty field)."""
    return "" if value is None else str(value)


class ConfigFieldValidator(Validator):
    """Checks one field in the context of the whole form."""

    def __init__(self, form: ParamForm, name: str) -> None:
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
        for error in Config.check(values):
            if error.field == dashed(self.name):
                return self.failure(str(error), value)
        return self.success()


class ParamForm(VerticalScroll):
    """Every engine setting, with inline validation."""

    DEFAULT_CSS = """
    ParamForm {
        height: 1fr;
    }
    ParamForm .field {
        height: 1;
        margin-bottom: 0;
    }
    ParamForm .field Label {
        width: 20;
        padding-right: 1;
        color: $text-muted;
    }
    ParamForm .field Input, ParamForm .field Select {
        width: 1fr;
    }
    ParamForm .field.-invalid Label {
        color: $error;
        text-style: bold;
    }
    ParamForm #form-errors {
        color: $error;
        margin-top: 1;
    }
    ParamForm #form-help {
        color: $text-muted;
        margin-top: 1;
    }
    """

    @dataclass
    class Submitted(Message):
        """Enter in a field: the user wants a run with these values."""

        form: ParamForm

    def __init__(self, config: Config, *, record: bool = False, id: str | None = None) -> None:
        super().__init__(id=id)
        self.initial = config
        """The values the form starts with."""
        self.initial_record = record
        """Whether the record toggle starts on."""
        self.errors: list[ConfigError] = []
        """Every problem with the current values (empty: a run can start)."""

    def compose(self) -> ComposeResult:
        """The preset select, a labelled row per config field, the errors and the field's help."""
        with Horizontal(classes="field", id="row-preset"):
            yield Label("preset")
            yield PresetSelect(id="field-preset")
        for name, spec in FIELDS.items():
            value = getattr(self.initial, name)
            with Horizontal(classes="field", id=f"row-{name}"):
                yield Label(dashed(name))
                choices = ("true", "false") if name in BOOL_FIELDS else spec.metadata["choices"]
                if choices:
                    yield Select(
                        [(choice, choice) for choice in choices],
                        value=str(value).lower() if name in BOOL_FIELDS else value,
                        allow_blank=False,
                        compact=True,
                        id=f"field-{name}",
                    )
                else:
                    yield Input(
                        field_text(value),
                        placeholder="none" if spec.default is None else "",
                        validators=[ConfigFieldValidator(self, name)],
                        compact=True,
                        id=f"field-{name}",
                    )
        with Horizontal(classes="field", id="row-record"):
            yield Label("record")
            yield Select(
                [("true", "true"), ("false", "false")],
                value=str(self.initial_record).lower(),
                allow_blank=False,
                compact=True,
                id="field-record",
            )
        yield Static("", id="form-errors")
        yield Static("", id="form-help")

    def on_mount(self) -> None:
        """Show whether the initial values are valid."""
        self.revalidate()

    @property
    def record(self) -> bool:
        """Whether new runs are recorded in the run store (the ``record`` toggle)."""
        return self.query_one("#field-record", Select).value == "true"

    def field_widget(self, name: str) -> Widget:
        """The input or select of a field (name with ``_`` or ``-``)."""
        return self.query_one(f"#field-{name.replace('-', '_')}")

    def values(self) -> dict[str, str]:
        """The form as typed, one string per field."""
        values: dict[str, str] = {}
        for name in FIELDS:
            widget = self.field_widget(name)
            if isinstance(widget, Input):
                values[name] = widget.value
            elif isinstance(widget, Select):
                values[name] = str(widget.value)
        return values

    def set_value(self, name: str, value: Any) -> None:
        """Put a value in a field (as if typed) and revalidate."""
        widget = self.field_widget(name)
        if isinstance(widget, Input):
            widget.value = field_text(value)
        elif isinstance(widget, Select):
            widget.value = str(value).lower() if name in BOOL_FIELDS else value
        self.revalidate()

    def fill(self, config: Config) -> None:
        """Put every field of a config in the form (as if typed) and revalidate once."""
        for name in FIELDS:
            widget = self.field_widget(name)
            value = getattr(config, name)
            if isinstance(widget, Input):
                widget.value = field_text(value)
            elif isinstance(widget, Select):
                widget.value = str(value).lower() if name in BOOL_FIELDS else value
        self.revalidate()

    def _typed(self, name: str) -> Any:
        """A field's value as the engine reads it, or ``None`` if it does not parse."""
        try:
            return parse_field(name, self.values()[name])
        except ConfigError:
            return None

    @on(PresetSelect.Chosen)
    def _preset_chosen(self, message: PresetSelect.Chosen) -> None:
        """Fill the form from a preset at the form's N (or the preset's own) and seed."""
        message.stop()
        choice = preset_choice(message.name, self._typed("n"), self._typed("seed"))
        self.fill(choice.config)
        if choice.note is not None:
            self.notify(choice.note, title="N changed", severity="warning", timeout=6)

    def config(self) -> Config | None:
        """The config the form describes, or ``None`` while it is invalid."""
        self.revalidate()
        if self.errors:
            return None
        try:
            return Config.from_mapping(self.values())
        except ConfigError as error:
            self.errors = [error]
            self._show_errors()
            return None

    def revalidate(self) -> None:
        """Check the whole form and mark every field at fault."""
        self.errors = Config.check(self.values())
        at_fault = {error.field for error in self.errors}
        for name in FIELDS:
            widget = self.field_widget(name)
            if isinstance(widget, Input):
                widget.validate(widget.value)
            self.query_one(f"#row-{name}").set_class(dashed(name) in at_fault, "-invalid")
        self._show_errors()

    def _show_errors(self) -> None:
        self.set_class(bool(self.errors), "-invalid")
        text = Text()
        for error in self.errors:
            text.append(f"✗ {error}\n")
        self.query_one("#form-errors", Static).update(text)

    def first_invalid(self) -> Widget | None:
        """The first field at fault, to put the cursor on."""
        for error in self.errors:
            return self.field_widget(error.field)
        return None

    @on(Input.Changed)
    @on(Select.Changed)
    def _changed(self, event: Message) -> None:
        """A field changed: other fields may have become (in)valid with it."""
        event.stop()
        self.revalidate()

    @on(Input.Submitted)
    def _submitted(self, event: Input.Submitted) -> None:
        """Enter in a field asks for a run."""
        event.stop()
        self.post_message(self.Submitted(self))

    def on_descendant_focus(self, event: events.DescendantFocus) -> None:
        """Show the help of the focused field."""
        widget_id = event.widget.id or ""
        name = widget_id.removeprefix("field-")
        if name == "preset":
            self.query_one("#form-help", Static).update(
                "preset: fill every field from a published GA (the seed is kept); "
                "edit any field afterwards"
            )
        if name == "record":
            self.query_one("#form-help", Static).update(
                "record: keep new runs in the run store (queens runs lists them; [ ] rewind)"
            )
        if name in FIELDS:
            help_text = FIELDS[name].metadata["help"]
            self.query_one("#form-help", Static).update(f"{dashed(name)}: {help_text}")
