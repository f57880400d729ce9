"""The run's parameters, grouped as a GA is taught, validated as the user types.

The fields are generated from :data:`engine.FIELDS` and laid out by
:mod:`tui.dashboard.pictures.form_guide`, so a new engine setting appears here by itself. Values are
checked by the engine's own :meth:`Config.check` on the whole form
(:mod:`tui.dashboard.widgets.form_checks`), so a message names the field, the value and what
is allowed, and cross-field rules are caught too; each message is
shown whole under its field. The form guides: a field that means nothing with the current
choices is dimmed (and ``Tab`` passes it by), the operator selects offer only what fits the
encoding (and switch when the encoding does), and the help of the focused field stays visible
under the fields; ``/`` and a field's name jump to it. Nothing is ever reset behind the user's
back: a bad value stays in its field until the user fixes it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar, Final

from textual import events, on
from textual.app import ComposeResult
from textual.binding import BindingType
from textual.color import Color
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.message import Message
from textual.widget import Widget
from textual.widgets import Input, Label, Select, Static

from engine import FIELDS, Config, ConfigError, PluginError, pinned_name
from engine.config.config import parse_field
from tui.dashboard.pictures.contrast import FRAME
from tui.dashboard.pictures.form_guide import (
    APPLIES_WHEN,
    OPERATOR_FIELDS,
    applies,
    default_operators,
    fitting_choices,
    grouped_fields,
    not_applying_note,
)
from tui.dashboard.runs.plugin_choices import PluginChoices
from tui.dashboard.runs.stop_rule import DEFAULT_STAGNATION
from tui.dashboard.widgets.field_finder import FieldFinder
from tui.dashboard.widgets.field_input import FieldInput
from tui.dashboard.widgets.form_checks import (
    ConfigFieldValidator,
    FormCheck,
    RecordBudgetValidator,
)
from tui.dashboard.widgets.form_looks import PARAM_FORM_CSS
from tui.dashboard.widgets.form_navigation import FORM_BINDINGS, move_past_dimmed
from tui.dashboard.widgets.preset_select import PresetSelect, matching_preset, preset_choice
from tui.lab.record_budget import RECORD_BUDGET, RecordBudgetError, budget_text, parse_budget

BOOL_FIELDS: Final = tuple(name for name, spec in FIELDS.items() if isinstance(spec.default, bool))
"""Yes/no fields: a select of ``true``/``false``, whose text reads the same in any colours."""
PRESET_HELP: Final = "preset: fill every field from a published GA (the seed is kept)"
RECORD_BUDGET_HELP: Final = (
    "record-budget: the most a new run's record may take (64MB, 512KB, 1GB); past it older "
    "keyframes and lineage are thinned, every generation still shown exactly"
)
STAGNATION_HELP: Final = (
    f"; the dashboard's stop rule, {DEFAULT_STAGNATION:,} unless changed: empty runs without it"
)


def dashed(name: str) -> str:
    """A field name as on the command line and in :class:`ConfigError`'s message."""
    return name.replace("_", "-")


def field_text(value: Any) -> str:
    """A config value as the text of an input (``None`` is an empty field)."""
    return "" if value is None else str(value)


def select_value(name: str, value: Any) -> Any:
    """A config value as the value of its select."""
    return str(value).lower() if name in BOOL_FIELDS else value


