"""Slow, obviously correct reference implementations and fake random generators for the tests.

Everything here is plain Python over lists of (row, column) squares, written straight from the
definitions, so the vectorized engine can be compared with it on random small boards.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any, Final

import numpy as np

from engine.genomes.encodings import Encoding

DIRECTIONS: Final = ((-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1))
"""The 8 directions a queen looks in, as (row step, column step)."""

SOLUTION_8: Final = (0, 4, 7, 5, 2, 6, 1, 3)
"""A solution of the 8-queens puzzle: gene c is the row of the queen in column c."""


def squares_of(genome: Sequence[int], encoding: Encoding, n: int) -> list[tuple[int, int]]:
    """The (row, column) of each queen, decoded by hand from the encoding's definition."""
    if encoding.name == "squares":
        return [(int(g) // n, int(g) % n) for g in genome]
    return [(int(g), column) for column, g in enumerate(genome)]


def attacking(a: tuple[int, int], b: tuple[int, int]) -> int:
    """How many lines two queens share: row, column, diagonal, anti-diagonal (4 if stacked)."""
    (r1, c1), (r2, c2) = a, b
    return (r1 == r2) + (c1 == c2) + (r1 - c1 == r2 - c2) + (r1 + c1 == r2 + c2)


def brute_conflicts(queens: Sequence[tuple[int, int]]) -> int:
    """Attacking pairs, pair by pair: a pair counts once per line it shares."""
    return sum(
        attacking(queens[i], queens[j])
        for i in range(len(queens))
        for j in range(i + 1, len(queens))
    )


def brute_attacked(queens: Sequence[tuple[int, int]]) -> list[bool]:
    """For each queen, whether another queen shares any line with it."""
    return [
        any(attacking(q, other) for j, other in enumerate(queens) if j != i)
        for i, q in enumerate(queens)
    ]


def brute_directions(queens: Iterable[tuple[int, int]], n: int) -> int:
    """Sheppard's count by walking rays: per distinct square, directions that see any queen."""
    occupied = set(queens)
    total = 0
    for row, column in occupied:
        for dr, dc in DIRECTIONS:
            r, c = row + dr, column + dc
            while 0 <= r < n and 0 <= c < n:
                if (r, c) in occupied:
                    total += 1
                    break
                r, c = r + dr, c + dc
    return total


def brute_entropy(rows: np.ndarray) -> float:
    """Mean normalized Shannon entropy of the values in each column, from a Counter."""
    size, n = rows.shape
    if size < 2 or n < 2:
        return 0.0
    total = 0.0
    for column in range(n):
        for count in Counter(rows[:, column].tolist()).values():
            share = count / size
            total -= share * math.log(share)
    return total / (n * math.log(min(size, n)))


def is_permutation_rows(genomes: np.ndarray) -> bool:
    """Whether every row is a permutation of ``0..N-1``."""
    n = genomes.shape[1]
    expected = np.arange(n)
    return bool(np.all(np.sort(genomes, axis=1) == expected[None, :]))


class ScriptedRng:
    """A stand-in for ``numpy.random.Generator`` that returns scripted values, in order.

    Each call of ``integers`` or ``random`` pops the next scripted array for that method and
    checks that the requested shape matches, so a test pins exactly the choices it means to.
    """

    def __init__(
        self,
        integers: Sequence[Any] = (),
        random: Sequence[Any] = (),
    ) -> None:
        self._integers = [np.asarray(v, dtype=np.int64) for v in integers]
        self._random = [np.asarray(v, dtype=np.float64) for v in random]

    def integers(self, low: int, high: int | None = None, size: Any = None, **_: Any) -> Any:
        value = self._integers.pop(0)
        wanted = () if size is None else np.empty(size).shape
        assert value.shape == wanted, f"scripted integers {value.shape}, asked for {wanted}"
        top = high if high is not None else low
        bottom = low if high is not None else 0
        assert np.all((bottom <= value) & (value < top)), f"{value} outside [{bottom}, {top})"
        return value.copy()

    def random(self, size: Any = None, **_: Any) -> Any:
        value = self._random.pop(0)
        wanted = () if size is None else np.empty(size).shape
        assert value.shape == wanted, f"scripted random {value.shape}, asked for {wanted}"
        return value.copy()

    def exhausted(self) -> bool:
        """Whether every scripted value was used."""
        return not self._integers and not self._random


class RecordingRng:
    """Wraps a real generator and records what ``integers`` and ``random`` returned."""

    def __init__(self, seed: int) -> None:
        self._rng = np.random.default_rng(seed)
        self.calls: list[tuple[str, np.ndarray]] = []

    def integers(self, *args: Any, **kwargs: Any) -> Any:
        value = self._rng.integers(*args, **kwargs)
        self.calls.append(("integers", np.array(value, copy=True)))
        return value

    def random(self, *args: Any, **kwargs: Any) -> Any:
        value = self._rng.random(*args, **kwargs)
        self.calls.append(("random", np.array(value, copy=True)))
        return value

    def drawn(self, method: str) -> list[np.ndarray]:
        """The values one method returned, in call order."""
        return [value for name, value in self.calls if name == method]


SHEPPARD_FIELDS: Final = (
    "encoding",
    "fitness",
    "selection",
    "crossover",
    "crossover_rate",
    "children_per_couple",
    "mutation",
    "fallback",
    "unique",
    "survivor",
)
"""The fields that make a run Sheppard's GA (the rest are sizes and budgets)."""


def sheppard_operators() -> dict[str, Any]:
    """The ``sheppard`` preset's operators, to combine with a test's own small sizes."""
    from engine.config.presets import preset_named

    preset = preset_named("sheppard").config(8)
    return {name: getattr(preset, name) for name in SHEPPARD_FIELDS}
