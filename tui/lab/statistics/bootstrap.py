"""A percentile-bootstrap confidence interval of a median, seeded so a report reads the same
every time it is printed.

``resamples`` samples of the same size are drawn with replacement from the values (one
``rng.integers(0, n, (resamples, n))`` draw from ``numpy.random.default_rng(seed)``, as
``scipy.stats.bootstrap`` draws them), the median of each is taken, and the interval is the
2.5th and 97.5th percentiles of those medians (linear interpolation). With the same generator
``scipy.stats.bootstrap(..., method='percentile')`` gives the same interval.

Memory stays bounded on large rows: resamples are drawn in batches of at most
:data:`BATCH_ELEMENTS` values (one batch up to about 2,000 runs, as scipy draws them with no
``batch``; beyond, as scipy does with ``batch=`` that many resamples).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

import numpy as np

BOOTSTRAP_RESAMPLES: Final = 2000
"""Resamples per interval: enough for a stable 95% percentile interval, well under a second for
a sweep's rows."""

BOOTSTRAP_SEED: Final = 0
"""The seed of every interval's resampling: the same report each time."""

BATCH_ELEMENTS: Final = 1 << 22
"""Resampled values held at once at most (32 MiB of indices)."""

CONFIDENCE: Final = 0.95
"""The intervals' confidence level."""


@dataclass(frozen=True)
class Interval:
    """A confidence interval: its lower and upper ends."""

    low: float
    high: float


def resampling_batch(size: int, resamples: int) -> int:
    """Resamples drawn at a time for a sample of ``size``: all of them when they fit in
    :data:`BATCH_ELEMENTS`, else as many as fit (at least one)."""
    return max(1, min(resamples, BATCH_ELEMENTS // max(1, size)))


def bootstrap_median_interval(
    values: Sequence[float] | np.ndarray,
    resamples: int = BOOTSTRAP_RESAMPLES,
    seed: int = BOOTSTRAP_SEED,
    confidence: float = CONFIDENCE,
) -> Interval | None:
    """The percentile-bootstrap interval of the median of ``values``.

    Args:
        values: The sample (finite numbers).
        resamples: How many resamples to draw.
        seed: The seed of the resampling.
        confidence: The interval's confidence level, between 0 and 1.

    Returns:
        The interval, or ``None`` for an empty sample. One value gives a zero-width interval.

    Raises:
        ValueError: If ``resamples`` is below 1 or ``confidence`` is not between 0 and 1.
    """
    if resamples < 1:
        raise ValueError(f"resamples: {resamples!r} is not allowed; a whole number >= 1")
    if not 0 < confidence < 1:
        raise ValueError(f"confidence: {confidence!r} is not allowed; between 0 and 1")
    sample = np.asarray(values, dtype=np.float64)
    if sample.size == 0:
        return None
    rng = np.random.default_rng(seed)
    batch = resampling_batch(sample.size, resamples)
    medians = np.concatenate(
        [
            np.median(
                sample[rng.integers(0, sample.size, (min(batch, resamples - done), sample.size))],
                axis=-1,
            )
            for done in range(0, resamples, batch)
        ]
    )
    tail = (1 - confidence) / 2
    low, high = np.quantile(medians, [tail, 1 - tail])
    return Interval(float(low), float(high))
