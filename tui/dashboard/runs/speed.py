"""Speed limits: the generations per second the dashboard steps (or plays a record back) at.

No Textual here. A limit is a positive number of generations per second, or ``None`` for
unlimited. ``+`` and ``-`` move between the steps of :data:`SPEED_STEPS`; ``--speed`` (on
``queens``, ``queens tui`` and ``queens replay``) may open at any limit in between, and the
keys then go on from the nearest step above or below it. A preset may carry a speed of its
own (:data:`PRESET_SPEEDS`): the showcase is a demonstration, watched at 5 generations a
second, whether it opens without flags or as ``queens tui --preset showcase``.
"""

from __future__ import annotations

import math
from typing import Final

from tui.dashboard.runs.showcase import SHOWCASE_SPEED

SPEED_STEPS: Final[tuple[float | None, ...]] = (1.0, 5.0, 20.0, 100.0, None)
"""Generations per second the ``+``/``-`` keys choose from; ``None`` is unlimited."""

UNLIMITED_WORD: Final = "unlimited"
"""How ``--speed`` spells no limit."""

OPENING_SPEED: Final = SHOWCASE_SPEED
"""The speed of the dashboard opened without run flags: the showcase's."""

PRESET_SPEEDS: Final[dict[str, float]] = {"showcase": SHOWCASE_SPEED}
"""The speed a preset opens with; the others open unlimited (they are for work: the team's
default solves N = 64 in about 20 generations, nothing a limit would let anyone see)."""

REPLAY_SPEED: Final = 10.0
"""Generations per second a recorded run plays back at unless ``--speed`` says otherwise.

A record is replayed to see how the run unfolded, so play-back must be watchable: unlimited,
a record plays as fast as its generations can be recomputed (hundreds a second), a blur that
ends before the eye finds the board. At 10 a second each generation is on screen for 100 ms,
about the shortest in which a queen leaving an attacked square can still be followed, and the
chart (redrawn twice a second) grows five generations a redraw; the showcase's median run of
126 generations plays in under 15 seconds. ``+`` and ``-`` change it while it plays. A record
opened from the list (``l``) while the limit is unlimited plays at this speed too; the live run
left behind gets its own limit back."""


SPEED_ALLOWED: Final = (
    f"use a positive number of generations per second (e.g. 5 or 0.5) or {UNLIMITED_WORD}"
)
"""What a speed may be, as an error message says it."""


class SpeedError(ValueError):
    """A speed that is neither a positive number nor ``unlimited``.

    Attributes:
        value: The text given.
    """

    def __init__(self, value: str) -> None:
        self.value = value
        super().__init__(f"{value!r} is not allowed; {SPEED_ALLOWED}")


def parse_speed(text: str) -> float | None:
    """A speed as typed (``5``, ``0.5``, ``unlimited``): generations per second, or ``None``.

    Raises:
        SpeedError: If it is not a positive, finite number or ``unlimited``; the message names
            the value and what is allowed.
    """
    word = text.strip().lower()
    if word == UNLIMITED_WORD:
        return None
    try:
        value = float(word)
    except ValueError:
        value = math.nan
    if not math.isfinite(value) or value <= 0:
        raise SpeedError(text)
    return value


def preset_speed(name: str | None) -> float | None:
    """The speed preset ``name`` opens with (``None``: unlimited, also without a preset)."""
    return None if name is None else PRESET_SPEEDS.get(name)


def faster(limit: float | None) -> float | None:
    """The next step above ``limit`` (unlimited stays unlimited)."""
    if limit is None:
        return None
    for step in SPEED_STEPS:
        if step is None or step > limit:
            return step
    return None


def slower(limit: float | None) -> float | None:
    """The next step below ``limit``; below the slowest step a limit stays as it is."""
    below = [step for step in SPEED_STEPS if step is not None and (limit is None or step < limit)]
    return below[-1] if below else limit


def speed_flag_text(limit: float | None) -> str:
    """A limit as ``--speed`` takes it: ``5``, ``0.5`` or ``unlimited``."""
    return UNLIMITED_WORD if limit is None else f"{limit:g}"
