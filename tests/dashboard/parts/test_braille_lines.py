"""The chart's lines: measured runs break only where unmeasured generations show."""

from __future__ import annotations

import numpy as np

from tui.dashboard.widgets.braille_lines import measured_runs


def test_measured_runs_break_only_where_unmeasured_generations_show() -> None:
    x = np.array([1, 2, 3, 4, 50, 51, 53, 54], dtype=np.float64)
    # 30 dot columns over 1..54: the jump 4 -> 50 spans many, 51 -> 53 the next one.
    assert measured_runs(x, (1.0, 54.0), 30).tolist() == [0, 0, 0, 0, 1, 1, 1, 1]
    # 100 dot columns: the generation missing between 51 and 53 shows too.
    assert measured_runs(x, (1.0, 54.0), 100).tolist() == [0, 0, 0, 0, 1, 1, 2, 2]
    # Thinned generations packed into few dot columns stay one line.
    thinned = np.arange(0, 8192, 2, dtype=np.float64)
    assert measured_runs(thinned, (0.0, 8190.0), 160).max() == 0
    # Neighbouring generations far apart on a wide chart are still neighbours.
    assert measured_runs(np.array([1.0, 2.0]), (1.0, 2.0), 400).tolist() == [0, 0]
