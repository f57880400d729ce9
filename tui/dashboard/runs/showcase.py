"""The run the dashboard opens on when no flags are given: one worth watching.

The team's default GA (conflict-directed mutation) solves N = 8 in one or two generations and
N = 64 in about 20: right for work, nothing to see. The showcase (the ``showcase`` preset) is the
textbook permutation GA instead (order crossover at 0.9, swap mutation, 100 individuals) on 28
queens: measured over seeds 0-19 it solved every time, in a median 126 generations. At the
opening speed limit of 5 generations a second that is about half a minute of a board losing its
attacked queens and a chart closing in on the maximum; `+` speeds it up, `f` changes anything.
"""

from __future__ import annotations

from typing import Final

from engine import Config
from engine.config.presets import PRESETS

SHOWCASE: Final[Config] = PRESETS["showcase"].config()
"""The opening config of a dashboard started without flags: the ``showcase`` preset, so the
form names it and the preset select can choose it again."""

SHOWCASE_SPEED: Final = 5.0
"""Generations per second the showcase opens with (one of the runner's speed limits)."""
