"""Keys that open another screen: every solution, the race, the help."""

from __future__ import annotations

from engine import Config
from tui.dashboard.dashboard_parts import DashboardParts
from tui.dashboard.screens import HelpScreen, RaceScreen, SolutionsScreen
from tui.dashboard.screens.help import described
from tui.dashboard.widgets import PopulationTable


class ScreenKeys(DashboardParts):
    """``s``, ``x`` and ``?``."""

    def _config_for_screen(self) -> Config | None:
        """The form's config for another screen, with the main run paused; or say what is wrong."""
        config = self.form_config()
        if config is not None:
            # The other screen's engine should not share the machine with a run out of sight.
            self.pause_run()
        return config

    def action_solutions(self) -> None:
        """Open the solutions screen: find every solution for the form's N and seed."""
        config = self._config_for_screen()
        if config is not None:
            self.push_screen(SolutionsScreen(config))

    def action_race(self) -> None:
        """Open the race screen: the form's GA against a preset, on the same N and seed."""
        config = self._config_for_screen()
        if config is not None:
            self.push_screen(RaceScreen(config, ascii=self.ascii))

    def action_help(self) -> None:
        """Show every key, generated from the bindings."""
        sections = [
            ("Everywhere", described(self.BINDINGS)),
            ("Population table", described(PopulationTable.BINDINGS)),
            ("Solutions screen (s)", described(SolutionsScreen.BINDINGS)),
            ("Race screen (x)", described(RaceScreen.BINDINGS)),
        ]
        notes = [("ctrl+p", "command palette: every action, presets, themes, screenshot")]
        command = self.run_command()
        if command is not None:
            notes.insert(0, ("This run", f"reruns bit for bit: {command}"))
        self.push_screen(HelpScreen(sections, notes))
