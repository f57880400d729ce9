"""One line that says where the run is: state, generation, fitness, seed, speed, evaluations.

The line never wraps, and the seed is always on it, whole: when the fields do not fit the
width, the least needed are left out first (elapsed time, diversity, mean, evaluations), then
the labels are shortened, then the speed, the run's record, the best fitness and at last the
generation go too, so that the state and the seed fit even beside the open form at 80 columns.
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

DROP_ORDER: Final = ("elapsed", "div", "mean", "evals", "rate", "run", "best", "gen")
"""Fields left out, first to last, when the line does not fit; never the seed."""
LONG_LABELS_UNTIL: Final = 4
"""How many fields of :data:`DROP_ORDER` go before the labels are shortened."""


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


def shown_rate(rate: float, limit: float | None) -> float:
    """The measured generations per second, at most the speed limit.

    The engine never starts a generation before its tick, so it does not run faster than the
    limit; a rate above it is the measuring window catching one generation more than its
    length holds (``6 gen/s`` at a limit of 5/s), not the engine's speed.
    """
    return rate if limit is None else min(rate, limit)


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
        """Shown instead of the state (``REPLAY gen 37 / 412`` while travelling in time). It
        says the generation, so the ``Gen`` field is left out; where the line is narrow, its
        first word stands for it and ``Gen`` comes back."""
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
        if seed is None and snapshot is not None:
            seed = snapshot.seed  # a replayed run has no live algorithm; its snapshots say it
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
            if self.note is None:  # a note says what is coming (a record being opened)
                text.append("  no run yet: fill in the form and press r")
            return text
        fields = self._fields(snapshot, rate=rate, speed=speed, seed=seed)
        for state_label, short, dropped in self._attempts(full_label, label):
            text = Text(end="")
            text.append(f" {state_label} ", style="reverse bold")
            for field in fields:
                if field.key not in dropped:
                    text.append_text(field.text(short=short))
            if width <= 0 or text.cell_len <= width:
                return text
        return text  # the narrowest try; Textual cuts it with an ellipsis

    def _attempts(self, full_label: str, label: str) -> list[tuple[str, bool, tuple[str, ...]]]:
        """The ways to write the line, widest first: ``(state label, short labels, left out)``.

        Long labels for as long as leaving out the least needed fields makes room, then short
        ones while the rest of :data:`DROP_ORDER` goes. The reason a run stopped is kept while
        fields other than the generation and the best can go.
        """
        tries = [(False, DROP_ORDER[:count]) for count in range(LONG_LABELS_UNTIL + 1)]
        tries += [
            (True, DROP_ORDER[:count]) for count in range(LONG_LABELS_UNTIL, len(DROP_ORDER) + 1)
        ]
        if self.note is None:
            # Why the run stopped outranks every field but the generation and the best.
            why = [(full_label, short, left) for short, left in tries if "best" not in left]
            return why + [(label, short, left) for short, left in tries]
        # The note says the generation: Gen is left out while the note is shown whole.
        whole = [(self.note, short, ("gen", *left)) for short, left in tries if "gen" not in left]
        first_word = self.note.split()[0]
        return [*whole, (first_word, True, DROP_ORDER[:-1]), (first_word, True, DROP_ORDER)]

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
                "--" if clock else f"{shown_rate(rate, speed):,.0f}",
                "gen/s (no limit)" if speed is None else f"gen/s (limit {speed:g}/s)",
                "/s" if speed is None else f"/s (limit {speed:g})",
            ),
            Field("evals", "evals", "e", f"{snapshot.evaluations:,}"),
            Field("elapsed", "", "", "--" if clock else f"{snapshot.elapsed:.2f}", "s", "s"),
        ]
        if seed is not None:
            fields.append(Field("seed", "seed", "seed", str(seed)))
        if self.run_label is not None:
            fields.append(Field("run", "", "", self.run_label))
        return fields
