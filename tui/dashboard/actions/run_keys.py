"""Keys that drive the run: run/pause, one step, a new run, the speed limit."""

from __future__ import annotations

from tui.dashboard.dashboard_parts import DashboardParts


class RunKeys(DashboardParts):
    """``space``, ``n``, ``r``, ``+`` and ``-``."""

    def action_toggle_run(self) -> None:
        """Run or pause the current run."""
        if self.run_is_over():
            return
        if self.runner.running:
            self.runner.pause()
            self.recording.flush()
            self.run_state = "paused"
        else:
            self.runner.resume()
            self.run_state = "running"
        self._repaint(force=True)

    def action_step(self) -> None:
        """Pause, then step exactly one generation."""
        if self.run_is_over():
            return
        self.runner.step_once()
        self.run_state = "paused"
        self._repaint(force=True)

    def action_new_run(self) -> None:
        """Start a new run from the form, or point at what is wrong with it."""
        config = self.form_config()
        if config is None:
            self.action_focus_form()
            return
        if self._start(config, run=True):
            self.table.focus()
            self.body.set_class(False, "-form-open")

    def action_faster(self) -> None:
        """Raise the engine's speed limit one step."""
        self.runner.set_speed(self.runner.speed_index + 1)
        self._paint_status()

    def action_slower(self) -> None:
        """Lower the engine's speed limit one step (down to 1 generation per second)."""
        self.runner.set_speed(self.runner.speed_index - 1)
        self._paint_status()
