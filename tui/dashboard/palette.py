"""The command palette (ctrl+p): every key's action, the presets, themes, a screenshot.

Ctrl+p is a plain control character, so it reaches the app over SSH. The commands are built
from the app's bindings (so a new key appears here by itself), the presets of
:data:`engine.presets.PRESETS` and the app's themes.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING

from textual.command import DiscoveryHit, Hit, Hits, Provider

from engine.presets import PRESETS
from tui.dashboard.screens.help import described

if TYPE_CHECKING:
    from tui.dashboard.app import QueensApp


@dataclass(frozen=True)
class PaletteCommand:
    """One line of the palette: its name, a line of help and what it does."""

    name: str
    help: str
    run: Callable[[], object]


def palette_commands(app: QueensApp) -> list[PaletteCommand]:
    """Every command the palette offers, in the order it lists them."""
    commands: list[PaletteCommand] = []
    for binding in described(app.BINDINGS):
        if binding.action in ("leave_form",):
            continue
        key = binding.key_display or app.get_key_display(binding)
        help_text = f"key {key}" + (f": {binding.tooltip}" if binding.tooltip else "")
        commands.append(
            PaletteCommand(binding.description, help_text, partial(app.run_action, binding.action))
        )
    commands.append(
        PaletteCommand(
            "Reproduce this run",
            "show (and copy) the queens solve command that reruns it",
            app.show_reproduce_command,
        )
    )
    commands.append(
        PaletteCommand(
            "Save screenshot",
            "an SVG of the screen, in the current directory",
            app.save_screenshot_here,
        )
    )
    for name, preset in PRESETS.items():
        commands.append(
            PaletteCommand(
                f"Preset {name}",
                f"fill the form: {preset.summary}",
                partial(app.choose_preset, name, run=False),
            )
        )
        commands.append(
            PaletteCommand(
                f"New run with preset {name}",
                f"fill the form and start: {preset.summary}",
                partial(app.choose_preset, name, run=True),
            )
        )
    for theme in sorted(app.available_themes):
        commands.append(
            PaletteCommand(
                f"Theme {theme}",
                "switch colours (kept for the next session)",
                partial(setattr, app, "theme", theme),
            )
        )
    return commands


class DashboardCommands(Provider):
    """The dashboard's own palette provider."""

    def _commands(self) -> list[PaletteCommand]:
        from tui.dashboard.app import QueensApp

        app = self.app
        return palette_commands(app) if isinstance(app, QueensApp) else []

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
