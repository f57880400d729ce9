"""Boards the tests of the pictures and of the screens both draw."""

from __future__ import annotations

import numpy as np

from tui.dashboard.pictures.board_pictures import Position


def permutation_position(rows: list[int]) -> Position:
    """Queen ``i`` in column ``i``, row ``rows[i]``: the permutation encoding."""
    return Position.of(np.asarray(rows, dtype=np.int64), len(rows), "permutation")
