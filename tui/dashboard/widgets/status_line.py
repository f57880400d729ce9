"""One line that says where the run is: state, generation, fitness, seed, speed, evaluations.

The line never wraps: when the fields do not fit the width, the least needed fields are left
out first (elapsed time, diversity, mean, evaluations), then the labels are shortened, then
the speed goes too, so the state, the generation, the best fitness and the seed are always there.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from rich.text import Text
from textual.events import Resize
from textual.reactive import reactive
from textual.widgets import Static

from engine import Snapshot

STATES = ("idle", "running", "paused", "solved", "stopped", "error")
"""What the run is doing, as shown at the start of the line."""

DROP_ORDER: Final = ("elapsed", "div", "mean", "evals", "rate")
"""Fields left out, first to last, when the line does not fit even with short labels."""


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


@dataclass(frozen=True)
class Field:
    """One field of the line: a key, its label (long and short), its value and unit."""

    key: str
    label: str
    short_label: str
    value: str
    unit: str = ""
    short_unit: str = ""

    def text(self, *, short: bool) -> Text:
        """The field as styled text (two leading spaces)."""
        text = Text("  ")
        label = self.short_label if short else self.label
        unit = self.short_unit if short else self.unit
        if label:
            text.append(f"{label} ", style="dim")
        text.append(self.value, style="bold")
        if unit:
            text.append(f" {unit}" if not unit.startswith("/") else unit, style="dim")
        return text


class StatusLine(Static):
    """State, ``Gen``, best and mean fitness, diversity, speed, evaluations, elapsed, seed."""

    DEFAULT_CSS = """
    StatusLine {
        height: 1;
        text-wrap: nowrap;
        text-overflow: ellipsis;
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
        self._last: tuple[Snapshot | None, float, float | None, str, int | None] | None = None

    def watch_state(self, old: str, new: str) -> None:
        """Mirror the state as a CSS class."""
        self.remove_class(f"-{old}")
        self.add_class(f"-{new}")

    def on_resize(self, event: Resize) -> None:
        """Fit the line to its new width."""
        if self._last is not None:
            snapshot, rate, speed, state, seed = self._last
            self.show(snapshot, rate=rate, speed=speed, state=state, seed=seed)

    def show(
        self,
        snapshot: Snapshot | None,
        *,
        rate: float,
        speed: float | None,
        state: str,
        seed: int | None = None,
    ) -> None:
        """Rewrite the line.

        Args:
            snapshot: The latest snapshot (``None`` before the first run).
            rate: Measured generations per second.
            speed: The engine's speed limit (``None``: unlimited).
            state: One of :data:`STATES`.
            seed: The run's seed (drawn at random when the form had none).
        """
        self.state = state
        self._last = (snapshot, rate, speed, state, seed)
        width = self.content_region.width
        key = (
            id(snapshot),
            None if self.frozen_clock else round(rate),
            speed,
            state,
            self.stop_reason,
            seed,
            width,
            self.note,
            self.run_label,
        )
        if key == self._shown:
            return
        self._shown = key
        line = self.line(snapshot, rate=rate, speed=speed, state=state, seed=seed, width=width)
        # One row, always: a new text never changes the layout, so none is asked for.
        self.update(line, layout=False)

    def line(
        self,
        snapshot: Snapshot | None,
        *,
        rate: float,
        speed: float | None,
        state: str,
        seed: int | None,
        width: int,
    ) -> Text:
        """The line for a width (0: unknown, everything at full length)."""
        label = state.upper()
        full_label = label
        if state in ("stopped", "solved") and self.stop_reason not in (None, state):
            full_label = f"{label}: {self.stop_reason}"
        if self.note is not None:
            label = full_label = self.note
        if snapshot is None:
            text = Text(end="")
            text.append(f" {label} ", style="reverse bold")
            text.append("  no run yet: fill in the form and press r")
            return text
        fields = self._fields(snapshot, rate=rate, speed=speed, seed=seed)
        # Long labels for as long as leaving out the least needed fields makes room.
        attempts: list[tuple[str, bool, tuple[str, ...]]] = [
            (full_label, False, ()),
            (label, False, ()),
            (label, False, DROP_ORDER[:1]),
            (label, False, DROP_ORDER[:2]),
            (label, False, DROP_ORDER[:3]),
            (label, False, DROP_ORDER[:4]),
        ]
        attempts += [(label, True, DROP_ORDER[:count]) for count in range(4, len(DROP_ORDER) + 1)]
        for state_label, short, dropped in attempts:
            text = Text(end="")
            text.append(f" {state_label} ", style="reverse bold")
            for field in fields:
                if field.key not in dropped:
                    text.append_text(field.text(short=short))
            if width <= 0 or text.cell_len <= width:
                return text
        return text  # the narrowest try; Textual cuts it with an ellipsis

    def _fields(
        self, snapshot: Snapshot, *, rate: float, speed: float | None, seed: int | None
    ) -> list[Field]:
        stats = snapshot.stats
        clock = self.frozen_clock
        best = f"{fitness_text(stats.best_fitness)}/{fitness_text(snapshot.max_fitness)}"
        fields = [
            Field("gen", "Gen", "G", f"{snapshot.generation:,}"),
            Field("best", "best", "b", best),
            Field("mean", "mean", "m", fitness_text(stats.mean_fitness)),
            Field("div", "div", "d", f"{stats.entropy:.2f}"),
            Field(
                "rate",
                "",
                "",
                "--" if clock else f"{rate:,.0f}",
                f"gen/s ≤{speed_text(speed)}",
                f"/s≤{speed_text(speed)}",
            ),
            Field("evals", "evals", "e", f"{snapshot.evaluations:,}"),
            Field("elapsed", "", "", "--" if clock else f"{snapshot.elapsed:.2f}", "s", "s"),
        ]
        if seed is not None:
            fields.append(Field("seed", "seed", "seed", str(seed)))
        if self.run_label is not None:
            fields.append(Field("run", "", "", self.run_label))
        return fields