class ParamForm(Vertical):
    """Every engine setting in sections, with inline validation and a help line."""

    BINDINGS: ClassVar[list[BindingType]] = FORM_BINDINGS

    DEFAULT_CSS = PARAM_FORM_CSS

    @dataclass
    class Submitted(Message):
        """Enter in a field: the user wants a run with these values."""

        form: ParamForm

    def __init__(
        self,
        config: Config,
        *,
        record: bool = False,
        record_budget: int = RECORD_BUDGET,
        id: str | None = None,
    ) -> None:
        super().__init__(id=id)
        self.initial = config
        """The values the form starts with."""
        self.initial_record = record
        """Whether the record toggle starts on."""
        self.initial_budget = record_budget
        """The bytes the record-budget field starts with."""
        self.errors: list[ConfigError] = []
        """Every problem with the current values (empty: a run can start)."""
        self._encoding = config.encoding
        self.plugins = PluginChoices()
        """The plug-in operators the selects offer beside the built-ins."""
        self._check = FormCheck()
        self._frame_colour: str | None = None

    def compose(self) -> ComposeResult:
        """The preset select, the sections of fields with their error lines, the help line."""
        # Not a stop of its own for the cursor (tab goes from field to field, and each field
        # brings itself into view); and focusing it restyled its 224 widgets, up to 180 ms.
        with VerticalScroll(id="form-fields", can_focus=False):
            with Horizontal(classes="field", id="row-preset"):
                yield Label("preset")
                yield PresetSelect(id="field-preset")
            for title, names in grouped_fields():
                yield Static(title, classes="section")
                for name in names:
                    yield from self._field(name)
            yield Static("Recording", classes="section")
            with Horizontal(classes="field", id="row-record"):
                yield Label("record")
                yield Select(
                    [("true", "true"), ("false", "false")],
                    value=str(self.initial_record).lower(),
                    allow_blank=False,
                    compact=True,
                    id="field-record",
                )
            with Horizontal(classes="field", id="row-record_budget"):
                yield Label("record-budget")
                yield FieldInput(
                    budget_text(self.initial_budget),
                    validators=[RecordBudgetValidator()],
                    compact=True,
                    id="field-record_budget",
                )
            yield Static("", classes="field-error", id="error-record_budget")
        yield Static(PRESET_HELP, id="form-help")
        yield FieldFinder(id="form-find")

    def _field(self, name: str) -> ComposeResult:
        spec = FIELDS[name]
        value = getattr(self.initial, name)
        with Horizontal(classes="field", id=f"row-{name}"):
            yield Label(dashed(name))
            choices = ("true", "false") if name in BOOL_FIELDS else spec.metadata["choices"]
            if name in OPERATOR_FIELDS:
                choices = fitting_choices(name, self.initial.encoding)
            if choices:
                self.plugins.remember(name, value)
                yield Select(
                    self.plugins.options(name, choices),
                    value=select_value(name, value)
                    if select_value(name, value) in self.plugins.values(name, choices)
                    else choices[0],
                    allow_blank=False,
                    compact=True,
                    id=f"field-{name}",
                )
            else:
                yield FieldInput(
                    field_text(value),
                    placeholder="none" if spec.default is None else "",
                    validators=[ConfigFieldValidator(self, name)],
                    compact=True,
                    id=f"field-{name}",
                )
        yield Static("", classes="field-error", id=f"error-{name}")

    def on_mount(self) -> None:
        """Show whether the initial values are valid, and which preset they are."""
        self.revalidate()
        self.app.theme_changed_signal.subscribe(self, lambda _theme: self._later_frame())

    def _later_frame(self) -> None:
        """Colour the frame once the app's variables are those of the new theme."""
        self.call_after_refresh(self._colour_frame)

    def _colour_frame(self) -> None:
        """The frame: red while a field is invalid, the accent while the cursor is in the form,
        else the panels' frame colour. Set in the form's own style: a class (or
        ``:focus-within``) would restyle each of its 230-odd widgets, tens of milliseconds on
        every move of the cursor."""
        key = "error" if self.errors else "accent" if self.has_focus_within else FRAME
        colour = self.app.theme_variables.get(key)
        if colour is not None and colour != self._frame_colour:
            self._frame_colour = colour  # set again only when it changes: each lays out anew
            self.styles.border = ("round", Color.parse(colour))

    def on_descendant_blur(self, _event: events.DescendantBlur) -> None:
        """The cursor may have left the form: its frame says so once the focus has moved."""
        self.call_after_refresh(self._colour_frame)

    @property
    def record(self) -> bool:
        """Whether new runs are recorded in the run store (the ``record`` toggle)."""
        return self.query_one("#field-record", Select).value == "true"

    @property
    def record_budget(self) -> int | None:
        """Bytes each new run's record may take (``record-budget``; ``None`` while invalid)."""
        try:
            return parse_budget(self.query_one("#field-record_budget", Input).value)
        except RecordBudgetError:
            return None

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
        if name == "encoding":
            self._fit_operators(str(value))
        self._put(name, value)
        self.revalidate()

    def _put(self, name: str, value: Any) -> None:
        widget = self.field_widget(name)
        if isinstance(widget, Input):
            widget.value = field_text(value)
        elif isinstance(widget, Select):
            if self.plugins.remember(name, value):
                widget.set_options(self.plugins.options(name, self._builtin_choices(name)))
            widget.value = select_value(name, value)

    def _builtin_choices(self, name: str) -> tuple[str, ...]:
        if name in OPERATOR_FIELDS:
            return fitting_choices(name, self._encoding)
        choices: tuple[str, ...] = FIELDS[name].metadata["choices"]
        return choices

    def load_plugin(self, name: str, text: str) -> str | None:
        """Offer the plug-in ``text`` (``file.py:function``) in field ``name`` and choose it;
        the form then checks it as it checks every value.

        Returns:
            Why it cannot be loaded (the file, the function and what failed), or ``None``.
        """
        try:
            pinned = pinned_name(text)
        except PluginError as error:
            return str(error)
        self._put(name, pinned)
        self.revalidate()
        return None

    def fill(self, config: Config) -> None:
        """Put every field of a config in the form (as if typed) and revalidate once."""
        self._fit_operators(config.encoding, keep=False)
        for name in FIELDS:
            self._put(name, getattr(config, name))
        self.revalidate()

    def choose_preset(self, name: str) -> None:
        """Fill the form from a preset at the form's N (or the preset's own) and seed.

        Raises:
            KeyError: If there is no such preset.
        """
        choice = preset_choice(name, self._typed("n"), self._typed("seed"))
        config = choice.config
        if config.stagnation is None:
            # A preset with no stagnation limit keeps the form's (the dashboard's stop rule).
            config = config.replace(stagnation=self._typed("stagnation"))
        self.fill(config)
        if choice.note is not None:
            self.notify(choice.note, title="N changed", severity="warning", timeout=6)

    def _fit_operators(self, encoding: str, *, keep: bool = True) -> None:
        """Offer the operators that fit ``encoding``; switch those that do not fit it.

        Args:
            encoding: The encoding the operators must fit.
            keep: Keep each current operator that fits (else: the encoding's defaults, which
                the caller is about to overwrite anyway).
        """
        if encoding == self._encoding:
            return
        self._encoding = encoding
        defaults = default_operators(encoding)
        switched = []
        for name in OPERATOR_FIELDS:
            select = self.field_widget(name)
            assert isinstance(select, Select)
            current = select.value
            choices = fitting_choices(name, encoding)
            select.set_options(self.plugins.options(name, choices))
            if keep and current in self.plugins.values(name, choices):
                select.value = current
            else:
                select.value = defaults[name]
                if keep:
                    switched.append(f"{name} {current} → {defaults[name]}")
        if switched:
            self.notify(
                f"To fit the {encoding} encoding: " + ", ".join(switched) + ".",
                title="Operators switched",
                timeout=6,
            )

    def _typed(self, name: str) -> Any:
        """A field's value as the engine reads it, or ``None`` if it does not parse."""
        try:
            return parse_field(name, self.values()[name])
        except ConfigError:
            return None

    @on(PresetSelect.Chosen)
    def _preset_chosen(self, message: PresetSelect.Chosen) -> None:
        message.stop()
        self.choose_preset(message.name)

    def check(self, values: dict[str, str]) -> list[ConfigError]:
        """The engine's :meth:`Config.check` of these values (see :class:`FormCheck`)."""
        return self._check(values)

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
        """Check the whole form, mark every field at fault, dim the fields that do not apply."""
        values = self.values()
        self.errors = self.check(values)
        budget = self.query_one("#field-record_budget", Input)
        try:
            parse_budget(budget.value)
        except RecordBudgetError as error:
            self.errors.append(error)
        budget.validate(budget.value)
        for name in FIELDS:
            widget = self.field_widget(name)
            if isinstance(widget, Input):
                widget.validate(widget.value)
        for name in APPLIES_WHEN:
            if name not in FIELDS:
                continue
            applying = applies(name, values)
            self.query_one(f"#row-{name}").set_class(not applying, "-inapplicable")
            widget = self.field_widget(name)
            tooltip = None if applying else not_applying_note(name)
            if widget.tooltip != tooltip:
                widget.tooltip = tooltip
        self._show_errors()
        config = None
        if not self.errors:
            try:
                config = Config.from_mapping(values)
            except ConfigError:
                config = None
        self.query_one(PresetSelect).show_matching(
            None if config is None else matching_preset(config)
        )

    def _show_errors(self) -> None:
        self._colour_frame()
        messages: dict[str, list[str]] = {}
        for error in self.errors:
            messages.setdefault(error.field, []).append(f"✗ {error}")
        for name in (*FIELDS, "record_budget"):
            self.query_one(f"#row-{name}").set_class(name in messages, "-invalid")
            line = self.query_one(f"#error-{name}", Static)
            text = "\n".join(messages.get(name, []))
            line.set_class(bool(text), "-shown")
            # Only a changed message: each update lays the whole screen out again.
            if str(line.content) != text:
                line.update(text)

    def put_cursor_in(self, field: Widget) -> None:
        """Put the cursor in a field at once, and bring the field into view once laid out.

        At once, so that keys typed right after the form opens land in the field: with the
        focus moved only after the next refresh, they went to whatever had it before. The
        scroll waits for the layout: a form that was folded away has none yet.
        """
        self.screen.set_focus(field, scroll_visible=False)
        self.call_after_refresh(self._bring_into_view, field)

    def _bring_into_view(self, field: Widget) -> None:
        screen = self.screen
        if screen.focused is field and not screen.can_view_entire(field):
            screen.scroll_to_center(field, origin_visible=True)

    def field_names(self) -> list[str]:
        """Every field's name as the form shows it, in the form's order."""
        return [str(label.content) for label in self.query(".field Label").results(Label)]

    def dimmed(self, widget: Widget) -> bool:
        """Whether ``widget`` is (in) a field that means nothing with the current choices."""
        return any(node.has_class("-inapplicable") for node in widget.ancestors_with_self)

    def action_next_field(self, forward: bool) -> None:
        """Tab: the next (or previous) field that means something."""
        move_past_dimmed(self, forward=forward)

    def holds(self, widget: Widget) -> bool:
        """Whether ``widget`` is in the form."""
        return self in widget.ancestors

    def action_find_field(self) -> None:
        """``/``: a line at the form's foot to type a field's name in; enter goes there."""
        help_line = self.query_one("#form-help", Static)
        self.query_one(FieldFinder).open(self, self.field_names(), help_line)

    def first_invalid(self) -> Widget | None:
        """The first field at fault, to put the cursor on."""
        for error in self.errors:
            return self.field_widget(error.field)
        return None

    @on(Input.Changed)
    @on(Select.Changed)
    def _changed(self, event: Input.Changed | Select.Changed) -> None:
        """A field changed: other fields may have become (in)valid or (in)applicable with it."""
        event.stop()
        if event.control.id == "field-encoding" and isinstance(event.value, str):
            self._fit_operators(event.value)
        self.revalidate()

    @on(Input.Submitted)
    def _submitted(self, event: Input.Submitted) -> None:
        """Enter in a field asks for a run."""
        event.stop()
        self.post_message(self.Submitted(self))

    def on_descendant_focus(self, event: events.DescendantFocus) -> None:
        """Show the help of the focused field (and keep it in view)."""
        self._colour_frame()
        widget_id = event.widget.id or ""
        name = widget_id.removeprefix("field-")
        help_line = self.query_one("#form-help", Static)
        if name == "preset":
            help_line.update(PRESET_HELP)
        elif name == "record":
            help_line.update(
                "record: keep new runs in the run store (queens runs lists them; [ ] rewind)"
            )
        elif name == "record_budget":
            help_line.update(RECORD_BUDGET_HELP)
        elif name in FIELDS:
            help_text = FIELDS[name].metadata["help"]
            if name == "stagnation":
                help_text += STAGNATION_HELP
            if name in APPLIES_WHEN and not applies(name, self.values()):
                help_text += f" ({not_applying_note(name)})"
            help_line.update(f"{dashed(name)}: {help_text}")
