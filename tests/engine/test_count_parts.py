"""A count in parts: the parts add up to OEIS, each part is what the steps count, and prefixes
that would give a wrong count are refused."""

from __future__ import annotations

import itertools
from typing import Final

import numpy as np
import pytest

from engine import ConfigError
from engine.solutions.backtracking import LAST_ROWS
from engine.solutions.exact import count_part, count_parts, count_steps
from engine.solutions.search_prefixes import check_prefixes, half_prefix_batches

ALL_SOLUTIONS: Final = (1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200, 73712)
"""OEIS A000170, N = 1, 2, ..."""


@pytest.mark.parametrize("n", range(1, 14))
def test_the_parts_add_up_to_every_solution(n: int) -> None:
    parts = count_parts(n)
    assert sum(count_part(n, part) for part in parts) == ALL_SOLUTIONS[n - 1]
    assert sum(part.shape[0] for part in parts) == next(count_steps(n)).prefixes


def test_each_part_is_what_a_step_counts() -> None:
    steps = list(count_steps(13))
    parts = count_parts(13)
    assert len(parts) == len(steps) - 1 > 1
    for part, (before, after) in zip(parts, itertools.pairwise(steps), strict=True):
        assert count_part(13, part) == after.solutions - before.solutions
        assert part.shape[0] == after.searched - before.searched


def test_a_part_cut_in_two_counts_the_same() -> None:
    """Prefixes are counted independently of the others in their part."""
    part = count_parts(12)[1]
    whole = count_part(12, part)
    assert whole > 0
    for cut in (1, part.shape[0] // 2, part.shape[0] - 1):
        assert count_part(12, part[:cut]) + count_part(12, part[cut:]) == whole
    one_by_one = [count_part(12, part[row : row + 1]) for row in range(part.shape[0])]
    assert sum(one_by_one) == whole


def test_a_part_sent_as_plain_lists_counts_the_same() -> None:
    part = count_parts(11)[0]
    again = np.array(part.tolist(), dtype=np.uint8)
    assert count_part(11, again) == count_part(11, part)


@pytest.mark.parametrize(
    ("prefixes", "words"),
    [
        ([list(range(10))], "place 1 to"),  # deeper than N - LAST_ROWS rows
        ([[0, 12]], "a column past"),
        ([[0, 0]], "attack each other"),
        ([[0, 1]], "attack each other"),
        ([[3, 2]], "attack each other"),
        ([[6, 0]], "not in the half searched"),  # first queen right of the middle
        ([[11, 5]], "not in the half searched"),  # the mirror image of [[0, 6]]
    ],
)
def test_prefixes_that_would_count_wrong_are_refused(prefixes: list[list[int]], words: str) -> None:
    array = np.array(prefixes, dtype=np.uint8)
    with pytest.raises(ValueError, match=words):
        check_prefixes(array, 12)
    with pytest.raises(ValueError, match=words):
        count_part(12, array)


def test_odd_boards_search_the_middle_column_with_the_second_queen_left() -> None:
    check_prefixes(np.array([[5, 0], [5, 3]], dtype=np.uint8), 11)
    for refused in ([[5, 7]], [[5]]):
        with pytest.raises(ValueError, match="not in the half searched"):
            check_prefixes(np.array(refused, dtype=np.uint8), 11)


def test_every_prefix_the_search_makes_passes_its_own_check() -> None:
    for n in range(4, 19):
        for part in half_prefix_batches(n):
            check_prefixes(part, n)
            assert part.shape[1] <= n - LAST_ROWS


def test_small_boards_have_one_empty_prefix() -> None:
    for n in (1, 2, 3):
        (part,) = count_parts(n)
        assert part.shape == (1, 0)
        assert count_part(n, part) == ALL_SOLUTIONS[n - 1]
        with pytest.raises(ValueError, match="the empty prefix"):
            count_part(n, np.zeros((1, 1), dtype=np.uint8))


def test_board_sizes_out_of_reach_are_refused_by_name() -> None:
    for n in (0, 33):
        with pytest.raises(ConfigError) as refused:
            count_parts(n)
        assert refused.value.field == "n"
        with pytest.raises(ConfigError):
            count_part(n, np.zeros((1, 0), dtype=np.uint8))
