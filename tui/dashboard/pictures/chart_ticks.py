"""Axis ticks for the charts: a few round, distinct values, and labels that tell them apart.

No Textual here. A tick is a multiple of a round step (1, 2 or 5 times a power of ten; whole
numbers when the quantity is whole, such as conflicts), and the axis runs from the multiple at
or below the lowest value to the one at or above the highest, so both ends are ticks.

Labels are as short as they can be while every tick reads differently: exact whole numbers with
thousands separators (``4,999,950``) when they fit, else short forms (``1.25k``, ``5G``) with
just enough digits, else offsets from one value shown once (``+5``, ``+10`` and
``0 = 4,999,949,990``): at ``N = 100,000`` the pairs fitness of a whole population lies within a
few dozen of five billion, where short forms all read ``5G``.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Final

STEP_FACTORS: Final = (1.0, 2.0, 2.5, 5.0)
"""A step is one of these times a power of ten (2.5 only for quantities that need not be
whole)."""
WIDEST_LABEL: Final = 9
"""Longest tick label by default (the chart's gutter)."""
TINIEST_STEP: Final = 1e-300
"""The smallest step sought: below it a power of ten underflows (to a subnormal, then to 0,
whose logarithm fails and whose multiples never grow), so a narrower range is drawn as if its
values were equal."""


@dataclass(frozen=True)
class Ticks:
    """An axis: its range, its ticks and their labels.

    Attributes:
        low: The axis' lowest value (the first tick).
        high: The axis' highest value (the last tick).
        values: The ticks, increasing, ``low`` and ``high`` included.
        labels: One label per tick, all different.
        offset: When not ``None``, the labels are differences from this value, which the chart
            shows once (see :func:`origin_text`).
    """

    low: float
    high: float
    values: tuple[float, ...]
    labels: tuple[str, ...]
    offset: float | None = None


def compact_number(value: float, digits: int = 3) -> str:
    """A number short enough for an axis: ``28``, ``27.5``, ``1.2k``, ``5G``.

    Args:
        value: The number.
        digits: Significant digits at most.
    """
    size = abs(value)
    for limit, suffix in ((1e12, "T"), (1e9, "G"), (1e6, "M"), (1e3, "k")):
        if size >= limit:
            return f"{value / limit:.{digits}g}{suffix}"
    if size < 1e-3:
        return "0" if value == 0 else f"{value:.1e}"
    return f"{value:.{digits}g}"


INDISTINCT: Final = 1e-4
"""Values whose spread is below this share of their size cannot be told apart on a chart
(pairs fitness at large N: within a few dozen of billions)."""


def indistinct(low: float, high: float) -> bool:
    """Whether values from ``low`` to ``high`` are too close, for their size, to tell apart:
    the spread is below :data:`INDISTINCT` of the largest magnitude."""
    size = max(abs(low), abs(high))
    return size > 0 and (high - low) < INDISTINCT * size


def origin_text(offset: float) -> str:
    """What the legend says of an offset axis: ``0 = 4,999,949,990``."""
    return f"0 = {whole_text(offset) if float(offset).is_integer() else f'{offset:.9g}'}"


def whole_text(value: float) -> str:
    """A whole number in full, with thousands separators: ``4,999,950``."""
    return f"{round(value):,}"


def nice_steps(smallest: float, *, whole: bool) -> Iterator[float]:
    """Round steps from ``smallest`` up: 1, 2, 2.5, 5 times powers of ten (whole steps of 1 at
    least, and no 2.5, when ``whole``)."""
    if whole:
        smallest = max(smallest, 1.0)
    power = 10.0 ** math.floor(math.log10(smallest))
    while True:
        for factor in STEP_FACTORS:
            step = factor * power
            if whole and step != round(step):
                continue
            if step >= smallest * (1 - 1e-12):
                yield float(round(step)) if whole else step
        power *= 10


def _bounds(low: float, high: float, step: float) -> tuple[int, int]:
    """The multiples of ``step`` at or below ``low`` and at or above ``high``."""
    first, last = math.floor(low / step), math.ceil(high / step)
    # Quotients that underflow or round (a value a hair below 0) must still be covered.
    first -= first * step > low
    last += last * step < high
    return first, last


def axis_ticks(
    low: float,
    high: float,
    most: int = 5,
    *,
    whole: bool = False,
    widest: int = WIDEST_LABEL,
) -> Ticks:
    """Round ticks covering ``low`` to ``high``: at most about ``most``, all different.

    Args:
        low: The lowest value to show.
        high: The highest value to show.
        most: Ticks wanted at most (2 at least); the axis may get one more when rounding its
            ends out leaves no better choice.
        whole: The quantity is whole (conflicts, pairs fitness): ticks are whole numbers.
        widest: Longest label wanted.
    """
    if not (math.isfinite(low) and math.isfinite(high)):
        low, high = 0.0, 1.0
    low, high = min(low, high), max(low, high)
    if whole:
        low, high = math.floor(low), math.ceil(high)
    if (high - low) / most < TINIEST_STEP:  # equal, or too close for a step to part them
        low, high = (low - 1, high + 1) if low != 0 else (0.0, 1.0)
    # The first step whose ticks are at most ``most`` (or, failing that a step further on, one
    # more than that), both ends rounded out.
    fallback: tuple[float, int, int] | None = None
    for tried, step in enumerate(nice_steps((high - low) / most, whole=whole)):
        first, last = _bounds(low, high, step)
        if last - first <= max(1, most - 1):
            break
        if fallback is None and last - first <= most:
            fallback, fell_at = (step, first, last), tried
        elif fallback is not None and tried > fell_at:
            step, first, last = fallback
            break
    counts = range(first, last + 1)
    values = tuple(float(count * step) for count in counts)
    labels, offset = tick_labels(counts, step, whole=whole, widest=widest)
    return Ticks(values[0], values[-1], values, labels, offset)


def tick_labels(
    counts: Sequence[int], step: float, *, whole: bool, widest: int = WIDEST_LABEL
) -> tuple[tuple[str, ...], float | None]:
    """Labels for the ticks ``count * step``, all different, and the offset they are from.

    Exact whole numbers if they fit in ``widest``, else short forms with just enough digits,
    else differences from the first tick (the offset, shown once by the chart).
    """
    values = [count * step for count in counts]
    if whole:
        exact = tuple(whole_text(value) for value in values)
        if max(map(len, exact)) <= widest:
            return exact, None
    for digits in range(3, 16):
        labels = tuple(compact_number(value, digits) for value in values)
        if max(map(len, labels)) > widest:
            break
        if len(set(labels)) == len(labels):
            return labels, None
    offset = values[0]
    differences = [(count - counts[0]) * step for count in counts]
    for digits in range(3, 16):
        labels = tuple(
            "0" if difference == 0 else "+" + compact_number(difference, digits)
            for difference in differences
        )
        if len(set(labels)) == len(labels):
            return labels, offset
    return tuple(f"+{difference!r}" for difference in differences), offset


@dataclass(frozen=True)
class Axis:
    """A left axis as drawn: its ticks, and the row of each label."""

    ticks: Ticks
    rows: dict[int, str]


def left_axis(low: float, high: float, rows: int, *, whole: bool, widest: int) -> Axis:
    """Round ticks for values from ``low`` to ``high`` on ``rows`` rows, each label on the row
    nearest its value (top row: the axis' highest tick)."""
    most = 2 if rows < 4 else 3 if rows < 9 else 5
    ticks = axis_ticks(low, high, most, whole=whole, widest=widest)
    span = max(1, rows - 1)
    at: dict[int, str] = {}
    for value, label in zip(ticks.values, ticks.labels, strict=True):
        row = round((ticks.high - value) / (ticks.high - ticks.low) * span)
        at.setdefault(min(rows - 1, max(0, row)), label)
    return Axis(ticks, at)
