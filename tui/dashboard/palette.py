"""The command palette (ctrl+p): every key's action, the presets, themes, a screenshot, a
label for the run.

Ctrl+p is a plain control character, so it reaches the app over SSH. The commands are built
from the main screen's bindings table (so a new key appears here by itself), the presets of
:data:`engine.config.presets.PRESETS` and the app's themes in which the dashboard is legible
(:mod:`tui.dashboard.theme_legibility`). The palette acts on the screen it was
opened over, through what :class:`CommandTarget` names: it knows no app or screen class.
Its prompt is ``>`` (:data:`PROMPT`): Textual's magnifying glass is an emoji that many
terminal fonts and browsers (over ``queens serve``) draw as an empty box, and it is not ASCII.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime
from functools import partial
from typing import Any, Final, Protocol, runtime_checkable

from textual.app import App
from textual.command import CommandPalette, DiscoveryHit, Hit, Hits, Provider, SearchIcon
from textual.dom import DOMNode

from engine.config.presets import PRESETS
from tui.dashboard.actions.bindings import MAIN_BINDINGS
from tui.dashboard.screens.help import described
from tui.dashboard.theme_legibility import offered_themes

PLUGIN_FIELDS: Final = ("selection", "crossover", "mutation", "survivor", "fitness")
"""The form's fields that take a plug-in operator."""

PROMPT: Final = ">"
"""The palette's prompt, before what is typed."""


class DashboardPalette(CommandPalette):
    """Textual's command palette with :data:`PROMPT` for its magnifying glass."""

    def on_mount(self) -> None:
        """Put the prompt in place of the icon."""
        self.query_one(SearchIcon).icon = PROMPT


class RunLabelling(Protocol):
    """What labels the run shown (the main screen's record keys)."""

    def ask_label(self) -> None:
        """Ask for the run's label and keep it in its record."""

    def save_figure(self) -> None:
        """Save the run's convergence as a figure (asks where)."""


class PluginReloading(Protocol):
    """What reloads the paused run's plug-ins (the main screen's plug-in keys)."""

    def reload(self) -> None:
        """Swap into the paused run each plug-in whose file changed since it was loaded."""


@runtime_checkable
class CommandTarget(Protocol):
    """What the palette's commands act on: the main screen."""

    record_keys: RunLabelling
    """Labels the run shown."""

    plugin_keys: PluginReloading
    """Reloads the paused run's plug-ins."""

    async def run_action(
        self, action: str, namespaces: Mapping[str, DOMNode] | None = None
    ) -> None:
        """Run one of the screen's key actions."""

    def run_command(self) -> str | None:
        """The command that reruns the run (``None``: no run yet)."""

    def choose_preset(self, name: str, *, run: bool) -> None:
        """Fill the form from a preset and, if asked, start a run."""

    def ask_plugin(self, field: str) -> None:
        """Ask for a plug-in operator (``file.py:function``) and choose it in the form."""


@dataclass(frozen=True)
class PaletteCommand:
    """One line of the palette: its name, a line of help and what it does."""

    name: str
    help: str
    run: Callable[[], object]


def palette_commands(target: CommandTarget, app: App[Any]) -> list[PaletteCommand]:
    """Every command the palette offers, in the order it lists them.

    Args:
        target: The screen the commands act on.
        app: The app (its key names and themes).
    """
    commands: list[PaletteCommand] = []
    for binding in described(MAIN_BINDINGS):
        if binding.action in ("leave_form",):
            continue
        key = binding.key_display or app.get_key_display(binding)
        help_text = f"key {key}" + (f": {binding.tooltip}" if binding.tooltip else "")
        commands.append(
            PaletteCommand(
                binding.description, help_text, partial(target.run_action, binding.action)
            )
        )
    commands.append(
        PaletteCommand(
            "Reproduce this run",
            "show (and copy) the queens solve command that reruns it",
            partial(show_reproduce_command, app, target.run_command),
        )
    )
    commands.append(
        PaletteCommand(
            "Label this run",
            "what queens runs calls it (kept in its record; asks for the words)",
            target.record_keys.ask_label,
        )
    )
    commands.append(
        PaletteCommand(
            "Save a figure of this run",
            "its conflicts and diversity against evaluations, SVG for a paper (asks where)",
            target.record_keys.save_figure,
        )
    )
    commands.append(
        PaletteCommand(
            "Save screenshot",
            "an SVG of the screen (asks where; in a browser, downloads it)",
            partial(save_screenshot_here, app),
        )
    )
    for name, preset in PRESETS.items():
        commands.append(
            PaletteCommand(
                f"Preset {name}",
                f"fill the form: {preset.summary}",
                partial(target.choose_preset, name, run=False),
            )
        )
        commands.append(
            PaletteCommand(
                f"New run with preset {name}",
                f"fill the form and start: {preset.summary}",
                partial(target.choose_preset, name, run=True),
            )
        )
    for field in PLUGIN_FIELDS:
        commands.append(
            PaletteCommand(
                f"Plug-in {field} from a file",
                f"your own {field}: a numpy function, file.py:function (checked, recorded)",
                partial(target.ask_plugin, field),
            )
        )
    commands.append(
        PaletteCommand(
            "Reload plug-ins",
            "the paused run takes each plug-in file changed since, checked, from its next "
            "generation on (kept in its record)",
            target.plugin_keys.reload,
        )
    )
    for theme in offered_themes(app.available_themes):
        commands.append(
            PaletteCommand(
                f"Theme {theme}",
                "switch colours (kept for the next session)",
                partial(setattr, app, "theme", theme),
            )
        )
    return commands


def show_reproduce_command(app: App[Any], run_command: Callable[[], str | None]) -> None:
    """Say (and copy, where the terminal allows) the command that reruns the run."""
    command = run_command()
    if command is None:
        app.notify("There is no run yet: press r for a new run.", timeout=3)
        return
    app.copy_to_clipboard(command)
    app.notify(command, title="Reruns this run (copied)", timeout=15)


def save_screenshot_here(app: App[Any]) -> None:
    """Save an SVG of the screen: the export screen asks where (in a browser: it downloads)."""
    from tui.dashboard.delivery import deliver_files
    from tui.dashboard.files.export_files import ExportFile
    from tui.dashboard.screen_picture import take_screen_picture

    stamp = datetime.now().strftime("%Y-%m-%d-%H%M%S")

    def deliver(svg: str) -> None:
        picture = ExportFile(f"queens-screen-{stamp}.svg", "the screen, SVG", svg)
        deliver_files(app, [picture], title="Screenshot")

    take_screen_picture(app, deliver)


class DashboardCommands(Provider):
    """The dashboard's own palette provider."""

    def _commands(self) -> list[PaletteCommand]:
        screen = self.screen
        return palette_commands(screen, self.app) if isinstance(screen, CommandTarget) else []

    async def discover(self) -> Hits:
        """Everything, before anything is typed."""
        for command in self._commands():
            yield DiscoveryHit(command.name, command.run, help=command.help)

    async def search(self, query: str) -> Hits:
        """The commands whose names match what is typed, best first."""
        matcher = self.matcher(query)
        for command in self._commands():
            score = matcher.match(command.name)
            if score > 0:
                yield Hit(score, matcher.highlight(command.name), command.run, help=command.help)
