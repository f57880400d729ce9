"""The chart's series of a run that never ends stays bounded, and keeps the newest generation."""

from __future__ import annotations

import random
import threading
from dataclasses import dataclass

from engine import GenerationStats, History
from tui.dashboard.runs.history_series import SERIES_LIMIT, HistorySeries

LIMIT = 512
"""A small limit, so that a short test passes it many times."""


@dataclass
class AtGeneration:
    """Enough of a snapshot for :meth:`HistorySeries.update`."""

    generation: int


def stats(generation: int) -> GenerationStats:
    return GenerationStats(
        generation,
        40 * generation,
        0.0,
        -1.0 * (generation % 7),
        -2.0,
        -3.0,
        1,
        2.0,
        0.5,
        float(generation),
    )


def test_a_long_run_keeps_at_most_the_limit_of_rows_with_the_newest_last() -> None:
    assert SERIES_LIMIT <= 8192
    history = History(limit=5000)
    series = HistorySeries(limit=LIMIT)
    seen = set()
    rng = random.Random(3)
    generation = -1
    while generation < 80_000:
        for _ in range(rng.randrange(1, 600)):
            generation += 1
            history.append(stats(generation))
        series.update(history, AtGeneration(generation))  # type: ignore[arg-type]
        assert len(series) <= LIMIT
        generations = series.columns["generation"]
        assert generations[-1] == generation
        assert all(int(g) % series.stride == 0 for g in generations[:-1])
        seen.add(series.version)
    columns = series.columns
    assert series.stride >= 128 and len(seen) > 100  # a new version at each change
    assert columns["generation"] == sorted(set(columns["generation"]))
    # Each row is its own generation's, whatever was thinned around it.
    assert columns["entropy"] == columns["generation"]
    assert columns["evaluations"] == [40 * g for g in columns["generation"]]


def test_a_series_read_while_the_run_appends_gets_each_generation_s_own_row() -> None:
    history = History(limit=1000)
    series = HistorySeries(limit=512)
    published = [0]
    history.append(stats(0))

    def run() -> None:
        for generation in range(1, 50_000):
            history.append(stats(generation))
            published[0] = generation

    thread = threading.Thread(target=run)
    thread.start()
    while thread.is_alive():
        series.update(history, AtGeneration(published[0]))  # type: ignore[arg-type]
        columns = series.columns
        assert columns["entropy"] == columns["generation"]
    thread.join()
