"""One line that says where the run is: generation, evaluations, fitness, speed, state."""

from __future__ import annotations

from rich.text import Text
from textual.reactive import reactive
from textual.widgets import Static

from engine import Snapshot

NBSP = "\u00a0"
"""Joins a field's label and value so that a line only breaks between fields."""

STATES = ("idle", "running", "paused", "solved", "stopped", "error")
"""What the run is doing, as shown at the start of the line."""


def fitness_text(value: float) -> str:
    """A fitness as people read it: whole numbers whole, others to 4 significant digits, and
    never in scientific notation (fitness of N = 1000 runs to six figures)."""
    if float(value).is_integer():
        return f"{int(value):d}"
    if abs(value) >= 1000:
        return f"{value:.1f}"
    return f"{value:.4g}"


def speed_text(limit: float | None) -> str:
    """A speed limit as people read it."""
    return "∞" if limit is None else f"{limit:g}/s"


class StatusLine(Static):
    """``Gen <n>``, evaluations, best and mean fitness, diversity, gen/s, elapsed, state."""

    DEFAULT_CSS = """
    StatusLine {
        height: auto;
        max-height: 2;
    }
    """

    state: reactive[str] = reactive("idle")
    """One of :data:`STATES`; also set as a CSS class ``-<state>``."""

    def __init__(self, *, frozen_clock: bool = False, id: str | None = None) -> None:
        super().__init__(id=id)
        self.frozen_clock = frozen_clock
        """Hide the wall-clock figures (elapsed, gen/s), for reproducible screenshots."""
        self.stop_reason: str | None = None
        """Why the run ended, once it has."""
        self.note: str | None = None
        """Shown instead of the state (``REPLAY gen 37 / 412`` while travelling in time)."""
        self.run_label: str | None = None
        """The run's record (``run 12``), when it is recorded."""
        self._shown: tuple[object, ...] = ()

    def watch_state(self, old: str, new: str) -> None:
        """Mirror the state as a CSS class."""
        self.remove_class(f"-{old}")
        self.add_class(f"-{new}")

    def show(
        self,
        snapshot: Snapshot | None,
        *,
        rate: float,
        speed: float | None,
        state: str,
    ) -> None:
        """Rewrite the line.

        Args:
            snapshot: The latest snapshot (``None`` before the first run).
            rate: Measured generations per second.
            speed: The engine's speed limit (``None``: unlimited).
            state: One of :data:`STATES`.
        """
        self.state = state
        key = (
            id(snapshot),
            None if self.frozen_clock else round(rate),
            speed,
            state,
            self.stop_reason,
            self.note,
            self.run_label,
        )
        if key == self._shown:
            return
        self._shown = key
        # Fields wrap as wholes (no-break spaces inside them): one line when wide, two when not.
        text = Text(end="")
        label = state.upper()
        if state in ("stopped", "solved") and self.stop_reason not in (None, state):
            label = f"{label}: {self.stop_reason}"
        if self.note is not None:
            label = self.note
        text.append(f" {label} ".replace(" ", NBSP), style="reverse bold")
        if snapshot is None:
            text.append("  no run yet: fill in the form and press r")
            self.update(text, layout=False)
            return
        stats = snapshot.stats
        clock = self.frozen_clock

        def field(name: str, value: str, unit: str = "") -> None:
            text.append("  ")
            if name:
                text.append(f"{name}{NBSP}", style="dim")
            text.append(value, style="bold")
            if unit:
                text.append(f"{NBSP}{unit}".replace(" ", NBSP), style="dim")

        field("Gen", f"{snapshot.generation:,}")
        field("best", f"{fitness_text(stats.best_fitness)}/{fitness_text(snapshot.max_fitness)}")
        field("mean", fitness_text(stats.mean_fitness))
        field("div", f"{stats.entropy:.2f}")
        field("", "--" if clock else f"{rate:,.0f}", f"gen/s ≤{speed_text(speed)}")
        field("evals", f"{snapshot.evaluations:,}")
        field("", "--" if clock else f"{snapshot.elapsed:.2f}", "s")
        if self.run_label is not None:
            field("", self.run_label)
        self.update(text, layout=False)
