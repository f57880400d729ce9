"""Commands of the palette (ctrl+p) that have no key of their own."""

from __future__ import annotations

from tui.dashboard.dashboard_parts import DashboardParts
from tui.dashboard.reproduce import reproduce_command


class PaletteActions(DashboardParts):
    """Reproduce the run, save a screenshot, choose a preset (and run it)."""

    def run_command(self) -> str | None:
        """The ``queens solve`` command that reruns the current run (``None``: no run yet)."""
        algorithm = self.runner.algorithm
        return None if algorithm is None else reproduce_command(algorithm.config)

    def show_reproduce_command(self) -> None:
        """Say (and copy, where the terminal allows) the command that reruns this run."""
        command = self.run_command()
        if command is None:
            self.notify("There is no run yet: press r for a new run.", timeout=3)
            return
        self.copy_to_clipboard(command)
        self.notify(command, title="Reruns this run (copied)", timeout=15)

    def save_screenshot_here(self) -> None:
        """Save an SVG of the screen in the current directory (in a browser: download it)."""
        if self.is_web:
            self.deliver_screenshot()
            self.notify("The browser downloads it.", title="Screenshot", timeout=6)
            return
        try:
            path = self.save_screenshot()
        except OSError as error:
            self.notify(f"Could not save the screenshot: {error}", severity="error")
            return
        self.notify(path, title="Screenshot saved", timeout=6)

    def choose_preset(self, name: str, *, run: bool) -> None:
        """Fill the form from a preset (as its select does) and, if asked, start a run."""
        self.form.choose_preset(name)
        if run:
            self.action_new_run()
