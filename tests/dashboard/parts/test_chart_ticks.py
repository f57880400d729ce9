"""Axis ticks: round, distinct, in range, whole where the quantity is whole, labels distinct."""

from __future__ import annotations

import math

from hypothesis import example, given, settings
from hypothesis import strategies as st

from tui.dashboard.pictures.chart_ticks import (
    TINIEST_STEP,
    WIDEST_LABEL,
    axis_ticks,
    compact_number,
    indistinct,
    origin_text,
)

values = st.floats(min_value=-1e12, max_value=1e12, allow_nan=False, allow_infinity=False)


@settings(max_examples=400, deadline=None)
@given(values, values, st.integers(min_value=2, max_value=8), st.booleans())
@example(0.0, 5e-324, 2, False)  # the span's step underflowed to 0: log10 failed
@example(-1e-310, 0.0, 8, False)
@example(1e-305, 2e-305, 3, False)
def test_ticks_are_distinct_cover_the_range_and_read_differently(
    first: float, second: float, most: int, whole: bool
) -> None:
    low, high = min(first, second), max(first, second)
    ticks = axis_ticks(low, high, most, whole=whole)
    assert len(ticks.values) >= 2
    assert len(ticks.values) <= most + 2
    assert list(ticks.values) == sorted(set(ticks.values))
    # The axis covers every value, its ends are ticks, and it is not much wider than asked.
    assert ticks.low == ticks.values[0] <= low and high <= ticks.values[-1] == ticks.high
    if high - low >= TINIEST_STEP * most:  # narrower: drawn as equal values, 1 either side
        assert ticks.high - ticks.low <= 6 * max(high - low, 1.0 if whole else 0.0)
    if whole:
        assert all(value == math.floor(value) for value in ticks.values)
    assert len(set(ticks.labels)) == len(ticks.labels) == len(ticks.values)
    if ticks.offset is None:
        assert max(map(len, ticks.labels)) <= WIDEST_LABEL


def test_pairs_fitness_at_n_100000_reads_as_offsets_from_one_value() -> None:
    # A memetic population at N = 100,000: within a few of 4,999,950,000.
    ticks = axis_ticks(4_999_949_991, 4_999_950_000, 5, whole=True)
    assert ticks.labels == ("0", "+5", "+10")
    assert ticks.offset == 4_999_949_990
    assert origin_text(ticks.offset) == "0 = 4,999,949,990"
    assert indistinct(4_999_949_991, 4_999_950_000)
    assert not indistinct(10, 28) and not indistinct(0, 0)


def test_whole_numbers_are_written_in_full_when_they_fit() -> None:
    assert axis_ticks(4_999_950, 4_999_951, 3, whole=True).labels == (
        "4,999,950",
        "4,999,951",
    )
    assert axis_ticks(0, 17.9, 5, whole=True).labels == ("0", "5", "10", "15", "20")
    assert axis_ticks(0, 3, 5, whole=True).labels == ("0", "1", "2", "3")
    # Nothing to show but one value: a whole unit around it, never -1 conflicts.
    assert axis_ticks(0, 0, 5, whole=True).labels == ("0", "1")


def test_fractions_get_round_steps() -> None:
    assert axis_ticks(0, 1, 5).labels == ("0", "0.25", "0.5", "0.75", "1")
    assert axis_ticks(27.2, 27.9, 3).values == (27.0, 27.5, 28.0)


def test_compact_numbers() -> None:
    assert compact_number(28) == "28"
    assert compact_number(27.5) == "27.5"
    assert compact_number(1234) == "1.23k"
    assert compact_number(5.0e9) == "5G"
    assert compact_number(0) == "0"
