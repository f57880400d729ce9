"""Keys that move the cursor or change what a view shows: form, table, best, zoom, axes."""

from __future__ import annotations

from tui.dashboard.dashboard_parts import DashboardParts


class ViewKeys(DashboardParts):
    """``f``, ``t``, ``escape``, ``b``, ``z``, ``a`` and ``c``."""

    def action_focus_form(self) -> None:
        """Open the form (it may be collapsed) and put the cursor in it."""
        self.body.set_class(True, "-form-open")
        form = self.form
        target = form.first_invalid() or form.field_widget("n")
        self.call_after_refresh(target.focus)

    def action_leave_form(self) -> None:
        """Escape from the form: back to the table, collapsing the form if narrow."""
        if self.in_form():
            self.body.set_class(False, "-form-open")
            self.table.focus()

    def action_focus_table(self) -> None:
        """Put the cursor in the population table (enter inspects a row)."""
        self.body.set_class(False, "-form-open")
        self.table.focus()

    def action_back_to_best(self) -> None:
        """The board follows the best individual again."""
        self.inspected = None
        self.charts.set_class(False, "-inspecting")
        self.plotted = -1
        self._repaint(force=True)

    def action_zoom(self) -> None:
        """Switch a large board between its overview and a scrollable full-size view."""
        board = self.board
        if not board.overview and not board.zoomed:
            self.notify("The board fits: it is already at full size.", timeout=2)
            return
        board.zoomed = not board.zoomed
        if board.zoomed:
            board.focus()
        self._paint_board()

    def action_toggle_y_axis(self) -> None:
        """Chart fitness or conflicts (comparable across fitness shapes: 0 is solved)."""
        self.plot.toggle_metric()

    def action_toggle_x_axis(self) -> None:
        """Plot against generations or against evaluations."""
        self.x_axis = "evaluations" if self.x_axis == "generation" else "generation"
        self.plotted = -1
        self._paint_plot()
