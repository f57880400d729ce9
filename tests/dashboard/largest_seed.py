"""The longest seed the engine takes, and a recorded run of it: the status line shows it whole."""

from __future__ import annotations

from engine import Config

LARGEST_SEED = 2**62 - 1
"""The longest seed the engine takes: 19 digits."""


RECORDED = Config(n=12, population=20, seed=LARGEST_SEED, stop_when_solved=False, generations=12)
"""A run recorded to be replayed, with the longest seed."""
