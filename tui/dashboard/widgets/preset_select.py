"""A select of the published GAs' presets, and the config a choice puts in the form.

Choosing a preset fills every field of the form from :meth:`engine.config.presets.Preset.config`;
the fields stay editable afterwards. A preset that does not support the form's N brings its
own N with it, and the form says why N changed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

from textual import on
from textual.message import Message
from textual.widgets import Select
from textual.widgets._select import SelectCurrent

from engine import Config
from engine.config.presets import PRESETS

if TYPE_CHECKING:
    from textual.widgets._select import NoSelection

PROMPT: Final = "custom"
"""What the select shows when the form is no preset (after the user edited it)."""


@dataclass(frozen=True)
class PresetChoice:
    """The config a preset gives for a form, and why N changed if it did.

    Attributes:
        name: The preset.
        config: Every field of the form, from the preset.
        note: Why N is not the form's N (``None`` when it is).
    """

    name: str
    config: Config
    note: str | None


def preset_choice(name: str, n: int | None, seed: int | None = None) -> PresetChoice:
    """The preset's config at the form's N, or at the preset's own N if it does not fit.

    Presets say nothing about the seed, so the form's seed is kept: a run with another
    preset is then the same experiment with another GA.

    Args:
        name: A key of :data:`engine.config.presets.PRESETS`.
        n: The form's N (``None`` when the field does not hold a valid number).
        seed: The form's seed, kept in the config.

    Returns:
        The config and, when N had to change, a sentence that says why.

    Raises:
        KeyError: If there is no such preset.
    """
    preset = PRESETS[name]
    fits = n is not None and (preset.allowed_n is None or n in preset.allowed_n)
    if fits and n is not None:
        try:
            return PresetChoice(name, preset.config(n, seed=seed), None)
        except ValueError:
            pass  # the N is no board size at all (e.g. 2): fall back on the preset's own
    sizes = (
        "any N"
        if preset.allowed_n is None
        else "N = " + ", ".join(str(size) for size in preset.allowed_n)
    )
    shown = "an invalid N" if n is None else f"N = {n}"
    note = (
        f"{name} supports {sizes}, not {shown}: N is now {preset.native_n}, the preset's own."
        if preset.allowed_n is not None or n is None
        else f"{name} does not work at {shown}: N is now {preset.native_n}, the preset's own."
    )
    return PresetChoice(name, preset.config(seed=seed), note)


def matching_preset(config: Config) -> str | None:
    """The preset the config is (at its seed), if any: what ``--preset NAME`` gave.

    N is one of the preset's values: a config with every other field of a preset, at another
    board size, is not that preset (``showcase`` is 28 queens), and the form says ``custom``.
    """
    for name, preset in PRESETS.items():
        if config.n != preset.native_n:
            continue
        try:
            candidate = preset.config(config.n, seed=config.seed)
            if candidate.stagnation is None:
                # A stagnation limit over a preset without one (the dashboard's stop rule)
                # only says when to stop: it is still the preset's GA.
                candidate = candidate.replace(stagnation=config.stagnation)
            if candidate == config:
                return name
        except ValueError:
            continue
    return None


def preset_options(n: int | None = None) -> list[tuple[str, str]]:
    """``(label, name)`` of every preset (of those that fit ``n``, if given), in order."""
    return [
        (f"{name}: {preset.summary}", name)
        for name, preset in PRESETS.items()
        if n is None or preset.allowed_n is None or n in preset.allowed_n
    ]


class PresetSelect(Select[str]):
    """Every preset by name and summary; a choice posts :class:`PresetSelect.Chosen`."""

    DEFAULT_CSS = """
    PresetSelect {
        width: 1fr;
    }
    /* The list is wider than the form, one preset a line, so the summaries can be read. */
    PresetSelect > SelectOverlay {
        width: 78;
        text-wrap: nowrap;
        text-overflow: ellipsis;
    }
    """

    @dataclass
    class Chosen(Message):
        """The user picked a preset."""

        select: PresetSelect
        name: str

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(preset_options(), prompt=PROMPT, allow_blank=True, compact=True, id=id)
        self._shown: str | None = None

    def show_matching(self, name: str | None) -> None:
        """Show the preset the form now is (``None``: custom) without filling the form again."""
        if name == self._shown:
            return
        self._shown = name
        if name is None:
            self.clear()
        else:
            self.value = name

    def _watch_value(self, value: str | NoSelection) -> None:
        """The closed select shows the preset's name only: the list has room for summaries,
        the form's column does not, and a cut name is no use."""
        super()._watch_value(value)
        if isinstance(value, str):
            for current in self.query(SelectCurrent):
                current.update(value)

    @on(Select.Changed)
    def _chosen(self, event: Select.Changed) -> None:
        """Only a user's choice is news; the form's other selects never see this one's changes."""
        event.stop()
        if isinstance(event.value, str) and event.value != self._shown:
            self._shown = event.value
            self.post_message(self.Chosen(self, event.value))
